//! The USI session (`crates/shogi/src/usi.rs`): any sequence of lines from the GUI never
//! panics, every line the session sends has one of the protocol's shapes, and each `bestmove`
//! is legal in the position its `go` was asked about; each `checkmate` of a `go mate` is
//! `nomate`, `timeout` or a mating line from that position (every move legal, every attacker
//! move a check, a checkmate at the end). Searches are kept tiny: a `go` line is fed only with
//! `depth 1` or `depth 2` (other limits dropped), a `go mate` only as `go mate 50` (or as it is
//! when its argument is not a number, to be refused), after which the target waits for its
//! `bestmove` or `checkmate`; `setoption` of `USI_Hash` above 16 MiB is dropped.
#![no_main]

use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use prune_shogi::mate::check_mating_line;
use prune_shogi::usi::UsiSession;
use prune_shogi::Position;

/// The most lines of one input fed to the session.
const MAX_LINES: usize = 24;

/// The line as fed to the session: a `go` reduced to a tiny depth, or `None` to drop it.
fn tame(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first() {
        Some(&"go") if words.get(1) == Some(&"mate") => match words.get(2) {
            Some(arg) if arg.parse::<u64>().is_err() && *arg != "infinite" => {
                Some(line.to_string())
            }
            _ => Some("go mate 50".to_string()),
        },
        Some(&"go") => {
            let depth = words
                .iter()
                .position(|&w| w == "depth")
                .and_then(|i| words.get(i + 1))
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|d| (1..=2).contains(d))?;
            Some(format!("go depth {depth}"))
        }
        Some(&"setoption") => {
            let hash = words.iter().any(|w| w.contains("Hash"));
            let big = words
                .last()
                .and_then(|v| v.parse::<u64>().ok())
                .is_some_and(|n| n > 16);
            (!(hash && big)).then(|| line.to_string())
        }
        // A search that waits for `stop` is not fed.
        Some(&"ponderhit") => None,
        _ => Some(line.to_string()),
    }
}

/// A score as the session writes it: `cp N` or `mate N`.
fn is_score(kind: &str, value: &str) -> bool {
    matches!(kind, "cp" | "mate") && value.parse::<i32>().is_ok()
}

/// Panics unless `line` is a well-formed line for the GUI; `position` is the one the running
/// search (if any) was asked about.
fn check_line(line: &str, position: &Position) {
    assert!(
        !line.is_empty() && !line.contains(['\n', '\r']) && line.trim() == line,
        "{line:?}"
    );
    let words: Vec<&str> = line.split(' ').collect();
    match words[..] {
        ["id", "name", "prune", _] | ["usiok"] | ["readyok"] => {}
        ["id", "author", ..] => {}
        ["option", "name", _, "type", ..] => {}
        ["info", "string", ..] => {}
        ["info", "depth", depth, "score", kind, value, "nodes", nodes, "nps", nps, "time", time, "pv", ref pv @ ..] =>
        {
            assert!(depth.parse::<u32>().is_ok_and(|d| d >= 1), "{line:?}");
            assert!(is_score(kind, value), "{line:?}");
            for n in [nodes, nps, time] {
                assert!(n.parse::<u64>().is_ok(), "{line:?}");
            }
            let mut p = position.clone();
            for text in pv {
                let mv = p
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{line:?} in {position}: {e}"));
                p = p.play(mv);
            }
        }
        ["bestmove", "resign"] => assert!(position.legal_moves().is_empty(), "{line:?}"),
        ["bestmove", mv] => {
            let mv = position
                .parse_move(mv)
                .unwrap_or_else(|e| panic!("{line:?} in {position}: {e}"));
            assert!(position.legal_moves().contains(&mv), "{line:?}");
        }
        ["checkmate", "nomate"] | ["checkmate", "timeout"] => {}
        ["checkmate", ref line @ ..] => {
            // Each move read in the position it is played from, then the line checked whole.
            let mut p = position.clone();
            let mut moves = Vec::new();
            for text in line {
                let mv = p
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{line:?} in {position}: {e}"));
                assert!(p.legal_moves().contains(&mv), "{line:?} in {position}");
                p = p.play(mv);
                moves.push(mv);
            }
            if let Err(why) = check_mating_line(position, &moves) {
                panic!("{line:?} in {position}: {why}");
            }
        }
        _ => panic!("malformed line for the GUI: {line:?}"),
    }
}

/// Every line sent so far, checked against `position`; waits for `bestmove` (or `checkmate`)
/// when `search`.
fn drain(rx: &Receiver<String>, position: &Position, search: bool) {
    loop {
        let line = if search {
            rx.recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|e| panic!("no bestmove: {e}"))
        } else {
            match rx.try_recv() {
                Ok(line) => line,
                Err(_) => return,
            }
        };
        check_line(&line, position);
        if line.starts_with("bestmove") || line.starts_with("checkmate") {
            return;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (tx, rx) = channel();
    let mut session = UsiSession::new(tx);
    for line in text.split('\n').take(MAX_LINES) {
        let Some(line) = tame(line) else {
            continue;
        };
        let before = session.position().clone();
        let go = line.starts_with("go ");
        let more = session.handle(&line);
        // A tamed `go` always starts a search (none runs: each one was waited for).
        drain(&rx, &before, go);
        if !more {
            break;
        }
    }
    session.finish();
    let last = session.position().clone();
    drain(&rx, &last, false);
});
