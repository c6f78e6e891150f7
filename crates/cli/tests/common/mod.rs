//! What the tests of the `prune` binary share: running it and reading what it printed.
#![allow(dead_code)] // each test file uses some of these

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `prune ARGS` with nothing on stdin.
pub fn prune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("the prune binary runs")
}

/// Runs `prune ARGS` with `input` on stdin, closed after it.
pub fn prune_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the prune binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    // Written from a thread, so that a long input cannot block against prune's output; prune
    // may exit (on a bad option) before it reads, and then the pipe is closed, which is fine.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("prune ends");
    writer.join().expect("the writer thread ends");
    output
}

/// What the command printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the command printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `prune ARGS`, which must succeed, and reads its JSON output.
pub fn json(args: &[&str]) -> Value {
    let o = prune(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", stdout(&o)))
}

/// Each command line must fail with status 2 and an error containing the expected words.
pub fn assert_usage_errors(cases: &[(&[&str], &str)]) {
    for (args, expected) in cases {
        let o = prune(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: expected '{expected}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
