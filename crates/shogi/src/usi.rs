//! The USI protocol (Universal Shogi Interface), as shogi GUIs (ShogiGUI, Shogidokoro, ...)
//! speak it to an engine: [`UsiSession`] reads the GUI's lines and sends its answers to a
//! channel, so that a search runs on its own thread while the session goes on reading (`stop`
//! must reach it). `prune usi` connects it to stdin and stdout.
//!
//! Commands: `usi`, `isready`, `setoption name N [value V]`, `usinewgame`,
//! `position startpos|sfen S [moves M...]`, `go` with `btime wtime byoyomi binc winc movetime
//! depth nodes infinite ponder`, `stop`, `ponderhit`, `gameover`, `quit`. A line that cannot be
//! obeyed gets an `info string` naming the problem, and the session goes on.
//!
//! Options: `USI_Hash` (MiB), `Preset` (full, exhaustive, plain, minimal), `Eval` (hand:
//! material and king safety; material), `Killers` (0-8), the selective search's switches
//! (`NullMove`, `LMR`, `Futility`, `Razoring`, `IIR`, `LateMovePruning`, `SeePruning`,
//! `Singular`: true or false), `QuiescenceChecks`, `MateInOne`, `ContinuationHistory` and
//! `CheckExtension` (true or false), `RootMateNodes` (the root's mate search, nodes; 0: none),
//! `NetworkDelay` (milliseconds kept back from every allotment
//! for the GUI and the pipe, 60 by default), `Threads` (1 to 256: Lazy SMP, the threads share
//! the table; `go mate` shares out the checks of the searches that shorten a mate).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::engine::{
    Engine, EngineOptions, EvalKind, Iteration, Limits, Selective, MATE, MATE_BOUND,
};
use crate::position::{Color, Position};
use crate::record::GameRecord;

/// The most threads `Threads` accepts.
const MAX_THREADS: usize = 256;

/// Time kept back from every allotment for the GUI and the pipe, unless `NetworkDelay` says.
const MARGIN: Duration = Duration::from_millis(60);

/// A USI session: the position the GUI set, the options, the engine and its search thread.
pub struct UsiSession {
    out: Sender<String>,
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    /// Raised when a `go infinite` (or `go ponder`) may send its best move.
    release: Arc<AtomicBool>,
    /// Raised by `go`, lowered by the search thread just before its best move.
    running: Arc<AtomicBool>,
    options: EngineOptions,
    game: GameRecord,
    search: Option<JoinHandle<()>>,
    /// Whether the running search waits for `stop` before its best move.
    infinite: bool,
    /// Time kept back from every allotment (`NetworkDelay`).
    margin: Duration,
}

/// What a `go` line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Go {
    time: [Option<u64>; 2],
    inc: [Option<u64>; 2],
    byoyomi: Option<u64>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        if word == "infinite" || word == "ponder" {
            go.infinite = true;
            i += 1;
            continue;
        }
        let Some(&text) = words.get(i + 1) else {
            return Err(format!("go: '{word}' needs a value"));
        };
        let number = || {
            text.parse::<u64>()
                .map_err(|_| format!("go {word}: expected a number, got '{text}'"))
        };
        match word {
            "btime" => go.time[0] = Some(number()?),
            "wtime" => go.time[1] = Some(number()?),
            "binc" => go.inc[0] = Some(number()?),
            "winc" => go.inc[1] = Some(number()?),
            "byoyomi" => go.byoyomi = Some(number()?),
            "movetime" => go.movetime = Some(number()?),
            "nodes" => go.nodes = Some(number()?),
            "depth" => {
                let d = number()?;
                if d == 0 || d > u64::from(crate::engine::MAX_DEPTH) {
                    return Err(format!(
                        "go depth: expected 1 to {}, got {d}",
                        crate::engine::MAX_DEPTH
                    ));
                }
                go.depth = Some(d as u32);
            }
            _ => return Err(format!("go: unknown parameter '{word}'")),
        }
        i += 2;
    }
    Ok(go)
}

/// The limits of a `go` for `side`: a fixed time per move, or a share of the clock.
fn limits(go: &Go, side: Color, margin: Duration) -> Limits {
    let ms = Duration::from_millis;
    let mut limits = Limits {
        depth: go.depth,
        nodes: go.nodes,
        ..Limits::default()
    };
    if go.infinite {
        return limits;
    }
    if let Some(t) = go.movetime {
        let t = ms(t).saturating_sub(margin).max(ms(1));
        limits.hard_time = Some(t);
        limits.soft_time = Some(t);
        return limits;
    }
    let i = side as usize;
    let clock = go.time[i];
    let byoyomi = go.byoyomi.unwrap_or(0);
    let inc = go.inc[i].unwrap_or(0);
    if clock.is_none() && byoyomi == 0 && inc == 0 {
        return limits;
    }
    let clock = clock.unwrap_or(0);
    // Never more than the clock and the byoyomi allow; aim at a fortieth of the clock.
    let most = ms(clock + byoyomi + inc).saturating_sub(margin).max(ms(1));
    let hard = ms(clock / 10 + inc + byoyomi).min(most);
    // Byoyomi not spent is lost: on byoyomi alone, start iterations until it is gone (an
    // iteration cut short still counts where its finished root moves found a better one).
    let soft = if clock < byoyomi {
        hard
    } else {
        ms(clock / 40 + inc / 2 + byoyomi / 2).min(hard)
    };
    limits.hard_time = Some(hard.max(ms(1)));
    limits.soft_time = Some(soft);
    limits
}

/// A score as USI writes it: `cp N`, or `mate N` in plies (negative when mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

fn info_line(it: &Iteration) -> String {
    let ms = it.elapsed.as_millis().max(1);
    let nps = u128::from(it.nodes) * 1000 / ms;
    let pv: Vec<String> = it.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv {}",
        it.depth,
        score_text(it.score),
        it.nodes,
        it.elapsed.as_millis(),
        pv.join(" ")
    )
}

impl UsiSession {
    /// A session that sends its lines to `out`.
    pub fn new(out: Sender<String>) -> UsiSession {
        let options = EngineOptions::default();
        let engine = Engine::new(options.clone());
        UsiSession {
            out,
            stop: engine.stop_flag(),
            engine: Arc::new(Mutex::new(engine)),
            release: Arc::new(AtomicBool::new(false)),
            running: Arc::new(AtomicBool::new(false)),
            options,
            game: GameRecord::new(Position::start()),
            search: None,
            infinite: false,
            margin: MARGIN,
        }
    }

    fn send(&self, line: impl Into<String>) {
        // The other end gone means nobody listens: nothing to do.
        let _ = self.out.send(line.into());
    }

    fn problem(&self, text: impl AsRef<str>) {
        self.send(format!("info string {}", text.as_ref()));
    }

    /// The position the GUI set.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Stops the running search, if any, and waits for its best move.
    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.release.store(true, Ordering::Relaxed);
        self.join();
    }

    fn join(&mut self) {
        if let Some(handle) = self.search.take() {
            // A search thread that panicked has already said nothing more to say.
            let _ = handle.join();
        }
    }

    /// At the end of the input: lets a bounded search finish (an infinite one is stopped) and
    /// waits for its best move.
    pub fn finish(&mut self) {
        if self.infinite {
            self.stop_search();
        } else {
            self.join();
        }
    }

    /// Handles one line from the GUI. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            return true;
        };
        match command {
            "usi" => {
                self.send(format!("id name prune {}", env!("CARGO_PKG_VERSION")));
                self.send("id author the prune developers");
                self.send(format!(
                    "option name USI_Hash type spin default {} min 0 max 4096",
                    self.options.hash_mb
                ));
                self.send(format!(
                    "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                    self.options.threads
                ));
                let presets: Vec<String> = EngineOptions::PRESETS
                    .iter()
                    .map(|p| format!("var {p}"))
                    .collect();
                self.send(format!(
                    "option name Preset type combo default full {}",
                    presets.join(" ")
                ));
                self.send(format!(
                    "option name Killers type spin default {} min 0 max 8",
                    self.options.killers
                ));
                let evals: Vec<String> =
                    EvalKind::NAMES.iter().map(|e| format!("var {e}")).collect();
                self.send(format!(
                    "option name Eval type combo default {} {}",
                    self.options.eval.name(),
                    evals.join(" ")
                ));
                self.send(format!(
                    "option name QuiescenceChecks type check default {}",
                    self.options.quiet_checks
                ));
                self.send(format!(
                    "option name MateInOne type check default {}",
                    self.options.mate_in_one
                ));
                self.send(format!(
                    "option name ContinuationHistory type check default {}",
                    self.options.continuation
                ));
                self.send(format!(
                    "option name RootMateNodes type spin default {} min 0 max 100000000",
                    self.options.root_mate_nodes
                ));
                self.send(format!(
                    "option name CheckExtension type check default {}",
                    self.options.check_extension
                ));
                let selective = self.options.selective;
                for name in Selective::NAMES {
                    let on = selective.get(name).expect("a switch");
                    self.send(format!("option name {name} type check default {on}"));
                }
                self.send(format!(
                    "option name NetworkDelay type spin default {} min 0 max 10000",
                    self.margin.as_millis()
                ));
                self.send("usiok");
            }
            "isready" => self.send("readyok"),
            "setoption" => self.set_option(rest),
            "usinewgame" => {
                self.stop_search();
                self.lock_engine().clear();
            }
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "ponderhit" => {
                // Pondering searches as `go infinite`; a hit ends it with its best move.
                self.stop_search();
            }
            "gameover" => self.stop_search(),
            "quit" => {
                self.stop_search();
                return false;
            }
            other => self.problem(format!("unknown command '{other}'")),
        }
        true
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        // A search thread that panicked leaves the engine as it was: still usable.
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let (name, value) = match words.first() {
            Some(&"name") => {
                let rest = &words[1..];
                match rest.iter().position(|&w| w == "value") {
                    Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
                    None => (rest.join(" "), None),
                }
            }
            _ => {
                return self.problem(format!(
                    "setoption: expected 'name N [value V]', got '{text}'"
                ))
            }
        };
        if self.searching() {
            return self.problem(format!("setoption {name}: not while searching"));
        }
        let value = value.unwrap_or_default();
        let number = |max: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("setoption {name}: expected 0 to {max}, got '{value}'"))
        };
        let flag = || -> Result<bool, String> {
            value
                .parse::<bool>()
                .map_err(|_| format!("setoption {name}: expected true or false, got '{value}'"))
        };
        let mut options = self.options.clone();
        let result = match name.as_str() {
            "USI_Hash" => number(4096).map(|n| options.hash_mb = n),
            "Killers" => number(8).map(|n| options.killers = n),
            "Threads" => match number(MAX_THREADS) {
                Ok(0) => Err("setoption Threads: expected 1 to 256, got '0'".into()),
                n => n.map(|n| options.threads = n),
            },
            "Preset" => match EngineOptions::preset(&value) {
                Some(preset) => {
                    options = EngineOptions {
                        hash_mb: options.hash_mb,
                        threads: options.threads,
                        ..preset
                    };
                    Ok(())
                }
                None => Err(format!(
                    "setoption Preset: expected one of {}, got '{value}'",
                    EngineOptions::PRESETS.join(", ")
                )),
            },
            "Eval" => match EvalKind::from_name(&value) {
                Some(eval) => {
                    options.eval = eval;
                    Ok(())
                }
                None => Err(format!(
                    "setoption Eval: expected one of {}, got '{value}'",
                    EvalKind::NAMES.join(", ")
                )),
            },
            "QuiescenceChecks" => flag().map(|on| options.quiet_checks = on),
            "MateInOne" => flag().map(|on| options.mate_in_one = on),
            "RootMateNodes" => number(100_000_000).map(|n| options.root_mate_nodes = n as u64),
            "CheckExtension" => flag().map(|on| options.check_extension = on),
            "ContinuationHistory" => flag().map(|on| options.continuation = on),
            "NetworkDelay" => number(10_000).map(|n| self.margin = Duration::from_millis(n as u64)),
            // Options GUIs send to every engine.
            "USI_Ponder" | "USI_OwnBook" => Ok(()),
            _ => match options.selective.switch(&name) {
                Some(switch) => flag().map(|on| *switch = on),
                None => Err(format!("setoption: unknown option '{name}'")),
            },
        };
        let result = result.and_then(|()| {
            options
                .validate()
                .map_err(|e| format!("setoption {name}: {e}"))
        });
        match result {
            Ok(()) => {
                let set = self.lock_engine().set_options(options.clone());
                match set {
                    Ok(()) => self.options = options,
                    Err(e) => self.problem(format!("setoption {name}: {e}")),
                }
            }
            Err(e) => self.problem(e),
        }
    }

    fn set_position(&mut self, words: &[&str]) {
        let moves_at = words.iter().position(|&w| w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start: Result<Position, String> = match setup.split_first() {
            Some((&"startpos", [])) => Ok(Position::start()),
            Some((&"sfen", sfen)) if !sfen.is_empty() => sfen
                .join(" ")
                .parse()
                .map_err(|e| format!("position sfen: {e}")),
            _ => Err(format!(
                "position: expected 'startpos' or 'sfen S', got '{}'",
                setup.join(" ")
            )),
        };
        let mut game = match start {
            Ok(p) => GameRecord::new(p),
            Err(e) => return self.problem(e),
        };
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = game.play_usi(text) {
                return self.problem(format!("position: move {} ({text}): {e}", i + 1));
            }
        }
        self.game = game;
    }

    fn go(&mut self, words: &[&str]) {
        if self.searching() {
            return self.problem("go: a search is already running");
        }
        self.join();
        if let Some((&"mate", rest)) = words.split_first() {
            return self.go_mate(rest);
        }
        let go = match parse_go(words) {
            Ok(go) => go,
            Err(e) => return self.problem(e),
        };
        let root = self.game.position().clone();
        let history = self.game.history()[..self.game.history().len() - 1].to_vec();
        let limits = limits(&go, root.side_to_move(), self.margin);
        self.infinite = go.infinite;
        self.release.store(!go.infinite, Ordering::Relaxed);
        // Lowered here, before the thread starts, so that a `stop` read next always counts.
        self.stop.store(false, Ordering::Relaxed);
        self.running.store(true, Ordering::SeqCst);
        let (engine, out, release) = (self.engine.clone(), self.out.clone(), self.release.clone());
        let running = self.running.clone();
        self.search = Some(std::thread::spawn(move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            let result = engine.search(&root, &history, limits, &mut |it| {
                let _ = out.send(info_line(it));
            });
            drop(engine);
            // USI: after `go infinite` the best move waits for `stop`.
            while !release.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let line = match result.best {
                Some(mv) => format!("bestmove {mv}"),
                None => "bestmove resign".to_string(),
            };
            running.store(false, Ordering::SeqCst);
            let _ = out.send(line);
        }));
    }
}

impl UsiSession {
    /// `go mate [MS|infinite]`: the mate solver on the position, answered with `checkmate`
    /// and the moves, `checkmate nomate` or `checkmate timeout` (also after `stop`). A
    /// position the solver refuses gets an `info string` with the reason, then `nomate`.
    fn go_mate(&mut self, words: &[&str]) {
        let time = match words {
            [] | ["infinite"] => None,
            [ms] => match ms.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    self.problem(format!(
                        "go mate: expected milliseconds or 'infinite', got '{ms}'"
                    ));
                    return self.send("checkmate nomate");
                }
            },
            _ => {
                self.problem(format!(
                    "go mate: expected milliseconds or 'infinite', got '{}'",
                    words.join(" ")
                ));
                return self.send("checkmate nomate");
            }
        };
        let root = self.game.position().clone();
        let config = crate::mate::MateConfig {
            time,
            max_nodes: u64::MAX,
            // The searches that shorten the mate share out their checks.
            threads: self.options.threads.max(1),
            ..crate::mate::MateConfig::default()
        };
        self.infinite = false;
        self.release.store(true, Ordering::Relaxed);
        self.stop.store(false, Ordering::Relaxed);
        self.running.store(true, Ordering::SeqCst);
        let (stop, out, running) = (self.stop.clone(), self.out.clone(), self.running.clone());
        self.search = Some(std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let result = crate::mate::solve_mate(&root, &config, Some(&stop));
            let line = match result {
                Err(e) => {
                    let _ = out.send(format!("info string go mate: {e}"));
                    "checkmate nomate".to_string()
                }
                Ok(report) => {
                    let _ = out.send(format!(
                        "info string mate search: {} nodes in {} ms",
                        report.nodes,
                        started.elapsed().as_millis()
                    ));
                    match report.outcome {
                        crate::mate::MateOutcome::Mate => {
                            let moves: Vec<String> =
                                report.line.iter().map(ToString::to_string).collect();
                            format!("checkmate {}", moves.join(" "))
                        }
                        crate::mate::MateOutcome::NoMate => "checkmate nomate".to_string(),
                        crate::mate::MateOutcome::Unknown => "checkmate timeout".to_string(),
                    }
                }
            };
            running.store(false, Ordering::SeqCst);
            let _ = out.send(line);
        }));
    }
}

impl Drop for UsiSession {
    fn drop(&mut self) {
        self.stop_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver};

    fn session() -> (UsiSession, Receiver<String>) {
        let (tx, rx) = channel();
        (UsiSession::new(tx), rx)
    }

    /// Lines until one starting with `prefix` (included), waiting up to a minute.
    fn until(rx: &Receiver<String>, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer in time");
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `go mate`: a mate in three answered with its moves; no check at all: `nomate`; a long
    /// problem on 200 ms: `timeout`; `stop` ends an infinite one with `timeout`; bad
    /// arguments and an attacker in check get a reason, then `nomate`; the session goes on.
    #[test]
    fn go_mate_answers_with_checkmate_lines() {
        let (mut s, rx) = session();
        // antma tsume3-02: a mate in 3.
        s.handle("position sfen 3sks3/9/4S4/9/9/8B/9/9/9 b S 1");
        s.handle("go mate 5000");
        let lines = until(&rx, "checkmate");
        let answer = lines.last().unwrap();
        let moves: Vec<&str> = answer.split(' ').skip(1).collect();
        assert_eq!(moves.len(), 3, "{answer}");
        let mut p = s.position().clone();
        for m in &moves {
            p = p.play(p.parse_move(m).unwrap());
        }
        assert!(p.in_check() && p.legal_moves().is_empty(), "{answer}");
        s.handle("position startpos");
        s.handle("go mate infinite");
        assert_eq!(until(&rx, "checkmate").last().unwrap(), "checkmate nomate");
        // Zuko #1, 69 plies: not in 200 ms.
        s.handle(
            "position sfen 1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
        );
        s.handle("go mate 200");
        assert_eq!(until(&rx, "checkmate").last().unwrap(), "checkmate timeout");
        s.handle("go mate infinite");
        std::thread::sleep(Duration::from_millis(100));
        s.handle("stop");
        assert_eq!(until(&rx, "checkmate").last().unwrap(), "checkmate timeout");
        s.handle("go mate soon");
        let lines = until(&rx, "checkmate");
        assert!(lines[0].starts_with("info string go mate: expected milliseconds"));
        assert_eq!(lines.last().unwrap(), "checkmate nomate");
        s.handle("position sfen 4r4/9/9/9/9/9/9/9/4K1k2 b - 1");
        s.handle("go mate 1000");
        let lines = until(&rx, "checkmate");
        assert!(lines[0].contains("in check"), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "checkmate nomate");
        s.handle("isready");
        assert_eq!(until(&rx, "readyok"), ["readyok"]);
    }

    #[test]
    fn a_scripted_session() {
        let (mut s, rx) = session();
        s.handle("usi");
        let lines = until(&rx, "usiok");
        assert!(lines[0].starts_with("id name prune"));
        assert!(lines.iter().any(|l| l.starts_with("option name USI_Hash")));
        s.handle("isready");
        assert_eq!(until(&rx, "readyok"), ["readyok"]);
        s.handle("usinewgame");
        s.handle("position startpos moves 7g7f 3c3d");
        assert_eq!(
            s.position().to_string(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        s.handle("go depth 3");
        let lines = until(&rx, "bestmove");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(infos.len(), 3, "{lines:?}");
        assert!(infos[2].contains(" score cp ") && infos[2].contains(" pv "));
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        assert!(s.position().parse_move(best).is_ok(), "{best}");
        // A mate in one, from an SFEN.
        s.handle("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        s.handle("go btime 1000 wtime 1000 byoyomi 100");
        let lines = until(&rx, "bestmove");
        assert_eq!(lines.last().unwrap(), "bestmove G*5b");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
        // The root's mate search, asked for by its option, answers a long mate with its score.
        s.handle("setoption name RootMateNodes value 100000");
        s.handle("position sfen 9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1");
        s.handle("go byoyomi 1000");
        let lines = until(&rx, "bestmove");
        assert!(
            lines.iter().any(|l| l.contains("score mate 21")),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "bestmove 2h2g");
        s.handle("setoption name RootMateNodes value lots");
        let error = until(&rx, "info string");
        assert!(error[0].contains("RootMateNodes"), "{error:?}");
        s.handle("setoption name RootMateNodes value 0");
        // The mated side resigns.
        s.handle("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b");
        s.handle("go byoyomi 100");
        assert_eq!(until(&rx, "bestmove"), ["bestmove resign"]);
        assert!(!s.handle("quit"));
    }

    #[test]
    fn go_infinite_waits_for_stop() {
        let (mut s, rx) = session();
        s.handle("position startpos");
        s.handle("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        assert!(s.searching());
        s.handle("isready");
        let mut lines = until(&rx, "readyok");
        assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
        s.handle("stop");
        lines.extend(until(&rx, "bestmove"));
        assert!(lines.iter().any(|l| l.starts_with("info depth")));
        assert!(!s.searching());
    }

    #[test]
    fn bad_lines_get_an_info_string_and_the_session_goes_on() {
        let (mut s, rx) = session();
        let cases = [
            ("hello", "unknown command 'hello'"),
            ("position", "position: expected 'startpos' or 'sfen S'"),
            ("position sfen 9/9/9 b - 1", "position sfen: "),
            ("position startpos moves 7g7f 7g7f", "move 2 (7g7f)"),
            ("position startpos moves 7g7e", "move 1 (7g7e)"),
            ("go depth x", "go depth: expected a number, got 'x'"),
            ("go depth 0", "go depth: expected 1 to"),
            ("go movetime", "go: 'movetime' needs a value"),
            ("go sideways 3", "go: unknown parameter 'sideways'"),
            (
                "setoption name Preset value fast",
                "expected one of full, exhaustive, plain, minimal",
            ),
            (
                "setoption name NullMove value maybe",
                "setoption NullMove: expected true or false, got 'maybe'",
            ),
            (
                "setoption name USI_Hash value lots",
                "setoption USI_Hash: expected 0 to 4096",
            ),
            (
                "setoption name Threads value 0",
                "setoption Threads: expected 1 to 256, got '0'",
            ),
            (
                "setoption name Threads value 999",
                "setoption Threads: expected 0 to 256, got '999'",
            ),
            ("setoption name Colour value red", "unknown option 'Colour'"),
            ("setoption Preset full", "expected 'name N [value V]'"),
        ];
        for (line, expected) in cases {
            assert!(s.handle(line));
            let answer = rx.recv_timeout(Duration::from_secs(5)).unwrap();
            assert!(
                answer.starts_with("info string ") && answer.contains(expected),
                "{line}: {answer}"
            );
        }
        // The position is still the start, and the session still searches.
        assert_eq!(s.position(), &Position::start());
        s.handle("setoption name Preset value plain");
        s.handle("setoption name Killers value 3");
        let answer = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(
            answer,
            "info string setoption Killers: killer moves need the staged picker"
        );
        s.handle("setoption name USI_Hash value 1");
        s.handle("setoption name NetworkDelay value 10");
        s.handle("go depth 2");
        assert!(until(&rx, "bestmove")[0].starts_with("info depth 1"));
        // Two threads need the table: refused without one, searched with one.
        s.handle("setoption name USI_Hash value 0");
        s.handle("setoption name Threads value 2");
        let answer = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(answer.contains("needs a transposition table"), "{answer}");
        s.handle("setoption name USI_Hash value 1");
        s.handle("setoption name Threads value 2");
        s.handle("go depth 3");
        let lines = until(&rx, "bestmove");
        assert!(lines[2].starts_with("info depth 3"), "{lines:?}");
    }

    #[test]
    fn the_clock_is_shared_out() {
        let go = parse_go(&["btime", "60000", "wtime", "1000", "byoyomi", "500"]).unwrap();
        let black = limits(&go, Color::Black, MARGIN);
        assert_eq!(black.hard_time, Some(Duration::from_millis(6_500)));
        assert_eq!(black.soft_time, Some(Duration::from_millis(1_750)));
        let white = limits(&go, Color::White, MARGIN);
        assert_eq!(white.hard_time, Some(Duration::from_millis(600)));
        // Byoyomi only: never past it.
        let go = parse_go(&["btime", "0", "wtime", "0", "byoyomi", "1000"]).unwrap();
        let l = limits(&go, Color::Black, MARGIN);
        assert_eq!(l.hard_time, Some(Duration::from_millis(1000) - MARGIN));
        assert_eq!(l.soft_time, Some(Duration::from_millis(1000) - MARGIN));
        let l = limits(&go, Color::Black, Duration::from_millis(10));
        assert_eq!(l.hard_time, Some(Duration::from_millis(990)));
    }
}
