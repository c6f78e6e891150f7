//! The NBoard session: any sequence of lines from the GUI never panics, and every line the
//! session sends the GUI has one of the protocol's shapes (as `nboard.rs` defines them), with
//! its moves legal in the session's game. Searches are kept tiny: the `plain` preset (no
//! table), depth 1, and `set depth` lines above 2 are dropped before they reach the session.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_othello::{Move, Position};
use prune_play::nboard::{NboardOptions, NboardSession, Reply};
use prune_play::PlayerOptions;
use prune_search::Algorithm;

/// The most lines of one input fed to the session.
const MAX_LINES: usize = 24;

/// Whether `line` would make the session search deeper than the fuzzer can afford.
fn too_deep(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let is_set_depth = words.next().is_some_and(|w| w.eq_ignore_ascii_case("set"))
        && words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("depth"));
    let value = words.collect::<Vec<_>>().join(" ");
    is_set_depth && value.parse::<u32>().is_ok_and(|d| d > 2)
}

/// An evaluation as the session writes it: a number with two decimals, never `-0.00`.
fn is_eval(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let Some((whole, cents)) = digits.split_once('.') else {
        return false;
    };
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && cents.len() == 2
        && cents.bytes().all(|b| b.is_ascii_digit())
        && text != "-0.00"
}

/// Seconds as the session writes them: three decimals.
fn is_seconds(text: &str) -> bool {
    text.split_once('.').is_some_and(|(whole, frac)| {
        !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && frac.len() == 3
            && frac.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Panics unless `line` is a well-formed line for the GUI when the game is at `position`.
fn check_line(line: &str, position: &Position) {
    assert!(
        !line.is_empty() && !line.contains(['\n', '\r']) && line.trim() == line,
        "{line:?}"
    );
    let words: Vec<&str> = line.split(' ').collect();
    match words[..] {
        ["set", "myname", name] => assert!(name.starts_with("prune-"), "{line:?}"),
        ["pong", n] => assert!(n.parse::<i64>().is_ok(), "{line:?}"),
        ["learned"] | ["status"] => {}
        ["status", ..] => assert!(words[1..].iter().all(|w| !w.is_empty()), "{line:?}"),
        ["nodestats", nodes, seconds] => {
            assert!(
                nodes.parse::<u64>().is_ok() && is_seconds(seconds),
                "{line:?}"
            )
        }
        ["===", answer] => {
            let fields: Vec<&str> = answer.split('/').collect();
            match fields[..] {
                [_] => {}
                [_, eval, seconds] => assert!(is_eval(eval) && is_seconds(seconds), "{line:?}"),
                _ => panic!("malformed answer {line:?}"),
            }
            assert_eq!(fields[0], fields[0].to_ascii_uppercase(), "{line:?}");
            let mv: Move = fields[0]
                .parse()
                .unwrap_or_else(|e| panic!("{line:?}: {e}"));
            assert!(position.is_legal(mv), "{line:?} in {position}");
        }
        ["search", pv, eval, "0", depth] => {
            assert!(is_eval(eval), "{line:?}");
            assert!(
                depth == "100%" || depth.parse::<u32>().is_ok_and(|d| d >= 1),
                "{line:?}"
            );
            assert!(
                pv.is_ascii() && !pv.is_empty() && pv.len() % 2 == 0,
                "{line:?}"
            );
            let mut p = *position;
            for (i, chunk) in pv.as_bytes().chunks(2).enumerate() {
                let text = std::str::from_utf8(chunk).expect("ASCII");
                let expected = if i % 2 == 0 {
                    text.to_ascii_uppercase()
                } else {
                    text.to_ascii_lowercase()
                };
                assert_eq!(text, expected, "{line:?}");
                let mv: Move = text.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
                p = p.play(mv).unwrap_or_else(|e| panic!("{line:?}: {e}"));
            }
        }
        _ => panic!("malformed line for the GUI: {line:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut player =
        PlayerOptions::preset("plain", Algorithm::NegaScout).expect("the plain preset");
    player.solve_tt_mib = 1;
    let mut options = NboardOptions::new(player);
    options.depth = 1;
    let mut session = NboardSession::new(options).expect("a valid session");
    for line in text.split('\n').take(MAX_LINES) {
        if too_deep(line) {
            continue;
        }
        let before = *session.game().current();
        let replies = session.handle(line);
        let after = *session.game().current();
        for reply in &replies {
            match reply {
                // `go` and `hint` answer about the position they searched, which they leave.
                Reply::Out(out) => check_line(out, &before),
                Reply::Diagnostic(d) => assert!(!d.contains('\n'), "{d:?}"),
                Reply::Quit => {}
            }
        }
        if replies
            .iter()
            .any(|r| matches!(r, Reply::Out(o) if o.starts_with("===")))
        {
            assert_eq!(before, after, "go plays no move");
        }
        if replies.contains(&Reply::Quit) {
            break;
        }
    }
});
