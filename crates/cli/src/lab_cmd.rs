//! `prune lab`: run an experiment of the lab and write its report folder.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use prune_lab::{load_positions, run_experiment, LabOptions, Progress, EXPERIMENTS};

use crate::CliError;

/// Arguments of `prune lab`.
#[derive(Args, Debug)]
pub struct LabArgs {
    /// The experiment to run (see `prune lab list`), or `list` to name them.
    pub experiment: String,
    /// The report folder (default: lab-results/EXPERIMENT). Existing files of the same names
    /// are replaced.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The positions: an OBF file or a built-in suite (ffo-40-59); for connect4, a count N
    /// (the first N positions of each test set); for wthor, a count N (positions per number
    /// of empties) [wthor default: 100].
    #[arg(long)]
    pub positions: Option<String>,
    /// The depths, as `A-B` or one depth `D`.
    #[arg(long)]
    pub depths: Option<String>,
    /// The presets to run, comma-separated (see `prune presets`).
    #[arg(long, value_delimiter = ',')]
    pub preset: Vec<String>,
    /// Searches (or games) run at once [default: the number of cores]. Node counts do not
    /// depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// killers: games per configuration (one per opening); probcut: match games per
    /// selectivity level (0 skips the matches); mcts-vs-alphabeta: games per pairing and time
    /// per move [default: 24].
    #[arg(long)]
    pub games: Option<usize>,
    /// probcut: the matches' milliseconds per move [default: 100]; mcts-vs-alphabeta: one time
    /// per move instead of 10, 40 and 160 (tic-tac-toe a fiftieth of it), the solves 20 times
    /// it and the thread measurement 10 times it (a quick run).
    #[arg(long, value_name = "MS")]
    pub time_per_move: Option<u64>,
    /// probcut: the self-play games whose positions the regression is fitted on [default:
    /// 200].
    #[arg(long, value_name = "N")]
    pub fit_games: Option<usize>,
    /// killers: the killer slot counts, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub slots: Option<Vec<usize>>,
    /// minimal-tree: children per node.
    #[arg(long)]
    pub width: Option<u32>,
    /// minimal-tree: trees (seeds) per cell.
    #[arg(long)]
    pub trees: Option<u32>,
    /// parallel: measure 1 to this many threads [default: the number of cores]. (The other
    /// experiments search on one thread per search, so that their counts are reproducible.)
    #[arg(long, visible_alias = "threads")]
    pub threads_max: Option<usize>,
    /// connect4: the test sets, comma-separated (end-easy, middle-easy, middle-medium,
    /// begin-easy, begin-medium, or their file names such as Test_L3_R1) [default: all five].
    #[arg(long, value_delimiter = ',')]
    pub sets: Option<Vec<String>>,
    /// connect4: nodes per position before a solve is given up and counted as capped (such
    /// as 10000000, 1e7 or 10^7), or `none`.
    #[arg(long)]
    pub node_limit: Option<String>,
    /// connect4, mcts-vs-alphabeta: the folder of Pons's Connect Four test sets [default:
    /// ../shared/data/connect4 from the current folder or one above it]; wthor: the folder of
    /// the WTHOR game files [default: ../shared/data/wthor, found the same way].
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// wthor: the numbers of empties to measure, comma-separated (each 1 to 22, or 24)
    /// [default: 4,6,...,22,24].
    #[arg(long, value_delimiter = ',')]
    pub empties: Option<Vec<u32>>,
    /// wthor: a weights file written by `prune train` to measure beside pattern, gen1 and hand
    /// (repeat the option or separate files by commas for several).
    #[arg(long, value_name = "FILE", value_delimiter = ',')]
    pub eval: Vec<PathBuf>,
    /// `list` only: print the experiments as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Reads `A-B` or `D`.
fn parse_depths(text: &str) -> Result<std::ops::RangeInclusive<u32>, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--depths '{text}': expected a depth such as 8 or a range such as 2-10"
        ))
    };
    let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let range = match text.split_once('-') {
        Some((a, b)) => number(a)?..=number(b)?,
        None => {
            let d = number(text)?;
            d..=d
        }
    };
    if range.is_empty() {
        return Err(CliError::Usage(format!(
            "--depths '{text}': the range runs backwards"
        )));
    }
    Ok(range)
}

/// Reads a node limit: `N`, `1eK`, `10^K` or `none`.
fn parse_node_limit(text: &str) -> Result<Option<u64>, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--node-limit '{text}': expected a number of nodes such as 10000000, 1e7 or 10^7, \
             or none"
        ))
    };
    let t = text.trim().replace('_', "");
    if t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let power = |mantissa: &str, exponent: &str| -> Result<u64, CliError> {
        let m: u64 = mantissa.parse().map_err(|_| bad())?;
        let e: u32 = exponent.parse().map_err(|_| bad())?;
        10u64
            .checked_pow(e)
            .and_then(|p| p.checked_mul(m))
            .ok_or_else(bad)
    };
    let n = if let Some((m, e)) = t.split_once(['e', 'E']) {
        power(m, e)?
    } else if let Some(e) = t.strip_prefix("10^") {
        power("1", e)?
    } else {
        t.parse::<u64>().map_err(|_| bad())?
    };
    if n == 0 {
        return Err(CliError::Usage(format!(
            "--node-limit '{text}': the limit must be at least 1 node (or none)"
        )));
    }
    Ok(Some(n))
}

/// Reads `--positions`: a count (all digits) for connect4, else a position file or suite.
fn parse_positions(
    text: &str,
) -> Result<(Option<prune_lab::PositionSet>, Option<usize>), CliError> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let n = text
            .parse::<usize>()
            .map_err(|_| CliError::Usage(format!("--positions '{text}': too large a count")))?;
        if n == 0 {
            return Err(CliError::Usage(
                "--positions 0: at least one position per set".into(),
            ));
        }
        return Ok((None, Some(n)));
    }
    let set = load_positions(text).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((Some(set), None))
}

/// A progress bar on standard error (hidden when it is not a terminal).
struct Bar {
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
}

impl Progress for Bar {
    fn start(&self, what: &str, total: u64) {
        let mut slot = self.bar.lock().expect("progress lock");
        if let Some(old) = slot.take() {
            old.finish_and_clear();
        }
        if self.quiet {
            return;
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what} (eta \
                 {{eta}}) {{msg}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        *slot = Some(bar);
    }

    fn advance(&self, label: &str) {
        if let Some(bar) = &*self.bar.lock().expect("progress lock") {
            bar.set_message(label.to_string());
            bar.inc(1);
        }
    }
}

/// Runs `prune lab`.
pub fn run(args: &LabArgs) -> Result<(), CliError> {
    if args.experiment == "list" {
        return list(args.json);
    }
    if args.json {
        return Err(CliError::Usage(
            "--json applies to `prune lab list`; an experiment writes report.json in its \
             folder"
                .into(),
        ));
    }
    let jobs = match args.jobs {
        Some(0) => return Err(CliError::Usage("--jobs must be at least 1".into())),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (positions, per_set) = match args.positions.as_deref() {
        Some(text) => parse_positions(text)?,
        None => (None, None),
    };
    let options = LabOptions {
        positions,
        per_set,
        sets: args.sets.clone(),
        node_limit: args
            .node_limit
            .as_deref()
            .map(parse_node_limit)
            .transpose()?,
        data: args.data.clone(),
        empties: args.empties.clone(),
        evals: args.eval.clone(),
        depths: args.depths.as_deref().map(parse_depths).transpose()?,
        presets: args.preset.clone(),
        jobs,
        games: args.games,
        time_per_move: args.time_per_move,
        fit_games: args.fit_games,
        slots: args.slots.clone(),
        width: args.width,
        trees: args.trees,
        threads_max: args.threads_max,
    };
    let progress = Bar {
        bar: Mutex::new(None),
        quiet: args.quiet,
    };
    let start = Instant::now();
    let report = run_experiment(&args.experiment, &options, &progress).map_err(|e| match e {
        prune_lab::LabError::Usage(msg) => CliError::Usage(msg),
        other => CliError::Failure(other.to_string()),
    })?;
    if let Some(bar) = progress.bar.lock().expect("progress lock").take() {
        bar.finish_and_clear();
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("lab-results").join(&args.experiment));
    let files = report
        .write(&out)
        .map_err(|e| CliError::Failure(e.to_string()))?;
    println!("{} ({:.1} s)", report.title, start.elapsed().as_secs_f64());
    for finding in &report.findings {
        println!("- {finding}");
    }
    println!(
        "Report: {} ({} files)",
        out.join("report.md").display(),
        files.len()
    );
    if !report.problems.is_empty() {
        for problem in &report.problems {
            eprintln!("PROBLEM: {problem}");
        }
        return Err(CliError::Failure(format!(
            "{} problem(s) in the results, listed at the top of {}",
            report.problems.len(),
            out.join("report.md").display()
        )));
    }
    Ok(())
}

/// `prune lab list`.
fn list(json: bool) -> Result<(), CliError> {
    if json {
        let list: Vec<_> = EXPERIMENTS
            .iter()
            .map(|e| {
                serde_json::json!({
                    "name": e.name,
                    "reproduces": e.reproduces,
                    "defaults": e.defaults,
                    "options": e.options,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&list).expect("a list serialises")
        );
        return Ok(());
    }
    for e in EXPERIMENTS {
        println!("{}", e.name);
        println!("    {}", e.reproduces);
        println!("    defaults: {}", e.defaults);
        let options: Vec<String> = e.options.iter().map(|o| format!("--{o}")).collect();
        println!("    options: {}, --out, --jobs\n", options.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges() {
        assert_eq!(parse_depths("2-10").unwrap(), 2..=10);
        assert_eq!(parse_depths("8").unwrap(), 8..=8);
        assert!(parse_depths("10-2").is_err());
        assert!(parse_depths("x").is_err());
        assert!(parse_depths("2-").is_err());
    }

    #[test]
    fn node_limits() {
        assert_eq!(parse_node_limit("10000000").unwrap(), Some(10_000_000));
        assert_eq!(parse_node_limit("1e7").unwrap(), Some(10_000_000));
        assert_eq!(parse_node_limit("5E3").unwrap(), Some(5_000));
        assert_eq!(parse_node_limit("10^6").unwrap(), Some(1_000_000));
        assert_eq!(parse_node_limit("1_000").unwrap(), Some(1_000));
        assert_eq!(parse_node_limit("none").unwrap(), None);
        for bad in ["0", "x", "1e30", "-5", "10^"] {
            assert!(parse_node_limit(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_as_a_count_or_a_suite() {
        assert_eq!(parse_positions("20").unwrap().1, Some(20));
        assert!(parse_positions("20").unwrap().0.is_none());
        assert!(parse_positions("0").is_err());
        let (set, count) = parse_positions("ffo-40-59").unwrap();
        assert_eq!((set.unwrap().positions.len(), count), (20, None));
    }
}
