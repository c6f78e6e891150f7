//! `prune usi`: the USI protocol on stdin and stdout, for shogi GUIs (`prune match` and
//! `prune play` play shogi through the play layer, as every game).

use std::io::{self, BufRead, Write};
use std::sync::mpsc::channel;

use clap::Args;
use prune_shogi::engine::EngineOptions;
use prune_shogi::usi::UsiSession;

use crate::CliError;

/// Options of `prune usi`.
#[derive(Args, Debug)]
pub struct UsiArgs {
    /// The engine's preset until the GUI sets the `Preset` option: full, exhaustive, plain or minimal.
    #[arg(long, value_name = "NAME", default_value = "full")]
    pub preset: String,
}

/// Runs `prune usi`: the GUI's lines from stdin, the answers to stdout (flushed line by line).
/// At the end of the input a bounded search finishes and sends its move first.
pub fn run_usi(args: &UsiArgs) -> Result<(), CliError> {
    if EngineOptions::preset(&args.preset).is_none() {
        return Err(CliError::Usage(format!(
            "--preset: expected one of {}, got '{}'",
            EngineOptions::PRESETS.join(", "),
            args.preset
        )));
    }
    let (tx, rx) = channel::<String>();
    let writer = std::thread::spawn(move || -> io::Result<()> {
        let mut stdout = io::stdout().lock();
        for line in rx {
            writeln!(stdout, "{line}")?;
            stdout.flush()?;
        }
        Ok(())
    });
    let mut session = UsiSession::new(tx);
    session.handle(&format!("setoption name Preset value {}", args.preset));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::Failure(format!("reading stdin: {e}"))),
        }
        // A line that is not UTF-8 is read as well as it can be (and refused as a command).
        if !session.handle(&String::from_utf8_lossy(&buffer)) {
            break;
        }
    }
    session.finish();
    drop(session);
    match writer.join() {
        Ok(Ok(())) => Ok(()),
        // The GUI has gone: nobody is left to answer.
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Ok(Err(e)) => Err(CliError::Failure(format!("writing stdout: {e}"))),
        Err(_) => Err(CliError::Failure("the writer thread failed".into())),
    }
}
