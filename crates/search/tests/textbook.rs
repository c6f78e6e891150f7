//! The textbook forms ([`prune_search::textbook`]) are the engine's algorithms: with every
//! enhancement off, the engine and the textbook form of each algorithm enter the same nodes in
//! the same order (the same move from the same parent at the same ply and depth, with the same
//! window where the textbook form has one), count the same nodes, and return the same value
//! and best move — on thousands of random trees, on uniform trees, and on tic-tac-toe to the
//! end of the game.

use prune_games::UniformTree;
use prune_games::{mix, ChildOrder, LineEval, NoisyEval, RandomEval, RandomTree, TicTacToe};
use prune_search::textbook::{self, Found, Memory, Visit, Walk};
use prune_search::{Algorithm, Engine, Entered, Evaluator, FailMode, Game, NodeEnd, Score};
use prune_search::{SearchConfig, SearchLimits, SearchTracer, TranspositionTable};

/// A node as either side entered it: `window` is `None` where the textbook form has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step<M> {
    ply: usize,
    mv: Option<M>,
    depth: u32,
    window: Option<(Score, Score)>,
}

impl<M: PartialEq> Step<M> {
    /// The same node entered the same way (windows compared where both have one).
    fn matches(&self, other: &Step<M>) -> bool {
        let windows = match (self.window, other.window) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        self.ply == other.ply && self.mv == other.mv && self.depth == other.depth && windows
    }
}

/// One search: what it returned and the nodes it entered, in order.
#[derive(Debug)]
struct Run<M> {
    value: Score,
    best_move: Option<M>,
    nodes: u64,
    steps: Vec<Step<M>>,
}

/// Keeps every node the engine enters.
struct Steps<M>(Vec<Step<M>>);

impl<M: Copy> SearchTracer<M> for Steps<M> {
    fn enter(&mut self, node: &Entered<M>) {
        assert!(!node.ordering, "a plain search has no ordering searches");
        self.0.push(Step {
            ply: node.ply,
            mv: node.mv,
            depth: node.depth,
            window: Some((node.alpha, node.beta)),
        });
    }

    fn leave(&mut self, _: Score, _: NodeEnd, _: &[M]) {}
}

/// The engine's plain configuration of `algorithm`: no enhancement (MTD(f) has the table it
/// needs, of the default size).
fn plain(algorithm: Algorithm) -> SearchConfig {
    let config = SearchConfig::new(algorithm);
    assert!(!config.iterative_deepening && config.aspiration.is_none());
    assert!(!config.static_ordering && !config.history && config.killers.is_none());
    assert!(!config.staged_killers && !config.refutation && config.shallow_ordering.is_none());
    assert_eq!(
        config.transposition_table.is_some(),
        algorithm == Algorithm::MtdF
    );
    config
}

/// The engine's search of `game` with `config`, `depth` plies deep, traced.
fn engine_run<G: Game, E: Evaluator<G>>(
    config: &SearchConfig,
    game: &G,
    eval: &E,
    depth: u32,
) -> Run<G::Move> {
    let mut engine = Engine::new(*config).unwrap();
    let mut steps = Steps(Vec::new());
    let result = engine
        .search_traced(game, eval, &SearchLimits::depth(depth), &mut steps)
        .unwrap();
    Run {
        value: result.score,
        best_move: result.best_move,
        nodes: result.stats.total.nodes,
        steps: steps.0,
    }
}

/// The textbook form's search of `game`, `depth` plies deep, and (for MTD(f)) the positions
/// its memory holds at the end.
fn textbook_run<G: Game, E: Evaluator<G>>(
    algorithm: Algorithm,
    game: &G,
    eval: &E,
    depth: u32,
) -> (Run<G::Move>, Vec<u64>) {
    let mut steps = Vec::new();
    let mut record = |v: &Visit<G::Move>| {
        steps.push(Step {
            ply: v.ply,
            mv: v.mv,
            depth: v.depth,
            window: v.window,
        })
    };
    let mut walk = Walk::new(eval).with_visitor(&mut record);
    let mut memory = Memory::new();
    let (inf, w) = (Score::INFINITY, &mut walk);
    let found: Found<G::Move> = match algorithm {
        Algorithm::Minimax => textbook::minimax(game, depth, w),
        Algorithm::Negamax => textbook::negamax(game, depth, w),
        Algorithm::AlphaBeta(FailMode::Hard) => textbook::alpha_beta(game, depth, -inf, inf, w),
        Algorithm::AlphaBeta(FailMode::Soft) => {
            textbook::alpha_beta_soft(game, depth, -inf, inf, w)
        }
        Algorithm::Scout => textbook::scout(game, depth, w),
        Algorithm::NegaScout => textbook::negascout(game, depth, -inf, inf, w),
        Algorithm::MtdF => {
            // The engine's first guess without iterative deepening: the static evaluation.
            let guess = game.outcome().unwrap_or_else(|| eval.evaluate(game));
            textbook::mtdf(game, depth, guess, &mut memory, w)
        }
    };
    let nodes = walk.nodes();
    let run = Run {
        value: found.value,
        best_move: found.best_move,
        nodes,
        steps,
    };
    (run, memory.hashes().collect())
}

/// Where two walks part: the index of the first node that differs (or the length of the
/// shorter walk when one is a prefix of the other); `None` if they are the same walk.
fn first_difference<M: PartialEq>(a: &[Step<M>], b: &[Step<M>]) -> Option<usize> {
    let common = a.iter().zip(b).take_while(|(x, y)| x.matches(y)).count();
    (common < a.len() || common < b.len()).then_some(common)
}

/// How many of `hashes` a table of `size_mib` MiB loses when they are all stored in it: those
/// pushed out of their slot by another position (the textbook's memory, a hash map, loses
/// none).
fn lost_in_table(hashes: &[u64], size_mib: usize) -> usize {
    let table = TranspositionTable::<u32>::new(size_mib).unwrap();
    for &h in hashes {
        table.store(h, 1, Score::DRAW, Score::DRAW, None);
    }
    hashes.iter().filter(|&&h| table.probe(h).is_none()).count()
}

/// Compares the engine searching with `config` (the plain configuration of its algorithm,
/// perhaps with another table size) and the textbook form of that algorithm on `game` searched
/// `depth` plies deep; panics, saying where, if they differ.
fn compare<G: Game, E: Evaluator<G>>(
    config: &SearchConfig,
    game: &G,
    eval: &E,
    depth: u32,
    what: &str,
) {
    let algorithm = config.algorithm;
    let engine = engine_run(config, game, eval, depth);
    let (book, stored) = textbook_run(algorithm, game, eval, depth);
    let context = format!("{algorithm} depth {depth} {what}");
    assert_eq!(engine.value, book.value, "{context}: value");
    assert_eq!(
        engine.nodes,
        engine.steps.len() as u64,
        "{context}: traced nodes"
    );
    assert_eq!(
        book.nodes,
        book.steps.len() as u64,
        "{context}: visited nodes"
    );
    if let Some(at) = first_difference(&engine.steps, &book.steps) {
        let lost = match config.transposition_table {
            Some(tt) => lost_in_table(&stored, tt.size_mib),
            None => 0,
        };
        panic!(
            "{context}: the walks part at node {at} of {} (engine) and {} (textbook):\n\
             engine   {:?}\ntextbook {:?}\n\
             ({lost} of the {} positions stored lose their slot in the engine's table)",
            engine.steps.len(),
            book.steps.len(),
            engine.steps.get(at),
            book.steps.get(at),
            stored.len(),
        );
    }
    assert_eq!(engine.nodes, book.nodes, "{context}: nodes");
    assert_eq!(engine.best_move, book.best_move, "{context}: best move");
}

/// A random tree of the shape `seed` picks (as in `tests/differential.rs`) and a search depth:
/// the leaves are sometimes all above the horizon, sometimes all at it, usually mixed.
fn random_tree(seed: u64) -> (RandomTree, u32) {
    let mut tree = RandomTree::new(seed);
    tree.max_width = 1 + (seed % 5) as u32;
    tree.max_depth = 1 + (seed / 5 % 7) as u32;
    if seed.is_multiple_of(3) {
        tree.states = Some(2 + seed % 6);
    }
    let depth = 1 + (mix(seed, 3) % u64::from(tree.max_depth + 1)) as u32;
    (tree, depth)
}

#[test]
fn every_textbook_form_walks_the_engines_random_trees_node_for_node() {
    for algorithm in Algorithm::ALL {
        let config = plain(algorithm);
        for seed in 0..3000 {
            let (tree, depth) = random_tree(seed);
            compare(
                &config,
                &tree.root(),
                &RandomEval,
                depth,
                &format!("{tree:?}"),
            );
        }
    }
}

#[test]
fn every_textbook_form_walks_the_engines_uniform_trees_node_for_node() {
    let orders = [ChildOrder::Perfect, ChildOrder::Worst, ChildOrder::Random];
    for algorithm in Algorithm::ALL {
        let config = plain(algorithm);
        for (width, depth) in [(2, 6), (3, 4), (4, 3), (5, 3)] {
            for (k, &order) in orders.iter().enumerate() {
                let spec = UniformTree {
                    width,
                    depth,
                    order,
                    seed: 11 + k as u64,
                };
                for search_depth in [depth - 1, depth] {
                    let (root, eval) = (spec.root(), NoisyEval::default());
                    compare(&config, &root, &eval, search_depth, &format!("{spec:?}"));
                }
            }
        }
    }
}

/// Full tic-tac-toe, every algorithm. MTD(f)'s engine gets a table of 64 MiB rather than its
/// default 16 MiB: in the default table a few of the positions MTD(f) stores share a slot, so
/// the engine forgets bounds the textbook's memory keeps (see the next test).
#[test]
fn every_textbook_form_walks_the_engines_tic_tac_toe_to_the_end_of_the_game() {
    for algorithm in Algorithm::ALL {
        let mut config = plain(algorithm);
        if let Some(tt) = config.transposition_table.as_mut() {
            tt.size_mib = 64;
        }
        compare(&config, &TicTacToe::new(), &LineEval, 9, "tic-tac-toe");
    }
}

/// With its default table of 16 MiB (one entry per slot), the engine's MTD(f) on full
/// tic-tac-toe forgets some bounds: 3 of the 1,964 positions stored lose their slot to another
/// position, and the engine's walk parts from the textbook's (4,372 nodes against 4,369). The
/// value and best move are the same, and a walk that parts is explained by such lost slots.
#[test]
fn mtdf_with_the_default_table_parts_from_the_textbook_only_where_positions_lose_their_slot() {
    let config = plain(Algorithm::MtdF);
    let size = config.transposition_table.unwrap().size_mib;
    let game = TicTacToe::new();
    let engine = engine_run(&config, &game, &LineEval, 9);
    let (book, stored) = textbook_run(Algorithm::MtdF, &game, &LineEval, 9);
    assert_eq!(engine.value, book.value);
    assert_eq!(engine.best_move, book.best_move);
    if first_difference(&engine.steps, &book.steps).is_some() {
        assert!(lost_in_table(&stored, size) > 0);
    }
}

#[test]
fn every_textbook_form_walks_the_engines_tic_tac_toe_positions_to_a_horizon() {
    for seed in 0..100u64 {
        let mut game = TicTacToe::new();
        for ply in 0..1 + mix(seed, 1) % 4 {
            let moves = game.legal_moves();
            game = game.play(moves[(mix(seed, ply + 10) % moves.len() as u64) as usize]);
        }
        if game.outcome().is_some() {
            continue;
        }
        let depth = 1 + (mix(seed, 2) % 6) as u32;
        for algorithm in Algorithm::ALL {
            compare(
                &plain(algorithm),
                &game,
                &LineEval,
                depth,
                &format!("\n{game}"),
            );
        }
    }
}

/// The comparison is not blind: walks that differ are told apart, where they part.
#[test]
fn the_comparison_tells_a_pruned_walk_from_a_full_one() {
    let spec = UniformTree {
        width: 3,
        depth: 3,
        order: ChildOrder::Perfect,
        seed: 5,
    };
    let root = spec.root();
    let eval = NoisyEval::default();
    let config = plain(Algorithm::AlphaBeta(FailMode::Soft));
    let pruned = engine_run(&config, &root, &eval, 3);
    let (full, _) = textbook_run(Algorithm::Negamax, &root, &eval, 3);
    assert!(pruned.nodes < full.nodes);
    // Both search the first move's subtree whole, then alpha-beta cuts.
    let at = first_difference(&pruned.steps, &full.steps).expect("the walks differ");
    assert!(at > 4 && at < pruned.steps.len(), "{at}");
    assert_eq!(first_difference(&full.steps, &full.steps), None);
    // A different window on the same node is a difference too.
    let mut moved = pruned.steps.clone();
    moved[1].window = Some((Score::DRAW, Score::DRAW.next()));
    assert_eq!(first_difference(&pruned.steps, &moved), Some(1));
}
