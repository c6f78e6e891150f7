//! An external engine that speaks the NBoard protocol, as an [`Agent`].
//!
//! The engine is started as a subprocess (the command split on whitespace: a program and its
//! arguments, no shell). It is sent `nboard N` ([`ExternalOptions::protocol`], 1 by default:
//! Edax 4.6 expects 1 (it writes an error for 2 and goes on), and prune's own `prune nboard`
//! takes any) and a `ping`, and must answer `pong` within [`ExternalOptions::start_timeout`].
//! That wait is long by default, as an engine may be slow to start: Edax 4.6 in NBoard mode,
//! without an opening book file, starts a new book by searching the start position at its level
//! (21 by default) before it answers anything, for tens of seconds.
//! [`ExternalEngine::start_reporting`] takes a callback told every
//! [`ExternalOptions::report_every`] how long the wait has lasted.
//! Whatever the engine writes before the `pong` is ignored, and so is all its standard error
//! (read all along, so that it never blocks the engine; its last lines go into error messages).
//! Output that is not UTF-8 is read with replacement characters. A `set myname NAME` line names
//! the engine (Edax sends one only after `set depth`). For each move it is
//! sent `set depth D` (when the budget has a depth and the engine has not been told it yet),
//! `set game <GGF>`, `ping k` and `go`. Lines before `pong k` are stale and ignored; the first
//! `=== MOVE` after it is the answer (`=== F5`, `=== F5/-1.5/0.2` or `=== f5 -1.5 0.2`), and
//! `nodestats N T` lines give the node count. `status`, `search` and other lines are ignored.
//!
//! The engine is given at most the move's time × [`ExternalOptions::time_factor`] +
//! [`ExternalOptions::time_margin`] (or [`ExternalOptions::untimed_limit`] when the move has no
//! time, as at a fixed depth); an engine that does not answer in time, or dies, makes
//! [`Agent::choose`] return an [`AgentError`], and it is started again for the next game. The
//! child is killed when the agent is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use prune_othello::Move;

use crate::ggf::to_ggf;
use crate::{Agent, AgentError, Budget, GameRecord, Thought};

/// The longest any answer is waited for (a year: no limit in practice, and no overflow).
pub const MAX_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// Lines of the engine's standard error kept for error messages.
const STDERR_LINES: usize = 5;

/// How long the last words of an engine that has exited are waited for.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// The longest line of the engine's standard error kept for error messages, in characters.
const STDERR_LINE_CHARS: usize = 200;

/// How an external engine is spoken to, and limits on its answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExternalOptions {
    /// The protocol version sent first, as `nboard N`.
    pub protocol: u32,
    /// How long the engine may take to start and answer the first `ping`.
    pub start_timeout: Duration,
    /// How often a start-up wait is reported to the callback of
    /// [`ExternalEngine::start_reporting`].
    pub report_every: Duration,
    /// A move with a time budget may take this many times that budget...
    pub time_factor: f64,
    /// ...plus this.
    pub time_margin: Duration,
    /// The limit of a move whose budget has no time (a fixed depth).
    pub untimed_limit: Duration,
}

impl Default for ExternalOptions {
    fn default() -> Self {
        ExternalOptions {
            protocol: 1,
            start_timeout: Duration::from_secs(120),
            report_every: Duration::from_secs(5),
            time_factor: 2.0,
            time_margin: Duration::from_secs(1),
            untimed_limit: Duration::from_secs(60),
        }
    }
}

impl ExternalOptions {
    /// How long the engine may take over a move with `budget` (at most [`MAX_LIMIT`]).
    pub fn limit(&self, budget: &Budget) -> Duration {
        let secs = match budget.time {
            Some(t) => t.as_secs_f64() * self.time_factor.max(1.0) + self.time_margin.as_secs_f64(),
            None => self.untimed_limit.as_secs_f64(),
        };
        Duration::try_from_secs_f64(secs).map_or(MAX_LIMIT, |limit| limit.min(MAX_LIMIT))
    }
}

/// A running engine process and the threads that read its output.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<StderrTail>,
}

/// The last lines of an engine's standard error, and whether it has closed.
#[derive(Default)]
struct StderrTail {
    state: Mutex<(VecDeque<String>, bool)>,
    closed: Condvar,
}

impl StderrTail {
    /// Reads `from` to its end, keeping the last lines.
    fn keep(&self, from: Receiver<String>) {
        for line in from {
            if let Ok(mut state) = self.state.lock() {
                let lines = &mut state.0;
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(line.chars().take(STDERR_LINE_CHARS).collect());
            }
        }
        if let Ok(mut state) = self.state.lock() {
            state.1 = true;
        }
        self.closed.notify_all();
    }

    /// The last lines, after waiting up to `wait` for the stream to close (so that an engine
    /// that has exited has its last words read).
    fn lines(&self, wait: Duration) -> Vec<String> {
        let Ok(state) = self.state.lock() else {
            return Vec::new();
        };
        match self.closed.wait_timeout_while(state, wait, |s| !s.1) {
            Ok((state, _)) => state.0.iter().cloned().collect(),
            Err(_) => Vec::new(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `from` line by line into a channel until it closes or fails (bytes that are not UTF-8
/// become replacement characters, and a line end may be `\n` or `\r\n`).
fn forward_lines(from: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(from);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&bytes);
            let line = text.trim_end_matches(['\n', '\r']).to_string();
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// How long an engine has been starting, as told to the callback of
/// [`ExternalEngine::start_reporting`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartWait<'a> {
    /// The engine's name (its program's file name until it names itself).
    pub engine: &'a str,
    /// How long it has been waited for.
    pub waited: Duration,
    /// How long it will be waited for in all ([`ExternalOptions::start_timeout`]).
    pub limit: Duration,
}

/// A callback told about a start-up wait (see [`ExternalEngine::start_reporting`]).
pub type StartReport = Box<dyn FnMut(StartWait<'_>) + Send>;

/// What [`ExternalEngine::receive`] got by its deadline.
enum Received {
    Line(String),
    Nothing,
}

/// An NBoard engine run as a subprocess.
pub struct ExternalEngine {
    command: String,
    options: ExternalOptions,
    name: String,
    process: Option<Process>,
    /// The last `ping` number sent.
    ping: u64,
    /// The depth the engine was last told.
    depth: Option<u32>,
    /// Why the engine is unusable until it is started again.
    broken: Option<String>,
    /// Told about start-up waits (the first start and restarts after a failure).
    report: Option<StartReport>,
}

impl ExternalEngine {
    /// Starts `command` (a program and its arguments, split on whitespace) and checks that it
    /// speaks NBoard.
    pub fn start(command: &str, options: ExternalOptions) -> Result<ExternalEngine, AgentError> {
        Self::launched(command, options, None)
    }

    /// As [`ExternalEngine::start`], and while the engine has not answered its first `ping`,
    /// `report` is called every [`ExternalOptions::report_every`] with how long it has been
    /// waited for; so it is again whenever the engine is restarted after a failure. (The
    /// library prints nothing: the caller decides how to show the wait.)
    pub fn start_reporting(
        command: &str,
        options: ExternalOptions,
        report: impl FnMut(StartWait<'_>) + Send + 'static,
    ) -> Result<ExternalEngine, AgentError> {
        Self::launched(command, options, Some(Box::new(report)))
    }

    /// An engine of `command`, started.
    fn launched(
        command: &str,
        options: ExternalOptions,
        report: Option<StartReport>,
    ) -> Result<ExternalEngine, AgentError> {
        let program = command
            .split_whitespace()
            .next()
            .ok_or_else(|| AgentError("the engine command is empty".into()))?;
        let name = std::path::Path::new(program)
            .file_name()
            .map_or(program.to_string(), |n| n.to_string_lossy().into_owned());
        let mut engine = ExternalEngine {
            command: command.to_string(),
            options,
            name,
            process: None,
            ping: 0,
            depth: None,
            broken: None,
            report,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Starts the process and waits for its first `pong`.
    fn launch(&mut self) -> Result<(), AgentError> {
        self.process = None;
        self.depth = None;
        self.broken = None;
        let mut words = self.command.split_whitespace();
        let program = words.next().unwrap_or_default();
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| AgentError(format!("cannot start engine '{}': {e}", self.command)))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(AgentError(format!(
                "engine '{}': no pipes to talk to it",
                self.command
            )));
        };
        let tail = Arc::new(StderrTail::default());
        let errors = forward_lines(stderr);
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || keep.keep(errors));
        self.process = Some(Process {
            child,
            stdin,
            lines: forward_lines(stdout),
            stderr: tail,
        });
        self.send(&format!("nboard {}", self.options.protocol))?;
        self.wait_for_start()
    }

    /// Sends the first `ping` and waits for its `pong`, reporting the wait.
    fn wait_for_start(&mut self) -> Result<(), AgentError> {
        let started = Instant::now();
        let limit = self.options.start_timeout.min(MAX_LIMIT);
        let deadline = started + limit;
        // A zero interval would report without end: at least a millisecond between reports.
        let every = self
            .options
            .report_every
            .clamp(Duration::from_millis(1), MAX_LIMIT);
        let mut next_report = started + every;
        let waiting = "while starting";
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        loop {
            let until = if self.report.is_some() {
                deadline.min(next_report)
            } else {
                deadline
            };
            match self.receive(until, waiting)? {
                Received::Line(line) if is_pong(&line, ping) => return Ok(()),
                Received::Line(_) => {}
                Received::Nothing if Instant::now() >= deadline => {
                    let secs = limit.as_secs_f64();
                    return Err(self.fail(format!(
                        "no answer in time {waiting} (waited {secs:.1} s for 'pong {ping}')"
                    )));
                }
                Received::Nothing => {
                    if let Some(report) = &mut self.report {
                        report(StartWait {
                            engine: &self.name,
                            waited: started.elapsed(),
                            limit,
                        });
                    }
                    next_report += every;
                }
            }
        }
    }

    /// Marks the engine unusable and returns the error, with the last lines of its standard
    /// error (waited for a moment when it `exited`).
    fn fail(&mut self, message: String) -> AgentError {
        self.fail_after(message, Duration::ZERO)
    }

    /// As [`Self::fail`], waiting up to `wait` for the engine's standard error to close.
    fn fail_after(&mut self, message: String, wait: Duration) -> AgentError {
        let mut message = format!("engine {}: {message}", self.name);
        if let Some(p) = &self.process {
            let lines = p.stderr.lines(wait);
            if !lines.is_empty() {
                message.push_str(&format!(" (its last errors: {})", lines.join(" | ")));
            }
        }
        self.broken = Some(message.clone());
        AgentError(message)
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), AgentError> {
        let written = match &mut self.process {
            Some(p) => writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush()),
            None => return Err(AgentError(format!("engine {} is not running", self.name))),
        };
        written.map_err(|e| self.fail(format!("cannot write to it ({e}); did it exit?")))
    }

    /// The next line, by `deadline`; none in time is an error.
    fn read_line(&mut self, deadline: Instant, waiting: &str) -> Result<String, AgentError> {
        match self.receive(deadline, waiting)? {
            Received::Line(line) => Ok(line),
            Received::Nothing => Err(self.fail(format!("no answer in time {waiting}"))),
        }
    }

    /// The next line, or nothing by `deadline`; an engine that has exited is an error.
    fn receive(&mut self, deadline: Instant, waiting: &str) -> Result<Received, AgentError> {
        let received = match &self.process {
            Some(p) => p
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => return Err(AgentError(format!("engine {} is not running", self.name))),
        };
        match received {
            Ok(line) => {
                if let Some(name) = line.trim().strip_prefix("set myname ") {
                    if !name.trim().is_empty() {
                        self.name = name.trim().to_string();
                    }
                }
                Ok(Received::Line(line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(Received::Nothing),
            Err(RecvTimeoutError::Disconnected) => {
                // The output is closed; the process has probably exited, but do not wait for it
                // (it is killed when dropped).
                let status = self
                    .process
                    .as_mut()
                    .and_then(|p| exit_status(&mut p.child))
                    .map_or(String::new(), |s| format!(" ({s})"));
                Err(self.fail_after(format!("exited{status} {waiting}"), EXIT_WAIT))
            }
        }
    }
}

/// How `child` exited, if it does within a moment (it is not waited for longer: a process that
/// closed its output may still run).
fn exit_status(child: &mut Child) -> Option<ExitStatus> {
    for _ in 0..20 {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => return None,
        }
    }
    None
}

/// Whether `line` is `pong k`.
fn is_pong(line: &str, k: u64) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("pong") && words.next().and_then(|n| n.parse().ok()) == Some(k)
}

/// Reads the answer of a `go`: `=== F5`, `=== F5/-1.5/0.2` or `=== f5 -1.5 0.2`; `None` if
/// `line` is not one. The move may be bad (`Err`).
pub fn parse_answer(line: &str) -> Option<Result<(Move, Option<f64>), String>> {
    let rest = line.trim().strip_prefix("===")?;
    let mut fields = rest
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|f| !f.is_empty());
    let Some(mv) = fields.next() else {
        return Some(Err(format!("an answer without a move: '{line}'")));
    };
    let eval = fields.next().and_then(|e| e.parse::<f64>().ok());
    Some(
        mv.parse::<Move>()
            .map(|mv| (mv, eval))
            .map_err(|e| format!("a bad move in '{}': {e}", line.trim())),
    )
}

impl Agent for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Starts the engine again if it failed in the last game.
    fn new_game(&mut self) {
        if self.broken.is_some() {
            if let Err(e) = self.launch() {
                self.broken = Some(e.0);
            }
        }
    }

    fn choose(&mut self, game: &GameRecord, budget: &Budget) -> Result<Thought, AgentError> {
        if let Some(why) = &self.broken {
            return Err(AgentError(why.clone()));
        }
        let start = Instant::now();
        let deadline = start + self.options.limit(budget);
        if let Some(depth) = budget.depth {
            if self.depth != Some(depth) {
                self.send(&format!("set depth {depth}"))?;
                self.depth = Some(depth);
            }
        }
        self.send(&format!("set game {}", to_ggf(game, "black", "white")))?;
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        self.send("go")?;
        let waiting = "while thinking about a move";
        // Everything before our pong answers an earlier request.
        while !is_pong(&self.read_line(deadline, waiting)?, ping) {}
        let mut nodes = 0;
        loop {
            let line = self.read_line(deadline, waiting)?;
            if let Some(answer) = parse_answer(&line) {
                let (mv, eval) = answer.map_err(|e| AgentError(format!("{}: {e}", self.name)))?;
                return Ok(Thought {
                    mv,
                    eval: eval.unwrap_or(0.0),
                    exact: false,
                    depth: budget.depth.unwrap_or(0),
                    pv: vec![mv],
                    nodes,
                    time: start.elapsed(),
                });
            }
            let mut words = line.split_whitespace();
            if words.next() == Some("nodestats") {
                nodes = words.next().and_then(|n| n.parse().ok()).unwrap_or(nodes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_every_form() {
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(parse_answer("=== F5"), Some(Ok((f5, None))));
        assert_eq!(parse_answer("=== F5/-1.50/0.2"), Some(Ok((f5, Some(-1.5)))));
        assert_eq!(parse_answer("  === f5 3.00 0.0"), Some(Ok((f5, Some(3.0)))));
        assert_eq!(parse_answer("=== PA"), Some(Ok((Move::PASS, None))));
        assert!(matches!(parse_answer("=== Z9"), Some(Err(e)) if e.contains("Z9")));
        assert!(matches!(parse_answer("==="), Some(Err(_))));
        assert_eq!(parse_answer("status thinking"), None);
        assert!(is_pong("pong 3", 3) && !is_pong("pong 2", 3) && !is_pong("ping 3", 3));
    }

    #[test]
    fn limits_follow_the_budget() {
        let o = ExternalOptions::default();
        assert_eq!(
            o.limit(&Budget::time(Duration::from_millis(100))),
            Duration::from_millis(1200)
        );
        assert_eq!(o.limit(&Budget::depth(4)), o.untimed_limit);
        assert_eq!(o.limit(&Budget::time(Duration::MAX)), MAX_LIMIT);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let e = ExternalEngine::start("/nonexistent/engine --x", ExternalOptions::default())
            .err()
            .expect("no such program");
        assert!(e.0.contains("cannot start engine"), "{e}");
        assert!(ExternalEngine::start("   ", ExternalOptions::default()).is_err());
    }

    /// Fake engines: small shell scripts (Unix only).
    #[cfg(unix)]
    mod fake {
        use super::*;
        use std::path::PathBuf;

        fn script(name: &str, body: &str) -> PathBuf {
            use std::os::unix::fs::PermissionsExt;
            let dir =
                std::env::temp_dir().join(format!("prune-fake-engines-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path
        }

        fn quick() -> ExternalOptions {
            ExternalOptions {
                protocol: 2,
                start_timeout: Duration::from_secs(5),
                report_every: Duration::from_secs(1),
                time_factor: 1.0,
                time_margin: Duration::from_millis(300),
                untimed_limit: Duration::from_millis(300),
            }
        }

        /// Answers every ping, and `go` with a stale answer first, then `answer`.
        fn answering(name: &str, answer: &str) -> PathBuf {
            script(
                name,
                &format!(
                    "echo '=== A1'\n\
                     while read cmd arg rest; do\n\
                       case \"$cmd\" in\n\
                         nboard) echo 'set myname Fake 1' ;;\n\
                         ping) echo \"pong $arg\" ;;\n\
                         go) echo 'status thinking'; echo 'nodestats 1234 0.1'; echo '{answer}' ;;\n\
                         quit) exit 0 ;;\n\
                       esac\n\
                     done\n"
                ),
            )
        }

        #[test]
        fn a_fake_engine_answers_and_is_named() {
            let path = answering("good.sh", "=== F5/0.5/0.1");
            let mut e = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            assert_eq!(e.name(), "Fake 1");
            let game = GameRecord::default();
            for _ in 0..3 {
                let t = e.choose(&game, &Budget::depth(3)).unwrap();
                assert_eq!(t.mv, "f5".parse().unwrap());
                assert_eq!((t.eval, t.nodes, t.depth), (0.5, 1234, 3));
            }
        }

        #[test]
        fn silence_and_death_are_errors_then_it_restarts() {
            let path = script(
                "silent.sh",
                "while read cmd arg rest; do\n\
                   case \"$cmd\" in ping) echo \"pong $arg\" ;; esac\n\
                 done\n",
            );
            let mut e = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            let start = Instant::now();
            let err = e
                .choose(&GameRecord::default(), &Budget::depth(2))
                .unwrap_err();
            assert!(err.0.contains("no answer in time while thinking"), "{err}");
            assert!(start.elapsed() < Duration::from_secs(5));
            // Broken until the next game, which starts it again.
            assert!(e.choose(&GameRecord::default(), &Budget::depth(2)).is_err());
            e.new_game();
            assert!(e.broken.is_none());

            let path = script(
                "dying.sh",
                "while read cmd arg rest; do\n\
                   case \"$cmd\" in\n\
                     ping) echo \"pong $arg\" ;;\n\
                     go) echo 'out of luck' >&2; exit 3 ;;\n\
                   esac\n\
                 done\n",
            );
            let mut e = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            let err = e
                .choose(&GameRecord::default(), &Budget::depth(2))
                .unwrap_err();
            assert!(err.0.contains("exited"), "{err}");

            let path = script("mute.sh", "sleep 5\n");
            let opts = ExternalOptions {
                start_timeout: Duration::from_millis(300),
                ..quick()
            };
            let err = ExternalEngine::start(path.to_str().unwrap(), opts)
                .err()
                .expect("no pong");
            assert!(err.0.contains("no answer in time while starting"), "{err}");
        }

        #[test]
        fn a_slow_start_is_reported_until_the_engine_answers() {
            // The engine answers only once the report has been made (a file appears), so the
            // test does not depend on how fast anything runs.
            let dir = script("unused", "").with_file_name("slow-start");
            let _ = std::fs::remove_dir_all(&dir);
            let path = script(
                "slow.sh",
                &format!(
                    "while [ ! -d '{}' ]; do sleep 0.05; done\n\
                     while read cmd arg rest; do\n\
                       case \"$cmd\" in ping) echo \"pong $arg\" ;; esac\n\
                     done\n",
                    dir.display()
                ),
            );
            let opts = ExternalOptions {
                start_timeout: Duration::from_secs(600),
                report_every: Duration::from_millis(20),
                ..quick()
            };
            let reports = Arc::new(Mutex::new(Vec::new()));
            let seen = Arc::clone(&reports);
            let e = ExternalEngine::start_reporting(path.to_str().unwrap(), opts, move |w| {
                seen.lock()
                    .unwrap()
                    .push((w.engine.to_string(), w.waited, w.limit));
                let _ = std::fs::create_dir_all(&dir);
            })
            .unwrap();
            let reports = reports.lock().unwrap();
            assert!(!reports.is_empty());
            for (i, (engine, waited, limit)) in reports.iter().enumerate() {
                assert_eq!((engine.as_str(), *limit), ("slow.sh", opts.start_timeout));
                assert!(i == 0 || *waited >= reports[i - 1].1);
            }
            assert_eq!(e.name(), "slow.sh");
        }

        #[test]
        fn the_protocol_version_is_the_one_asked_for() {
            // Stricter than Edax 4.6, which writes this error and goes on.
            let path = script(
                "version1.sh",
                "while read cmd arg rest; do\n\
                   case \"$cmd\" in\n\
                     nboard) [ \"$arg\" = 1 ] || { echo 'expected \"nboard 1\"' >&2; exit 1; } ;;\n\
                     ping) echo \"pong $arg\" ;;\n\
                   esac\n\
                 done\n",
            );
            let v1 = ExternalOptions {
                protocol: 1,
                ..quick()
            };
            assert!(ExternalEngine::start(path.to_str().unwrap(), v1).is_ok());
            let err = ExternalEngine::start(path.to_str().unwrap(), quick())
                .err()
                .expect("nboard 2 is refused");
            assert!(
                err.0.contains("exited") && err.0.contains("expected \"nboard 1\""),
                "{err}"
            );
        }

        #[test]
        fn noise_on_both_outputs_is_read_past() {
            // More standard error than a pipe holds, before the engine reads anything; bytes
            // that are not UTF-8, a search line and a stale answer on standard output.
            let path = script(
                "noisy.sh",
                "head -c 300000 /dev/zero | tr '\\0' x >&2\n\
                 printf 'bad \\377\\376 bytes\\n' >&2\n\
                 printf '\\377\\376\\n21@73%%  +00  0:38.230  365156582  d3 C3 c4\\n=== f5 0.00 0.0\\n'\n\
                 while read cmd arg rest; do\n\
                   case \"$cmd\" in\n\
                     set) [ \"$arg\" = depth ] && echo \"set myname Edax$rest\" ;;\n\
                     ping) printf 'pong %s\\r\\n' \"$arg\" ;;\n\
                     go) echo 'status Edax is thinking'; echo 'nodestats 77 0.01';\n\
                         echo '=== d3 -2.00 0.0'; echo 'status Edax is waiting' ;;\n\
                   esac\n\
                 done\n",
            );
            let mut e = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            let t = e.choose(&GameRecord::default(), &Budget::depth(4)).unwrap();
            assert_eq!((t.mv, t.eval, t.nodes), ("d3".parse().unwrap(), -2.0, 77));
            assert_eq!(e.name(), "Edax4");
        }

        #[test]
        fn an_illegal_answer_loses_the_game_without_a_panic() {
            let path = answering("illegal.sh", "=== A1");
            let mut fake = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            let mut prune = crate::EnginePlayer::new(
                crate::PlayerOptions::preset("plain", prune_search::Algorithm::NegaScout).unwrap(),
            )
            .unwrap();
            let opening = crate::GameRecord::default();
            let g = crate::arena::play_game(
                &mut prune,
                &mut fake,
                &opening,
                crate::TimeControl::Depth(1),
            );
            let f = g.forfeit.expect("white forfeits");
            assert!(!f.first, "{f:?}");
            assert!(
                f.reason.contains("Fake 1") && f.reason.contains("a1"),
                "{f:?}"
            );
        }
    }
}
