//! The NBoard session's tests: games set, moved on and searched, hints, passes, bad lines,
//! finished games and the texts of moves, evaluations and lines.

use super::*;
use prune_search::Algorithm;

/// The game of the NBoard protocol's example session (8 moves from the start).
const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]\
    PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O------------------\
    --------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

fn session(depth: u32) -> NboardSession {
    let mut options = NboardOptions::new(
        PlayerOptions::preset("full", Algorithm::NegaScout).expect("the full preset"),
    );
    options.depth = depth;
    NboardSession::new(options).expect("a valid session")
}

/// The stdout lines of `replies`.
fn out(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Out(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// The single diagnostic of `replies` (and no stdout line but `status` ones).
fn diagnostic(replies: &[Reply]) -> String {
    let diags: Vec<&String> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Diagnostic(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(diags.len(), 1, "{replies:?}");
    assert!(
        out(replies).iter().all(|l| l.starts_with("status")),
        "{replies:?}"
    );
    diags[0].clone()
}

/// The move of a `=== F5/...` line.
fn answered_move(replies: &[Reply]) -> Move {
    let lines = out(replies);
    let answer = lines
        .iter()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no === line in {lines:?}"));
    let mv = answer.split('/').next().unwrap();
    assert_eq!(mv, mv.to_ascii_uppercase(), "{answer}");
    mv.parse().unwrap()
}

#[test]
fn a_game_is_set_moved_on_and_searched() {
    let mut s = session(12);
    assert_eq!(
        out(&s.handle("nboard 2\r\n")),
        ["set myname prune-full-d12"]
    );
    assert_eq!(s.version(), Some(2));
    assert_eq!(out(&s.handle("set depth 4")), ["set myname prune-full-d4"]);
    assert_eq!(s.depth(), 4);
    assert!(s.handle(&format!("set game {GAME}")).is_empty());
    assert_eq!(s.game().moves().len(), 8);
    let position = *s.game().current();

    let replies = s.handle("go");
    let lines = out(&replies);
    assert_eq!(lines.first().unwrap(), "status prune is thinking");
    assert_eq!(lines.last().unwrap(), "status");
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats ")),
        "{lines:?}"
    );
    let mv = answered_move(&replies);
    assert!(position.is_legal(mv), "{mv} in {position}");
    // go does not play the move.
    assert_eq!(s.game().current(), &position);
    let answer = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    let fields: Vec<&str> = answer.split('/').collect();
    assert_eq!(fields.len(), 3, "{answer}");
    assert!(fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok());

    assert!(s.handle(&format!("move {mv}/1.50/0.2")).is_empty());
    assert_eq!(s.game().moves().len(), 9);
    assert_eq!(s.game().current(), &position.play(mv).unwrap());
    assert_eq!(s.handle("ping 7"), [Reply::Out("pong 7".into())]);
    assert_eq!(s.handle("learn"), [Reply::Out("learned".into())]);
    assert_eq!(s.handle("quit"), [Reply::Quit]);
}

#[test]
fn hints_report_legal_lines_best_first() {
    let mut s = session(3);
    s.handle(&format!("set game {GAME}"));
    let position = *s.game().current();
    let moves = position.legal_moves();
    assert!(moves.len() >= 3, "{moves:?}");

    let one = out(&s.handle("hint 1"));
    let searches: Vec<&String> = one.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 1, "{one:?}");
    assert_eq!(one.last().unwrap(), "status");

    let three = out(&s.handle("hint 3"));
    let searches: Vec<Vec<&str>> = three
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(searches.len(), 3, "{three:?}");
    let mut evals = Vec::new();
    let mut firsts = Vec::new();
    for fields in &searches {
        assert_eq!(fields.len(), 5, "{fields:?}");
        let pv = fields[1];
        assert!(pv.is_ascii() && pv.len() >= 2, "{pv}");
        // The whole line is legal, move after move.
        let mut p = position;
        for chunk in pv.as_bytes().chunks(2) {
            assert_eq!(chunk.len(), 2, "{pv}");
            let mv: Move = std::str::from_utf8(chunk).unwrap().parse().unwrap();
            p = p.play(mv).unwrap_or_else(|e| panic!("{pv}: {e}"));
        }
        firsts.push(&pv[..2]);
        evals.push(fields[2].parse::<f64>().unwrap());
        assert_eq!(fields[3], "0");
        // The move, then a search one ply less deep (and any forced moves before it).
        let depth: u32 = fields[4].parse().unwrap();
        assert!(depth >= 3, "{fields:?}");
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different moves: {searches:?}");
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{evals:?}");

    // More moves asked for than there are: every move once.
    let all = out(&s.handle("hint 99"));
    let count = all.iter().filter(|l| l.starts_with("search ")).count();
    assert_eq!(count, moves.len());
}

#[test]
fn a_hint_of_several_moves_agrees_with_the_single_search() {
    // The best of the moves searched one ply less deep is the value of the search.
    let mut s = session(4);
    s.handle(&format!("set game {GAME}"));
    let eval = |lines: &[String]| -> f64 {
        let first = lines.iter().find(|l| l.starts_with("search ")).unwrap();
        first.split(' ').nth(2).unwrap().parse().unwrap()
    };
    let one = eval(&out(&s.handle("hint 1")));
    let all = eval(&out(&s.handle("hint 60")));
    assert!((one - all).abs() < 0.011, "{one} vs {all}");
}

#[test]
fn exact_endgames_report_100_percent() {
    // Down to 8 empties with the first legal move each time: at depth 2 the position
    // (8 <= 2 + 6 empties) and its moves searched at depth 1 (7 <= 1 + 6) are solved.
    let mut s = session(2);
    while s.game().current().empty_count() > 8 || s.game().current().legal_moves().len() < 2 {
        let mv = s.game().current().legal_moves()[0];
        assert!(s.handle(&format!("move {mv}")).is_empty());
    }
    let lines = out(&s.handle("hint 2"));
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 2, "{lines:?}");
    for l in &searches {
        assert!(l.ends_with(" 100%"), "{l}");
        let eval: f64 = l.split(' ').nth(2).unwrap().parse().unwrap();
        assert_eq!(eval, eval.round(), "{l}");
    }
    let go = out(&s.handle("go"));
    let answer = go.iter().find(|l| l.starts_with("=== ")).unwrap();
    let eval: f64 = answer.split('/').nth(1).unwrap().parse().unwrap();
    let best: f64 = searches[0].split(' ').nth(2).unwrap().parse().unwrap();
    assert_eq!(eval, best, "{answer} vs {}", searches[0]);
}

#[test]
fn go_and_hint_work_before_any_game_is_set() {
    let mut s = session(2);
    let mv = answered_move(&s.handle("go"));
    assert!(Position::START.is_legal(mv));
    assert_eq!(s.game().current(), &Position::START);
}

#[test]
fn a_forced_pass_is_answered_and_can_be_left_out() {
    // White on a1, black on b1, black to move: black has no move, white has c1.
    let squares = {
        let mut s = vec!['-'; 64];
        s[0] = 'O';
        s[1] = '*';
        s.into_iter().collect::<String>()
    };
    let ggf = format!("(;GM[Othello]BO[8 {squares} *];)");
    let mut s = session(2);
    assert!(s.handle(&format!("set game {ggf}")).is_empty());
    assert_eq!(s.game().current().legal_moves(), [Move::PASS]);
    let go = out(&s.handle("go"));
    assert!(go.contains(&"=== PA".to_string()), "{go:?}");
    // White's c1, without the pass before it: the pass is played for the GUI.
    let replies = s.handle("move C1");
    assert!(diagnostic(&replies).contains("forced pass"), "{replies:?}");
    assert_eq!(
        s.game().moves(),
        ["PA".parse().unwrap(), "c1".parse().unwrap()]
    );
    assert!(s.game().is_over());
}

#[test]
fn bad_lines_are_diagnosed_and_change_nothing() {
    let mut s = session(2);
    s.handle(&format!("set game {GAME}"));
    let before = s.game().clone();
    for (line, expected) in [
        ("", "empty line"),
        ("   ", "empty line"),
        ("frobnicate now", "unknown command 'frobnicate'"),
        ("move z9", "bad move 'z9'"),
        ("move", "the move is missing"),
        ("move a1", "not legal"),
        ("set game garbage", "GGF at byte"),
        ("set game", "GGF) is missing"),
        ("set game (;GM[Othello]BO[8 --- *];)", "not 64"),
        ("set depth x", "'x' is not a depth"),
        ("set depth 0", "'0' is not a depth"),
        ("set depth 61", "1 to 60"),
        ("set", "set what?"),
        ("set colour red", "unknown setting 'colour'"),
        ("set contempt lots", "not a contempt"),
        ("ping", "is not a ping number"),
        ("ping x", "'x' is not a ping number"),
        ("hint x", "'x' is not a number of moves"),
        ("hint 0", "at least 1"),
        ("nboard two", "'two' is not a protocol version"),
        ("analyze", "not supported"),
    ] {
        let replies = s.handle(line);
        let d = diagnostic(&replies);
        assert!(d.contains(expected), "{line:?}: {d}");
        assert!(d.contains(&format!("'{}'", line.trim())), "{line:?}: {d}");
        assert_eq!(s.game(), &before, "{line:?}");
        assert_eq!(s.depth(), 2, "{line:?}");
    }
    // Long lines are shortened in the diagnostic.
    let long = format!("set game {}", "x".repeat(500));
    let d = diagnostic(&s.handle(&long));
    assert!(d.len() < 200 && d.contains("..."), "{d}");
    // Still alive, and answering.
    assert_eq!(s.handle("ping 9"), [Reply::Out("pong 9".into())]);
    assert!(s.handle("set contempt 0.5").is_empty());
}

#[test]
fn a_finished_game_has_nothing_to_search() {
    let full = "*".repeat(64);
    let mut s = session(2);
    assert!(s
        .handle(&format!("set game (;GM[Othello]BO[8 {full} *];)"))
        .is_empty());
    for command in ["go", "hint 2"] {
        let replies = s.handle(command);
        let d = diagnostic(&replies);
        assert!(d.contains("the game is over"), "{d}");
        assert!(d.contains(&format!("'{command}'")), "{d}");
        assert!(!out(&replies).iter().any(|l| l.starts_with("===")));
    }
    assert!(diagnostic(&s.handle("move PA")).contains("the game is over"));
}

#[test]
fn bare_moves_and_options() {
    let mut s = session(2);
    assert!(s.handle("F5").is_empty());
    assert_eq!(s.game().moves(), ["f5".parse().unwrap()]);
    assert!(s.handle("d6").is_empty());
    assert_eq!(s.game().moves().len(), 2);
    let player = PlayerOptions::preset("plain", Algorithm::NegaScout).unwrap();
    let mut options = NboardOptions::new(player);
    options.time_per_move = Some(Duration::from_millis(50));
    let mut timed = NboardSession::new(options.clone()).unwrap();
    assert_eq!(timed.name(), "prune-plain-50ms");
    assert!(Position::START.is_legal(answered_move(&timed.handle("go"))));
    options.depth = 0;
    assert!(NboardSession::new(options.clone()).is_err());
    options.depth = 5;
    options.time_per_move = Some(Duration::ZERO);
    assert!(NboardSession::new(options).is_err());
}

#[test]
fn pv_and_eval_texts() {
    let pv: Vec<Move> = ["f5", "d6", "c3", "PA"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    assert_eq!(pv_text(&pv), "F5d6C3pa");
    assert_eq!(eval_text(-0.0), "0.00");
    assert_eq!(eval_text(-0.001), "0.00");
    assert_eq!(eval_text(-1.5), "-1.50");
    assert_eq!(eval_text(12.0), "12.00");
    assert_eq!(split_word("  set   game (;x y;) "), ("set", "game (;x y;)"));
    assert_eq!(split_word(""), ("", ""));
}
