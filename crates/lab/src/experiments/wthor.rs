//! `wthor`: Othello evaluations measured against exact positions from real games. The positions
//! come from the held-out games of the WTHOR database (and the PlayOK file after it), the games
//! `prune train --games FILES` holds out with its default `--holdout-every` when given the files
//! in the same order: the `WTH_*.wtb` files by year, then `PLAYOK_*.wtb`. Each is exact: at 24
//! empties by the game's theoretical score (perfect play from 24 empties), below by an exact
//! solve ([`record_positions`]). Each evaluation's static value and its value after a shallow
//! search (the fast midgame search at fixed depth) are compared with the exact scores, by
//! number of empties.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use prune_othello::check::{record_positions, static_errors, SolvedPosition};
use prune_othello::midgame::MidgameSearch;
use prune_othello::wthor::{parse_wtb, WthorFile};
use prune_othello::{Color, OthelloEval, PatternEval, PatternWeights, Position};
use prune_search::{Score, SearchLimits};

use super::{depths, jobs_setting};
use crate::{run_tasks, thousands, Cell, LabError, LabOptions, Legend, Plot, Progress, Report};
use crate::{Series, Table, XAxis};

/// Positions per number of empties unless `--positions N`.
const DEFAULT_PER_COUNT: usize = 100;

/// The most positions per number of empties.
const MAX_PER_COUNT: usize = 100_000;

/// The numbers of empties unless `--empties`.
const DEFAULT_EMPTIES: [u32; 11] = [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24];

/// The shallow search's depth unless `--depths`.
const DEFAULT_DEPTH: u32 = 4;

/// The deepest shallow search `--depths` may ask for.
const MAX_DEPTH: u32 = 12;

/// The number of empties whose scores are the games' theoretical scores (the WTHOR files'
/// depth); fewer are solved exactly.
const THEORETICAL_EMPTIES: u32 = 24;

/// The most empties [`record_positions`] solves exactly.
const MAX_SOLVED_EMPTIES: u32 = 22;

/// The first generation's weights, from the repository's root.
const GEN1: &str = "crates/othello/data/weights-gen1.bin";

/// The defaults, in words, for `prune lab list`.
pub(super) const DEFAULTS: &str = "100 positions per number of empties (4, 6, ..., 22 and 24) \
                                   from the held-out games (one in 10) of ../shared/data/wthor; \
                                   evaluations pattern, gen1 (if found) and hand; static and \
                                   depth-4 search";

/// An evaluation measured, with its name in the tables.
struct Measured {
    name: String,
    about: String,
    eval: OthelloEval,
}

/// The errors of one evaluation, one way of valuing, one number of empties.
#[derive(Clone, Copy, Debug, Default)]
struct Errors {
    positions: usize,
    /// Mean absolute error, discs.
    mae: f64,
    /// Mean signed error (value minus exact score), discs.
    mean: f64,
}

impl Errors {
    /// The errors of all `parts` together (weighted by their positions).
    fn pooled<'a>(parts: impl IntoIterator<Item = &'a Errors>) -> Option<Errors> {
        let (mut n, mut abs, mut signed) = (0usize, 0.0, 0.0);
        for p in parts {
            n += p.positions;
            abs += p.mae * p.positions as f64;
            signed += p.mean * p.positions as f64;
        }
        (n > 0).then(|| Errors {
            positions: n,
            mae: abs / n as f64,
            mean: signed / n as f64,
        })
    }

    /// `MAE (mean error)`, as the report shows it.
    fn text(&self) -> String {
        format!("{:.2} ({:+.2})", self.mae, self.mean)
    }
}

/// The folder of the WTHOR files: `--data`, or `../shared/data/wthor` from the current folder
/// or the nearest folder above it that has one.
fn data_dir(options: &LabOptions) -> Result<PathBuf, LabError> {
    super::shared_data_dir(
        options,
        "wthor",
        "the WTHOR game files WTH_1977.wtb ... and PLAYOK_2023.wtb",
        "the WTHOR files' folder",
    )
}

/// The game files of `dir` in the order `prune train --games` is given them: `WTH_YEAR.wtb`
/// by year, then `PLAYOK_*.wtb` by name.
fn game_files(dir: &Path) -> Result<Vec<PathBuf>, LabError> {
    let mut wthor: Vec<(u32, PathBuf)> = Vec::new();
    let mut playok: Vec<(String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| LabError::io(dir, e))? {
        let entry = entry.map_err(|e| LabError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let year = name
            .strip_prefix("WTH_")
            .and_then(|r| r.strip_suffix(".wtb"))
            .and_then(|y| y.parse::<u32>().ok());
        if let Some(year) = year {
            wthor.push((year, entry.path()));
        } else if name.starts_with("PLAYOK_") && name.ends_with(".wtb") {
            playok.push((name, entry.path()));
        }
    }
    if wthor.is_empty() {
        return Err(LabError::Usage(format!(
            "wthor: no WTHOR game files (WTH_1977.wtb ...) in {}",
            dir.display()
        )));
    }
    wthor.sort();
    playok.sort();
    Ok(wthor
        .into_iter()
        .map(|(_, p)| p)
        .chain(playok.into_iter().map(|(_, p)| p))
        .collect())
}

/// Reads and parses a `.wtb` file.
fn read_games(path: &Path) -> Result<WthorFile, LabError> {
    let bytes = std::fs::read(path).map_err(|e| LabError::io(path, e))?;
    parse_wtb(&bytes)
        .map_err(|e| LabError::Usage(format!("{}: not a WTHOR game file: {e}", path.display())))
}

/// A weights file as an evaluation.
fn read_weights(path: &Path) -> Result<OthelloEval, LabError> {
    let bytes = std::fs::read(path).map_err(|e| LabError::io(path, e))?;
    let weights = PatternWeights::from_bytes(&bytes).map_err(|e| {
        LabError::Usage(format!(
            "{}: not a weights file of `prune train`: {e}",
            path.display()
        ))
    })?;
    Ok(OthelloEval::Pattern(PatternEval::new(Arc::new(weights))))
}

/// The first generation's weights: [`GEN1`] from the current folder or one above it, else from
/// the repository this crate was built in.
fn gen1_path() -> Option<PathBuf> {
    let from_cwd = std::env::current_dir()
        .ok()
        .and_then(|cwd| cwd.ancestors().map(|a| a.join(GEN1)).find(|p| p.is_file()));
    from_cwd.or_else(|| {
        let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../othello/data/weights-gen1.bin");
        built.is_file().then_some(built)
    })
}

/// The evaluations: pattern (built in), gen1 (if found), hand, then `--eval` files.
fn evaluations(options: &LabOptions) -> Result<Vec<Measured>, LabError> {
    let mut out = vec![Measured {
        name: "pattern".into(),
        about: "the built-in trained weights".into(),
        eval: OthelloEval::default(),
    }];
    if let Some(path) = gen1_path() {
        out.push(Measured {
            name: "gen1".into(),
            about: format!("the first generation's weights, {}", path.display()),
            eval: read_weights(&path)?,
        });
    }
    out.push(Measured {
        name: "hand".into(),
        about: "the hand-made evaluation".into(),
        eval: OthelloEval::Hand,
    });
    for path in &options.evals {
        let stem = path
            .file_stem()
            .map_or_else(|| "weights".into(), |s| s.to_string_lossy().into_owned());
        // Column names stay plain CSV fields, and distinct.
        let stem: String = stem
            .chars()
            .map(|c| {
                if matches!(c, ',' | '"' | '\n') {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        let mut name = stem.clone();
        let mut k = 2;
        while out.iter().any(|m| m.name == name) {
            name = format!("{stem}-{k}");
            k += 1;
        }
        out.push(Measured {
            name,
            about: path.display().to_string(),
            eval: read_weights(path)?,
        });
    }
    Ok(out)
}

/// The numbers of empties: `--empties` (each 1-22 or 24) or the default, ascending.
fn empties(options: &LabOptions) -> Result<Vec<u32>, LabError> {
    let Some(list) = &options.empties else {
        return Ok(DEFAULT_EMPTIES.to_vec());
    };
    let mut out = list.clone();
    if let Some(bad) = out
        .iter()
        .find(|&&e| e == 0 || (e > MAX_SOLVED_EMPTIES && e != THEORETICAL_EMPTIES))
    {
        return Err(LabError::Usage(format!(
            "--empties {bad}: each number of empties must be 1 to {MAX_SOLVED_EMPTIES} (solved \
             exactly) or {THEORETICAL_EMPTIES} (the games' theoretical scores)"
        )));
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(LabError::Usage("--empties: no number of empties".into()));
    }
    Ok(out)
}

/// The value of a search's score in discs: a proven score's margin, else hundredths of a disc.
fn discs(score: Score) -> f64 {
    score
        .margin()
        .map_or_else(|| f64::from(score.raw()) / 100.0, f64::from)
}

/// The errors of `eval`'s value after a fixed-depth search of each of `positions`.
fn search_errors(
    eval: &OthelloEval,
    positions: &[SolvedPosition],
    depth: u32,
) -> Result<Errors, LabError> {
    let mut search =
        MidgameSearch::new(4).map_err(|e| LabError::Usage(format!("the search's table: {e}")))?;
    search.set_eval(eval.clone());
    let (mut abs, mut signed) = (0.0, 0.0);
    for p in positions {
        // The board is the side to move's view; the colour only names it.
        let position = Position::new(p.board, Color::Black);
        let value = discs(search.search(&position, &SearchLimits::depth(depth)).score);
        let error = value - f64::from(p.score);
        abs += error.abs();
        signed += error;
    }
    let n = positions.len().max(1) as f64;
    Ok(Errors {
        positions: positions.len(),
        mae: abs / n,
        mean: signed / n,
    })
}

/// A way of valuing a position: the static evaluation (depth 0) or a search to a depth.
fn kind_name(depth: u32) -> String {
    if depth == 0 {
        "static".into()
    } else {
        format!("depth {depth}")
    }
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let per_count = options.per_set.unwrap_or(DEFAULT_PER_COUNT);
    if per_count == 0 || per_count > MAX_PER_COUNT {
        return Err(LabError::Usage(format!(
            "--positions {per_count}: positions per number of empties must be 1 to {}",
            thousands(MAX_PER_COUNT as u64)
        )));
    }
    let empties = empties(options)?;
    let search_depths = depths(options, DEFAULT_DEPTH..=DEFAULT_DEPTH, MAX_DEPTH)?;
    let evals = evaluations(options)?;
    let dir = data_dir(options)?;
    let paths = game_files(&dir)?;
    let holdout_every = prune_othello::train::TrainOptions::default().holdout_every;

    progress.start("game files", paths.len() as u64);
    let files = run_tasks(
        &paths,
        options.jobs(),
        progress,
        |p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into())
        },
        |p| read_games(p),
    )
    .into_iter()
    .collect::<Result<Vec<WthorFile>, LabError>>()?;
    let games: usize = files.iter().map(|f| f.games.len()).sum();

    // The positions, one number of empties per task (the most empties, the slowest solves,
    // first); each task's positions do not depend on the others.
    let mut tasks = empties.clone();
    tasks.reverse();
    progress.start("numbers of empties solved", tasks.len() as u64);
    let found = run_tasks(
        &tasks,
        options.jobs(),
        progress,
        |e| format!("{e} empties"),
        |&e| record_positions(&files, &[e], per_count, holdout_every),
    );
    let mut by_empties: Vec<(u32, Vec<SolvedPosition>)> = tasks.into_iter().zip(found).collect();
    by_empties.reverse();
    let positions: Vec<SolvedPosition> = by_empties
        .iter()
        .flat_map(|(_, ps)| ps.iter().copied())
        .collect();

    // kinds[k][v][i]: way of valuing k (static, then each depth), evaluation v, empties i.
    let kinds: Vec<u32> = std::iter::once(0).chain(search_depths.clone()).collect();
    let mut errors: Vec<Vec<Vec<Option<Errors>>>> =
        vec![vec![vec![None; empties.len()]; evals.len()]; kinds.len()];
    for (v, m) in evals.iter().enumerate() {
        for (e, n, mae, mean) in static_errors(&m.eval, &positions) {
            if let Some(i) = empties.iter().position(|&x| x == e) {
                errors[0][v][i] = Some(Errors {
                    positions: n,
                    mae,
                    mean,
                });
            }
        }
    }
    let (n_evals, n_empties) = (evals.len(), empties.len());
    let search_tasks: Vec<(usize, usize, usize)> = (1..kinds.len())
        .flat_map(|k| (0..n_evals).flat_map(move |v| (0..n_empties).rev().map(move |i| (k, v, i))))
        .filter(|&(_, _, i)| !by_empties[i].1.is_empty())
        .collect();
    progress.start("searches", search_tasks.len() as u64);
    let searched = run_tasks(
        &search_tasks,
        options.jobs(),
        progress,
        |&(k, v, i)| {
            format!(
                "{} {} at {} empties",
                evals[v].name,
                kind_name(kinds[k]),
                empties[i]
            )
        },
        |&(k, v, i)| search_errors(&evals[v].eval, &by_empties[i].1, kinds[k]),
    );
    for (&(k, v, i), result) in search_tasks.iter().zip(searched) {
        errors[k][v][i] = Some(result?);
    }

    // The tables and plots.
    let names: Vec<&str> = evals.iter().map(|m| m.name.as_str()).collect();
    let mut tables = Vec::new();
    let mut plots = Vec::new();
    let mut long = Table::new(
        "wthor-errors",
        "Every evaluation, way of valuing and number of empties",
        &[
            "empties",
            "evaluation",
            "valued by",
            "positions",
            "mean absolute error",
            "mean error",
        ],
    );
    long.in_markdown = false;
    for (k, &depth) in kinds.iter().enumerate() {
        let (name, what) = if depth == 0 {
            ("wthor-static".to_string(), "Static evaluation".to_string())
        } else {
            (
                format!("wthor-depth-{depth}"),
                format!("Depth-{depth} search (the fast midgame search)"),
            )
        };
        let mut columns = vec!["empties", "positions"];
        columns.extend(names.iter().copied());
        let mut table = Table::new(
            &name,
            &format!(
                "{what}: mean absolute error (mean signed error) in discs against the exact \
                 scores"
            ),
            &columns,
        );
        for (i, &e) in empties.iter().enumerate() {
            let mut row = vec![
                Cell::Count(u64::from(e)),
                Cell::Count(by_empties[i].1.len() as u64),
            ];
            row.extend(
                errors[k]
                    .iter()
                    .map(|per| per[i].map_or(Cell::Empty, |x| Cell::text(x.text()))),
            );
            table.push(row);
            for (v, per) in errors[k].iter().enumerate() {
                if let Some(x) = per[i] {
                    long.push(vec![
                        Cell::Count(u64::from(e)),
                        Cell::text(names[v]),
                        Cell::text(kind_name(depth)),
                        Cell::Count(x.positions as u64),
                        Cell::real(x.mae, 3),
                        Cell::real(x.mean, 3),
                    ]);
                }
            }
        }
        let mut all = vec![Cell::text("all"), Cell::Count(positions.len() as u64)];
        all.extend(errors[k].iter().map(|per| {
            Errors::pooled(per.iter().flatten()).map_or(Cell::Empty, |x| Cell::text(x.text()))
        }));
        table.push(all);
        tables.push(table);
        plots.push(Plot {
            name: name.clone(),
            title: format!("{what}: error against exact scores of WTHOR positions"),
            x_label: "empties".into(),
            y_label: "mean absolute error (discs)".into(),
            x_axis: XAxis::Numeric,
            log_y: false,
            series: evals
                .iter()
                .enumerate()
                .map(|(v, m)| {
                    let points = empties
                        .iter()
                        .zip(&errors[k][v])
                        .filter_map(|(&e, x)| x.map(|x| (f64::from(e), x.mae)))
                        .collect();
                    Series::new(m.name.clone(), points)
                })
                .collect(),
            legend: Legend::UpperLeft,
        });
    }
    tables.push(long);

    let findings = findings(&evals, &kinds, &empties, &errors, positions.len());

    let files_text = {
        let name = |p: &PathBuf| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        };
        let wthor: Vec<String> = paths
            .iter()
            .map(name)
            .filter(|n| n.starts_with("WTH_"))
            .collect();
        let others: Vec<String> = paths
            .iter()
            .map(name)
            .filter(|n| !n.starts_with("WTH_"))
            .collect();
        let mut text = match (wthor.first(), wthor.last()) {
            (Some(a), Some(b)) if wthor.len() > 1 => {
                format!("{a} … {b} ({} files)", wthor.len())
            }
            _ => wthor.join(", "),
        };
        for o in others {
            text.push_str(&format!(", {o}"));
        }
        format!(
            "{}: {text}, {} games, in this order",
            dir.display(),
            thousands(games as u64)
        )
    };
    let counts: Vec<String> = empties.iter().map(ToString::to_string).collect();
    let about: Vec<String> = evals
        .iter()
        .map(|m| format!("{} ({})", m.name, m.about))
        .collect();
    let mut settings = vec![
        ("games".to_string(), files_text),
        (
            "positions".into(),
            format!(
                "up to {per_count} per number of empties (one per game) from the held-out \
                 games: every {holdout_every}th game numbered across the files in order from \
                 the first, the games `prune train --games` holds out with its default \
                 --holdout-every {holdout_every} when given the files in this order; {} \
                 positions in all",
                thousands(positions.len() as u64)
            ),
        ),
        (
            "exact scores".into(),
            format!(
                "at {THEORETICAL_EMPTIES} empties the games' theoretical scores (perfect play \
                 from {THEORETICAL_EMPTIES} empties, WTHOR files only), at fewer an exact solve"
            ),
        ),
        ("empties".into(), counts.join(", ")),
        ("evaluations".into(), about.join("; ")),
        (
            "search depths".into(),
            search_depths
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
                + " (the fast midgame search, full width, one thread)",
        ),
        jobs_setting(options),
    ];
    if gen1_path().is_none() {
        settings.push((
            "gen1".into(),
            format!("not measured: {GEN1} not found here, above, or where prune was built"),
        ));
    }

    Ok(Report {
        experiment: "wthor".into(),
        files: Vec::new(),
        title: "Othello evaluations against exact positions from real games".into(),
        reproduces: "Each evaluation's error against exact scores of positions from the held-out \
                     games of the WTHOR database (tournament games 1977-2025, then PlayOK \
                     2023): at 24 empties the games' theoretical scores, at fewer exact solves. \
                     The static evaluation and a shallow search, mean absolute error and mean \
                     signed error (value minus exact score, side to move's view) in discs, by \
                     number of empties. Where a search reaches the end of the game on some \
                     lines (a depth near the number of empties), a proven win found there \
                     outranks any heuristic value, so it may prefer a smaller proven win to a \
                     line with a pass that ends beyond its horizon: such a search can err more \
                     than a shallower one."
            .into(),
        problems: Vec::new(),
        settings,
        findings,
        tables,
        plots,
    })
}

/// The findings, in sentences, from the errors.
fn findings(
    evals: &[Measured],
    kinds: &[u32],
    empties: &[u32],
    errors: &[Vec<Vec<Option<Errors>>>],
    positions: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    let pooled = |k: usize, v: usize| Errors::pooled(errors[k][v].iter().flatten());
    for (k, &depth) in kinds.iter().enumerate() {
        let parts: Vec<String> = evals
            .iter()
            .enumerate()
            .filter_map(|(v, m)| {
                pooled(k, v).map(|x| format!("{} {:.2} (mean error {:+.2})", m.name, x.mae, x.mean))
            })
            .collect();
        if parts.is_empty() {
            continue;
        }
        let what = if depth == 0 {
            "Static evaluation".to_string()
        } else {
            format!("After a depth-{depth} search")
        };
        out.push(format!(
            "{what}, mean absolute error over all {} positions, in discs: {}.",
            thousands(positions as u64),
            parts.join(", ")
        ));
        // Which evaluation is closest at each number of empties.
        let mut wins = vec![Vec::new(); evals.len()];
        for (i, &e) in empties.iter().enumerate() {
            let best = (0..evals.len())
                .filter_map(|v| errors[k][v][i].map(|x| (v, x.mae)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((v, _)) = best {
                wins[v].push(e.to_string());
            }
        }
        let counted: usize = wins.iter().map(Vec::len).sum();
        let parts: Vec<String> = wins
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_empty())
            .map(|(v, w)| {
                format!(
                    "{} at {} of {counted} ({})",
                    evals[v].name,
                    w.len(),
                    w.join(", ")
                )
            })
            .collect();
        if counted > 0 {
            out.push(format!(
                "{what}: the smallest error by number of empties: {}.",
                parts.join("; ")
            ));
        }
    }
    // The trained weights against the hand-made evaluation, and the built-in ones against the
    // first generation, statically.
    let find = |name: &str| evals.iter().position(|m| m.name == name);
    if let (Some(p), Some(h)) = (find("pattern"), find("hand")) {
        if let (Some(a), Some(b)) = (pooled(0, p), pooled(0, h)) {
            if a.mae > 0.0 {
                let larger = (0..empties.len())
                    .filter(|&i| match (errors[0][h][i], errors[0][p][i]) {
                        (Some(x), Some(y)) => x.mae > y.mae,
                        _ => false,
                    })
                    .count();
                out.push(format!(
                    "The hand-made evaluation's static error is {:.1} times the trained \
                     weights' ({:.2} against {:.2} discs), larger at {larger} of {} numbers of \
                     empties.",
                    b.mae / a.mae,
                    b.mae,
                    a.mae,
                    empties.len()
                ));
            }
        }
    }
    if let (Some(p), Some(g)) = (find("pattern"), find("gen1")) {
        if let (Some(a), Some(b)) = (pooled(0, p), pooled(0, g)) {
            let better = (0..empties.len())
                .filter(|&i| match (errors[0][p][i], errors[0][g][i]) {
                    (Some(x), Some(y)) => x.mae < y.mae,
                    _ => false,
                })
                .count();
            out.push(format!(
                "The built-in weights against the first generation's: static error {:.2} \
                 against {:.2} discs, smaller at {better} of {} numbers of empties.",
                a.mae,
                b.mae,
                empties.len()
            ));
        }
    }
    out
}
