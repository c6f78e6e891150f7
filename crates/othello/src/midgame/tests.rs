use prune_search::rng::{Rng, XorShift64};
use prune_search::{search, Algorithm, FailMode, Game, SearchConfig, SearchLimits};

use super::*;

/// Positions of pseudo-random games, `per_game` from each at random plies (from the opening to
/// the last moves, passes included).
fn positions(games: usize, per_game: usize, seed: u64) -> Vec<Position> {
    let mut rng = XorShift64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut line = vec![Position::START];
        let mut position = Position::START;
        while !position.is_game_over() {
            let moves = position.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            position = position.play(mv).unwrap();
            line.push(position);
        }
        line.pop();
        for _ in 0..per_game {
            out.push(line[rng.below(line.len() as u64) as usize]);
        }
    }
    out
}

/// The generic alpha-beta search's value of `position` at `depth` (no table: the minimax
/// value of that depth).
fn generic_value(position: &Position, eval: &OthelloEval, depth: u32) -> Score {
    let config = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft));
    search(position, eval, &config, &SearchLimits::depth(depth))
        .unwrap()
        .score
}

#[test]
fn fixed_depth_values_equal_the_generic_search() {
    let evals = [OthelloEval::default(), OthelloEval::Hand];
    let mut fast: Vec<MidgameSearch> = evals
        .iter()
        .map(|e| {
            let mut s = MidgameSearch::new(4).unwrap();
            s.set_eval(e.clone());
            s
        })
        .collect();
    let mut checked = 0;
    for (i, position) in positions(60, 6, 11).iter().enumerate() {
        let e = i % 2;
        let depth = 1 + (i as u32 / 2) % 5;
        let r = fast[e].search(position, &SearchLimits::depth(depth));
        assert_eq!(
            r.score,
            generic_value(position, &evals[e], depth),
            "{position} at depth {depth} with {}",
            evals[e].name()
        );
        assert!(position.is_legal(r.best_move.unwrap()));
        // Every depth was searched, unless the game's end was reached everywhere before.
        assert!(
            r.depth == depth || (r.exhausted && r.depth < depth),
            "{r:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 360);
}

#[test]
fn deeper_searches_near_the_end_equal_the_generic_search() {
    // Few empties: the searches reach finished games and passes.
    let eval = OthelloEval::default();
    let mut fast = MidgameSearch::new(4).unwrap();
    let mut checked = 0;
    for position in positions(40, 8, 5) {
        if position.empty_count() > 12 {
            continue;
        }
        let depth = 6 + position.empty_count() % 3;
        let r = fast.search(&position, &SearchLimits::depth(depth));
        assert_eq!(
            r.score,
            generic_value(&position, &eval, depth),
            "{position}"
        );
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn every_instruction_set_searches_the_same_tree() {
    let position = positions(1, 1, 3)[0];
    let mut counts = Vec::new();
    for isa in <Isa as prune_search::Named>::ALL {
        let mut fast = MidgameSearch::new(4).unwrap();
        if !fast.set_isa(*isa) {
            continue;
        }
        let r = fast.search(&Position::START, &SearchLimits::depth(7));
        let s = fast.search(&position, &SearchLimits::depth(6));
        counts.push((r.score, r.stats.total, s.score, s.stats.total));
    }
    assert!(!counts.is_empty());
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
}

#[test]
fn a_node_limit_stops_the_search_with_a_legal_move() {
    let mut fast = MidgameSearch::new(4).unwrap();
    let limits = SearchLimits {
        depth: None,
        nodes: Some(20_000),
        time: None,
    };
    let r = fast.search(&Position::START, &limits);
    assert!(r.interrupted);
    assert!(r.depth >= 1);
    assert!(Position::START.is_legal(r.best_move.unwrap()));
    // The budget is checked at every interior node once it is near.
    assert!(r.stats.total.nodes < 20_100, "{}", r.stats.total.nodes);
}

#[test]
fn a_finished_game_and_a_pass() {
    let mut fast = MidgameSearch::new(1).unwrap();
    // A full board: black 40, white 24.
    let full: Position = format!("{}{} X", "X".repeat(40), "O".repeat(24))
        .parse()
        .unwrap();
    let r = fast.search(&full, &SearchLimits::depth(3));
    assert_eq!(r.score, Score::exact(16));
    assert_eq!(r.best_move, None);
    // Black has no move but white has: a1 (taking b1 between a1 and c1).
    let pass: Position = format!("-XO{} X", "X".repeat(61)).parse().unwrap();
    assert!(pass.board().must_pass());
    let r = fast.search(&pass, &SearchLimits::depth(4));
    assert_eq!(r.best_move, Some(Move::PASS));
    assert_eq!(r.score, generic_value(&pass, &OthelloEval::default(), 4));
}

#[test]
fn the_generic_search_prunes_with_the_same_fit_and_only_where_there_is_one() {
    use prune_search::{Engine, ProbCut};
    let positions = positions(8, 2, 21);
    let run = |eval: &OthelloEval, probcut: Option<ProbCut>| {
        let mut config = SearchConfig::new(Algorithm::NegaScout);
        config.probcut = probcut;
        let mut engine = Engine::<Position>::new(config).unwrap();
        positions
            .iter()
            .map(|p| {
                let r = engine.search(p, eval, &SearchLimits::depth(6)).unwrap();
                (r.score, r.stats.total.nodes, r.stats.total.forward_cuts)
            })
            .collect::<Vec<_>>()
    };
    let two = Some(ProbCut { margin_tenths: 20 });
    // The hand-made evaluation has no fit: the switch changes nothing.
    let hand = OthelloEval::Hand;
    assert_eq!(run(&hand, None), run(&hand, two));
    // The trained one has: fewer nodes, some cuts, values near the full-width ones.
    let pattern = OthelloEval::default();
    let (full, cut) = (run(&pattern, None), run(&pattern, two));
    let nodes = |r: &[(Score, u64, u64)]| r.iter().map(|x| x.1).sum::<u64>();
    assert!(
        nodes(&cut) < nodes(&full),
        "{} {}",
        nodes(&cut),
        nodes(&full)
    );
    assert!(cut.iter().map(|x| x.2).sum::<u64>() > 0);
    assert!(full.iter().all(|x| x.2 == 0));
}

#[test]
fn positions_the_cheap_hash_confuses_have_different_keys() {
    // Two positions of one search that the endgame's bucket hash maps to one key (a mover's
    // discs on f8/g8 against an opponent's on g5/h5): used as the table's key, it made the
    // depth-12 value of the position below 4290 instead of 4331 (the value of the generic
    // alpha-beta without a table, with and without move ordering).
    let a = (0x1f3f_031f_0f07_0200, 0x0000_7ce0_7038_1c08);
    let b = (0x7f3f_031f_0f07_0200, 0x0000_7c20_7038_1c08);
    assert_eq!(
        crate::board::bitboard_hash(a.0, a.1),
        crate::board::bitboard_hash(b.0, b.1)
    );
    assert_ne!(search::table_key(a.0, a.1), search::table_key(b.0, b.1));
    let position: Position = "----------OOX---XXOOOO--XXXXO---XXXXOO--XXOOO---XXOXX---X-XXX--- X"
        .parse()
        .unwrap();
    let r = MidgameSearch::new(16)
        .unwrap()
        .search(&position, &SearchLimits::depth(12));
    assert_eq!(r.score, Score::heuristic(4331));
}

/// The null-window test the endgame solver's ProbCut runs (`Mid::null_window`) says "at least
/// `t`" exactly when the minimax value of that depth (the generic alpha-beta's) is at least
/// `t`: checked at the value itself and one unit either side, with a table shared across the
/// tests as the solver shares it.
#[test]
fn the_null_window_test_agrees_with_the_generic_value() {
    use crate::kernel::Portable;
    let eval = OthelloEval::default();
    let OthelloEval::Pattern(patterns) = &eval else {
        unreachable!("the default evaluation is the trained patterns")
    };
    let (tt, near) = (TranspositionTable::new(1).unwrap(), near_table().unwrap());
    let mut checked = 0;
    for (i, position) in positions(30, 4, 23).iter().enumerate() {
        let depth = 1 + i as u32 % 5;
        let v = generic_value(position, &eval, depth).raw();
        let (p, o) = (position.board().player(), position.board().opponent());
        let state = patterns.state(p, o);
        for t in [v - 1, v, v + 1] {
            let mut mid = Mid::unlimited(&tt, &near, patterns);
            let at_least = mid.null_window(Portable, p, o, &state, depth, t);
            assert_eq!(
                at_least,
                v >= t,
                "{position} at depth {depth}, threshold {t}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 360);
}
