use prune_games::{ChildOrder, LineEval, NoisyEval, TicTacToe, UniformTree};
use prune_search::{Algorithm, Engine, Evaluator, FailMode, Game, SearchConfig, SearchLimits};
use prune_search::{SearchResult, TreeRecorder};

use super::*;

fn picture<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: SearchConfig,
    depth: u32,
    passes: Passes,
) -> (Picture, SearchResult<G::Move>) {
    let mut recorder = TreeRecorder::new();
    let result = Engine::new(config)
        .unwrap()
        .search_traced(game, eval, &SearchLimits::depth(depth), &mut recorder)
        .unwrap();
    let tree = recorder.into_tree();
    (Picture::new("test", &tree, &result.pv, passes), result)
}

fn textbook() -> UniformTree {
    UniformTree {
        width: 3,
        depth: 3,
        order: ChildOrder::Perfect,
        seed: 1,
    }
}

#[test]
fn perfect_ordering_draws_the_minimal_tree_and_the_rest_pruned() {
    let tree = textbook();
    let config = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft));
    let (picture, result) = picture(&tree.root(), &NoisyEval::default(), config, 3, Passes::All);
    assert_eq!(picture.visited() as u64, result.stats.total.nodes);
    // Knuth and Moore: 3^2 + 3^1 - 1 = 11 leaves.
    let leaves = picture.passes[0]
        .shapes
        .iter()
        .filter(|s| s.visited().is_some_and(|v| v.end == NodeEnd::Terminal))
        .count();
    assert_eq!(leaves, 11);
    // The other 27 - 11 leaves lie below the pruned moves: a move pruned at ply p hides
    // 3^(3 - p) leaves.
    let placed = layout(&picture.passes[0]);
    let hidden: u32 = picture.passes[0]
        .shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.kind, ShapeKind::Pruned))
        .map(|(i, _)| 3u32.pow(3 - placed.row[i] as u32))
        .sum();
    assert_eq!(hidden, 27 - 11);
    let pruned = picture.passes[0]
        .shapes
        .iter()
        .filter(|s| matches!(s.kind, ShapeKind::Pruned))
        .count();
    assert_eq!(pruned, picture.pruned);
    assert!(pruned > 0);
    // Every cut node has one child marked as the cause, whose value crossed the window: at
    // least beta under a MAX node, at most alpha under a MIN node (MAX's view).
    let shapes = &picture.passes[0].shapes;
    let mut cuts = 0;
    for s in shapes {
        let Some(v) = s.visited().filter(|v| v.cutoff.is_some()) else {
            assert!(!s.children.iter().any(|&c| shapes[c].caused_cutoff));
            continue;
        };
        cuts += 1;
        let (alpha, beta) = v.window.unwrap_or((-Score::INFINITY, Score::INFINITY));
        let causes: Vec<&Shape> = s
            .children
            .iter()
            .map(|&c| &shapes[c])
            .filter(|c| c.caused_cutoff)
            .collect();
        assert_eq!(causes.len(), 1);
        let value = causes[0].visited().unwrap().value.score;
        if s.max {
            assert!(value >= beta, "{value} against beta {beta}");
        } else {
            assert!(value <= alpha, "{value} against alpha {alpha}");
        }
    }
    assert!(cuts > 0);
    // The principal variation is marked from the root to a leaf.
    assert_eq!(shapes.iter().filter(|s| s.pv).count(), 4);
}

#[test]
fn every_format_draws_every_node() {
    let game: TicTacToe = "XO./.X./O..".parse().unwrap();
    for algorithm in ["minimax", "alphabeta", "negascout", "scout", "mtdf"] {
        let mut config = SearchConfig::new(algorithm.parse().unwrap());
        if algorithm == "mtdf" {
            config.transposition_table = Some(prune_search::TtConfig { size_mib: 1 });
            config.iterative_deepening = true;
        }
        let (picture, result) = picture(&game, &LineEval, config, 4, Passes::All);
        let nodes = result.stats.total.nodes as usize;
        assert_eq!(picture.visited(), nodes, "{algorithm}");
        let pictures = [picture];

        let svg = render(&pictures, TreeFormat::Svg);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let drawn = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") || n.has_tag_name("ellipse"))
            .count();
        assert_eq!(
            drawn,
            nodes + 1,
            "{algorithm}: one shape per node, and the background"
        );

        let text = render(&pictures, TreeFormat::Text);
        let lines = text
            .lines()
            .filter(|l| l.contains(" MAX ") || l.contains(" MIN ") || l.starts_with("MAX "))
            .count();
        assert_eq!(lines, nodes, "{algorithm}: one line per node");

        let dot = render(&pictures, TreeFormat::Dot);
        assert_eq!(dot.matches('{').count(), dot.matches('}').count());
        let shapes = dot.matches("shape=box").count() + dot.matches("shape=ellipse").count();
        assert_eq!(shapes, nodes, "{algorithm}");
        assert_eq!(
            dot.matches(" -> ").count(),
            pictures[0].shapes() - pictures[0].passes.len()
        );
    }
}

#[test]
fn layout_keeps_shapes_apart_and_parents_over_children() {
    let tree = UniformTree {
        width: 3,
        depth: 4,
        order: ChildOrder::Random,
        seed: 5,
    };
    let config = SearchConfig::new(Algorithm::NegaScout);
    let (picture, _) = picture(&tree.root(), &NoisyEval::default(), config, 4, Passes::All);
    let pass = &picture.passes[0];
    let placed = layout(pass);
    for (i, shape) in pass.shapes.iter().enumerate() {
        for &c in &shape.children {
            assert_eq!(placed.row[c], placed.row[i] + 1);
        }
        if let (Some(&first), Some(&last)) = (shape.children.first(), shape.children.last()) {
            assert!(placed.x[first] <= placed.x[i] && placed.x[i] <= placed.x[last]);
        }
    }
    for row in 0..placed.rows {
        let mut xs: Vec<f64> = (0..pass.shapes.len())
            .filter(|&i| placed.row[i] == row)
            .map(|i| placed.x[i])
            .collect();
        xs.sort_by(f64::total_cmp);
        for pair in xs.windows(2) {
            assert!(pair[1] - pair[0] >= 0.6 - 1e-9, "row {row}: {pair:?}");
        }
    }
    assert!(placed.x.iter().all(|&x| x > 0.0 && x < placed.width));
}

#[test]
fn last_pass_only_draws_one_tree() {
    let tree = textbook();
    let mut config = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft));
    config.iterative_deepening = true;
    let (all, _) = picture(&tree.root(), &NoisyEval::default(), config, 3, Passes::All);
    let (last, _) = picture(&tree.root(), &NoisyEval::default(), config, 3, Passes::Last);
    assert_eq!(all.passes.len(), 3);
    assert_eq!(last.passes.len(), 1);
    assert_eq!(last.passes[0], all.passes[2]);
    assert_eq!(last.nodes, all.nodes);
}

#[test]
fn formats_parse() {
    assert_eq!("SVG".parse(), Ok(TreeFormat::Svg));
    assert_eq!("gv".parse(), Ok(TreeFormat::Dot));
    assert_eq!("txt".parse(), Ok(TreeFormat::Text));
    assert!("png"
        .parse::<TreeFormat>()
        .unwrap_err()
        .to_string()
        .contains("png"));
}
