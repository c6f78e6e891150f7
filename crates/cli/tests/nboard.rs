//! `prune nboard` driven like the NBoard GUI drives it: commands on stdin, replies on stdout,
//! diagnostics on stderr.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use prune_othello::{Move, Position};
use prune_play::ggf::parse_ggf;
use prune_search::Game;

use common::prune_with_input;

/// The start position and four moves.
const GAME: &str = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0]TY[8]\
    BO[8 ---------------------------O*------*O--------------------------- *]\
    B[F5]W[F6]B[E6]W[F4];)";

/// A finished game: every square black.
fn finished_game() -> String {
    format!("(;GM[Othello]BO[8 {} *];)", "*".repeat(64))
}

/// How long a reply may take (depths are small; this only stops a hung engine).
const PATIENCE: Duration = Duration::from_secs(120);

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .arg("nboard")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the prune binary runs")
}

/// An engine talked to line by line.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: JoinHandle<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = spawn(args);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Engine {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// The stdout lines up to and including the first that `done` accepts.
    fn read_until(&self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let last = done(&line);
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                Err(e) => panic!("waiting for {what}: {e}; stdout so far: {seen:?}"),
            }
        }
    }

    /// Sends `ping n` and returns the lines before its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.read_until(&pong, |l| l == pong);
        lines.pop();
        lines
    }
}

/// The moves of a `search` pv such as `F5d6C3`, played from `position` (each must be legal).
fn check_pv(position: &Position, pv: &str) -> Move {
    assert!(pv.is_ascii() && pv.len() >= 2, "pv {pv}");
    let mut p = *position;
    for chunk in pv.as_bytes().chunks(2) {
        assert_eq!(chunk.len(), 2, "pv {pv}: moves are two characters");
        let text = std::str::from_utf8(chunk).unwrap();
        let mv: Move = text.parse().unwrap_or_else(|e| panic!("{pv}: {e}"));
        p = p.play(mv).unwrap_or_else(|e| panic!("pv {pv}: {e}"));
    }
    pv[..2].parse().unwrap()
}

#[test]
fn a_gui_session_sets_a_game_asks_for_moves_and_hints() {
    let mut engine = Engine::start(&["--threads", "1"]);
    let game = parse_ggf(GAME).unwrap();
    let position = *game.current();

    engine.send("nboard 2");
    engine.send("set depth 4");
    engine.send(&format!("set game {GAME}"));
    let before = engine.sync(1);
    assert!(
        before.contains(&"set myname prune-fast-selectivity-2.0-d4".to_string()),
        "{before:?}"
    );

    engine.send("go");
    let go = engine.read_until("=== after go", |l| l.starts_with("=== "));
    assert!(
        go.contains(&"status prune is thinking".to_string()),
        "{go:?}"
    );
    let answer = go.last().unwrap().strip_prefix("=== ").unwrap().to_string();
    let fields: Vec<&str> = answer.split('/').collect();
    assert_eq!(fields.len(), 3, "{answer}");
    let mv: Move = fields[0].parse().unwrap();
    assert!(position.is_legal(mv), "{answer} in {position}");
    assert!(fields[1].parse::<f64>().is_ok(), "{answer}");
    assert!(fields[2].parse::<f64>().unwrap() >= 0.0, "{answer}");

    // The GUI plays the engine's move, then asks for hints on the reply.
    engine.send(&format!("move {}/{}/{}", fields[0], fields[1], fields[2]));
    let after = position.play(mv).unwrap();
    engine.send("hint 3");
    let hint = engine.sync(2);
    let searches: Vec<&String> = hint.iter().filter(|l| l.starts_with("search ")).collect();
    assert!(!searches.is_empty(), "{hint:?}");
    assert!(
        searches.len() <= 3.min(after.legal_moves().len()),
        "{hint:?}"
    );
    let mut firsts = Vec::new();
    for line in &searches {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        firsts.push(check_pv(&after, fields[1]));
        assert!(fields[2].parse::<f64>().is_ok(), "{line}");
        assert_eq!(fields[3], "0", "{line}");
    }
    firsts.dedup();
    assert_eq!(firsts.len(), searches.len(), "{searches:?}");
    assert_eq!(hint.last().unwrap(), "status", "{hint:?}");

    engine.send("learn");
    assert_eq!(
        engine.read_until("learned", |l| l == "learned"),
        ["learned"]
    );

    // quit ends the engine while its input is still open.
    engine.send("quit");
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let err = engine.stderr.join().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    drop(engine.stdin.take());
}

/// Runs a whole script and returns the output once stdin is closed.
fn run_script(args: &[&str], lines: &[String]) -> Output {
    let mut all = vec!["nboard"];
    all.extend_from_slice(args);
    prune_with_input(&all, &(lines.join("\n") + "\n"))
}

#[test]
fn bad_lines_get_diagnostics_and_the_engine_keeps_going() {
    let script: Vec<String> = [
        "nboard 2",
        "set depth 3",
        &format!("set game {GAME}"),
        "move z9",
        "move a1",
        "set game garbage",
        "set depth x",
        "frobnicate",
        "",
        "ping",
        "ping 1",
        &format!("set game {}", finished_game()),
        "go",
        &format!("set game {GAME}"),
        "hint 1",
        "ping 9",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let o = run_script(&["--threads", "1"], &script);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    // The end of the input ends the engine normally.
    assert!(o.status.success(), "{:?}: {err}", o.status);
    assert!(!err.contains("panicked"), "{err}");
    for (line, what) in [
        ("'move z9'", "bad move"),
        ("'move a1'", "not legal"),
        ("'set game garbage'", "GGF"),
        ("'set depth x'", "not a depth"),
        ("'frobnicate'", "unknown command"),
        ("''", "empty line"),
        ("'ping'", "not a ping number"),
        ("'go'", "the game is over"),
    ] {
        let diagnostic = err
            .lines()
            .find(|l| l.contains(line))
            .unwrap_or_else(|| panic!("no diagnostic for {line} in:\n{err}"));
        assert!(diagnostic.contains(what), "{diagnostic}");
    }
    let lines: Vec<&str> = out.lines().collect();
    // No move for the finished game; the depth was not changed by 'set depth x'.
    assert!(!lines.iter().any(|l| l.starts_with("===")), "{out}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("set myname"))
            .copied()
            .collect::<Vec<_>>(),
        [
            "set myname prune-fast-selectivity-2.0-d12",
            "set myname prune-fast-selectivity-2.0-d3"
        ],
        "{out}"
    );
    // The game set last (bad lines in between changed nothing) is the one hinted.
    let position = *parse_ggf(GAME).unwrap().current();
    let search = lines
        .iter()
        .find(|l| l.starts_with("search "))
        .unwrap_or_else(|| panic!("no search line in {out}"));
    check_pv(&position, search.split(' ').nth(1).unwrap());
    let pong1 = lines.iter().position(|l| *l == "pong 1");
    let pong9 = lines.iter().position(|l| *l == "pong 9");
    let search_at = lines.iter().position(|l| l.starts_with("search "));
    assert!(
        pong1.is_some() && pong1 < search_at && search_at < pong9,
        "{out}"
    );
    assert_eq!(lines.last(), Some(&"pong 9"), "{out}");
}

#[test]
fn a_time_per_move_engine_answers() {
    let script: Vec<String> = ["nboard 2", "go", "ping 3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = run_script(&["--time-per-move", "50", "--threads", "1"], &script);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("set myname prune-fast-selectivity-2.0-50ms"),
        "{out}"
    );
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no move in {out}"));
    let mv: Move = answer.split('/').next().unwrap().parse().unwrap();
    assert!(Position::START.is_legal(mv), "{answer}");
    assert!(out.trim_end().ends_with("pong 3"), "{out}");
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, expected) in [
        (&["--depth", "0"][..], "--depth must be 1 to 60"),
        (&["--depth", "61"][..], "--depth must be 1 to 60"),
        (&["--time-per-move", "0"][..], "--time-per-move"),
        (&["--preset", "nope"][..], "--preset: unknown preset 'nope'"),
        (&["--algorithm", "nope"][..], "--algorithm"),
        (&["--parallel", "nope"][..], "--parallel"),
    ] {
        let o = run_script(args, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
