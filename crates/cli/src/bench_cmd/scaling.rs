//! `prune bench --scaling`: how the exact endgame solver scales with threads. A fixed set of
//! FFO positions (#40-#52 by default) is solved at 1, 2, 4, ... threads up to the cores
//! present (YBWC, each position from a cleared table, every score checked against the
//! suite's), and the nodes, the time, the speed-up against one thread and the node overhead
//! are written as a table (or JSON) and a plot. With `--deep`, FFO #53-#59 are solved too at
//! the largest thread count alone (minutes on 16 cores; hours on one).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use indicatif::ProgressBar;
use prune_othello::endgame::EndgameSolver;
use prune_othello::{builtin_suite, SuitePosition};
use prune_search::{Parallel, ParallelKind};
use serde_json::{json, Value};

use crate::cells::{count, per_second as rate, rate_text, right};
use crate::positions::parse_selection;
use crate::CliError;

/// The positions solved at every thread count unless `--only` says otherwise.
pub const DEFAULT_POSITIONS: &str = "40-52";

/// The positions `--deep` adds at the largest thread count.
const DEEP_POSITIONS: std::ops::RangeInclusive<u32> = 53..=59;

/// The table of every solve unless `--tt` says otherwise, in MiB.
pub const DEFAULT_TT_MIB: usize = 64;

/// The largest table `--tt` takes, in MiB (as `prune solve`'s).
const MAX_TT_MIB: usize = 65_536;

/// What `prune bench --scaling` is asked for.
#[derive(Clone, Debug)]
pub struct ScalingArgs {
    /// FFO numbers and ranges (`40-52`).
    pub only: String,
    /// The most threads; 1, 2, 4, ... below it are measured, and it too.
    pub max_threads: usize,
    /// The table of each solve, in MiB.
    pub tt_mib: usize,
    /// Also FFO #53-#59 at `max_threads`.
    pub deep: bool,
    /// Where the plot goes.
    pub plot: PathBuf,
    /// One JSON object instead of tables.
    pub json: bool,
}

/// The thread counts measured: the powers of two below `max`, then `max`.
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |&n| n.checked_mul(2))
        .take_while(|&n| n < max)
        .collect();
    counts.push(max.max(1));
    counts
}

/// One solve.
struct Solve {
    number: u32,
    score: i32,
    expected: Option<i32>,
    nodes: u64,
    split_wasted_nodes: u64,
    time: Duration,
}

/// The solves of one thread count.
struct Run {
    threads: usize,
    solves: Vec<Solve>,
}

impl Run {
    fn nodes(&self) -> u64 {
        self.solves.iter().map(|s| s.nodes).sum()
    }

    fn wasted(&self) -> u64 {
        self.solves.iter().map(|s| s.split_wasted_nodes).sum()
    }

    fn secs(&self) -> f64 {
        self.solves.iter().map(|s| s.time.as_secs_f64()).sum()
    }

    fn wrong(&self) -> impl Iterator<Item = &Solve> {
        self.solves.iter().filter(|s| s.expected != Some(s.score))
    }
}

/// The suite's positions of `numbers`.
fn positions(numbers: &str) -> Result<Vec<SuitePosition>, CliError> {
    let selection =
        parse_selection(numbers).map_err(|e| CliError::Usage(format!("--only: {e}")))?;
    let suite = builtin_suite("ffo-40-59").expect("the built-in suite exists");
    if let Some(missing) = selection
        .numbers()
        .find(|&n| !suite.iter().any(|p| p.number as usize == n))
    {
        return Err(CliError::Usage(format!(
            "--only: #{missing} is not an FFO position of the built-in suite (it has #40 to #59)"
        )));
    }
    Ok(suite
        .into_iter()
        .filter(|p| selection.contains(p.number as usize))
        .collect())
}

/// Solves `positions` on `threads` threads, each from a cleared table.
fn run_at(
    threads: usize,
    tt_mib: usize,
    positions: &[SuitePosition],
    bar: &ProgressBar,
) -> Result<Run, CliError> {
    let parallel = Parallel::new(threads, ParallelKind::Ybwc)
        .map_err(|e| CliError::Usage(format!("--max-threads: {e}")))?;
    let mut solver = EndgameSolver::with_parallel(tt_mib, parallel)
        .map_err(|e| CliError::Usage(format!("--tt {tt_mib}: {e}")))?;
    let mut solves = Vec::with_capacity(positions.len());
    for p in positions {
        bar.set_message(format!("{threads} threads, FFO #{}", p.number));
        solver.clear();
        let start = Instant::now();
        let r = solver.solve(p.entry.position.board(), -64, 64);
        solves.push(Solve {
            number: p.number,
            score: r.score,
            expected: p.entry.best_score(),
            nodes: r.counters.nodes,
            split_wasted_nodes: r.counters.split_wasted_nodes,
            time: start.elapsed(),
        });
        bar.inc(1);
    }
    Ok(Run { threads, solves })
}

/// Runs `prune bench --scaling`.
pub fn run(args: &ScalingArgs) -> Result<(), CliError> {
    if !(1..=Parallel::MAX_THREADS).contains(&args.max_threads) {
        return Err(CliError::Usage(format!(
            "--max-threads {}: give 1 to {}",
            args.max_threads,
            Parallel::MAX_THREADS
        )));
    }
    if !(1..=MAX_TT_MIB).contains(&args.tt_mib) {
        return Err(CliError::Usage(format!(
            "--tt {}: give 1 to {MAX_TT_MIB} MiB",
            args.tt_mib
        )));
    }
    crate::memory::check_table("--tt", args.tt_mib)?;
    let set = positions(&args.only)?;
    let deep = if args.deep {
        let deep: Vec<String> = DEEP_POSITIONS.map(|n| n.to_string()).collect();
        positions(&deep.join(","))?
    } else {
        Vec::new()
    };
    let counts = thread_counts(args.max_threads);
    let bar = super::progress_bar(set.len() * counts.len() + deep.len());
    let mut runs = Vec::with_capacity(counts.len());
    for &threads in &counts {
        runs.push(run_at(threads, args.tt_mib, &set, &bar)?);
    }
    let deep_run = if deep.is_empty() {
        None
    } else {
        Some(run_at(args.max_threads, args.tt_mib, &deep, &bar)?)
    };
    bar.finish_and_clear();

    let plot = plot(&runs);
    let svg = prune_lab::render_svg(&plot).map_err(|e| CliError::Failure(e.to_string()))?;
    write_plot(&args.plot, &svg)?;
    if args.json {
        let value = scaling_json(args, &runs, deep_run.as_ref());
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
    } else {
        print_tables(args, &runs, deep_run.as_ref());
        println!("plot: {}", args.plot.display());
    }
    let wrong: Vec<String> = runs
        .iter()
        .chain(deep_run.as_ref())
        .flat_map(|r| {
            r.wrong()
                .map(move |s| format!("#{} at {} threads", s.number, r.threads))
        })
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failure(format!(
            "the endgame solver gave a wrong score for {}",
            wrong.join(", ")
        )))
    }
}

fn write_plot(path: &Path, svg: &str) -> Result<(), CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failure(format!("--plot {}: {e}", path.display())))?;
    }
    std::fs::write(path, svg)
        .map_err(|e| CliError::Failure(format!("--plot {}: {e}", path.display())))
}

/// Speed-up and node overhead against the one-thread run (the first).
fn against_one(runs: &[Run], run: &Run) -> (f64, f64) {
    let one = &runs[0];
    (
        one.secs() / run.secs().max(f64::MIN_POSITIVE),
        run.nodes() as f64 / one.nodes().max(1) as f64,
    )
}

fn plot(runs: &[Run]) -> prune_lab::Plot {
    use prune_lab::{Legend, Plot, Series, XAxis};
    let max = runs.last().map_or(1, |r| r.threads);
    Plot {
        name: "scaling".into(),
        title: "Exact solves (FFO): speed-up and node overhead against one thread".into(),
        x_label: "threads".into(),
        y_label: "times one thread".into(),
        x_axis: XAxis::Numeric,
        log_y: false,
        series: vec![
            Series::new(
                "speed-up",
                runs.iter()
                    .map(|r| (r.threads as f64, against_one(runs, r).0))
                    .collect(),
            ),
            Series::new(
                "nodes",
                runs.iter()
                    .map(|r| (r.threads as f64, against_one(runs, r).1))
                    .collect(),
            ),
            Series::reference(
                "ideal speed-up",
                thread_counts(max)
                    .into_iter()
                    .map(|t| (t as f64, t as f64))
                    .collect(),
            ),
        ],
        legend: Legend::UpperLeft,
    }
}

fn solve_json(s: &Solve) -> Value {
    json!({
        "ffo": s.number,
        "score": s.score,
        "expected": s.expected,
        "correct": s.expected == Some(s.score),
        "nodes": s.nodes,
        "split_wasted_nodes": s.split_wasted_nodes,
        "time_ms": s.time.as_secs_f64() * 1000.0,
    })
}

fn run_json(runs: &[Run], run: &Run) -> Value {
    let (speed_up, overhead) = against_one(runs, run);
    json!({
        "threads": run.threads,
        "nodes": run.nodes(),
        "split_wasted_nodes": run.wasted(),
        "time_ms": run.secs() * 1000.0,
        "nodes_per_second": rate(run.nodes(), Duration::from_secs_f64(run.secs())),
        "speed_up": speed_up,
        "node_overhead": overhead,
        "efficiency": speed_up / run.threads as f64,
        "correct": run.wrong().next().is_none(),
        "solves": run.solves.iter().map(solve_json).collect::<Vec<_>>(),
    })
}

fn scaling_json(args: &ScalingArgs, runs: &[Run], deep: Option<&Run>) -> Value {
    json!({
        "positions": args.only,
        "tt_mib": args.tt_mib,
        "parallel": "ybwc",
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "plot": args.plot.display().to_string(),
        "runs": runs.iter().map(|r| run_json(runs, r)).collect::<Vec<_>>(),
        "deep": deep.map(|d| json!({
            "positions": "53-59",
            "threads": d.threads,
            "nodes": d.nodes(),
            "time_ms": d.secs() * 1000.0,
            "correct": d.wrong().next().is_none(),
            "solves": d.solves.iter().map(solve_json).collect::<Vec<_>>(),
        })),
    })
}

fn print_tables(args: &ScalingArgs, runs: &[Run], deep: Option<&Run>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "prune bench --scaling: FFO #{} exact, YBWC, {} MiB table cleared per position, {cores} \
         cores",
        args.only, args.tt_mib
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "threads",
        "nodes",
        "nodes wasted at splits",
        "time (s)",
        "nodes/s",
        "speed-up",
        "efficiency",
        "nodes / 1 thread",
        "exact",
    ]);
    for run in runs {
        let (speed_up, overhead) = against_one(runs, run);
        let wrong = run.wrong().count();
        table.add_row(vec![
            right(run.threads),
            count(run.nodes()),
            count(run.wasted()),
            right(format!("{:.2}", run.secs())),
            right(rate_text(rate(
                run.nodes(),
                Duration::from_secs_f64(run.secs()),
            ))),
            right(format!("{speed_up:.2}")),
            right(format!("{:.2}", speed_up / run.threads as f64)),
            right(format!("{overhead:.3}")),
            right(if wrong == 0 {
                format!("{}/{}", run.solves.len(), run.solves.len())
            } else {
                format!("{wrong} WRONG")
            }),
        ]);
    }
    println!("{table}");
    if let Some(d) = deep {
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        table.set_header(vec![
            "FFO #", "threads", "score", "exact", "nodes", "time (s)",
        ]);
        for s in &d.solves {
            table.add_row(vec![
                right(s.number),
                right(d.threads),
                right(format!("{:+}", s.score)),
                right(if s.expected == Some(s.score) {
                    "yes"
                } else {
                    "WRONG"
                }),
                count(s.nodes),
                right(format!("{:.2}", s.time.as_secs_f64())),
            ]);
        }
        println!("{table}");
        println!(
            "FFO #53-#59 at {} threads: {:.2} s, {} nodes",
            d.threads,
            d.secs(),
            d.nodes()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_powers_of_two_then_the_most() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(2), [1, 2]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(16), [1, 2, 4, 8, 16]);
    }

    #[test]
    fn positions_are_the_suites_and_others_are_refused() {
        let set = positions("40-42,52").expect("in the suite");
        assert_eq!(
            set.iter().map(|p| p.number).collect::<Vec<_>>(),
            [40, 41, 42, 52]
        );
        match positions("39-41") {
            Err(CliError::Usage(msg)) => assert!(msg.contains("#39"), "{msg}"),
            Err(other) => panic!("a usage error, not {other:?}"),
            Ok(_) => panic!("#39 is not in the suite"),
        }
    }
}
