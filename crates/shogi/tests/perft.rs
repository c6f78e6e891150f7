//! Move generation against the published perft counts of shogi: from the start position
//! (30, 900, 25,470, 719,731 and 19,861,490 at depths 1-5; 547,581,517 at depth 6 in an
//! ignored test, run by hand in release), and from the position with the most legal moves
//! known (593 at depth 1, 105,677 at depth 2), all as this project's shogi issue quotes them.
//!
//! More published counts, each with where it was read:
//! - the "matsuri" position of move-generation benchmarks (指し手生成祭り): 207, 28,684,
//!   4,809,015 and 516,925,165 at depths 1-4 (the unit tests of YaneuraOu, yaneurao/YaneuraOu,
//!   and of ShogiLibSharp, tomori-k/ShogiLibSharp; the perft table of liamt19/Peeper);
//! - two bare kings with every other piece in hand: 524, 248,257 and 112,911,856 at depths 1-3,
//!   and a late middle game with promoted pieces on both sides: 178, 18,041, 2,552,846 and
//!   207,741,677 at depths 1-4 (liamt19/Peeper's perft table);
//! - the most-moves position at depth 3: 53,393,368 (ShogiLibSharp's unit tests).
//!
//! The deeper counts are ignored tests, run by hand in release.

use prune_shogi::{perft, Position};

#[test]
fn perft_from_the_start_position() {
    let start: Position = "startpos".parse().unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [30, 900, 25_470, 719_731]);
}

#[test]
fn perft_from_the_start_position_depth_5() {
    let start: Position = "startpos".parse().unwrap();
    assert_eq!(perft(&start, 5), 19_861_490);
}

#[test]
fn perft_from_the_position_with_the_most_moves() {
    let p: Position = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
        .parse()
        .unwrap();
    assert_eq!(perft(&p, 1), 593);
    assert_eq!(perft(&p, 2), 105_677);
}

/// The matsuri position (White to move, a drop-rich middle game).
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

/// Two kings and every other piece in the hands.
const KINGS_AND_HANDS: &str = "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1";

/// A late middle game with a dragon and promoted pawns.
const LATE: &str = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";

fn counts(sfen: &str, depths: std::ops::RangeInclusive<u32>) -> Vec<u64> {
    let p: Position = sfen.parse().unwrap();
    depths.map(|d| perft(&p, d)).collect()
}

#[test]
fn perft_from_published_middle_game_positions() {
    assert_eq!(counts(MATSURI, 1..=3), [207, 28_684, 4_809_015]);
    assert_eq!(counts(KINGS_AND_HANDS, 1..=2), [524, 248_257]);
    assert_eq!(counts(LATE, 1..=3), [178, 18_041, 2_552_846]);
}

#[test]
#[ignore = "hundreds of millions of leaves: run by hand in release"]
fn perft_from_published_middle_game_positions_deeper() {
    assert_eq!(counts(MATSURI, 4..=4), [516_925_165]);
    assert_eq!(counts(KINGS_AND_HANDS, 3..=3), [112_911_856]);
    assert_eq!(counts(LATE, 4..=4), [207_741_677]);
    assert_eq!(
        counts(
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            3..=3
        ),
        [53_393_368]
    );
}

/// About a minute in release: `cargo test --release -p prune-shogi -- --ignored`.
#[test]
#[ignore = "547 million leaves: run by hand in release"]
fn perft_from_the_start_position_depth_6() {
    let start: Position = "startpos".parse().unwrap();
    assert_eq!(perft(&start, 6), 547_581_517);
}
