//! The link to an external engine's process, whatever protocol it speaks (NBoard for Othello,
//! USI for shogi): started from a command (a program and its arguments split on whitespace; no
//! shell), lines sent and received with deadlines, its standard error read all along (its last
//! lines go into error messages), start-up waits reported, and a failure that marks the
//! engine unusable until it is started again. The child is killed when the link is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::external::{StartReport, StartWait, MAX_LIMIT};
use crate::AgentError;

/// Lines of an engine's standard error kept for error messages.
const STDERR_LINES: usize = 5;

/// How long a failing engine's last words are waited for once its output has closed.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// `ETXTBSY`: the program file is open for writing somewhere.
const TEXT_FILE_BUSY: i32 = 26;

/// The most characters of one kept line of standard error.
const STDERR_LINE_CHARS: usize = 200;

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

/// What [`EngineLink::receive`] got by its deadline.
pub(crate) enum Received {
    Line(String),
    Nothing,
}

/// An engine's process as a protocol sees it: lines out, lines in, and failures in words.
pub(crate) struct EngineLink {
    command: String,
    /// The engine's name: its program's file name until it names itself.
    pub(crate) name: String,
    process: Option<Process>,
    /// Why the engine is unusable until it is started again.
    pub(crate) broken: Option<String>,
    /// Told about start-up waits (the first start and restarts after a failure).
    report: Option<StartReport>,
    /// Reads the engine's name from a line, where the line gives it (`set myname X`,
    /// `id name X`).
    naming: fn(&str) -> Option<&str>,
}

impl EngineLink {
    /// A link to `command`, not started yet.
    pub(crate) fn new(
        command: &str,
        report: Option<StartReport>,
        naming: fn(&str) -> Option<&str>,
    ) -> Result<EngineLink, AgentError> {
        let program = command
            .split_whitespace()
            .next()
            .ok_or_else(|| AgentError("the engine command is empty".into()))?;
        let name = std::path::Path::new(program)
            .file_name()
            .map_or(program.to_string(), |n| n.to_string_lossy().into_owned());
        Ok(EngineLink {
            command: command.to_string(),
            name,
            process: None,
            broken: None,
            report,
            naming,
        })
    }

    /// The command line.
    pub(crate) fn command(&self) -> &str {
        &self.command
    }

    /// Starts the process (a running one is stopped first).
    pub(crate) fn spawn(&mut self) -> Result<(), AgentError> {
        self.process = None;
        self.broken = None;
        let mut words = self.command.split_whitespace();
        let program = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        // A program file just written may still be open for writing in a child that another
        // thread forked meanwhile ("text file busy"): try again for a moment.
        let mut tries = 0;
        let mut child = loop {
            let started = Command::new(program)
                .args(&args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn();
            match started {
                Err(e) if e.raw_os_error() == Some(TEXT_FILE_BUSY) && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                other => {
                    break other.map_err(|e| {
                        AgentError(format!("cannot start engine '{}': {e}", self.command))
                    })?
                }
            }
        };
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
        Ok(())
    }

    /// Waits up to `limit` for a line that `done` accepts, reporting the wait every `every`;
    /// `sent` names what was asked, for the error.
    pub(crate) fn wait_for_start(
        &mut self,
        limit: Duration,
        every: Duration,
        sent: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<(), AgentError> {
        let started = Instant::now();
        let limit = limit.min(MAX_LIMIT);
        let deadline = started + limit;
        // A zero interval would report without end: at least a millisecond between reports.
        let every = every.clamp(Duration::from_millis(1), MAX_LIMIT);
        let mut next_report = started + every;
        let waiting = "while starting";
        loop {
            let until = if self.report.is_some() {
                deadline.min(next_report)
            } else {
                deadline
            };
            match self.receive(until, waiting)? {
                Received::Line(line) if done(&line) => return Ok(()),
                Received::Line(_) => {}
                Received::Nothing if Instant::now() >= deadline => {
                    let secs = limit.as_secs_f64();
                    return Err(self.fail(format!(
                        "no answer in time {waiting} (waited {secs:.1} s for '{sent}')"
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
    /// error.
    pub(crate) fn fail(&mut self, message: String) -> AgentError {
        self.fail_after(message, Duration::ZERO)
    }

    /// As [`Self::fail`], waiting up to `wait` for the engine's standard error to close (so
    /// that an engine that has exited has its last words read).
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
    pub(crate) fn send(&mut self, line: &str) -> Result<(), AgentError> {
        let written = match &mut self.process {
            Some(p) => writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush()),
            None => return Err(AgentError(format!("engine {} is not running", self.name))),
        };
        written.map_err(|e| self.fail(format!("cannot write to it ({e}); did it exit?")))
    }

    /// The next line, by `deadline`; none in time is an error.
    pub(crate) fn read_line(
        &mut self,
        deadline: Instant,
        waiting: &str,
    ) -> Result<String, AgentError> {
        match self.receive(deadline, waiting)? {
            Received::Line(line) => Ok(line),
            Received::Nothing => Err(self.fail(format!("no answer in time {waiting}"))),
        }
    }

    /// The next line, or nothing by `deadline`; an engine that has exited is an error.
    pub(crate) fn receive(
        &mut self,
        deadline: Instant,
        waiting: &str,
    ) -> Result<Received, AgentError> {
        let received = match &self.process {
            Some(p) => p
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => return Err(AgentError(format!("engine {} is not running", self.name))),
        };
        match received {
            Ok(line) => {
                if let Some(name) = (self.naming)(line.trim()).map(str::trim) {
                    if !name.is_empty() {
                        self.name = name.to_string();
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
