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

/// The takeback of a futile drop, built without playing (the checker's capture found from the
/// position before the drop, the board and its key moved by hand), agrees with playing the
/// drop and the capture, at every defender's drop along the Edo sources' lines
/// (`../shared/data/tsume/`): the capture is legal after the drop and checks, and the
/// takeback's board and board key are those after the two moves (its hands are the node's).
#[test]
fn takebacks_agree_with_playing_the_drop_and_the_capture() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tsume");
    let mut checked = 0;
    for name in ["zukou.tsv", "musou.tsv"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let mut p: Position = fields[1].parse().unwrap();
            for text in fields[3].split(' ') {
                if let Some(checker) = p.distant_checker() {
                    for mv in p.legal_moves() {
                        let Move::Drop { to, .. } = mv else {
                            continue;
                        };
                        let Some(capture) = p.checker_takes_on(checker, to) else {
                            continue;
                        };
                        let Move::Normal { from, promote, .. } = capture else {
                            panic!("{line}: a capture");
                        };
                        let after = p.play(mv);
                        assert!(after.is_legal(capture), "{line}: {p} {mv} {capture}");
                        let taken = after.play(capture);
                        assert!(taken.in_check(), "{line}: {p} {mv} {capture}");
                        let takeback = p.with_piece_moved(from, to, promote);
                        assert_eq!(takeback.board, taken.board, "{line}: {p} {mv}");
                        assert_eq!(takeback.board_key(), taken.board_key(), "{line}: {p} {mv}");
                        assert_eq!(
                            p.board_key_with_piece_moved(p.board_key(), from, to, promote),
                            taken.board_key(),
                            "{line}: {p} {mv}"
                        );
                        checked += 1;
                    }
                }
                p = p.play(p.parse_move(text).unwrap());
            }
        }
    }
    assert!(checked > 1_000, "only {checked} drops");
}
