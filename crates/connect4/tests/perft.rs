//! The move generator checked by counting.
//!
//! OEIS A212693 ("number of legal positions in Connect Four after n plies", John Tromp's
//! counts) counts *distinct positions*, not paths: after 3 plies there are 7³ = 343 move
//! sequences but only 238 positions, because moves of one player in two columns can come in
//! either order. So `perft` (which counts paths) is checked against a plain recursive count
//! written here, and the distinct positions (a set of keys, a won game not continued) against
//! A212693.

use std::collections::HashSet;

use prune_connect4::{Column, Position};
use prune_search::{perft, Game};

/// OEIS A212693, n = 0..=10: distinct positions after n plies from the empty board.
const A212693: [u64; 11] = [
    1, 7, 49, 238, 1_120, 4_263, 16_422, 54_859, 184_275, 558_186, 1_662_623,
];

/// Paths of `depth` plies, a game that is won (or full) counting as one leaf where it ends:
/// written with the position's own methods, independently of `Game::generate_moves`.
fn plain_count(p: &Position, depth: u32) -> u64 {
    if depth == 0 || p.is_won() || p.moves_played() == 42 {
        return 1;
    }
    (0..7)
        .filter_map(Column::new)
        .filter(|&c| p.can_play(c))
        .map(|c| plain_count(&p.play_column(c), depth - 1))
        .sum()
}

#[test]
fn perft_counts_every_path_as_a_plain_recursion_does() {
    for depth in 0..=8 {
        assert_eq!(
            perft(&Position::START, depth),
            plain_count(&Position::START, depth),
            "depth {depth}"
        );
    }
    // No column fills before the 6th ply nor a game ends before the 7th: 7^n paths up to 6.
    for depth in 0..=6 {
        assert_eq!(
            perft(&Position::START, depth),
            7u64.pow(depth),
            "depth {depth}"
        );
    }
    // At the 7th ply, the seven sequences that filled one column leave six moves, not seven.
    assert_eq!(perft(&Position::START, 7), 7u64.pow(7) - 7);
    // From the 8th ply on, the games X won with its 4th stone stop too.
    assert!(perft(&Position::START, 8) < 7u64.pow(8) - 7 * 7);
}

#[test]
fn distinct_positions_are_oeis_a212693() {
    let mut layer: HashSet<u64> = HashSet::from([Position::START.key()]);
    let mut positions = vec![Position::START];
    for (depth, &published) in A212693.iter().enumerate().skip(1) {
        let mut next = Vec::new();
        let mut keys = HashSet::new();
        for p in &positions {
            for mv in p.legal_moves() {
                let q = p.play(mv);
                if keys.insert(q.key()) {
                    next.push(q);
                }
            }
        }
        assert_eq!(keys.len() as u64, published, "depth {depth}");
        layer = keys;
        positions = next;
    }
    assert_eq!(layer.len(), 1_662_623);
}
