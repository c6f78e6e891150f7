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

use std::time::{Duration, Instant};

use prune_othello::Move;

use crate::ggf::to_ggf;
use crate::process::EngineLink;
use crate::{Agent, AgentError, Budget, GameRecord, Thought};

/// The longest any answer is waited for (a year: no limit in practice, and no overflow).
pub const MAX_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// How an external engine is spoken to, and limits on its answers (NBoard's and USI's).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalOptions {
    /// The NBoard protocol version sent first, as `nboard N`.
    pub protocol: u32,
    /// Options set when the engine starts, as names and values (USI's `setoption`; NBoard
    /// has none).
    pub settings: Vec<(String, String)>,
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
            settings: Vec::new(),
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

/// An NBoard engine run as a subprocess.
pub struct ExternalEngine {
    link: EngineLink,
    options: ExternalOptions,
    /// The last `ping` number sent.
    ping: u64,
    /// The depth the engine was last told.
    depth: Option<u32>,
}

/// The name an NBoard engine gives itself: `set myname NAME`.
fn nboard_name(line: &str) -> Option<&str> {
    line.strip_prefix("set myname ")
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
        let mut engine = ExternalEngine {
            link: EngineLink::new(command, report, nboard_name)?,
            options,
            ping: 0,
            depth: None,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// The command line.
    pub fn command(&self) -> &str {
        self.link.command()
    }

    /// Starts the process and waits for its first `pong`, reporting the wait.
    fn launch(&mut self) -> Result<(), AgentError> {
        self.depth = None;
        self.link.spawn()?;
        self.link
            .send(&format!("nboard {}", self.options.protocol))?;
        self.ping += 1;
        let ping = self.ping;
        self.link.send(&format!("ping {ping}"))?;
        self.link.wait_for_start(
            self.options.start_timeout,
            self.options.report_every,
            &format!("pong {ping}"),
            |line| is_pong(line, ping),
        )
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
        self.link.name.clone()
    }

    /// Starts the engine again if it failed in the last game.
    fn new_game(&mut self) {
        if self.link.broken.is_some() {
            if let Err(e) = self.launch() {
                self.link.broken = Some(e.0);
            }
        }
    }

    fn choose(&mut self, game: &GameRecord, budget: &Budget) -> Result<Thought, AgentError> {
        if let Some(why) = &self.link.broken {
            return Err(AgentError(why.clone()));
        }
        let start = Instant::now();
        let deadline = start + self.options.limit(budget);
        if let Some(depth) = budget.depth {
            if self.depth != Some(depth) {
                self.link.send(&format!("set depth {depth}"))?;
                self.depth = Some(depth);
            }
        }
        self.link
            .send(&format!("set game {}", to_ggf(game, "black", "white")))?;
        self.ping += 1;
        let ping = self.ping;
        self.link.send(&format!("ping {ping}"))?;
        self.link.send("go")?;
        let waiting = "while thinking about a move";
        // Everything before our pong answers an earlier request.
        while !is_pong(&self.link.read_line(deadline, waiting)?, ping) {}
        let mut nodes = 0;
        loop {
            let line = self.link.read_line(deadline, waiting)?;
            if let Some(answer) = parse_answer(&line) {
                let (mv, eval) =
                    answer.map_err(|e| AgentError(format!("{}: {e}", self.link.name)))?;
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
        use std::sync::{Arc, Mutex};

        /// An executable shell script in a folder of its own, both removed when it is
        /// dropped.
        struct Script {
            _dir: tempfile::TempDir,
            path: PathBuf,
        }

        impl std::ops::Deref for Script {
            type Target = std::path::Path;
            fn deref(&self) -> &std::path::Path {
                &self.path
            }
        }

        /// Writes the script `name` with `body` into a fresh folder (closed before it runs:
        /// a file still open for writing cannot be executed).
        fn script(name: &str, body: &str) -> Script {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            Script { _dir: dir, path }
        }

        fn quick() -> ExternalOptions {
            ExternalOptions {
                protocol: 2,
                start_timeout: Duration::from_secs(5),
                report_every: Duration::from_secs(1),
                time_factor: 1.0,
                time_margin: Duration::from_millis(300),
                untimed_limit: Duration::from_millis(300),
                settings: Vec::new(),
            }
        }

        /// Answers every ping, and `go` with a stale answer first, then `answer`.
        fn answering(name: &str, answer: &str) -> Script {
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
            assert!(e.link.broken.is_none());

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
            let path = script(
                "slow.sh",
                "while [ ! -d \"$(dirname \"$0\")/slow-start\" ]; do sleep 0.05; done\n\
                 while read cmd arg rest; do\n\
                   case \"$cmd\" in ping) echo \"pong $arg\" ;; esac\n\
                 done\n",
            );
            let dir = path.with_file_name("slow-start");
            let opts = ExternalOptions {
                start_timeout: Duration::from_secs(600),
                report_every: Duration::from_millis(20),
                ..quick()
            };
            let reports = Arc::new(Mutex::new(Vec::new()));
            let seen = Arc::clone(&reports);
            let start_limit = opts.start_timeout;
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
                assert_eq!((engine.as_str(), *limit), ("slow.sh", start_limit));
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
