//! `prune bench`: a fixed benchmark of Othello searches, in the manner of a chess engine's
//! `bench` command. Exact endgame solves with the fast solver and fixed-depth midgame searches
//! with the generic engine, each position from an empty table, one thread by default; it
//! prints each search's nodes, time and speed, then the total node count — the bench's
//! signature, which any change to the searches' node counts changes — and the overall speed.
//!
//! The positions are `crates/cli/data/bench.txt`, embedded in the binary.

use std::time::{Duration, Instant};

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Color, Table};
use indicatif::{ProgressBar, ProgressStyle};
use prune_othello::endgame::EndgameSolver;
use prune_othello::{HandEval, Move, Ordered, Position, StaticOrdering};
use prune_search::Named;
use prune_search::{Algorithm, Engine, Parallel, ParallelKind, Preset, SearchConfig, SearchLimits};
use serde_json::{json, Value};

use crate::cells::{count, per_second as rate, rate_text, right};

mod scaling;
use crate::report::describe;
use crate::CliError;

/// The total node count of `prune bench` with its default options (every part, one thread):
/// the bench's signature.
///
/// It changes whenever a search changes its node counts (a new move ordering, a new cutoff in
/// the endgame solver) or the positions in `crates/cli/data/bench.txt` change. After such a
/// change, made on purpose, run `cargo run --release -- bench` and copy the total it prints
/// (`nodes searched`) here; the bench test (`crates/cli/tests/bench.rs`) checks that the two
/// agree.
pub const SIGNATURE: u64 = 27867260;

/// The bench's positions and what to do with each (see the file's header for the format).
const BENCH_FILE: &str = include_str!("../../data/bench.txt");

/// The fast endgame solver's table, in MiB (cleared before every position).
const ENDGAME_TT_MIB: usize = 64;

/// The preset of the midgame searches (NegaScout with it; its table is cleared before every
/// position).
const MIDGAME_PRESET: &str = "full";

/// The midgame searches' static move ordering (`prune search`'s default for Othello).
const MIDGAME_ORDERING: StaticOrdering = StaticOrdering::Mobility;

/// Options of `prune bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Threads per search (the parallel scheme is YBWC). The signature, the total node count,
    /// is reproducible only with 1 thread, the default.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Which part to run: `endgame` (exact solves), `midgame` (fixed-depth searches) or `all`.
    /// The signature is checked only when all of it runs.
    #[arg(long, value_name = "PART", default_value = "all", value_parser = parse_part)]
    pub part: Part,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Instead of the bench: how the exact endgame solver scales with threads. FFO positions
    /// (#40-#52 unless `--only` says) solved at 1, 2, 4, ... threads up to `--max-threads`,
    /// every score checked; nodes, time, speed-up and node overhead against one thread as a
    /// table (or `--json`) and a plot (`--plot`).
    #[arg(long, conflicts_with_all = ["threads", "part"])]
    pub scaling: bool,
    /// With `--scaling`: the FFO positions, numbers and ranges such as `40-52` or `40,44-46`
    /// [default: 40-52].
    #[arg(long, value_name = "LIST", requires = "scaling")]
    pub only: Option<String>,
    /// With `--scaling`: the most threads (the powers of two below it are measured, and it)
    /// [default: the number of cores].
    #[arg(long, value_name = "N", requires = "scaling")]
    pub max_threads: Option<usize>,
    /// With `--scaling`: the table of each solve, in MiB [default: 64].
    #[arg(long = "tt", value_name = "MIB", requires = "scaling")]
    pub tt_mib: Option<usize>,
    /// With `--scaling`: also solve FFO #53-#59 at the most threads (minutes on 16 cores,
    /// hours on one).
    #[arg(long, requires = "scaling")]
    pub deep: bool,
    /// With `--scaling`: where to write the plot (SVG).
    #[arg(
        long,
        value_name = "FILE",
        requires = "scaling",
        default_value = "scaling.svg"
    )]
    pub plot: std::path::PathBuf,
}

/// Which searches of the bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The exact endgame solves only.
    Endgame,
    /// The fixed-depth midgame searches only.
    Midgame,
    /// Both, endgame first: the bench whose node count is the signature.
    All,
}

impl Part {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Part::Endgame => "endgame",
            Part::Midgame => "midgame",
            Part::All => "all",
        }
    }

    /// Whether the part includes items of `kind`.
    fn includes(self, kind: Kind) -> bool {
        match self {
            Part::All => true,
            Part::Endgame => kind == Kind::Endgame,
            Part::Midgame => kind == Kind::Midgame,
        }
    }
}

fn parse_part(text: &str) -> Result<Part, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "endgame" => Ok(Part::Endgame),
        "midgame" => Ok(Part::Midgame),
        "all" => Ok(Part::All),
        _ => Err(format!(
            "'{text}' is not a part of the bench (expected endgame, midgame or all)"
        )),
    }
}

/// The two kinds of search in the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An exact solve with the fast endgame solver.
    Endgame,
    /// A fixed-depth search with the generic engine.
    Midgame,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Endgame => "endgame",
            Kind::Midgame => "midgame",
        }
    }
}

/// What to do with a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// Solve over the full window; the exact score must be this.
    Exact(i32),
    /// Search to this depth.
    Depth(u32),
}

/// One line of the bench file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    kind: Kind,
    position: Position,
    task: Task,
    /// The FFO suite's number of the position it was derived from.
    ffo: u32,
    /// The moves played from that FFO position to reach `position`.
    moves: Vec<Move>,
}

impl Item {
    /// How the position reads in the table: `#41` for FFO #41 itself, `#41+5` for the
    /// position five moves later.
    fn label(&self) -> String {
        if self.moves.is_empty() {
            format!("#{}", self.ffo)
        } else {
            format!("#{}+{}", self.ffo, self.moves.len())
        }
    }

    fn search_text(&self) -> String {
        match self.task {
            Task::Exact(_) => "exact".to_string(),
            Task::Depth(d) => format!("depth {d}"),
        }
    }
}

/// Reads the bench file: `KIND | POSITION | SEARCH | ORIGIN` per line, `#` comments and blank
/// lines skipped. Errors name the line.
fn parse_items(text: &str) -> Result<Vec<Item>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with('#')
        })
        .map(|(index, line)| parse_item(line).map_err(|e| format!("line {}: {e}", index + 1)))
        .collect()
}

fn parse_item(line: &str) -> Result<Item, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [kind, position, search, origin] = fields[..] else {
        return Err(format!(
            "expected 4 fields separated by '|', found {}",
            fields.len()
        ));
    };
    let position: Position = position.parse().map_err(|e| format!("position: {e}"))?;
    let task = match search.split_whitespace().collect::<Vec<_>>()[..] {
        ["exact", score] => Task::Exact(
            score
                .parse()
                .map_err(|_| format!("'{score}' is not a score"))?,
        ),
        ["depth", depth] => Task::Depth(
            depth
                .parse()
                .ok()
                .filter(|&d| d > 0)
                .ok_or_else(|| format!("'{depth}' is not a depth"))?,
        ),
        _ => return Err(format!("'{search}' is neither `exact S` nor `depth D`")),
    };
    let kind = match (kind, task) {
        ("endgame", Task::Exact(_)) => Kind::Endgame,
        ("midgame", Task::Depth(_)) => Kind::Midgame,
        _ => {
            return Err(format!(
                "'{kind}' with '{search}': endgame items are exact solves, midgame items \
                 fixed-depth searches"
            ))
        }
    };
    let mut tokens = origin.split_whitespace();
    let ffo = tokens
        .next()
        .and_then(|t| t.strip_prefix('#'))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("origin '{origin}' does not start with an FFO number (#N)"))?;
    let moves = tokens
        .map(|t| {
            t.parse::<Move>()
                .map_err(|e| format!("origin move '{t}': {e}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Item {
        kind,
        position,
        task,
        ffo,
        moves,
    })
}

/// The outcome of one item's search.
struct Row<'a> {
    item: &'a Item,
    /// The score as it reads: a disc difference for exact solves, the engine's score text
    /// for midgame searches.
    score: String,
    best_move: Option<Move>,
    /// For exact solves: whether the score is the one the file lists.
    correct: Option<bool>,
    nodes: u64,
    time: Duration,
}

/// Nodes and time added up.
#[derive(Clone, Copy, Default)]
struct Sum {
    nodes: u64,
    time: Duration,
}

impl Sum {
    fn of<'a>(rows: impl IntoIterator<Item = &'a Row<'a>>) -> Sum {
        rows.into_iter().fold(Sum::default(), |s, r| Sum {
            nodes: s.nodes + r.nodes,
            time: s.time + r.time,
        })
    }

    fn nodes_per_second(self) -> Option<f64> {
        rate(self.nodes, self.time)
    }
}

/// The midgame configuration: NegaScout with the preset.
fn midgame_config() -> Result<SearchConfig, CliError> {
    Preset::find(MIDGAME_PRESET)
        .and_then(|p| p.config(Algorithm::NegaScout))
        .map_err(|e| CliError::Failure(format!("the bench's midgame configuration: {e}")))
}

/// The searchers, made when the first item that needs each comes.
struct Searchers {
    parallel: Parallel,
    solver: Option<EndgameSolver>,
    engine: Option<Engine<Position>>,
}

impl Searchers {
    fn run<'a>(&mut self, item: &'a Item) -> Result<Row<'a>, CliError> {
        match item.task {
            Task::Exact(expected) => {
                let solver = match &mut self.solver {
                    Some(solver) => solver,
                    None => self.solver.insert(
                        EndgameSolver::with_parallel(ENDGAME_TT_MIB, self.parallel)
                            .map_err(|e| CliError::Failure(e.to_string()))?,
                    ),
                };
                // Every search starts from an empty table, so that its count does not depend
                // on what ran before it.
                solver.clear();
                let start = Instant::now();
                let r = solver.solve(item.position.board(), -64, 64);
                let time = start.elapsed();
                Ok(Row {
                    item,
                    score: format!("{:+}", r.score),
                    best_move: r.best_move,
                    correct: Some(r.score == expected),
                    nodes: r.counters.nodes,
                    time,
                })
            }
            Task::Depth(depth) => {
                let engine = match &mut self.engine {
                    Some(engine) => engine,
                    None => self.engine.insert(
                        Engine::with_parallel(midgame_config()?, self.parallel).map_err(|e| {
                            CliError::Failure(format!("the bench's midgame engine: {e}"))
                        })?,
                    ),
                };
                engine.clear();
                let eval = Ordered {
                    eval: HandEval,
                    ordering: MIDGAME_ORDERING,
                };
                let start = Instant::now();
                let r = engine
                    .search(&item.position, &eval, &SearchLimits::depth(depth))
                    .map_err(|e| CliError::Failure(format!("midgame search: {e}")))?;
                let time = start.elapsed();
                Ok(Row {
                    item,
                    score: r.score.to_string(),
                    best_move: r.best_move,
                    correct: None,
                    nodes: r.stats.total.nodes,
                    time,
                })
            }
        }
    }
}

/// How the total compares with [`SIGNATURE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signature {
    /// The whole bench ran on one thread and its total is the recorded signature.
    Matches,
    /// The whole bench ran on one thread and its total differs.
    Differs,
    /// Only part of the bench ran, or on several threads: nothing to compare with.
    NotComparable,
}

/// The bench's progress bar of `len` steps, on stderr.
fn progress_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Runs `prune bench`.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if args.scaling {
        return scaling::run(&scaling::ScalingArgs {
            only: args
                .only
                .clone()
                .unwrap_or_else(|| scaling::DEFAULT_POSITIONS.to_string()),
            max_threads: args
                .max_threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            tt_mib: args.tt_mib.unwrap_or(scaling::DEFAULT_TT_MIB),
            deep: args.deep,
            plot: args.plot.clone(),
            json: args.json,
        });
    }
    let parallel = Parallel::new(args.threads, ParallelKind::Ybwc)
        .map_err(|e| CliError::Usage(format!("--threads: {e}")))?;
    let all = parse_items(BENCH_FILE)
        .map_err(|e| CliError::Failure(format!("the embedded bench file: {e}")))?;
    let items: Vec<&Item> = all.iter().filter(|i| args.part.includes(i.kind)).collect();

    let bar = progress_bar(items.len());
    let mut searchers = Searchers {
        parallel,
        solver: None,
        engine: None,
    };
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        bar.set_message(format!(
            "{} {} ({})",
            item.kind.name(),
            item.label(),
            item.search_text()
        ));
        rows.push(searchers.run(item)?);
        bar.inc(1);
    }
    bar.finish_and_clear();

    let total = Sum::of(&rows);
    let signature = if args.part != Part::All || parallel.is_parallel() {
        Signature::NotComparable
    } else if total.nodes == SIGNATURE {
        Signature::Matches
    } else {
        Signature::Differs
    };
    if args.json {
        let value = bench_json(args, parallel, &rows, signature);
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
    } else {
        print_tables(parallel, &rows, signature);
    }
    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| r.correct == Some(false))
        .map(|r| r.item.label())
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

/// The sums of the rows of each kind present, in bench order.
fn part_sums(rows: &[Row]) -> Vec<(Kind, Sum)> {
    [Kind::Endgame, Kind::Midgame]
        .into_iter()
        .filter(|&k| rows.iter().any(|r| r.item.kind == k))
        .map(|k| (k, Sum::of(rows.iter().filter(|r| r.item.kind == k))))
        .collect()
}

fn sum_json(sum: Sum) -> Value {
    json!({
        "nodes": sum.nodes,
        "time_ms": sum.time.as_secs_f64() * 1000.0,
        "nodes_per_second": sum.nodes_per_second(),
    })
}

fn bench_json(args: &BenchArgs, parallel: Parallel, rows: &[Row], signature: Signature) -> Value {
    let items: Vec<Value> = rows
        .iter()
        .map(|r| {
            let item = r.item;
            json!({
                "kind": item.kind.name(),
                "label": item.label(),
                "ffo": item.ffo,
                "moves": item.moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "position": item.position.to_string(),
                "empties": item.position.empty_count(),
                "search": item.search_text(),
                "depth": match item.task { Task::Depth(d) => Some(d), Task::Exact(_) => None },
                "score": r.score,
                "expected": match item.task { Task::Exact(s) => Some(s), Task::Depth(_) => None },
                "correct": r.correct,
                "best_move": r.best_move.map(|m| m.to_string()),
                "nodes": r.nodes,
                "time_ms": r.time.as_secs_f64() * 1000.0,
                "nodes_per_second": rate(r.nodes, r.time),
            })
        })
        .collect();
    let parts: serde_json::Map<String, Value> = part_sums(rows)
        .into_iter()
        .map(|(kind, sum)| (kind.name().to_string(), sum_json(sum)))
        .collect();
    let total = Sum::of(rows);
    json!({
        "part": args.part.name(),
        "threads": parallel.threads,
        "endgame_solver": { "tt_mib": ENDGAME_TT_MIB, "window": [-64, 64] },
        "midgame_engine": {
            "preset": MIDGAME_PRESET,
            "ordering": MIDGAME_ORDERING.name(),
            "config": midgame_config().ok(),
        },
        "items": items,
        "parts": parts,
        "total": sum_json(total),
        "signature": {
            "nodes": total.nodes,
            "recorded": SIGNATURE,
            "checked": signature != Signature::NotComparable,
            "matches": match signature {
                Signature::Matches => Some(true),
                Signature::Differs => Some(false),
                Signature::NotComparable => None,
            },
        },
    })
}

fn print_tables(parallel: Parallel, rows: &[Row], signature: Signature) {
    let threads = match parallel.threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads (ybwc)"),
    };
    println!("prune bench: {} searches on {threads}", rows.len());
    if rows.iter().any(|r| r.item.kind == Kind::Endgame) {
        println!(
            "  endgame: exact solves (-64..64), fast solver, {ENDGAME_TT_MIB} MiB table \
             cleared per position"
        );
    }
    if rows.iter().any(|r| r.item.kind == Kind::Midgame) {
        let config = midgame_config().map_or_else(|_| "-".to_string(), |c| describe(&c));
        println!(
            "  midgame: {config} (preset {MIDGAME_PRESET}), {} ordering, table cleared per \
             position",
            MIDGAME_ORDERING.name()
        );
    }
    println!("  #N: FFO position N; #N+k: k moves later (crates/cli/data/bench.txt)");
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "kind", "position", "empties", "search", "score", "best", "nodes", "time (s)", "nodes/s",
    ]);
    for r in rows {
        let mut score = Cell::new(match r.correct {
            Some(true) => format!("{} ✓", r.score),
            Some(false) => format!("{} ✗ WRONG", r.score),
            None => r.score.clone(),
        })
        .set_alignment(CellAlignment::Right);
        if r.correct == Some(false) {
            score = score.fg(Color::Red);
        }
        table.add_row(vec![
            Cell::new(r.item.kind.name()),
            Cell::new(r.item.label()),
            right(r.item.position.empty_count()),
            Cell::new(r.item.search_text()),
            score,
            Cell::new(r.best_move.map_or("-".to_string(), |m| m.to_string())),
            count(r.nodes),
            right(format!("{:.3}", r.time.as_secs_f64())),
            right(rate_text(rate(r.nodes, r.time))),
        ]);
    }
    let sums = part_sums(rows);
    let total = Sum::of(rows);
    let labelled = sums
        .iter()
        .map(|&(kind, sum)| (kind.name(), sum))
        .chain(std::iter::once(("total", total)));
    for (name, sum) in labelled {
        table.add_row(vec![
            Cell::new(name),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            count(sum.nodes),
            right(format!("{:.3}", sum.time.as_secs_f64())),
            right(rate_text(sum.nodes_per_second())),
        ]);
    }
    println!("{table}");
    println!("nodes searched: {}", total.nodes);
    println!("nodes/second:   {}", rate_text(total.nodes_per_second()));
    match signature {
        Signature::Matches => println!("signature:      {SIGNATURE} (matches)"),
        Signature::Differs => println!(
            "signature:      {} DIFFERS from the recorded {SIGNATURE}; if a search changed \
             its node counts on purpose, record the new total as SIGNATURE in \
             crates/cli/src/bench_cmd/mod.rs",
            total.nodes
        ),
        Signature::NotComparable => println!(
            "signature:      not checked (the recorded {SIGNATURE} is the whole bench on 1 \
             thread)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_othello::builtin_suite;

    #[test]
    fn the_bench_file_reads_and_each_position_is_where_its_origin_says() {
        let items = parse_items(BENCH_FILE).expect("the embedded file is valid");
        let suite = builtin_suite("ffo-40-59").expect("built-in");
        for item in &items {
            let ffo = suite
                .iter()
                .find(|p| p.number == item.ffo)
                .unwrap_or_else(|| panic!("#{} is in the suite", item.ffo));
            let reached = item.moves.iter().try_fold(ffo.entry.position, |p, &mv| {
                p.play(mv).map_err(|e| e.to_string())
            });
            assert_eq!(reached, Ok(item.position), "{}", item.label());
        }
        // The midgame part is FFO #40 to #59 themselves, the endgame part #40 to #58 with 17 to
        // 20 empties.
        let midgame: Vec<u32> = items
            .iter()
            .filter(|i| i.kind == Kind::Midgame && i.moves.is_empty())
            .map(|i| i.ffo)
            .collect();
        assert_eq!(midgame, (40..=59).collect::<Vec<_>>());
        let endgame: Vec<&Item> = items.iter().filter(|i| i.kind == Kind::Endgame).collect();
        assert_eq!(
            endgame.iter().map(|i| i.ffo).collect::<Vec<_>>(),
            (40..=58).collect::<Vec<_>>()
        );
        assert!(endgame
            .iter()
            .all(|i| (17..=20).contains(&i.position.empty_count())));
        // FFO #40's published score.
        assert_eq!(endgame[0].task, Task::Exact(38));
        assert_eq!(items.len(), 39);
    }

    #[test]
    fn bad_lines_name_what_is_wrong() {
        const POSITION: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let good = format!("endgame | {POSITION} | exact +38 | #40\n");
        assert_eq!(
            parse_items(&format!("# comment\n\n{good}")).unwrap().len(),
            1
        );
        let cases = [
            (format!("endgame | {POSITION} | exact +38"), "4 fields"),
            (format!("midgame | {POSITION} | exact +38 | #40"), "midgame"),
            (
                format!("endgame | {POSITION} | depth 0 | #40"),
                "not a depth",
            ),
            (
                format!("endgame | {POSITION} | exact x | #40"),
                "not a score",
            ),
            (
                format!("endgame | {POSITION} | exact +38 | 40"),
                "FFO number",
            ),
            (format!("endgame | {POSITION} | exact +38 | #40 z9"), "z9"),
        ];
        for (line, expected) in cases {
            let err = parse_items(&format!("{good}{line}\n")).unwrap_err();
            assert!(
                err.starts_with("line 2:") && err.contains(expected),
                "{line}: {err}"
            );
        }
    }

    #[test]
    fn parts_parse() {
        assert_eq!(parse_part("endgame"), Ok(Part::Endgame));
        assert_eq!(parse_part(" ALL "), Ok(Part::All));
        assert!(parse_part("opening")
            .unwrap_err()
            .contains("endgame, midgame or all"));
        assert!(Part::Midgame.includes(Kind::Midgame) && !Part::Midgame.includes(Kind::Endgame));
    }
}
