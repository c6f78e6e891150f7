//! `parallel`: speed-up and node overhead of the parallel searches against one thread, on
//! exact endgame solves (the fast solver) and on fixed-depth midgame searches (the generic
//! engine), each with YBWC, PV splitting and Lazy SMP. One search at a time, so that the
//! threads have the machine to themselves.

use std::time::{Duration, Instant};

use prune_othello::{SolveOptions, SolveWindow, Solver, SolverKind};
use prune_search::{Algorithm, Engine, Named, Parallel, ParallelKind, Preset, SearchLimits};

use super::{depths, depths_setting, othello_eval, positions_setting, ratio};
use crate::{Cell, LabError, LabOptions, Legend, Plot, PositionSet, Progress, Report, Series};
use crate::{Table, XAxis};

/// The exact solves by default: FFO #40-#44 (20 to 23 empties, about 30 s on one thread).
const DEFAULT_SOLVES: std::ops::Range<usize> = 0..5;

/// The transposition table of every search, in MiB.
const TT_MIB: usize = 64;

/// One measured search.
struct Measure {
    nodes: u64,
    time: Duration,
    score: i64,
}

/// What is searched.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Exact solves with the fast endgame solver.
    Solve,
    /// Fixed-depth searches with the generic engine.
    Midgame,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Solve => "exact solve",
            Part::Midgame => "midgame",
        }
    }
}

/// A row of the summary: a part, a scheme, a thread count, totals.
struct Line {
    part: Part,
    kind: ParallelKind,
    threads: usize,
    runs: Vec<Measure>,
}

impl Line {
    fn nodes(&self) -> u64 {
        self.runs.iter().map(|m| m.nodes).sum()
    }
    fn secs(&self) -> f64 {
        self.runs.iter().map(|m| m.time.as_secs_f64()).sum()
    }
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let all = options
        .positions
        .clone()
        .unwrap_or_else(PositionSet::ffo_40_59);
    let mut solves = all.clone();
    if options.positions.is_none() {
        solves.positions = solves.positions[DEFAULT_SOLVES].to_vec();
        solves.source = format!("{} #40-#44", all.source);
    }
    let depth = *depths(options, 12..=12, 30)?
        .last()
        .expect("depths are not empty");
    let max_threads = options
        .threads_max
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=Parallel::MAX_THREADS).contains(&max_threads) {
        return Err(LabError::Usage(format!(
            "--threads-max {max_threads}: give 1 to {}",
            Parallel::MAX_THREADS
        )));
    }
    let midgame_preset = Preset::find("full").expect("the full preset exists");
    let midgame_config = midgame_preset
        .config(Algorithm::NegaScout)
        .expect("full fits negascout");

    // Every (part, scheme, threads) to run; one thread once per part.
    let mut lines = Vec::new();
    for threads in 1..=max_threads {
        let kinds: &[ParallelKind] = if threads == 1 {
            &[ParallelKind::Ybwc]
        } else {
            ParallelKind::ALL
        };
        for part in [Part::Solve, Part::Midgame] {
            for &kind in kinds {
                lines.push(Line {
                    part,
                    kind,
                    threads,
                    runs: Vec::new(),
                });
            }
        }
    }
    let total = lines
        .iter()
        .map(|l| match l.part {
            Part::Solve => solves.positions.len(),
            Part::Midgame => all.positions.len(),
        })
        .sum::<usize>();
    progress.start("searches", total as u64);
    for line in &mut lines {
        let parallel = Parallel::new(line.threads, line.kind).expect("threads checked above");
        let label = format!("{} {} x{}", line.part.name(), line.kind, line.threads);
        if line.part == Part::Solve {
            let mut solver = Solver::new(SolveOptions {
                window: SolveWindow::Exact,
                tt_mib: TT_MIB,
                kind: SolverKind::Fast,
                search: None,
                parallel,
            })
            .map_err(|e| LabError::Usage(e.to_string()))?;
            for p in &solves.positions {
                // A fresh table per position, as for one thread.
                solver.clear();
                let began = Instant::now();
                let r = solver.solve(&p.position);
                line.runs.push(Measure {
                    nodes: r.stats.total.nodes,
                    time: began.elapsed(),
                    score: i64::from(r.score),
                });
                progress.advance(&format!("{label} {}", p.name));
            }
        } else {
            let eval = othello_eval();
            for p in &all.positions {
                let mut engine = Engine::with_parallel(midgame_config, parallel)
                    .map_err(|e| LabError::Usage(e.to_string()))?;
                let r = engine
                    .search(&p.position, &eval, &SearchLimits::depth(depth))
                    .map_err(|e| LabError::Usage(e.to_string()))?;
                line.runs.push(Measure {
                    nodes: r.stats.total.nodes,
                    time: r.stats.time,
                    score: i64::from(r.score.raw()),
                });
                progress.advance(&format!("{label} {}", p.name));
            }
        }
    }

    let mut summary = Table::new(
        "parallel",
        "Totals against one thread",
        &[
            "part",
            "scheme",
            "threads",
            "nodes",
            "time (s)",
            "nodes per second",
            "speed-up",
            "node overhead",
            "same scores as 1 thread",
        ],
    );
    let mut raw = Table::new(
        "parallel-runs",
        "Every search",
        &[
            "part", "scheme", "threads", "position", "nodes", "time (s)", "score",
        ],
    );
    raw.in_markdown = false;
    let mut findings = Vec::new();
    let mut series: Vec<Series> = Vec::new();
    for part in [Part::Solve, Part::Midgame] {
        let base = lines
            .iter()
            .find(|l| l.part == part && l.threads == 1)
            .expect("one thread always runs");
        let (base_nodes, base_secs) = (base.nodes(), base.secs());
        for &kind in ParallelKind::ALL {
            let mine: Vec<&Line> = lines
                .iter()
                .filter(|l| l.part == part && (l.kind == kind || l.threads == 1))
                .collect();
            if mine.len() < 2 {
                continue;
            }
            series.push(Series::new(
                format!("{}, {kind}", part.name()),
                mine.iter()
                    .map(|l| (l.threads as f64, ratio(base_secs, l.secs()).unwrap_or(0.0)))
                    .collect(),
            ));
        }
        for line in lines.iter().filter(|l| l.part == part) {
            let (nodes, secs) = (line.nodes(), line.secs());
            let same = line
                .runs
                .iter()
                .zip(&base.runs)
                .filter(|(a, b)| a.score == b.score)
                .count();
            let speed_up = ratio(base_secs, secs);
            let overhead = ratio(nodes as f64, base_nodes as f64);
            summary.push(vec![
                Cell::text(part.name()),
                Cell::text(if line.threads == 1 {
                    "sequential".to_string()
                } else {
                    line.kind.to_string()
                }),
                Cell::Count(line.threads as u64),
                Cell::Count(nodes),
                Cell::real(secs, 2),
                ratio(nodes as f64, secs).map_or(Cell::Empty, |n| Cell::Count(n as u64)),
                Cell::maybe_real(speed_up, 2),
                Cell::maybe_real(overhead, 3),
                Cell::text(format!("{same}/{}", line.runs.len())),
            ]);
            if line.threads > 1 {
                findings.push(format!(
                    "{}, {} with {} threads: {:.2} times as fast as one thread, {:.3} times \
                     the nodes ({same}/{} scores as one thread).",
                    part.name(),
                    line.kind,
                    line.threads,
                    speed_up.unwrap_or(0.0),
                    overhead.unwrap_or(0.0),
                    line.runs.len()
                ));
            }
            let set = match part {
                Part::Solve => &solves,
                Part::Midgame => &all,
            };
            for (m, p) in line.runs.iter().zip(&set.positions) {
                raw.push(vec![
                    Cell::text(part.name()),
                    Cell::text(line.kind.to_string()),
                    Cell::Count(line.threads as u64),
                    Cell::text(&p.name),
                    Cell::Count(m.nodes),
                    Cell::real(m.time.as_secs_f64(), 4),
                    Cell::Int(m.score),
                ]);
            }
        }
    }
    series.push(Series::reference(
        "ideal (speed-up = threads)",
        (1..=max_threads).map(|t| (t as f64, t as f64)).collect(),
    ));

    Ok(Report {
        experiment: "parallel".into(),
        files: Vec::new(),
        title: "Parallel search: speed-up and node overhead".into(),
        reproduces: format!(
            "Each parallel scheme (YBWC, PV splitting, Lazy SMP) against one thread: exact \
             solves with the fast endgame solver (a fresh {TT_MIB} MiB table shared by the \
             threads for each position) and fixed-depth midgame searches with the generic \
             engine (preset full, NegaScout, a fresh engine per position). Speed-up is one \
             thread's total time over the threads' total; node overhead is their nodes over one \
             thread's. Exact solves must give the same scores; a midgame Lazy SMP search may \
             differ, as its helpers store deeper results the main thread then uses. Searches \
             run one at a time."
        ),
        problems: Vec::new(),
        settings: vec![
            (
                "exact solves".into(),
                format!("{} ({} positions)", solves.source, solves.positions.len()),
            ),
            positions_setting(&all),
            depths_setting(&[depth]),
            ("threads".into(), format!("1 to {max_threads}")),
            (
                "jobs".into(),
                "not used: one search at a time, so that its threads have the machine".into(),
            ),
        ],
        findings,
        tables: vec![summary, raw],
        plots: vec![Plot {
            name: "parallel".into(),
            title: "Speed-up against threads".into(),
            x_label: "threads".into(),
            y_label: "speed-up over one thread".into(),
            x_axis: XAxis::Numeric,
            log_y: false,
            series,
            legend: Legend::UpperLeft,
        }],
    })
}
