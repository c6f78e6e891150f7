//! `prune solve --game connect4 FILE`: every position of a file of `MOVES [SCORE]` lines (Pascal
//! Pons's test sets) solved exactly (or win/draw/loss) and checked against the file's score.

use std::time::{Duration, Instant};

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Color, Table};
use indicatif::{ProgressBar, ProgressStyle};
use prune_connect4::suite::{self, BadLine, Record};
use prune_connect4::{Solution, SolveOptions, Solver, Step};
use prune_othello::{SolveWindow, SolverKind, BUILTIN_SUITES};
use prune_search::Named;
use serde_json::{json, Value};

use super::{othello_only, short_duration, GAME};
use crate::cells::{count, per_second as rate, rate_text, right, thousands};
use crate::positions::parse_selection;
use crate::solve_cmd::{IsaChoice, SolveArgs};
use crate::CliError;

/// How a solve compares with the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The score is the file's (or has its sign, win/draw/loss).
    Correct,
    /// The score differs from the file's.
    Wrong,
    /// The file gives no score for the position.
    Unchecked,
    /// The solve stopped at `--node-limit`: no score to check.
    Unfinished,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Wrong => "wrong_score",
            Verdict::Unchecked => "unchecked",
            Verdict::Unfinished => "unfinished",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            Verdict::Correct => "✓",
            Verdict::Wrong => "✗ WRONG score",
            Verdict::Unchecked => "-",
            Verdict::Unfinished => "unfinished",
        }
    }
}

/// The score the file's score means in `window`.
fn expected(record: &Record, window: SolveWindow) -> Option<i32> {
    record.score.map(|s| match window {
        SolveWindow::Exact => s,
        SolveWindow::WinDrawLoss => s.signum(),
    })
}

fn judge(record: &Record, window: SolveWindow, solution: &Solution) -> Verdict {
    if !solution.complete {
        return Verdict::Unfinished;
    }
    match expected(record, window) {
        None => Verdict::Unchecked,
        Some(e) if e == solution.score => Verdict::Correct,
        Some(_) => Verdict::Wrong,
    }
}

/// One solved position.
struct Row {
    record: Record,
    solution: Solution,
    time: Duration,
    verdict: Verdict,
}

impl Row {
    /// The score as the table shows it (`-` when unfinished).
    fn score(&self) -> Option<i32> {
        self.solution.complete.then_some(self.solution.score)
    }
}

/// What the run was asked for, for the reports.
struct Setup<'a> {
    path: &'a str,
    window: SolveWindow,
    step: Step,
    threads: usize,
    node_limit: Option<u64>,
    table_bytes: usize,
    bad: &'a [BadLine],
}

/// Refuses the options of `prune solve` that only Othello's solver takes.
fn refuse_othello_options(args: &SolveArgs) -> Result<(), CliError> {
    if let Some(engine) = args.engine {
        let why = match engine {
            SolverKind::Fast => "there is one Connect Four solver; --step picks its enhancements",
            SolverKind::Generic => {
                "the generic search runs Connect Four through `prune search --game connect4`"
            }
        };
        return Err(othello_only("--engine", why));
    }
    if let Some(option) = args.config_args.first_search_option() {
        return Err(othello_only(
            &option,
            "it configures Othello's generic search; the Connect Four solver takes --step",
        ));
    }
    if let IsaChoice(Some(_)) = args.isa {
        return Err(othello_only(
            "--isa",
            "the instruction set is Othello's solver's",
        ));
    }
    if args.eval.trim() != "pattern" {
        return Err(othello_only(
            "--eval",
            "it names an Othello evaluation; the Connect Four solver needs none",
        ));
    }
    if args.parallel_args.parallel.is_some() {
        return Err(othello_only(
            "--parallel",
            "the Connect Four solver's threads always share its table (Lazy SMP); give --threads",
        ));
    }
    Ok(())
}

/// Reads the file: its positions, and its bad lines printed as `FILE:LINE:COLUMN: message`.
fn load(path: &str) -> Result<(Vec<Record>, Vec<BadLine>), CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        if BUILTIN_SUITES.contains(&path) {
            CliError::Usage(format!(
                "{path} is a built-in Othello suite; --game {GAME} takes a file of `MOVES \
                 [SCORE]` lines"
            ))
        } else {
            CliError::Usage(format!("cannot read {path}: {e}"))
        }
    })?;
    let (records, bad) = suite::parse(&text);
    for b in &bad {
        eprintln!("{path}:{}:{}: {} (skipped)", b.line, b.column, b.message);
    }
    if records.is_empty() && bad.is_empty() {
        return Err(CliError::Usage(format!(
            "{path} holds no position (expected lines of `MOVES [SCORE]`, such as `4453 -2`)"
        )));
    }
    Ok((records, bad))
}

/// Runs `prune solve --game connect4`.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    refuse_othello_options(args)?;
    let threads = args.parallel_args.threads.unwrap_or(1);
    if threads == 0 {
        return Err(CliError::Usage("--threads must be at least 1".into()));
    }
    if args.node_limit == Some(0) {
        return Err(CliError::Usage("--node-limit must be at least 1".into()));
    }
    let (mut records, bad) = load(&args.source)?;
    if let Some(text) = &args.only {
        let selection =
            parse_selection(text).map_err(|e| CliError::Usage(format!("--only: {e}")))?;
        if let Some(missing) = selection
            .numbers()
            .find(|&n| !records.iter().any(|r| r.line == n))
        {
            let why = match bad.iter().find(|b| b.line == missing) {
                Some(b) => format!("it is malformed: {}", b.message),
                None => "positions are numbered by their line in the file".into(),
            };
            return Err(CliError::Usage(format!(
                "--only: line {missing} of {} is not a position ({why})",
                args.source
            )));
        }
        records.retain(|r| selection.contains(r.line));
    }
    let mut solver = match args.config_args.tt_mb {
        Some(mib) => {
            crate::memory::check_table("--tt", mib)?;
            Solver::with_table_bytes(mib.saturating_mul(1 << 20))
                .map_err(|e| CliError::Usage(format!("--tt {mib}: {e}")))?
        }
        None => Solver::new().map_err(|e| CliError::Failure(format!("the solver's table: {e}")))?,
    };
    let options = SolveOptions {
        weak: args.window == SolveWindow::WinDrawLoss,
        step: args.step.unwrap_or(Step::BEST),
        node_limit: args.node_limit,
        threads,
    };

    let bar = ProgressBar::new(records.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut rows = Vec::with_capacity(records.len());
    for record in records {
        bar.set_message(format!(
            "line {} ({} moves played)",
            record.line,
            record.position.moves_played()
        ));
        // The table is kept from one position to the next (the solver is made for batches).
        let began = Instant::now();
        let solution = solver.solve(&record.position, &options);
        let time = began.elapsed();
        let verdict = judge(&record, args.window, &solution);
        if verdict == Verdict::Wrong {
            bar.suspend(|| {
                eprintln!(
                    "WRONG: line {} ({}) scored {:+} (the file says {:+})",
                    record.line,
                    record.moves,
                    solution.score,
                    expected(&record, args.window).unwrap_or_default()
                )
            });
        }
        rows.push(Row {
            record,
            solution,
            time,
            verdict,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();

    let setup = Setup {
        path: &args.source,
        window: args.window,
        step: options.step,
        threads,
        node_limit: args.node_limit,
        table_bytes: solver.table_bytes(),
        bad: &bad,
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&solve_json(&setup, &rows)).expect("JSON of plain data")
        );
    } else {
        print_table(&setup, &rows);
    }

    let mut failures = Vec::new();
    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict == Verdict::Wrong)
        .map(|r| format!("line {}", r.record.line))
        .collect();
    if !wrong.is_empty() {
        failures.push(format!(
            "{} of {} positions solved WRONG: {}",
            wrong.len(),
            rows.len(),
            wrong.join(", ")
        ));
    }
    if !bad.is_empty() {
        let lines: Vec<String> = bad.iter().map(|b| b.line.to_string()).collect();
        let plural = if lines.len() == 1 { "" } else { "s" };
        failures.push(format!(
            "{} malformed line{plural} of {} skipped (line{plural} {})",
            lines.len(),
            args.source,
            lines.join(", ")
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failure(failures.join("; ")))
    }
}

/// The totals: positions, verdicts, nodes, time.
struct Totals {
    positions: usize,
    correct: usize,
    wrong: usize,
    unchecked: usize,
    unfinished: usize,
    nodes: u64,
    time: Duration,
}

impl Totals {
    fn of(rows: &[Row]) -> Totals {
        let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
        Totals {
            positions: rows.len(),
            correct: count(Verdict::Correct),
            wrong: count(Verdict::Wrong),
            unchecked: count(Verdict::Unchecked),
            unfinished: count(Verdict::Unfinished),
            nodes: rows.iter().map(|r| r.solution.nodes).sum(),
            time: rows.iter().map(|r| r.time).sum(),
        }
    }

    /// The mean time per position (zero for none).
    fn mean(&self) -> Duration {
        match u32::try_from(self.positions) {
            Ok(n) if n > 0 => self.time / n,
            _ => Duration::ZERO,
        }
    }
}

fn window_name(window: SolveWindow) -> &'static str {
    match window {
        SolveWindow::Exact => "exact score",
        SolveWindow::WinDrawLoss => "win/draw/loss (+1/0/-1)",
    }
}

fn solve_json(setup: &Setup, rows: &[Row]) -> Value {
    let positions: Vec<Value> = rows
        .iter()
        .map(|row| {
            let s = &row.solution;
            json!({
                "line": row.record.line,
                "moves": row.record.moves,
                "played": row.record.position.moves_played(),
                "score": row.score(),
                "best_move": s.best_move.map(|c| c.number()),
                "expected": expected(&row.record, setup.window),
                "verdict": row.verdict.name(),
                "correct": match row.verdict {
                    Verdict::Correct => Some(true),
                    Verdict::Wrong => Some(false),
                    Verdict::Unchecked | Verdict::Unfinished => None,
                },
                "complete": s.complete,
                "nodes": s.nodes,
                "time_ms": row.time.as_secs_f64() * 1000.0,
                "nodes_per_second": rate(s.nodes, row.time),
            })
        })
        .collect();
    let malformed: Vec<Value> = setup
        .bad
        .iter()
        .map(|b| json!({"line": b.line, "column": b.column, "error": b.message}))
        .collect();
    let t = Totals::of(rows);
    json!({
        "game": GAME,
        "source": setup.path,
        "malformed": malformed,
        "window": setup.window.name(),
        "step": setup.step.name(),
        "threads": setup.threads,
        "node_limit": setup.node_limit,
        "tt_mib": setup.table_bytes as f64 / f64::from(1 << 20),
        "table_bytes": setup.table_bytes,
        "positions": positions,
        "totals": {
            "positions": t.positions,
            "correct": t.correct,
            "wrong": t.wrong,
            "unchecked": t.unchecked,
            "unfinished": t.unfinished,
            "nodes": t.nodes,
            "time_ms": t.time.as_secs_f64() * 1000.0,
            "mean_time_ms": t.mean().as_secs_f64() * 1000.0,
            "mean_nodes": (t.positions > 0).then(|| t.nodes as f64 / t.positions as f64),
            "nodes_per_second": rate(t.nodes, t.time),
        },
    })
}

fn print_table(setup: &Setup, rows: &[Row]) {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "line",
        "moves",
        "played",
        "best",
        "score",
        "expected",
        "correct",
        "nodes",
        "time (ms)",
        "nodes/s",
    ]);
    let signed = |s: Option<i32>| match s {
        None => "-".to_string(),
        Some(0) => "0".to_string(),
        Some(s) => format!("{s:+}"),
    };
    for row in rows {
        let s = &row.solution;
        let mut mark = Cell::new(row.verdict.mark());
        if row.verdict == Verdict::Wrong {
            mark = mark.fg(Color::Red);
        }
        table.add_row(vec![
            right(row.record.line),
            Cell::new(&row.record.moves),
            right(row.record.position.moves_played()),
            Cell::new(s.best_move.map_or_else(|| "-".into(), |c| c.to_string())),
            right(signed(row.score())),
            right(signed(expected(&row.record, setup.window))),
            mark,
            count(s.nodes),
            right(format!("{:.3}", row.time.as_secs_f64() * 1000.0)),
            right(rate_text(rate(s.nodes, row.time))),
        ]);
    }
    let t = Totals::of(rows);
    let limit = setup
        .node_limit
        .map_or_else(String::new, |n| format!(", node limit {}", thousands(n)));
    println!(
        "{}: {}, {GAME} solver step {} ({}), table {} MiB kept between positions, {} thread{}{limit}",
        setup.path,
        window_name(setup.window),
        setup.step.name(),
        setup.step.description(),
        setup.table_bytes >> 20,
        setup.threads,
        if setup.threads == 1 { "" } else { "s" },
    );
    println!("{table}");
    println!(
        "positions: {} ({} correct, {} wrong, {} unchecked, {} unfinished)",
        thousands(t.positions as u64),
        thousands(t.correct as u64),
        thousands(t.wrong as u64),
        thousands(t.unchecked as u64),
        thousands(t.unfinished as u64)
    );
    println!("nodes: {}", thousands(t.nodes));
    println!(
        "total time: {:.3} s, mean time per position: {}",
        t.time.as_secs_f64(),
        short_duration(t.mean())
    );
    println!("nodes/s: {}", rate_text(rate(t.nodes, t.time)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(score: i32, complete: bool) -> Solution {
        Solution {
            score,
            best_move: None,
            nodes: 1,
            complete,
        }
    }

    #[test]
    fn judging_against_the_file_and_its_sign() {
        let record = suite::parse_line("2252576253462244111563365343671351441 -1", 1)
            .unwrap()
            .unwrap();
        let exact = SolveWindow::Exact;
        assert_eq!(judge(&record, exact, &solution(-1, true)), Verdict::Correct);
        assert_eq!(judge(&record, exact, &solution(-2, true)), Verdict::Wrong);
        assert_eq!(
            judge(&record, exact, &solution(5, false)),
            Verdict::Unfinished
        );
        let wdl = SolveWindow::WinDrawLoss;
        assert_eq!(judge(&record, wdl, &solution(-1, true)), Verdict::Correct);
        assert_eq!(judge(&record, wdl, &solution(0, true)), Verdict::Wrong);
        let bare = suite::parse_line("44", 2).unwrap().unwrap();
        assert_eq!(judge(&bare, exact, &solution(1, true)), Verdict::Unchecked);
    }
}
