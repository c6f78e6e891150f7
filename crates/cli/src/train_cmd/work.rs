//! The work folder of `prune train`: the positions, the self-play blocks and the labels, each
//! read back when present and computed and saved (atomically, in blocks) when not, so that an
//! interrupted run resumes where it stopped.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use prune_othello::pattern::PatternEval;
use prune_othello::train::{
    label, merge, play_games, record_samples, self_play, Sample, TrainOptions,
};
use prune_othello::wthor::{parse_wtb, WthorFile};

use super::fingerprint;
use crate::CliError;

/// Recorded games read for training: each file's name, its bytes' fingerprint and size, and
/// its games.
pub(super) struct Records {
    pub(super) files: Vec<(PathBuf, u64, usize)>,
    pub(super) games: Vec<WthorFile>,
}

/// Reads and parses every file of `paths` (the replay comes later, when the positions are made).
pub(super) fn read_records_files(paths: &[PathBuf]) -> Result<Records, CliError> {
    let mut records = Records {
        files: Vec::new(),
        games: Vec::new(),
    };
    for path in paths {
        let bytes = fs::read(path).map_err(|e| failure(path, "cannot read", e))?;
        let file = parse_wtb(&bytes).map_err(|e| failure(path, "not a WTHOR game file", e))?;
        records
            .files
            .push((path.clone(), fingerprint(&bytes), bytes.len()));
        records.games.push(file);
    }
    Ok(records)
}

pub(super) fn failure(path: &Path, what: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Failure(format!("{}: {what}: {e}", path.display()))
}

/// Writes `text` to `path` through a temporary file, so an interrupted write leaves no half
/// file behind.
pub(super) fn write_atomic(path: &Path, text: &[u8]) -> Result<(), CliError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| failure(&tmp, "cannot write", e))?;
    fs::rename(&tmp, path).map_err(|e| failure(path, "cannot write", e))
}

pub(super) fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The most malformed lines of a work file listed one by one.
const MAX_LISTED: usize = 10;

/// The malformed lines of a work file: its path and their 1-based numbers.
struct BadLines<'a> {
    path: &'a Path,
    lines: Vec<usize>,
}

impl BadLines<'_> {
    /// The error listing each malformed line as `path:line: expected`, the first
    /// [`MAX_LISTED`] of them one per line.
    fn error(&self, expected: &str) -> CliError {
        let mut text = format!(
            "{}: {} malformed line{} (the work folder's files are written by prune train; \
             delete the file to compute it again)",
            self.path.display(),
            self.lines.len(),
            if self.lines.len() == 1 { "" } else { "s" }
        );
        for line in self.lines.iter().take(MAX_LISTED) {
            text.push_str(&format!("\n  {}:{line}: {expected}", self.path.display()));
        }
        if self.lines.len() > MAX_LISTED {
            text.push_str(&format!("\n  and {} more", self.lines.len() - MAX_LISTED));
        }
        CliError::Failure(text)
    }
}

/// Reads every line of a work file with `parse`; if any line is malformed, the numbers of all
/// of them.
fn read_records<'a, T>(
    path: &'a Path,
    text: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, BadLines<'a>> {
    let mut records = Vec::new();
    let mut bad = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse(line) {
            Some(record) => records.push(record),
            None => bad.push(index + 1),
        }
    }
    if bad.is_empty() {
        Ok(records)
    } else {
        Err(BadLines { path, lines: bad })
    }
}

/// A sample as a work file's line: `PLAYER OPPONENT GAME OUTCOME_SUM OUTCOME_COUNT EXACT`
/// (hex, hex, then numbers; `-` for no exact score).
fn sample_line(s: &Sample) -> String {
    let exact = s.exact.map_or("-".to_string(), |e| e.to_string());
    format!(
        "{:016x} {:016x} {} {} {} {exact}\n",
        s.player, s.opponent, s.game, s.outcome_sum, s.outcome_count
    )
}

/// Reads [`sample_line`]'s lines (or the first generation's `PLAYER OPPONENT GAME`).
fn read_samples(path: &Path) -> Result<Vec<Sample>, CliError> {
    let text = fs::read_to_string(path).map_err(|e| failure(path, "cannot read", e))?;
    read_records(path, &text, |line| {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() != 3 && parts.len() != 6 {
            return None;
        }
        let player = u64::from_str_radix(parts[0], 16).ok()?;
        let opponent = u64::from_str_radix(parts[1], 16).ok()?;
        if player & opponent != 0 {
            return None;
        }
        let mut sample = Sample {
            game: parts[2].parse().ok()?,
            ..Sample::new(&prune_othello::Board::from_bits(player, opponent).ok()?, 0)
        };
        if parts.len() == 6 {
            sample.outcome_sum = parts[3]
                .parse()
                .ok()
                .filter(|v: &i32| v.abs() <= 64 * 10_000_000)?;
            sample.outcome_count = parts[4].parse().ok()?;
            sample.exact = match parts[5] {
                "-" => None,
                e => Some(e.parse().ok().filter(|v: &i8| (-64..=64).contains(v))?),
            };
        }
        Some(sample)
    })
    .map_err(|bad| {
        bad.error(
            "expected PLAYER OPPONENT GAME [OUTCOME_SUM OUTCOME_COUNT EXACT] (hex, hex, numbers, \
             - for no exact score; no disc twice)",
        )
    })
}

/// Second-generation games are played and saved in blocks of this many, so that an
/// interrupted run loses at most one block.
pub(super) const BLOCK: u32 = 1000;

/// The second generation's games of blocks `blocks`: each block's samples, read from the
/// folder or played and saved there.
pub(super) fn play_blocks(
    work: &Path,
    options: &TrainOptions,
    blocks: std::ops::Range<u32>,
    quiet: bool,
) -> Result<Vec<Vec<Sample>>, CliError> {
    let total = options.games as u32;
    let first = (blocks.start * BLOCK).min(total);
    let last = (blocks.end * BLOCK).min(total);
    let progress = bar(u64::from(last - first), "games", quiet);
    let mut games = Vec::new();
    for start in (first..last).step_by(BLOCK as usize) {
        let end = (start + BLOCK).min(total);
        let block_path = work.join(format!("games-{:06}.txt", start / BLOCK));
        if block_path.exists() {
            // The block's games one after the other, as merge wants them.
            games.push(read_samples(&block_path)?);
        } else {
            let played = play_games(options, start..end, &|n| {
                progress.set_position(u64::from(start - first) + n as u64)
            });
            let text: String = played.iter().flatten().map(sample_line).collect();
            write_atomic(&block_path, text.as_bytes())?;
            games.extend(played);
        }
        progress.set_position(u64::from(end - first));
    }
    progress.finish_and_clear();
    Ok(games)
}

/// The training positions: read from the folder, or made (from the recorded games, or by
/// self-play) and saved there.
pub(super) fn positions(
    work: &Path,
    options: &TrainOptions,
    records: Option<&Records>,
    quiet: bool,
) -> Result<Vec<Sample>, CliError> {
    let path = work.join("positions.txt");
    if path.exists() {
        return read_samples(&path);
    }
    let samples = if let Some(records) = records {
        let (samples, counts) = record_samples(&records.games, options.children)
            .map_err(|e| failure(&records.files[e.file].0, "a game does not replay", &e.error))?;
        if !quiet {
            eprintln!(
                "{} games ({} with a theoretical score), {} positions, {} distinct",
                counts.games,
                counts.scored,
                counts.positions,
                samples.len()
            );
        }
        samples
    } else if options.play_depth > 0 {
        merge(play_blocks(work, options, 0..u32::MAX / BLOCK, quiet)?)
    } else {
        let progress = bar(options.games as u64, "games", quiet);
        let samples = self_play(options, &|n| progress.set_position(n as u64));
        progress.finish_and_clear();
        samples
    };
    let text: String = samples.iter().map(sample_line).collect();
    write_atomic(&path, text.as_bytes())?;
    Ok(samples)
}

/// One phase's labels: read from the folder, or computed and saved there.
pub(super) fn labels(
    work: &Path,
    phase: usize,
    samples: &[Sample],
    model: &PatternEval,
    options: &TrainOptions,
    quiet: bool,
) -> Result<Vec<f32>, CliError> {
    let path = work.join(format!("labels-{phase:02}.txt"));
    if path.exists() {
        let text = fs::read_to_string(&path).map_err(|e| failure(&path, "cannot read", e))?;
        let values = read_records(&path, &text, parse_label)
            .map_err(|bad| bad.error("expected a finite number or NaN (no label)"))?;
        if values.len() != samples.len() {
            return Err(failure(
                &path,
                "does not fit the positions",
                format!("{} labels for {} positions", values.len(), samples.len()),
            ));
        }
        return Ok(values);
    }
    let progress = bar(
        samples.len() as u64,
        &format!("phase {phase} labels"),
        quiet,
    );
    // In blocks, each saved as it is done, so that an interrupted run loses at most one.
    let mut values = Vec::with_capacity(samples.len());
    let mut parts = Vec::new();
    for (block, chunk) in samples.chunks(LABEL_BLOCK).enumerate() {
        let part = work.join(format!("labels-{phase:02}-{block:04}.part"));
        let done = values.len();
        let mut mine = match fs::read_to_string(&part) {
            Ok(text) => read_records(&part, &text, parse_label)
                .map_err(|bad| bad.error("expected a finite number or NaN (no label)"))?,
            Err(_) => Vec::new(),
        };
        if mine.len() != chunk.len() {
            mine = label(chunk, model, options, &|n| {
                progress.set_position((done + n) as u64)
            });
            let text: String = mine.iter().map(|v| format!("{v}\n")).collect();
            write_atomic(&part, text.as_bytes())?;
        }
        values.extend(mine);
        parts.push(part);
        progress.set_position(values.len() as u64);
    }
    progress.finish_and_clear();
    let text: String = values.iter().map(|v| format!("{v}\n")).collect();
    write_atomic(&path, text.as_bytes())?;
    for part in parts {
        let _ = fs::remove_file(part);
    }
    Ok(values)
}

/// Labels are computed and saved in blocks of this many positions.
const LABEL_BLOCK: usize = 20_000;

/// One line of a labels file: a finite number, or NaN for no label.
fn parse_label(line: &str) -> Option<f32> {
    line.trim().parse::<f32>().ok().filter(|v| !v.is_infinite())
}
