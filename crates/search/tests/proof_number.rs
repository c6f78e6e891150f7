//! Proof-number search against the minimax oracle: PN and df-pn settle win, draw or loss as
//! plain minimax does on random trees and tic-tac-toe positions, the move they give keeps the
//! result, the empty tic-tac-toe board is proved a draw, and a node limit leaves the verdict
//! unknown rather than wrong.

use prune_games::{mix, RandomEval, RandomTree, TicTacToe};
use prune_search::proof::{
    dfpn, dfpn_guided, pn_search, solve_wdl, DfpnConfig, Goal, ProofResult, ProofTree, Verdict, Wdl,
};
use prune_search::{search, Algorithm, Evaluator, Game, SearchConfig, SearchLimits};

/// The value of `game` by plain minimax to `depth` (every line to its end: the trees and games
/// here end within it; a random tree's final values are its leaves' numbers), as win, draw or
/// loss by its sign.
fn oracle<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> Wdl {
    let config = SearchConfig::new(Algorithm::Minimax);
    let r = search(game, eval, &config, &SearchLimits::depth(depth)).unwrap();
    assert!(r.exhausted, "the oracle reached the end of every line");
    Wdl::of(r.score)
}

/// The result after `mv` from `game`, for `game`'s side to move.
fn after<G: Game, E: Evaluator<G>>(game: &G, mv: G::Move, eval: &E, depth: u32) -> Wdl {
    let child = game.play(mv);
    let for_child = match child.outcome() {
        Some(score) => Wdl::of(score),
        None => oracle(&child, eval, depth),
    };
    match for_child {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

/// Whether `tree` is a proof (`proof`) or disproof of `goal` for the attacker at `game`
/// (`attacker`: whether it is to move), checked by the rules alone: where the side that must
/// show something moves, one legal move; where the other side moves, every legal move; at the
/// leaves, finished games that meet (or fail) the goal. Leaves marked `again` are positions
/// checked elsewhere in the tree.
fn tree_holds<G: Game>(
    game: &G,
    tree: &ProofTree<G::Move>,
    attacker: bool,
    proof: bool,
    goal: Goal,
) -> bool {
    if tree.again {
        return tree.children.is_empty();
    }
    if let Some(score) = game.outcome() {
        let for_attacker = if attacker {
            Wdl::of(score)
        } else {
            Wdl::of(-score)
        };
        let met = match goal {
            Goal::Win => for_attacker == Wdl::Win,
            Goal::AtLeastDraw => for_attacker != Wdl::Loss,
        };
        return tree.children.is_empty() && met == proof;
    }
    let legal = game.legal_moves();
    let shown: Vec<G::Move> = tree.children.iter().map(|(m, _)| *m).collect();
    let moves_ok = if attacker == proof {
        shown.len() == 1 && legal.contains(&shown[0])
    } else {
        shown.len() == legal.len() && legal.iter().all(|m| shown.contains(m))
    };
    moves_ok
        && tree
            .children
            .iter()
            .all(|(m, t)| tree_holds(&game.play(*m), t, !attacker, proof, goal))
}

/// Both searches' win/draw/loss of `game`, checked against the oracle with its best move.
fn check<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32, what: &str) {
    let truth = oracle(game, eval, depth);
    let mut pn = |g: &G, goal: Goal| pn_search(g, goal, 1_000_000);
    let mut df = |g: &G, goal: Goal| dfpn(g, goal, &DfpnConfig::default());
    let mut guided = |g: &G, goal: Goal| dfpn_guided(g, goal, eval, &DfpnConfig::default());
    assert_eq!(
        solve_wdl(game, &mut guided).wdl,
        Some(truth),
        "df-pn+ on {what}"
    );
    // Each settled search's proof or disproof tree holds, walked from the root by the search;
    // the tree it gives holds by the rules alone, and has at least as many positions as the
    // distinct ones counted.
    for goal in [Goal::Win, Goal::AtLeastDraw] {
        for r in [pn(game, goal), df(game, goal)] {
            assert!(r.proof_size.is_some_and(|n| n >= 1), "{what}: {r:?}");
            let tree = r.tree.as_ref().expect("a small proof is kept");
            let proof = r.verdict == Verdict::Proved;
            assert!(
                tree_holds(game, tree, true, proof, goal),
                "{what}: {goal:?} {tree:?}"
            );
            assert!(tree.len() as u64 >= r.proof_size.unwrap(), "{what}");
        }
    }
    for (name, r) in [
        ("pn", solve_wdl(game, &mut pn)),
        ("df-pn", solve_wdl(game, &mut df)),
    ] {
        assert_eq!(r.wdl, Some(truth), "{name} on {what}");
        if truth != Wdl::Loss {
            let mv = r
                .best_move
                .unwrap_or_else(|| panic!("{name}: a move on {what}"));
            assert_eq!(
                after(game, mv, eval, depth),
                truth,
                "{name}'s move on {what}"
            );
        }
    }
}

#[test]
fn proofs_on_random_trees_equal_the_minimax_results() {
    let mut results = [0; 3];
    for seed in 0..300u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 5) as u32;
        tree.max_depth = 1 + (seed / 5 % 9) as u32;
        let root = tree.root();
        if root.outcome().is_some() {
            continue;
        }
        check(&root, &RandomEval, tree.max_depth, &format!("{tree:?}"));
        results[oracle(&root, &RandomEval, tree.max_depth) as usize] += 1;
    }
    // Every kind of result was met.
    assert!(results.iter().all(|&n| n > 10), "{results:?}");
}

#[test]
fn proofs_on_tic_tac_toe_positions_equal_the_minimax_results() {
    for seed in 0..150u64 {
        let mut game = TicTacToe::new();
        for ply in 0..mix(seed, 1) % 7 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game = game.play(moves[(mix(seed, ply + 2) % moves.len() as u64) as usize]);
        }
        if game.outcome().is_some() {
            continue;
        }
        check(&game, &prune_games::LineEval, 9, &format!("{game}"));
    }
}

#[test]
fn the_empty_board_is_a_draw_and_the_numbers_say_so() {
    let empty = TicTacToe::new();
    let win: ProofResult<_> = dfpn(&empty, Goal::Win, &DfpnConfig::default());
    assert_eq!((win.verdict, win.dn), (Verdict::Disproved, 0));
    assert!(win.stored > 0 && win.nodes > win.expanded);
    let draw = pn_search(&empty, Goal::AtLeastDraw, 1_000_000);
    assert_eq!((draw.verdict, draw.pn), (Verdict::Proved, 0));
    assert!(draw.best_move.is_some());
    // A proof of the draw needs more than the moves of one line, fewer than the tree's
    // 549,946 nodes.
    let size = draw.proof_size.unwrap();
    assert!(size > 9 && size < 549_946, "{size}");
    assert_eq!(
        dfpn(
            &empty,
            Goal::Win,
            &DfpnConfig {
                max_nodes: 50,
                ..DfpnConfig::default()
            }
        )
        .proof_size,
        None
    );
}

#[test]
fn a_node_limit_leaves_the_result_unknown() {
    let empty = TicTacToe::new();
    let config = DfpnConfig {
        max_nodes: 50,
        ..DfpnConfig::default()
    };
    assert_eq!(
        dfpn(&empty, Goal::AtLeastDraw, &config).verdict,
        Verdict::Unknown
    );
    assert_eq!(
        pn_search(&empty, Goal::AtLeastDraw, 50).verdict,
        Verdict::Unknown
    );
    let mut limited = |g: &TicTacToe, goal: Goal| pn_search(g, goal, 50);
    assert_eq!(solve_wdl(&empty, &mut limited).wdl, None);
}

#[test]
fn plain_thresholds_prove_the_same() {
    let config = DfpnConfig {
        epsilon: 0.0,
        ..DfpnConfig::default()
    };
    for seed in 0..60u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 2 + (seed % 4) as u32;
        tree.max_depth = 3 + (seed % 6) as u32;
        let root = tree.root();
        if root.outcome().is_some() {
            continue;
        }
        let truth = oracle(&root, &RandomEval, tree.max_depth);
        let mut df = |g: &_, goal: Goal| dfpn(g, goal, &config);
        assert_eq!(solve_wdl(&root, &mut df).wdl, Some(truth), "{tree:?}");
    }
}
