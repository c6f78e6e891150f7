//! Move generation against the published perft counts of shogi: from the start position
//! (30, 900, 25,470, 719,731 and 19,861,490 at depths 1-5; 547,581,517 at depth 6 in an
//! ignored test, run by hand in release), and from the position with the most legal moves
//! known (593 at depth 1, 105,677 at depth 2).

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

/// About a minute in release: `cargo test --release -p prune-shogi -- --ignored`.
#[test]
#[ignore = "547 million leaves: run by hand in release"]
fn perft_from_the_start_position_depth_6() {
    let start: Position = "startpos".parse().unwrap();
    assert_eq!(perft(&start, 6), 547_581_517);
}
