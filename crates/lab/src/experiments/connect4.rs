//! `connect4`: Pascal Pons's "Solving Connect 4" progression on his test sets. Every step of
//! the exact solver ([`Step::ALL`], cumulative) solves the first N positions of each set with a
//! fresh table (kept from one position of the set to the next, as Pons's solver keeps it when
//! it reads a set on its standard input); mean nodes and time per position, the positions cut
//! off by the node limit, and every finished score checked against the file's.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use prune_connect4::suite::{self, Record};
use prune_connect4::{SolveOptions, Solver, Step};

use super::{jobs_setting, ratio};
use crate::{run_tasks, thousands, Cell, LabError, LabOptions, Legend, Plot, Progress, Report};
use crate::{Series, Table, XAxis};

/// Positions per set unless `--positions`.
const DEFAULT_PER_SET: usize = 100;

/// Nodes per position unless `--node-limit`.
const DEFAULT_NODE_LIMIT: u64 = 10_000_000;

/// The defaults, in words, for `prune lab list`.
pub(super) const DEFAULTS: &str = "the first 100 positions of each of the five sets in \
                                   ../shared/data/connect4, node limit 10,000,000 per position";

/// One of Pons's test sets, with the mean times published for it.
#[derive(Debug)]
pub(super) struct SetInfo {
    /// The file's name.
    file: &'static str,
    /// Pons's name for it.
    pub(super) name: &'static str,
    /// The name on the command line.
    pub(super) key: &'static str,
    /// Mean time per position of Pons's final solver (tutorial part 12, no opening book), on
    /// his machine, in µs.
    published_us: f64,
    /// Mean time per position of Pons's solver built from his repository and run on a 2-core
    /// AMD EPYC (one thread, no book), from the data folder's README, in µs.
    pons_here_us: f64,
}

/// The sets, easiest first (the order of Pons's tables).
pub(super) const SETS: [SetInfo; 5] = [
    SetInfo {
        file: "Test_L3_R1",
        name: "End-Easy",
        key: "end-easy",
        published_us: 4.6,
        pons_here_us: 8.0,
    },
    SetInfo {
        file: "Test_L2_R1",
        name: "Middle-Easy",
        key: "middle-easy",
        published_us: 37.5,
        pons_here_us: 46.0,
    },
    SetInfo {
        file: "Test_L2_R2",
        name: "Middle-Medium",
        key: "middle-medium",
        published_us: 3_200.0,
        pons_here_us: 4_600.0,
    },
    SetInfo {
        file: "Test_L1_R1",
        name: "Begin-Easy",
        key: "begin-easy",
        published_us: 255.0,
        pons_here_us: 292.0,
    },
    SetInfo {
        file: "Test_L1_R2",
        name: "Begin-Medium",
        key: "begin-medium",
        published_us: 96_600.0,
        pons_here_us: 140_700.0,
    },
];

/// A set as read: which one, and its first positions.
pub(super) struct LoadedSet {
    info: &'static SetInfo,
    pub(super) records: Vec<Record>,
}

/// A finished solve whose score differs from the file's.
#[derive(Clone, Debug)]
struct Wrong {
    line: usize,
    moves: String,
    expected: i32,
    got: i32,
}

/// One step on one set: what its solves cost and found.
#[derive(Clone, Debug, Default)]
struct Outcome {
    positions: usize,
    solved: usize,
    capped: usize,
    /// Finished solves whose position has no score in the file.
    unchecked: usize,
    wrong: Vec<Wrong>,
    /// Nodes of every solve (a capped one counts the nodes it spent).
    nodes: u64,
    nodes_solved: u64,
    max_nodes: u64,
    time: Duration,
    time_solved: Duration,
}

impl Outcome {
    fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.positions.max(1) as f64
    }

    fn mean_us(&self) -> f64 {
        self.time.as_secs_f64() * 1e6 / self.positions.max(1) as f64
    }

    /// Whether the means are lower bounds (some solves were cut off).
    fn bounded(&self) -> bool {
        self.capped > 0
    }
}

/// The folder of the test sets: `--data`, or `../shared/data/connect4` from the current folder
/// or the nearest folder above it that has one.
pub(super) fn data_dir(options: &LabOptions) -> Result<PathBuf, LabError> {
    super::shared_data_dir(
        options,
        "connect4",
        "Pons's test sets, Test_L3_R1 ...",
        "the test sets' folder",
    )
}

/// The sets chosen by `--sets` (all five by default), in the order of [`SETS`].
fn chosen_sets(options: &LabOptions) -> Result<Vec<&'static SetInfo>, LabError> {
    let Some(names) = &options.sets else {
        return Ok(SETS.iter().collect());
    };
    let mut chosen = Vec::new();
    for name in names {
        let name = name.trim();
        let set = SETS
            .iter()
            .find(|s| {
                s.key.eq_ignore_ascii_case(name)
                    || s.name.eq_ignore_ascii_case(name)
                    || s.file.eq_ignore_ascii_case(name)
            })
            .ok_or_else(|| {
                let known: Vec<String> = SETS
                    .iter()
                    .map(|s| format!("{} ({})", s.key, s.file))
                    .collect();
                LabError::Usage(format!(
                    "--sets: unknown set '{name}' (expected some of: {})",
                    known.join(", ")
                ))
            })?;
        if !chosen.iter().any(|c: &&SetInfo| c.key == set.key) {
            chosen.push(set);
        }
    }
    if chosen.is_empty() {
        return Err(LabError::Usage("--sets: no set named".into()));
    }
    chosen.sort_by_key(|s| SETS.iter().position(|t| t.key == s.key));
    Ok(chosen)
}

/// Reads the first `per_set` positions of `info`'s file; a bad line is an error naming it.
pub(super) fn load(
    dir: &Path,
    info: &'static SetInfo,
    per_set: usize,
) -> Result<LoadedSet, LabError> {
    let path = dir.join(info.file);
    let text = std::fs::read_to_string(&path).map_err(|e| LabError::io(&path, e))?;
    let (mut records, bad) = suite::parse(&text);
    if let Some(first) = bad.first() {
        return Err(LabError::Usage(format!(
            "{}: {first} ({} bad lines in all)",
            path.display(),
            bad.len()
        )));
    }
    if records.is_empty() {
        return Err(LabError::Usage(format!(
            "{}: no positions in the file",
            path.display()
        )));
    }
    records.truncate(per_set);
    Ok(LoadedSet { info, records })
}

/// Solves every record with `step` on a table that starts empty.
fn run_step(
    solver: &mut Solver,
    records: &[Record],
    step: Step,
    node_limit: Option<u64>,
) -> Outcome {
    // Clearing also writes every page of the table, so that no solve is timed while the
    // operating system maps fresh memory.
    solver.clear();
    let options = SolveOptions {
        weak: false,
        step,
        node_limit,
        threads: 1,
    };
    let mut out = Outcome {
        positions: records.len(),
        ..Outcome::default()
    };
    for r in records {
        let start = Instant::now();
        let s = solver.solve(&r.position, &options);
        let time = start.elapsed();
        out.nodes += s.nodes;
        out.max_nodes = out.max_nodes.max(s.nodes);
        out.time += time;
        if !s.complete {
            out.capped += 1;
            continue;
        }
        out.solved += 1;
        out.nodes_solved += s.nodes;
        out.time_solved += time;
        match r.score {
            None => out.unchecked += 1,
            Some(expected) if expected != s.score => out.wrong.push(Wrong {
                line: r.line,
                moves: r.moves.clone(),
                expected,
                got: s.score,
            }),
            Some(_) => {}
        }
    }
    out
}

/// `n` as `10^k` when it is a power of ten, else with thousands separators.
fn limit_text(n: u64) -> String {
    let mut k = 0;
    let mut m = n;
    while m >= 10 && m.is_multiple_of(10) {
        m /= 10;
        k += 1;
    }
    if m == 1 && k >= 3 {
        format!("{} (10^{k})", thousands(n))
    } else {
        thousands(n)
    }
}

/// A mean time in words: µs, ms or s.
fn time_text(us: f64) -> String {
    if us >= 1e6 {
        format!("{:.2} s", us / 1e6)
    } else if us >= 1e3 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{us:.1} µs")
    }
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let per_set = options.per_set.unwrap_or(DEFAULT_PER_SET);
    if per_set == 0 {
        return Err(LabError::Usage(
            "--positions 0: solve at least one position per set".into(),
        ));
    }
    let node_limit = options.node_limit.unwrap_or(Some(DEFAULT_NODE_LIMIT));
    if node_limit == Some(0) {
        return Err(LabError::Usage(
            "--node-limit 0: the limit must be at least 1 node (or none)".into(),
        ));
    }
    let infos = chosen_sets(options)?;
    let dir = data_dir(options)?;
    let sets: Vec<LoadedSet> = infos
        .iter()
        .map(|info| load(&dir, info, per_set))
        .collect::<Result<_, _>>()?;
    let steps: &[Step] = &Step::ALL;

    // Every (set, step), hardest sets and slowest steps first for the balance of the threads.
    let tasks: Vec<(usize, usize)> = (0..sets.len())
        .rev()
        .flat_map(|s| (0..steps.len()).map(move |k| (s, k)))
        .collect();
    // One solver (and table) per thread at most, cleared before every task.
    let pool: Mutex<Vec<Solver>> = Mutex::new(Vec::new());
    let table_bytes = Mutex::new(0usize);
    progress.start("connect4 set × step", tasks.len() as u64);
    let results = run_tasks(
        &tasks,
        options.jobs(),
        progress,
        |&(s, k)| format!("{} {}", sets[s].info.name, steps[k]),
        |&(s, k)| -> Result<Outcome, LabError> {
            let taken = pool.lock().expect("the pool's lock").pop();
            let mut solver = match taken {
                Some(solver) => solver,
                None => Solver::new()
                    .map_err(|e| LabError::Usage(format!("connect4: the solver's table: {e}")))?,
            };
            *table_bytes.lock().expect("a lock") = solver.table_bytes();
            let outcome = run_step(&mut solver, &sets[s].records, steps[k], node_limit);
            pool.lock().expect("the pool's lock").push(solver);
            Ok(outcome)
        },
    );
    let mut outcomes: Vec<Vec<Outcome>> = vec![vec![Outcome::default(); steps.len()]; sets.len()];
    for (&(s, k), result) in tasks.iter().zip(results) {
        outcomes[s][k] = result?;
    }
    let table_bytes = table_bytes.into_inner().expect("a lock");
    let at = |s: usize, k: usize| &outcomes[s][k];

    // The summary tables: rows = steps, columns = sets.
    let set_names: Vec<&str> = sets.iter().map(|s| s.info.name).collect();
    let by_step = |name: &str, title: &str| {
        let mut t = Table::new(name, title, &["step", "adds"]);
        t.columns.extend(set_names.iter().map(|n| n.to_string()));
        t
    };
    let mut nodes_table = by_step(
        "connect4-nodes",
        "Mean nodes per position (≥: some positions reached the node limit and count the nodes \
         they spent, so the mean is a lower bound)",
    );
    let mut time_table = by_step(
        "connect4-time",
        "Mean time per position, µs (≥ as for the nodes)",
    );
    let mut capped_table = by_step(
        "connect4-capped",
        &format!("Positions that reached the node limit (of {per_set} per set at most)"),
    );
    let mut runs = Table::new(
        "connect4-runs",
        "Every (set, step): the solves in full",
        &[
            "set",
            "file",
            "step",
            "positions",
            "solved",
            "capped",
            "wrong scores",
            "unchecked (no score in the file)",
            "mean nodes",
            "mean nodes of the solved",
            "max nodes",
            "mean time (µs)",
            "mean time of the solved (µs)",
            "total time (s)",
            "nodes per second",
            "means are lower bounds",
        ],
    );
    runs.in_markdown = false;
    for (k, step) in steps.iter().enumerate() {
        let lead = || vec![Cell::text(step.to_string()), Cell::text(step.description())];
        let (mut n_row, mut t_row, mut c_row) = (lead(), lead(), lead());
        for s in 0..sets.len() {
            let o = at(s, k);
            n_row.push(Cell::at_least_if(
                o.bounded(),
                Cell::Count(o.mean_nodes().round() as u64),
            ));
            t_row.push(Cell::at_least_if(o.bounded(), Cell::real(o.mean_us(), 1)));
            c_row.push(Cell::Count(o.capped as u64));
        }
        nodes_table.push(n_row);
        time_table.push(t_row);
        capped_table.push(c_row);
    }
    for (s, set) in sets.iter().enumerate() {
        for (k, step) in steps.iter().enumerate() {
            let o = at(s, k);
            let secs = o.time.as_secs_f64();
            runs.push(vec![
                Cell::text(set.info.name),
                Cell::text(set.info.file),
                Cell::text(step.to_string()),
                Cell::Count(o.positions as u64),
                Cell::Count(o.solved as u64),
                Cell::Count(o.capped as u64),
                Cell::Count(o.wrong.len() as u64),
                Cell::Count(o.unchecked as u64),
                Cell::real(o.mean_nodes(), 1),
                Cell::maybe_real(ratio(o.nodes_solved as f64, o.solved as f64), 1),
                Cell::Count(o.max_nodes),
                Cell::real(o.mean_us(), 2),
                Cell::maybe_real(ratio(o.time_solved.as_secs_f64() * 1e6, o.solved as f64), 2),
                Cell::real(secs, 4),
                ratio(o.nodes as f64, secs).map_or(Cell::Empty, |n| Cell::Count(n as u64)),
                Cell::text(if o.bounded() { "yes" } else { "no" }),
            ]);
        }
    }

    // Published figures beside the solver's step (Step::BEST; the last step run if it was not).
    let last = solver_step(steps);
    let mut published = Table::new(
        "connect4-published",
        &format!(
            "Published figures for Pons's final solver (not measured by this run; his means are \
             over all 1,000 positions of a set) beside the solver's step in this run ({}, over \
             its sample)",
            steps[last]
        ),
        &[
            "set",
            "published mean time (µs): Pons's solver on his machine",
            "mean time (µs): Pons's solver on a 2-core AMD EPYC (data README)",
            "mean time (µs): the solver's step in this run",
            "positions in this run",
        ],
    );
    for (s, set) in sets.iter().enumerate() {
        let o = at(s, last);
        published.push(vec![
            Cell::text(set.info.name),
            Cell::real(set.info.published_us, 1),
            Cell::real(set.info.pons_here_us, 1),
            Cell::at_least_if(o.bounded(), Cell::real(o.mean_us(), 1)),
            Cell::Count(o.positions as u64),
        ]);
    }

    // Wrong scores: a table of them, and the report's problems.
    let mut wrong_table = Table::new(
        "connect4-wrong",
        "WRONG SCORES: finished solves whose score differs from the file's",
        &[
            "set",
            "step",
            "line",
            "moves",
            "file's score",
            "solver's score",
        ],
    );
    let mut problems = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (k, step) in steps.iter().enumerate() {
            let o = at(s, k);
            for w in &o.wrong {
                wrong_table.push(vec![
                    Cell::text(set.info.name),
                    Cell::text(step.to_string()),
                    Cell::Count(w.line as u64),
                    Cell::text(&w.moves),
                    Cell::Int(i64::from(w.expected)),
                    Cell::Int(i64::from(w.got)),
                ]);
            }
            if let Some(first) = o.wrong.first() {
                problems.push(format!(
                    "WRONG SCORES: step {step} on {} ({}) finished {} positions with a score \
                     other than the file's; the first, line {} ({}), scored {} instead of {}",
                    set.info.name,
                    set.info.file,
                    o.wrong.len(),
                    first.line,
                    first.moves,
                    first.got,
                    first.expected
                ));
            }
        }
    }

    let findings = findings(&sets, steps, &outcomes, node_limit);

    let categories: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    let plot = |name: &str, title: &str, y_label: &str, value: &dyn Fn(&Outcome) -> f64| Plot {
        name: name.into(),
        title: title.into(),
        x_label: "solver step (each with every step before it)".into(),
        y_label: y_label.into(),
        x_axis: XAxis::Categories(categories.clone()),
        log_y: true,
        series: sets
            .iter()
            .enumerate()
            .map(|(s, set)| {
                let points = (0..steps.len())
                    .map(|k| (k as f64, value(at(s, k))))
                    .collect();
                Series::new(set.info.name, points)
            })
            .collect(),
        legend: Legend::UpperRight,
    };
    let capped_note = match node_limit {
        Some(limit) => format!(
            " (capped at {} nodes: lower bounds there)",
            thousands(limit)
        ),
        None => String::new(),
    };
    let plots = vec![
        plot(
            "connect4-time",
            &format!("Mean time per position by solver step{capped_note}"),
            "mean time per position, µs (log scale)",
            &|o| o.mean_us(),
        ),
        plot(
            "connect4-nodes",
            &format!("Mean nodes per position by solver step{capped_note}"),
            "mean nodes per position (log scale)",
            &|o| o.mean_nodes(),
        ),
    ];

    let mut tables = vec![nodes_table, time_table, capped_table, published];
    if !wrong_table.rows.is_empty() {
        tables.insert(0, wrong_table);
    }
    tables.push(runs);

    let set_list: Vec<String> = sets
        .iter()
        .map(|s| {
            format!(
                "{} ({}, {} positions)",
                s.info.name,
                s.info.file,
                s.records.len()
            )
        })
        .collect();
    let steps_list: Vec<String> = steps
        .iter()
        .map(|s| format!("{s} ({})", s.description()))
        .collect();
    Ok(Report {
        experiment: "connect4".into(),
        files: Vec::new(),
        title: "Solving Connect 4, step by step, on Pons's test sets".into(),
        reproduces: "Reproduces the progression of Pascal Pons's tutorial \"Solving Connect 4: \
                     how to build a perfect AI\" (parts 3 to 12) on his test sets: each step of \
                     prune's exact solver adds one enhancement to every step before it (his \
                     steps in his order, then prune's own), and solves the same positions. A \
                     node is every position the solver visits, counted by the solver. Each \
                     (set, step) starts from an empty transposition table and keeps it from one \
                     position of the set to the next, as Pons's solver does when it reads a set \
                     on its standard input. Every finished score is checked against the file's."
            .into(),
        problems,
        settings: vec![
            ("sets".into(), set_list.join("; ")),
            (
                "positions per set".into(),
                format!("the first {per_set} of each file (the default is {DEFAULT_PER_SET})"),
            ),
            (
                "node limit".into(),
                match node_limit {
                    Some(n) => format!(
                        "{} nodes per position (the default is {}); a position that reaches \
                         it is counted as capped, with the nodes and time it spent, and the \
                         means of its (set, step) are lower bounds, marked ≥",
                        limit_text(n),
                        thousands(DEFAULT_NODE_LIMIT)
                    ),
                    None => "none: every position solved to the end".into(),
                },
            ),
            ("steps".into(), steps_list.join("; ")),
            (
                "data".into(),
                dir.canonicalize().unwrap_or(dir).display().to_string(),
            ),
            (
                "table".into(),
                format!(
                    "{} MiB (one per (set, step) being run, cleared before each)",
                    table_bytes / (1 << 20)
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables,
        plots,
    })
}

/// Where the solver's own step ([`Step::BEST`]) is among `steps` (the last one if absent): the
/// steps after it are measured experiments that did not pay.
fn solver_step(steps: &[Step]) -> usize {
    steps
        .iter()
        .position(|&s| s == Step::BEST)
        .unwrap_or(steps.len() - 1)
}

/// The findings: the scores' check, each set's first step and the solver's, and what was
/// capped.
fn findings(
    sets: &[LoadedSet],
    steps: &[Step],
    outcomes: &[Vec<Outcome>],
    node_limit: Option<u64>,
) -> Vec<String> {
    let mut findings = Vec::new();
    let all = || outcomes.iter().flatten();
    let wrong: usize = all().map(|o| o.wrong.len()).sum();
    let solved: usize = all().map(|o| o.solved).sum();
    let unchecked: usize = all().map(|o| o.unchecked).sum();
    let runs = sets.len() * steps.len();
    if wrong == 0 {
        findings.push(format!(
            "Every finished solve scored what the file says: {} solves checked over {runs} \
             (set, step) runs{}.",
            thousands((solved - unchecked) as u64),
            if unchecked > 0 {
                format!(
                    "; {} positions have no score in their file",
                    thousands(unchecked as u64)
                )
            } else {
                String::new()
            }
        ));
    } else {
        findings.push(format!(
            "WRONG SCORES: {wrong} of {} finished solves differ from the file's score (see the \
             table of wrong scores).",
            thousands(solved as u64)
        ));
    }
    let last = solver_step(steps);
    for (s, set) in sets.iter().enumerate() {
        let first = &outcomes[s][0];
        let best = &outcomes[s][last];
        let bound = |o: &Outcome| if o.bounded() { "≥ " } else { "" };
        // A ratio of two lower bounds says nothing; one of a lower bound to a measured mean is
        // a lower bound itself.
        // (A lower bound under 1 says nothing either.)
        let speedup = ratio(first.mean_us(), best.mean_us())
            .filter(|&r| !best.bounded() && (r >= 1.0 || !first.bounded()))
            .map(|r| {
                let digits = if r >= 10.0 { 0 } else { 1 };
                format!(" ({}{r:.digits$}x faster)", bound(first))
            })
            .unwrap_or_default();
        findings.push(format!(
            "{} ({} positions): {} {}{} and {}{} nodes per position; {} {}{} and {}{} nodes{} \
             (Pons published {} for his final solver on his machine).",
            set.info.name,
            set.records.len(),
            steps[0],
            bound(first),
            time_text(first.mean_us()),
            bound(first),
            thousands(first.mean_nodes().round() as u64),
            steps[last],
            bound(best),
            time_text(best.mean_us()),
            bound(best),
            thousands(best.mean_nodes().round() as u64),
            speedup,
            time_text(set.info.published_us),
        ));
    }
    if let Some(limit) = node_limit {
        for (k, step) in steps.iter().enumerate() {
            let capped: Vec<String> = sets
                .iter()
                .enumerate()
                .filter(|&(s, _)| outcomes[s][k].capped > 0)
                .map(|(s, set)| {
                    format!(
                        "{} {} of {}",
                        set.info.name, outcomes[s][k].capped, outcomes[s][k].positions
                    )
                })
                .collect();
            if !capped.is_empty() {
                findings.push(format!(
                    "Capped: step {step} reached the {}-node limit on {}; its means there are \
                     lower bounds (≥).",
                    limit_text(limit),
                    capped.join(", ")
                ));
            }
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_in_words() {
        assert_eq!(limit_text(10_000_000), "10,000,000 (10^7)");
        assert_eq!(limit_text(2_500), "2,500");
        assert_eq!(limit_text(100), "100");
        assert_eq!(time_text(4.56), "4.6 µs");
        assert_eq!(time_text(96_600.0), "96.60 ms");
    }

    #[test]
    fn sets_by_any_of_their_names_in_file_order() {
        let options = LabOptions {
            sets: Some(vec![
                "Test_L1_R2".into(),
                "end-easy".into(),
                "End-Easy".into(),
            ]),
            ..LabOptions::default()
        };
        let chosen: Vec<&str> = chosen_sets(&options)
            .unwrap()
            .iter()
            .map(|s| s.key)
            .collect();
        assert_eq!(chosen, ["end-easy", "begin-medium"]);
        let options = LabOptions {
            sets: Some(vec!["begin-hard".into()]),
            ..LabOptions::default()
        };
        let err = chosen_sets(&options).unwrap_err().to_string();
        assert!(
            err.contains("begin-hard") && err.contains("Test_L3_R1"),
            "{err}"
        );
    }
}
