//! An external engine that speaks the NBoard protocol, as an [`Agent`].
//!
//! The engine is started as a subprocess (the command split on whitespace: a program and its
//! arguments, no shell). It is sent `nboard 2` and a `ping`, and must answer `pong` within
//! [`ExternalOptions::start_timeout`]; a `set myname NAME` line names it. For each move it is
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
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prune_othello::Move;

use crate::ggf::to_ggf;
use crate::{Agent, AgentError, Budget, GameRecord, Thought};

/// The longest any answer is waited for (a year: no limit in practice, and no overflow).
pub const MAX_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// Lines of the engine's standard error kept for error messages.
const STDERR_LINES: usize = 5;

/// Limits on an external engine's answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExternalOptions {
    /// How long the engine may take to start and answer the first `ping`.
    pub start_timeout: Duration,
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
            start_timeout: Duration::from_secs(10),
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
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `from` line by line into a channel until it closes.
fn forward_lines(from: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
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
}

impl ExternalEngine {
    /// Starts `command` (a program and its arguments, split on whitespace) and checks that it
    /// speaks NBoard.
    pub fn start(command: &str, options: ExternalOptions) -> Result<ExternalEngine, AgentError> {
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
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let errors = forward_lines(stderr);
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || {
            for line in errors {
                if let Ok(mut tail) = keep.lock() {
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            }
        });
        self.process = Some(Process {
            child,
            stdin,
            lines: forward_lines(stdout),
            stderr: tail,
        });
        self.send("nboard 2")?;
        let deadline = Instant::now() + self.options.start_timeout.min(MAX_LIMIT);
        self.sync(deadline, "while starting")
    }

    /// Marks the engine unusable and returns the error.
    fn fail(&mut self, message: String) -> AgentError {
        let mut message = format!("engine {}: {message}", self.name);
        if let Some(p) = &self.process {
            if let Ok(tail) = p.stderr.lock() {
                if !tail.is_empty() {
                    let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
                    message.push_str(&format!(" (its last errors: {})", lines.join(" | ")));
                }
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

    /// The next line, by `deadline`.
    fn read_line(&mut self, deadline: Instant, waiting: &str) -> Result<String, AgentError> {
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
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(self.fail(format!("no answer in time {waiting}")))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .process
                    .as_mut()
                    .and_then(|p| p.child.wait().ok())
                    .map_or(String::new(), |s| format!(" ({s})"));
                Err(self.fail(format!("exited{status} {waiting}")))
            }
        }
    }

    /// Sends `ping k` and reads until `pong k`.
    fn sync(&mut self, deadline: Instant, waiting: &str) -> Result<(), AgentError> {
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        loop {
            let line = self.read_line(deadline, waiting)?;
            if is_pong(&line, ping) {
                return Ok(());
            }
        }
    }
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
                start_timeout: Duration::from_secs(5),
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
        fn an_illegal_answer_loses_the_game_without_a_panic() {
            let path = answering("illegal.sh", "=== A1");
            let mut fake = ExternalEngine::start(path.to_str().unwrap(), quick()).unwrap();
            let mut prune = crate::EnginePlayer::new(
                crate::PlayerOptions::preset("plain", prune_search::Algorithm::NegaScout).unwrap(),
            )
            .unwrap();
            let opening = crate::openings::Opening {
                moves: Vec::new(),
                position: prune_othello::Position::START,
            };
            let g = crate::arena::play_game(
                &mut prune,
                &mut fake,
                &opening,
                crate::TimeControl::Depth(1),
            );
            let f = g.forfeit.expect("white forfeits");
            assert_eq!(f.color, prune_othello::Color::White);
            assert!(
                f.reason.contains("Fake 1") && f.reason.contains("a1"),
                "{f:?}"
            );
        }
    }
}
