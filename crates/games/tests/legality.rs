//! Each game's own `is_legal` (the move picker's check of hash moves before generation) agrees
//! with its move generator, for legal and illegal candidates alike.

use prune_games::{mix, Cell, ChildOrder, RandomTree, TicTacToe, UniformTree};
use prune_search::Game;

/// Walks a few plies down a pseudo-random line from `root`, checking every candidate move.
fn check<G: Game>(root: &G, candidates: &[G::Move], seed: u64) {
    let mut game = root.clone();
    for ply in 0..12 {
        let legal = game.legal_moves();
        for &mv in candidates {
            assert_eq!(game.is_legal(mv), legal.contains(&mv), "{mv} at ply {ply}");
        }
        if legal.is_empty() {
            return;
        }
        game = game.play(legal[(mix(seed, ply) % legal.len() as u64) as usize]);
    }
}

#[test]
fn is_legal_agrees_with_the_generator() {
    let cells: Vec<Cell> = (0..12).map(Cell).collect();
    let indices: Vec<u32> = (0..8).collect();
    for seed in 0..200 {
        check(&TicTacToe::new(), &cells, seed);
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 6) as u32;
        tree.max_depth = 1 + (seed % 7) as u32;
        check(&tree.root(), &indices, seed);
        let uniform = UniformTree {
            width: 1 + (seed % 5) as u32,
            depth: (seed % 4) as u32,
            order: ChildOrder::Random,
            seed,
        };
        check(&uniform.root(), &indices, seed);
    }
}
