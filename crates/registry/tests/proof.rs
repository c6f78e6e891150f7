//! Proof-number search on the real games against their exact solvers: PN and df-pn settle win,
//! draw or loss of Connect Four endings as Pascal Pons's End-Easy test set scores them, and of
//! Othello endgames as the exact endgame solver scores them.

use std::sync::atomic::AtomicBool;

use prune_registry::RegisteredGame;
use prune_search::proof::{dfpn, pn_search, solve_wdl, DfpnConfig, Goal, Wdl};
use prune_search::{Game, Score};

/// Win, draw or loss by both searches; they must agree.
fn both<G: Game>(game: &G) -> Wdl {
    let mut pn = |g: &G, goal: Goal| pn_search(g, goal, 4_000_000);
    let mut df = |g: &G, goal: Goal| dfpn(g, goal, &DfpnConfig::default());
    let a = solve_wdl(game, &mut pn).wdl.expect("PN settles it");
    let b = solve_wdl(game, &mut df).wdl.expect("df-pn settles it");
    assert_eq!(a, b);
    a
}

#[test]
fn connect_four_endings_get_the_test_sets_verdicts() {
    // Pons's End-Easy set (Test_L3_R1): more than 28 moves played, fewer than 14 left.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/connect4/Test_L3_R1");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut kinds = [0; 3];
    for line in text.lines().take(40) {
        let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
        let score: i32 = score.trim().parse().expect("a score");
        let position = prune_connect4::Position::read(moves).expect("a position of the set");
        let truth = Wdl::of(Score::exact(score));
        assert_eq!(both(&position), truth, "{line}");
        kinds[truth as usize] += 1;
    }
    assert!(
        kinds[0] > 0 && kinds[2] > 0,
        "wins and losses both met: {kinds:?}"
    );
}

#[test]
fn othello_endgames_get_the_exact_solvers_verdicts() {
    let stop = AtomicBool::new(false);
    let mut kinds = [0; 3];
    for seed in 0..16u64 {
        // A game of pseudo-random moves down to 11 empties.
        let mut p = prune_othello::Position::START;
        let mut ply = 0;
        while p.empty_count() > 11 && p.outcome().is_none() {
            let moves = p.legal_moves();
            let k = prune_search::rng::mix(seed, ply) % moves.len() as u64;
            p = Game::play(&p, moves[k as usize]);
            ply += 1;
        }
        if p.outcome().is_some() {
            continue;
        }
        let (exact, _) = p.exact(&stop).expect("the exact solver at 11 empties");
        let truth = Wdl::of(exact);
        assert_eq!(both(&p), truth, "{p}");
        kinds[truth as usize] += 1;
    }
    assert!(
        kinds[0] > 0 && kinds[2] > 0,
        "wins and losses both met: {kinds:?}"
    );
}
