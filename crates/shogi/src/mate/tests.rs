use super::*;

/// Panics unless `line` mates from `sfen` (see [`check_mating_line`]).
fn assert_mating_line(sfen: &str, line: &[Move]) {
    let p: Position = sfen.parse().unwrap();
    if let Err(e) = check_mating_line(&p, line) {
        panic!("{sfen}: {e}");
    }
}

fn solve_sfen(sfen: &str) -> MateReport {
    let p: Position = sfen.parse().unwrap();
    solve_mate(&p, &MateConfig::default(), None).unwrap()
}

#[test]
fn mates_in_one_and_three_are_found_shortest() {
    for (sfen, plies) in [
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
        // antma tsume3-02: 3sks3/9/4S4/9/9/8B/9/9/9 b S 1, a mate in 3.
        ("3sks3/9/4S4/9/9/8B/9/9/9 b S 1", 3),
    ] {
        let report = solve_sfen(sfen);
        assert_eq!(report.outcome, MateOutcome::Mate, "{sfen}");
        assert_eq!(report.plies, plies, "{sfen}: {:?}", report.line);
        assert_eq!(report.line.len(), plies, "{sfen}: {:?}", report.line);
        assert!(report.shortest, "{sfen}");
        assert_mating_line(sfen, &report.line);
    }
}

/// The only mate in one is a pawn drop (uchifuzume, illegal) and the attacker has nothing
/// else: no mate.
#[test]
fn a_mate_only_by_a_pawn_drop_is_no_mate() {
    let report = solve_sfen("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1");
    assert_eq!(report.outcome, MateOutcome::NoMate, "{:?}", report.line);
}

#[test]
fn the_start_position_has_no_mate_within_the_limits() {
    let p = Position::start();
    let config = MateConfig {
        max_nodes: 20_000,
        ..MateConfig::default()
    };
    let report = solve_mate(&p, &config, None).unwrap();
    assert_ne!(report.outcome, MateOutcome::Mate);
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let cases = [
        // The attacker (Black, to move) is in check from the rook on 5a.
        ("4r4/9/9/9/9/9/9/9/4K1k2 b - 1", MateError::AttackerInCheck),
        // White has no king.
        ("9/9/9/9/9/9/9/9/4K4 b G 1", MateError::NoKingToMate),
        // White's king is attacked with Black to move.
        ("4k4/9/9/9/9/9/9/9/4R3K b - 1", MateError::DefenderInCheck),
    ];
    for (sfen, error) in cases {
        let p: Position = sfen.parse().unwrap();
        let got = solve_mate(&p, &MateConfig::default(), None).unwrap_err();
        assert_eq!(got, error, "{sfen}");
        assert!(!got.to_string().is_empty());
    }
}

/// The line checker refuses what is not a mate: an empty line, a check the king escapes, a
/// move that does not check, an illegal move.
#[test]
fn the_line_checker_refuses_what_is_not_a_mate() {
    let p: Position = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
    let mv = |p: &Position, text: &str| p.parse_move(text).unwrap();
    assert!(check_mating_line(&p, &[mv(&p, "G*5b")]).is_ok());
    assert!(check_mating_line(&p, &[]).is_err());
    // G*4b checks but the king escapes.
    assert!(check_mating_line(&p, &[mv(&p, "G*4b")]).is_err());
    // G*1a does not check.
    assert!(check_mating_line(&p, &[mv(&p, "G*1a")]).is_err());
    // R*5b is legal where Black holds a rook, and illegal here.
    let q: Position = "4k4/9/4P4/9/9/9/9/9/4K4 b R 1".parse().unwrap();
    assert!(check_mating_line(&p, &[mv(&q, "R*5b")]).is_err());
}
