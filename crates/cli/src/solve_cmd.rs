//! `prune solve`: exact (or win/draw/loss) solving of a suite of Othello endgames with the
//! specialised solver or the generic search, checked against the scores the suite lists; with
//! `--game connect4`, a file of Connect Four positions ([`crate::connect4_cmd::solve`]).

use std::time::Duration;

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Color, Table};
use indicatif::{ProgressBar, ProgressStyle};
use prune_connect4::Step;
use prune_othello::endgame::Isa;
use prune_othello::{load_suite_or_file, LoadedPositions, ObfEntry};
use prune_othello::{Move, SolveOptions, SolveResult, SolveWindow, Solver, SolverKind};
use prune_search::{parse_name, ConfigError, Named};
use prune_search::{Algorithm, Counters};
use serde_json::{json, Value};

use crate::cells::{count, per_second as rate, rate_text, right};
use crate::config_args::{ConfigArgs, ParallelArgs};
use crate::eval_arg::parse_eval;
use crate::games::GameChoice;
use crate::positions::{parse_selection, Selection};
use crate::report::{counter_rows, counters_json, describe, statistics_table};
use crate::CliError;

/// The transposition table's size when `--tt` is not given, in MiB.
const DEFAULT_TT_MIB: usize = 64;

/// Options of `prune solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A built-in suite (`ffo-40-59`) or the path of an OBF file (one position per line with
    /// the exact score of its moves); with `--game connect4`, a file of `MOVES [SCORE]` lines
    /// (Pascal Pons's test sets: the columns played, 1-7, and the exact score for the side to
    /// move). A malformed line of the file is reported as `FILE:LINE:COLUMN: ...` and
    /// skipped: the other positions are solved, then the command fails (exit status 1).
    #[arg(value_name = "SUITE|FILE")]
    pub source: String,
    /// The game: `othello` or `connect4` (whose solver runs on one thread unless `--threads`
    /// asks for more).
    #[arg(long, short, default_value = "othello")]
    pub game: String,
    /// Connect Four: the solver's step, to measure an earlier one: negamax, alphabeta, centre,
    /// table, null-window, non-losing, threats, table-move, mirror (each with every step
    /// before it) [default: mirror, the full solver].
    #[arg(long, value_name = "STEP", value_parser = parse_name::<Step>)]
    pub step: Option<Step>,
    /// Connect Four: give a position up after this many nodes; it is reported as unfinished,
    /// not wrong.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// `exact`: the final disc difference; `wdl`: only win (+1), draw (0) or loss (-1).
    #[arg(long, default_value = "exact", value_parser = parse_name::<SolveWindow>)]
    pub window: SolveWindow,
    /// Which positions: suite numbers (or line numbers of a file) and ranges, such as `40-44`
    /// or `40,42,50-52`. All of them by default.
    #[arg(long, value_name = "LIST", visible_alias = "positions")]
    pub only: Option<String>,
    /// `fast`: the specialised Othello solver; `generic`: the library's search, by default
    /// NegaScout with a transposition table and endgame ordering (the reference, slower)
    /// [default: fast, or generic when the search is configured].
    #[arg(long, value_parser = parse_name::<SolverKind>)]
    pub engine: Option<SolverKind>,
    /// The evaluation of the fast solver's move-ordering and selective passes (from 20 empties):
    /// pattern (the built-in trained weights), hand, or a weights file. Scores do not depend on it.
    #[arg(long, value_name = "EVAL", default_value = "pattern")]
    pub eval: String,
    /// The instruction set of the fast solver: auto (the best this CPU has), portable,
    /// x86-64-v3 (AVX2, BMI1, BMI2, LZCNT, POPCNT) or x86-64-v4 (AVX-512F, CD, BW, DQ and VL
    /// besides; in builds by Rust 1.89 or later). Scores and node counts do not depend on it.
    #[arg(long, value_name = "ISA", default_value = "auto", value_parser = parse_isa)]
    pub isa: IsaChoice,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Threads and parallel scheme.
    #[command(flatten)]
    pub parallel_args: ParallelArgs,
    // Last: the options after a flattened struct would go under its help heading.
    /// The generic engine's configuration (`--tt` also sizes the fast solver's table, 64 MiB
    /// by default).
    #[command(flatten)]
    pub config_args: ConfigArgs,
}

/// The value of `--isa`: an instruction set, or `None` for auto (the best this CPU has).
#[derive(Clone, Copy, Debug)]
pub struct IsaChoice(pub Option<Isa>);

fn parse_isa(text: &str) -> Result<IsaChoice, String> {
    let name = text.trim().to_ascii_lowercase();
    if name == "auto" {
        return Ok(IsaChoice(None));
    }
    let names: Vec<&str> = Isa::ALL.iter().map(|isa| isa.name()).collect();
    let isa = parse_name::<Isa>(&name).map_err(|_| {
        format!(
            "'{text}' is not an instruction set (expected auto, {})",
            names.join(", ")
        )
    })?;
    if !isa.is_available() {
        return Err(format!(
            "{isa} cannot run here (this CPU and build run: {})",
            available()
        ));
    }
    Ok(IsaChoice(Some(isa)))
}

/// The instruction sets this CPU runs, by name.
fn available() -> String {
    let names: Vec<&str> = Isa::ALL
        .iter()
        .filter(|isa| isa.is_available())
        .map(|isa| isa.name())
        .collect();
    names.join(", ")
}

impl SolveArgs {
    /// The solver's options: the engine (generic if the search is configured), the table
    /// size, and the generic engine's configuration if any option beyond `--tt` sets it.
    fn options(&self) -> Result<SolveOptions, CliError> {
        let search_option = self.config_args.first_search_option();
        let kind = match (self.engine, &search_option) {
            (Some(SolverKind::Fast), Some(option)) => {
                return Err(CliError::Usage(format!(
                    "{option}: --preset, --algorithm and the ordering switches configure the \
                     generic engine; drop --engine fast"
                )))
            }
            (Some(kind), _) => kind,
            (None, Some(_)) => SolverKind::Generic,
            (None, None) => SolverKind::Fast,
        };
        let search = match (kind, search_option) {
            (SolverKind::Generic, Some(_)) => {
                Some(self.config_args.build(Algorithm::NegaScout, false)?)
            }
            _ => None,
        };
        let parallel = self.parallel_args.build()?;
        let tt_mib = self.config_args.tt_mb.unwrap_or(DEFAULT_TT_MIB);
        crate::memory::check_table("--tt", tt_mib)?;
        Ok(SolveOptions {
            window: self.window,
            tt_mib,
            kind,
            search,
            parallel,
        })
    }
}

/// Where the positions came from: a built-in suite or an OBF file, and the file's
/// malformed records.
type Source = LoadedPositions;

/// Loads the positions of a built-in suite or of an OBF file. Each malformed record of the
/// file is printed on stderr as `path:line:column: what is wrong` and skipped (the run fails
/// at the end); a file that cannot be read or holds no well-formed position is an error.
fn load(name: &str) -> Result<Source, CliError> {
    let source = load_suite_or_file(name).map_err(|e| CliError::Usage(e.to_string()))?;
    for bad in &source.bad_records {
        eprintln!("{bad} (skipped)");
    }
    Ok(source)
}

/// Keeps the positions `selection` names; every number named must exist.
fn select(source: &mut Source, selection: &Selection) -> Result<(), CliError> {
    if let Some(missing) = selection
        .numbers()
        .find(|&n| !source.positions.iter().any(|p| p.number == n))
    {
        if let Some(bad) = source.bad_records.iter().find(|b| b.error.line == missing) {
            return Err(CliError::Usage(format!(
                "--only: line {missing} of {} is malformed: {}",
                source.name, bad.error.kind
            )));
        }
        let known = match (source.positions.first(), source.positions.last()) {
            (Some(first), Some(last)) if source.builtin => {
                format!("it has #{} to #{}", first.number, last.number)
            }
            _ => "positions are numbered by their line in the file".to_string(),
        };
        return Err(CliError::Usage(format!(
            "--only: {} is not a position of {} ({known})",
            source.label(missing),
            source.name
        )));
    }
    source.positions.retain(|p| selection.contains(p.number));
    Ok(())
}

/// How a solve compares with what the file lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The score and the move agree with the file.
    Correct,
    /// The score differs from the file's best score.
    WrongScore,
    /// The score is right but the move is not one the file scores as best.
    WrongMove,
    /// The file lists no scores for this position.
    Unchecked,
}

impl Verdict {
    fn is_wrong(self) -> bool {
        matches!(self, Verdict::WrongScore | Verdict::WrongMove)
    }

    fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::WrongScore => "wrong_score",
            Verdict::WrongMove => "wrong_move",
            Verdict::Unchecked => "unchecked",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            Verdict::Correct => "✓",
            Verdict::WrongScore => "✗ WRONG score",
            Verdict::WrongMove => "✗ WRONG move",
            Verdict::Unchecked => "-",
        }
    }
}

/// The score the file lists for the window (`None` if it lists no move).
fn expected_score(entry: &ObfEntry, window: SolveWindow) -> Option<i32> {
    let best = entry.best_score()?;
    Some(match window {
        SolveWindow::Exact => best,
        SolveWindow::WinDrawLoss => best.signum(),
    })
}

/// Checks a result against the file: the score must be the listed best (or its sign), and the
/// move one the file scores as best (or with that sign).
fn judge(entry: &ObfEntry, r: &SolveResult) -> Verdict {
    let Some(expected) = expected_score(entry, r.window) else {
        return Verdict::Unchecked;
    };
    if r.score != expected {
        return Verdict::WrongScore;
    }
    let move_ok = match r.best_move {
        None => true, // the game is over: no move to check
        Some(mv) => match r.window {
            SolveWindow::Exact => entry.best_moves().contains(&mv),
            SolveWindow::WinDrawLoss => entry.score_of(mv).map(i32::signum) == Some(expected),
        },
    };
    if move_ok {
        Verdict::Correct
    } else {
        Verdict::WrongMove
    }
}

/// One solved position.
struct Row {
    number: usize,
    entry: ObfEntry,
    result: SolveResult,
    verdict: Verdict,
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn move_text(mv: Option<Move>) -> String {
    mv.map_or_else(|| "-".to_string(), |m| m.to_string())
}

/// Runs `prune solve`.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    match args.game.parse::<GameChoice>()? {
        GameChoice::Othello => {}
        GameChoice::Connect4 => return crate::connect4_cmd::solve::run(args),
        other => {
            return Err(CliError::Usage(format!(
                "--game {other}: prune solve solves othello and connect4"
            )))
        }
    }
    for (option, given) in [
        ("--step", args.step.is_some()),
        ("--node-limit", args.node_limit.is_some()),
    ] {
        if given {
            return Err(CliError::Usage(format!(
                "{option} is an option of the Connect Four solver (--game connect4)"
            )));
        }
    }
    let mut source = load(&args.source)?;
    if let Some(text) = &args.only {
        let selection =
            parse_selection(text).map_err(|e| CliError::Usage(format!("--only: {e}")))?;
        select(&mut source, &selection)?;
    }
    let options = args.options()?;
    // A configuration given was validated already: what fails now is the table (its size out
    // of range, or more memory than the machine can give) or the threads.
    let mut solver = Solver::new(options).map_err(|e| match e {
        ConfigError::Memory(e) => CliError::Usage(format!("--tt {}: {e}", options.tt_mib)),
        e => CliError::Usage(format!("--tt: {e}")),
    })?;
    solver.set_eval(parse_eval("--eval", &args.eval)?);
    if let IsaChoice(Some(isa)) = args.isa {
        if options.kind == SolverKind::Generic {
            return Err(CliError::Usage(
                "--isa: the instruction set is the fast solver's; drop it with the generic engine"
                    .into(),
            ));
        }
        solver
            .set_isa(isa)
            .map_err(|e| CliError::Usage(format!("--isa: {e}")))?;
    }

    let bar = ProgressBar::new(source.positions.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut rows = Vec::with_capacity(source.positions.len());
    for problem in std::mem::take(&mut source.positions) {
        let position = problem.entry.position;
        bar.set_message(format!(
            "{} ({} empties)",
            source.label(problem.number),
            position.empty_count()
        ));
        // Each position starts from an empty table, so its counts do not depend on which
        // positions were solved before it.
        solver.clear();
        let result = solver.solve(&position);
        let verdict = judge(&problem.entry, &result);
        if verdict.is_wrong() {
            bar.suspend(|| {
                eprintln!(
                    "WRONG: {} scored {:+} with {} (the file says {})",
                    source.label(problem.number),
                    result.score,
                    move_text(result.best_move),
                    expected_score(&problem.entry, args.window)
                        .map_or_else(|| "-".into(), |s| format!("{s:+}"))
                )
            });
        }
        rows.push(Row {
            number: problem.number,
            entry: problem.entry,
            result,
            verdict,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();

    if args.json {
        let value = solve_json(&source, &options, solver.isa(), &rows);
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
    } else {
        print_table(&source, &options, solver.isa(), &rows);
    }
    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict.is_wrong())
        .map(|r| source.label(r.number))
        .collect();
    let mut failures = Vec::new();
    if !wrong.is_empty() {
        failures.push(format!(
            "{} of {} positions solved WRONG: {}",
            wrong.len(),
            rows.len(),
            wrong.join(", ")
        ));
    }
    if !source.bad_records.is_empty() {
        let lines: Vec<String> = source
            .bad_records
            .iter()
            .map(|b| b.error.line.to_string())
            .collect();
        let plural = if lines.len() == 1 { "" } else { "s" };
        failures.push(format!(
            "{} malformed record{plural} of {} skipped (line{plural} {})",
            lines.len(),
            source.name,
            lines.join(", ")
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failure(failures.join("; ")))
    }
}

/// The totals over all rows: counters and time.
fn totals(rows: &[Row]) -> (Counters, Duration) {
    rows.iter()
        .fold((Counters::default(), Duration::ZERO), |(mut c, t), r| {
            c += r.result.stats.total;
            (c, t + r.result.stats.time)
        })
}

fn solve_json(source: &Source, options: &SolveOptions, isa: Option<Isa>, rows: &[Row]) -> Value {
    let config = (options.kind == SolverKind::Generic).then(|| Solver::config(options));
    let positions: Vec<Value> = rows
        .iter()
        .map(|row| {
            let r = &row.result;
            json!({
                "id": row.number,
                "position": row.entry.position.to_string(),
                "empties": row.entry.position.empty_count(),
                "score": r.score,
                "best_move": r.best_move.map(|m| m.to_string()),
                "pv": r.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "expected": expected_score(&row.entry, r.window),
                "expected_moves": row.entry.best_moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
                "verdict": row.verdict.name(),
                "correct": (row.verdict != Verdict::Unchecked).then_some(row.verdict == Verdict::Correct),
                "nodes": r.stats.total.nodes,
                "time_ms": seconds(r.stats.time) * 1000.0,
                "nodes_per_second": r.stats.nodes_per_second(),
                "stats": counters_json(&r.stats.total),
            })
        })
        .collect();
    let (total, time) = totals(rows);
    let nodes = total.nodes;
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    let bad_records: Vec<Value> = source
        .bad_records
        .iter()
        .map(|b| {
            json!({
                "line": b.error.line,
                "column": b.error.column,
                "error": b.error.kind.to_string(),
            })
        })
        .collect();
    json!({
        "source": source.name,
        "builtin_suite": source.builtin,
        "malformed": bad_records,
        "window": options.window.name(),
        "engine": options.kind.name(),
        "tt_mib": options.tt_mib,
        "isa": isa.map(Isa::name),
        "config": config,
        "enhancements": config.map(|c| c.enhancements()),
        "positions": positions,
        "totals": {
            "positions": rows.len(),
            "correct": count(Verdict::Correct),
            "wrong": rows.iter().filter(|r| r.verdict.is_wrong()).count(),
            "unchecked": count(Verdict::Unchecked),
            "nodes": nodes,
            "time_ms": seconds(time) * 1000.0,
            "nodes_per_second": rate(nodes, time),
            "stats": counters_json(&total),
        },
    })
}

fn print_table(source: &Source, options: &SolveOptions, isa: Option<Isa>, rows: &[Row]) {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        if source.builtin { "#" } else { "line" },
        "empties",
        "best",
        "score",
        "expected",
        "correct",
        "nodes",
        "time (s)",
        "nodes/s",
    ]);
    let nps = |nodes, time| rate_text(rate(nodes, time));
    for row in rows {
        let r = &row.result;
        let mut mark = Cell::new(row.verdict.mark());
        if row.verdict.is_wrong() {
            mark = mark.fg(Color::Red);
        }
        table.add_row(vec![
            right(row.number),
            right(row.entry.position.empty_count()),
            Cell::new(move_text(r.best_move)),
            right(format!("{:+}", r.score)),
            right(expected_score(&row.entry, r.window).map_or("-".into(), |s| format!("{s:+}"))),
            mark,
            count(r.stats.total.nodes),
            right(format!("{:.3}", seconds(r.stats.time))),
            right(nps(r.stats.total.nodes, r.stats.time)),
        ]);
    }
    let (total, time) = totals(rows);
    let nodes = total.nodes;
    let checked = rows
        .iter()
        .filter(|r| r.verdict != Verdict::Unchecked)
        .count();
    let correct = rows
        .iter()
        .filter(|r| r.verdict == Verdict::Correct)
        .count();
    table.add_row(vec![
        Cell::new("total"),
        Cell::new(""),
        Cell::new(""),
        Cell::new(""),
        Cell::new(""),
        Cell::new(format!("{correct}/{checked}")),
        count(nodes),
        right(format!("{:.3}", seconds(time))),
        right(nps(nodes, time)),
    ]);
    let window = match options.window {
        SolveWindow::Exact => "exact score",
        SolveWindow::WinDrawLoss => "win/draw/loss (+1/0/-1)",
    };
    let engine = match options.kind {
        SolverKind::Fast => format!(
            "fast endgame solver (PVS, fastest-first, parity), TT {} MiB, ISA {}",
            options.tt_mib,
            isa.map_or("-", Isa::name)
        ),
        SolverKind::Generic => format!("generic {}", describe(&Solver::config(options))),
    };
    println!("{}: {window}, {engine}", source.name);
    println!("{table}");
    println!("{}", statistics_table(counter_rows(&total)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_othello::Position;

    fn entry(line: &str) -> ObfEntry {
        line.parse().expect("a valid OBF line")
    }

    fn result(window: SolveWindow, score: i32, mv: &str) -> SolveResult {
        SolveResult {
            window,
            score,
            best_move: Some(mv.parse().expect("a move")),
            pv: Vec::new(),
            stats: Default::default(),
        }
    }

    const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; \
                          A2:+38; C7:+36; D8:+34;";

    #[test]
    fn judging_scores_and_moves() {
        let e = entry(FFO_40);
        let exact = SolveWindow::Exact;
        assert_eq!(judge(&e, &result(exact, 38, "a2")), Verdict::Correct);
        assert_eq!(judge(&e, &result(exact, 36, "a2")), Verdict::WrongScore);
        assert_eq!(judge(&e, &result(exact, 38, "c7")), Verdict::WrongMove);
        let wdl = SolveWindow::WinDrawLoss;
        assert_eq!(judge(&e, &result(wdl, 1, "c7")), Verdict::Correct);
        assert_eq!(judge(&e, &result(wdl, 0, "a2")), Verdict::WrongScore);
        let bare = entry(&FFO_40[..66]);
        assert_eq!(judge(&bare, &result(exact, 38, "a2")), Verdict::Unchecked);
        assert!(bare.position.empty_count() == 20 && bare.position != Position::START);
    }

    #[test]
    fn windows_parse() {
        assert_eq!("exact".parse(), Ok(SolveWindow::Exact));
        assert_eq!("WDL".parse(), Ok(SolveWindow::WinDrawLoss));
        let err = "mtdf".parse::<SolveWindow>().unwrap_err().to_string();
        assert!(
            err.contains("'mtdf'") && err.contains("exact or wdl"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_file_names_the_file_and_the_suites() {
        let Err(CliError::Usage(msg)) = load("no/such/file.obf") else {
            panic!("a missing file is a usage error");
        };
        assert!(
            msg.contains("no/such/file.obf") && msg.contains("ffo-40-59"),
            "{msg}"
        );
    }

    #[test]
    fn selecting_numbers_that_do_not_exist_is_an_error() {
        let mut source = load("ffo-40-59").expect("built-in");
        let Err(CliError::Usage(msg)) = select(&mut source, &parse_selection("58-61").unwrap())
        else {
            panic!("#60 is not in the suite");
        };
        assert!(msg.contains("#60") && msg.contains("#40 to #59"), "{msg}");
        select(&mut source, &parse_selection("40-42,45").unwrap()).expect("in the suite");
        let numbers: Vec<usize> = source.positions.iter().map(|p| p.number).collect();
        assert_eq!(numbers, [40, 41, 42, 45]);
    }
}
