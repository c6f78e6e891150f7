//! Perft for Othello: a leaf count straight on the bitboards, and the published counts from
//! the start position that check it (and the generic [`prune_search::perft`]).
//!
//! Counting follows the usual convention: a pass is a ply, and a game that ends before the
//! depth is reached counts as one leaf.

use crate::endgame::count_leaves;
use crate::kernel::Isa;
use crate::position::Position;

/// The number of leaves `depth` plies from the start position, indexed by depth (0 to 11).
///
/// Source: the published Othello perft counts (Aart Bik's and Edax's perft tables); they count
/// a pass as a ply and an early game end as one leaf, as [`perft`] does.
pub const START_PERFT: [u64; 12] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

/// Counts the leaves of the game tree `depth` plies below `position`, like
/// [`prune_search::perft`] but on the bitboards directly, with the last ply counted by a
/// popcount of the move mask: the endgame solver's move generation, compiled for the best
/// instruction set this CPU has ([`count_leaves`]).
pub fn perft(position: &Position, depth: u32) -> u64 {
    count_leaves(Isa::best(), position.board(), depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::obf::parse_obf;

    #[test]
    fn generic_perft_matches_published_counts() {
        for (depth, &expected) in START_PERFT.iter().enumerate().take(10) {
            let got = prune_search::perft(&Position::START, depth as u32);
            assert_eq!(got, expected, "depth {depth}");
        }
    }

    #[test]
    fn fast_perft_matches_published_counts_on_every_instruction_set() {
        for (depth, &expected) in START_PERFT.iter().enumerate() {
            assert_eq!(
                perft(&Position::START, depth as u32),
                expected,
                "depth {depth}"
            );
        }
        for &isa in <Isa as prune_search::Named>::ALL {
            if !isa.is_available() {
                continue;
            }
            for (depth, &expected) in START_PERFT.iter().enumerate() {
                let got = count_leaves(isa, Position::START.board(), depth as u32);
                assert_eq!(got, expected, "{isa} depth {depth}");
            }
        }
    }

    #[test]
    fn fast_and_generic_agree_near_the_end() {
        // Endgame positions have passes and early game ends within a few plies.
        let text = include_str!("../data/ffo-40-59.obf");
        for entry in parse_obf(text).unwrap() {
            for depth in 0..=4 {
                let p = &entry.position;
                assert_eq!(
                    perft(p, depth),
                    prune_search::perft(p, depth),
                    "{p} depth {depth}"
                );
            }
        }
        // Forced pass, then a finished game.
        let pass = Position::from_discs(0b10, 0b01, crate::Color::Black).unwrap();
        for depth in 0..=3 {
            assert_eq!(perft(&pass, depth), prune_search::perft(&pass, depth));
        }
        let over = Position::from_discs(0b11, 1 << 63, crate::Color::Black).unwrap();
        assert_eq!(perft(&over, 5), 1);
    }
}
