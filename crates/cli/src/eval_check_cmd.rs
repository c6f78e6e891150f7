//! `prune eval-check`: an Othello evaluation measured against facts (see
//! `prune_othello::check`): the start position at each depth, a suite's exact scores at a
//! fixed depth, and solved positions of games no training played. Several `--eval`s are
//! measured side by side, so that a new weights file is judged by the same table as the old.

use std::time::Instant;

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_othello::check::{
    record_positions, solved_positions, start_values, static_errors, suite_rows, SuiteRow,
};
use prune_othello::wthor::parse_wtb;
use prune_othello::{load_suite_or_file, OthelloEval};
use serde_json::json;

use crate::cells::right;
use crate::eval_arg::parse_eval;
use crate::CliError;

/// Options of `prune eval-check`.
#[derive(Args, Debug)]
pub struct EvalCheckArgs {
    /// An evaluation to check: pattern (the built-in weights), hand, or a weights file written
    /// by `prune train`; give it several times to compare them side by side.
    #[arg(long, value_name = "EVAL", default_values_t = vec!["pattern".to_string()])]
    pub eval: Vec<String>,
    /// Search the start position (a draw under perfect play) to this depth and show the value
    /// after each iteration; 0 skips it.
    #[arg(long, value_name = "PLIES", default_value_t = 16)]
    pub start_depth: u32,
    /// Positions with exact scores: a built-in suite (ffo-40-59) or an OBF file (such as FFO
    /// #1-#79).
    #[arg(long, value_name = "SUITE|FILE", default_value = "ffo-40-59")]
    pub suite: String,
    /// The depth the suite's positions are searched to; 0 skips them.
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub depth: u32,
    /// Solved positions per number of empties (from games no training run played); 0 skips
    /// them.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub solved: usize,
    /// The numbers of empties of the solved positions, comma-separated.
    #[arg(long, value_name = "LIST", default_value = "10,14,18,22")]
    pub solved_empties: String,
    /// The seed of the games the solved positions come from (training used 1 and 2).
    #[arg(long, value_name = "S", default_value_t = 101)]
    pub solved_seed: u64,
    /// Recorded games (WTHOR `.wtb` files, in the order `prune train --games` was given them):
    /// the static evaluation is also measured on positions of their held-out games (one in
    /// --holdout-every), exact by the games' theoretical scores at 24 empties and by solves
    /// below.
    #[arg(long, value_name = "FILES", num_args = 1..)]
    pub records: Vec<std::path::PathBuf>,
    /// The numbers of empties of the recorded games' positions, comma-separated (at most 22,
    /// or the files' depth of theoretical scores, 24).
    #[arg(long, value_name = "LIST", default_value = "10,14,18,24")]
    pub records_empties: String,
    /// Positions per number of empties from the recorded games (one per held-out game).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub records_per: usize,
    /// One recorded game in this many is held out (as `prune train --holdout-every`).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub holdout_every: usize,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

fn table(header: Vec<String>) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(header);
    t
}

/// A suite's rows summed up: mean absolute error, mean signed error, optimal moves
/// (of those the file can judge), positions judged, nodes.
struct Summary {
    mae: f64,
    bias: f64,
    optimal: usize,
    judged: usize,
    nodes: u64,
}

fn summary(rows: &[SuiteRow]) -> Summary {
    let n = rows.len().max(1) as f64;
    Summary {
        mae: rows
            .iter()
            .map(|r| (r.value - f64::from(r.exact)).abs())
            .sum::<f64>()
            / n,
        bias: rows
            .iter()
            .map(|r| r.value - f64::from(r.exact))
            .sum::<f64>()
            / n,
        optimal: rows.iter().filter(|r| r.optimal == Some(true)).count(),
        judged: rows.iter().filter(|r| r.optimal.is_some()).count(),
        nodes: rows.iter().map(|r| r.nodes).sum(),
    }
}

/// The static errors by empties, one column per evaluation.
fn errors_table(names: &[String], errors: &[Vec<(u32, usize, f64, f64)>]) -> Table {
    let mut t = table(
        ["empties".to_string(), "positions".to_string()]
            .into_iter()
            .chain(names.iter().cloned())
            .collect(),
    );
    for (i, &(empties, n, _, _)) in errors
        .first()
        .map_or(&[][..], |e| &e[..])
        .iter()
        .enumerate()
    {
        let mut row = vec![right(empties.to_string()), right(n.to_string())];
        for e in errors {
            let (_, _, mae, bias) = e[i];
            row.push(right(format!("{mae:.2} ({bias:+.2})")));
        }
        t.add_row(row);
    }
    t
}

/// A comma-separated list of numbers of empties from 1 to `max`, for `option`.
fn empties_list(option: &str, text: &str, max: u32) -> Result<Vec<u32>, CliError> {
    text.split(',')
        .map(|t| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|e| (1..=max).contains(e))
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "{option} '{text}': '{}' is not a number of empties from 1 to {max}",
                        t.trim()
                    ))
                })
        })
        .collect()
}

/// Runs `prune eval-check`.
pub fn run(args: &EvalCheckArgs) -> Result<(), CliError> {
    let evals: Vec<(String, OthelloEval)> = args
        .eval
        .iter()
        .map(|spec| Ok((spec.clone(), parse_eval("--eval", spec)?)))
        .collect::<Result<_, CliError>>()?;
    if args.start_depth > 24 {
        return Err(CliError::Usage(format!(
            "--start-depth {}: at most 24",
            args.start_depth
        )));
    }
    if args.depth > 24 {
        return Err(CliError::Usage(format!(
            "--depth {}: at most 24",
            args.depth
        )));
    }
    let solved_empties = empties_list("--solved-empties", &args.solved_empties, 26)?;
    let records_empties = empties_list("--records-empties", &args.records_empties, 24)?;
    if args.records_per == 0 || args.records_per > 10_000 {
        return Err(CliError::Usage("--records-per: 1 to 10,000".into()));
    }
    if args.holdout_every < 2 {
        return Err(CliError::Usage("--holdout-every: at least 2".into()));
    }
    let mut record_files = Vec::new();
    for path in &args.records {
        let bytes = std::fs::read(path)
            .map_err(|e| CliError::Failure(format!("{}: cannot read: {e}", path.display())))?;
        let file = parse_wtb(&bytes).map_err(|e| {
            CliError::Failure(format!("{}: not a WTHOR game file: {e}", path.display()))
        })?;
        record_files.push(file);
    }
    if args.solved > 10_000 {
        return Err(CliError::Usage("--solved: at most 10,000".into()));
    }
    let suite = if args.depth > 0 {
        let source = load_suite_or_file(&args.suite).map_err(|e| CliError::Usage(e.to_string()))?;
        for bad in &source.bad_records {
            eprintln!("{bad} (skipped)");
        }
        Some(source)
    } else {
        None
    };
    let started = Instant::now();
    let names: Vec<String> = evals.iter().map(|(n, _)| n.clone()).collect();

    // The start position.
    let start: Vec<Vec<(u32, f64, u64)>> = if args.start_depth > 0 {
        evals
            .iter()
            .map(|(_, e)| start_values(e, args.start_depth))
            .collect()
    } else {
        Vec::new()
    };

    // The suite.
    let entries: Vec<(usize, prune_othello::ObfEntry)> = suite
        .iter()
        .flat_map(|s| s.positions.iter().map(|p| (p.number, p.entry.clone())))
        .collect();
    let suite_results: Vec<Vec<SuiteRow>> = if suite.is_some() {
        evals
            .iter()
            .map(|(_, e)| suite_rows(e, &entries, args.depth))
            .collect()
    } else {
        Vec::new()
    };

    // The solved positions.
    let solved = if args.solved > 0 {
        solved_positions(args.solved_seed, &solved_empties, args.solved)
    } else {
        Vec::new()
    };
    let errors: Vec<_> = evals
        .iter()
        .map(|(_, e)| static_errors(e, &solved))
        .collect();
    let recorded = if record_files.is_empty() {
        Vec::new()
    } else {
        record_positions(
            &record_files,
            &records_empties,
            args.records_per,
            args.holdout_every,
        )
    };
    let record_errors: Vec<_> = evals
        .iter()
        .map(|(_, e)| static_errors(e, &recorded))
        .collect();
    let seconds = started.elapsed().as_secs_f64();

    if args.json {
        let value = json!({
            "evals": names,
            "start": start.iter().map(|rows| rows.iter().map(|&(depth, value, nodes)| json!({
                "depth": depth, "value": value, "nodes": nodes,
            })).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "suite": suite.as_ref().map(|s| json!({
                "name": s.name,
                "depth": args.depth,
                "results": suite_results.iter().map(|rows| {
                    let m = summary(rows);
                    json!({
                        "positions": rows.len(),
                        "mae": m.mae,
                        "mean_error": m.bias,
                        "optimal": m.optimal,
                        "judged": m.judged,
                        "nodes": m.nodes,
                        "rows": rows.iter().map(|r| json!({
                            "number": r.number,
                            "empties": r.empties,
                            "exact": r.exact,
                            "value": r.value,
                            "best_move": r.best_move.map(|m| m.to_string()),
                            "optimal": r.optimal,
                            "nodes": r.nodes,
                        })).collect::<Vec<_>>(),
                    })
                }).collect::<Vec<_>>(),
            })),
            "solved": {
                "seed": args.solved_seed,
                "results": errors.iter().map(|rows| rows.iter().map(|&(empties, n, mae, bias)| json!({
                    "empties": empties, "positions": n, "mae": mae, "mean_error": bias,
                })).collect::<Vec<_>>()).collect::<Vec<_>>(),
            },
            "records": (!recorded.is_empty()).then(|| json!({
                "holdout_every": args.holdout_every,
                "results": record_errors.iter().map(|rows| rows.iter().map(|&(empties, n, mae, bias)| json!({
                    "empties": empties, "positions": n, "mae": mae, "mean_error": bias,
                })).collect::<Vec<_>>()).collect::<Vec<_>>(),
            })),
            "seconds": seconds,
        });
        println!("{value:#}");
        return Ok(());
    }

    let header = |first: &str| -> Vec<String> {
        std::iter::once(first.to_string())
            .chain(names.iter().cloned())
            .collect()
    };
    if !start.is_empty() {
        println!("The start position (a draw): black's value in discs after each iteration");
        let mut t = table(header("depth"));
        for d in 0..args.start_depth as usize {
            let mut row = vec![right(format!("{}", d + 1))];
            for rows in &start {
                row.push(right(
                    rows.get(d)
                        .map_or("-".into(), |&(_, v, _)| format!("{v:+.2}")),
                ));
            }
            t.add_row(row);
        }
        let worst = |rows: &Vec<(u32, f64, u64)>| {
            rows.iter()
                .filter(|&&(d, _, _)| d >= 8)
                .map(|&(_, v, _)| v.abs())
                .fold(0.0f64, f64::max)
        };
        let mut row = vec![Cell::new("worst |value|, depths 8+")];
        row.extend(
            start
                .iter()
                .map(|rows| right(format!("{:.2}", worst(rows)))),
        );
        t.add_row(row);
        println!("{t}\n");
    }
    if let Some(s) = &suite {
        println!(
            "{}: {} positions searched to depth {} (values in discs against the exact scores)",
            s.name,
            entries.len(),
            args.depth
        );
        let mut t = table(header(""));
        let sums: Vec<Summary> = suite_results.iter().map(|r| summary(r)).collect();
        let mut add = |name: &str, cell: &dyn Fn(&Summary) -> String| {
            let mut row = vec![Cell::new(name)];
            row.extend(sums.iter().map(|m| right(cell(m))));
            t.add_row(row);
        };
        add("mean absolute error", &|m| format!("{:.2}", m.mae));
        add("mean error", &|m| format!("{:+.2}", m.bias));
        add("optimal moves", &|m| {
            format!("{} of {}", m.optimal, m.judged)
        });
        add("nodes", &|m| m.nodes.to_string());
        println!("{t}\n");
    }
    if !solved.is_empty() {
        println!(
            "Solved positions from games no training played (seed {}): the static evaluation's \
             mean absolute error in discs (mean error in brackets)",
            args.solved_seed
        );
        println!("{}\n", errors_table(&names, &errors));
    }
    if !recorded.is_empty() {
        println!(
            "Positions of the recorded games' held-out games (one in {}), exact by their \
             theoretical scores (24 empties) or solves: the static evaluation's mean absolute \
             error in discs (mean error in brackets)",
            args.holdout_every
        );
        println!("{}\n", errors_table(&names, &record_errors));
    }
    println!("{:.1} s", seconds);
    Ok(())
}
