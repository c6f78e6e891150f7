//! `selective`: the selective search of chess and shogi engines, measured in shogi. Middle
//! game positions from self-play (those of `shogi-killers`) are searched to a fixed depth by
//! the shogi engine with no selective search (the `exhaustive` preset), with each enhancement
//! alone, with all of them (the `full` preset), and with all but one; the nodes against the
//! exhaustive search, and how often each picks the exhaustive search's move and finds its
//! value. Elo at equal time comes from matches (docs/shogi.md), not from this experiment.
//!
//! Othello and Connect Four are searched by the generic library's switches
//! ([`prune_search::Selective`]): NegaScout with the `full` preset (iterative deepening, static
//! ordering, the refutation table, a table of 16 MiB), with no selective search, with each
//! switch alone and with all of them, to a fixed depth: Othello on FFO #40-#59 with the
//! hand-made evaluation, Connect Four on the first positions of Pons's Begin-Easy set (from
//! `../shared/data/connect4`, or `--data`) with the threat evaluation. Both games refuse null
//! moves (the search says so, and the report quotes it); neither has a static exchange
//! evaluation nor checks, so static-exchange pruning is refused and the check extension would
//! change nothing.

use prune_search::{Algorithm, Engine, Evaluator, Game, Preset, SearchConfig, SearchLimits};
use prune_search::{Selective as GenericSelective, TtConfig};
use prune_shogi::engine::{EngineOptions, Selective};

use super::{depths, depths_setting, grid, jobs_setting, ratio, search, shogi, Run};
use crate::{run_tasks, Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series};
use crate::{PositionSet, Table, XAxis};

/// The defaults, in words, for `prune lab list`.
pub(super) const DEFAULTS: &str = "shogi: 24 positions from self-play, depths 3-5; Othello: \
                                   FFO #40-#59 at depth 10; Connect Four: the first 40 positions \
                                   of Begin-Easy at depth 14";

/// The depth of the Othello searches.
const OTHELLO_DEPTH: u32 = 10;
/// The depth of the Connect Four searches.
const CONNECT4_DEPTH: u32 = 14;
/// Connect Four positions (the first of Begin-Easy).
const CONNECT4_POSITIONS: usize = 40;

/// The generic library's switches the lab measures in Othello and Connect Four (those the
/// games allow and that can act there).
const GENERIC_SWITCHES: [&str; 5] = ["lmr", "futility", "razoring", "iir", "late-move-pruning"];
const DEFAULT_POSITIONS: usize = 24;
const DEFAULT_DEPTHS: std::ops::RangeInclusive<u32> = 3..=5;

struct Config {
    name: String,
    selective: Selective,
}

struct Outcome {
    nodes: u64,
    secs: f64,
    best: Option<prune_shogi::Move>,
    score: i32,
}

/// The configurations: none, each switch alone, all, all but each.
fn configs() -> Vec<Config> {
    let mut configs = vec![Config {
        name: "none (exhaustive)".into(),
        selective: Selective::default(),
    }];
    for name in Selective::NAMES {
        let needs = Selective::needs(name);
        configs.push(Config {
            name: match needs.first() {
                Some(base) => format!("{name} with {base}"),
                None => format!("{name} alone"),
            },
            selective: Selective::alone(name).expect("a switch"),
        });
    }
    configs.push(Config {
        name: "all".into(),
        selective: Selective::ALL,
    });
    configs.push(Config {
        name: "full (all but Singular)".into(),
        selective: Selective::FULL,
    });
    for name in Selective::NAMES {
        let but = Selective::all_but(name).expect("a switch");
        configs.push(Config {
            name: format!("all but {name}"),
            selective: but,
        });
    }
    configs
}

/// The generic configurations: the `full` preset's NegaScout with a 16 MiB table and no
/// selective search, each of [`GENERIC_SWITCHES`] alone, and all of them.
fn generic_configs() -> Vec<(String, SearchConfig)> {
    let mut base = Preset::find("full")
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the full preset fits negascout");
    base.transposition_table = Some(TtConfig { size_mib: 16 });
    let with = |selective: GenericSelective| SearchConfig { selective, ..base };
    let mut out = vec![("none".to_string(), base)];
    let mut all = GenericSelective::NONE;
    for name in GENERIC_SWITCHES {
        let mut one = GenericSelective::NONE;
        one.enable(name);
        all.enable(name);
        out.push((format!("{name} alone"), with(one)));
    }
    out.push(("all five".to_string(), with(all)));
    out
}

/// What the game says to the switches it refuses, searched at `game` with the base
/// configuration plus each: one line per refusal.
fn refusals<G: Game, E: Evaluator<G>>(game: &G, eval: &E) -> Vec<String> {
    let (_, base) = &generic_configs()[0];
    ["null-move", "see-pruning"]
        .iter()
        .map(|&name| {
            let mut selective = GenericSelective::NONE;
            selective.enable(name);
            let config = SearchConfig { selective, ..*base };
            let result = Engine::<G>::new(config)
                .map_err(prune_search::SearchError::from)
                .and_then(|mut e| e.search(game, eval, &SearchLimits::depth(1)));
            match result {
                Ok(_) => format!("{name}: searched (not refused)"),
                Err(e) => format!("{name}: refused: {e}"),
            }
        })
        .collect()
}

/// One game's section: every generic configuration on every position at `depth`; the table
/// (its rows against the first configuration) and a finding.
#[allow(clippy::too_many_arguments)]
fn generic_section<G: Game, E: Evaluator<G>>(
    key: &str,
    game_name: &str,
    positions: &[G],
    eval: &E,
    depth: u32,
    options: &LabOptions,
    progress: &dyn Progress,
) -> (Table, String)
where
    G::Move: std::fmt::Display,
{
    let configs = generic_configs();
    let tasks: Vec<(usize, usize)> = (0..configs.len())
        .flat_map(|c| (0..positions.len()).map(move |g| (c, g)))
        .collect();
    let runs: Vec<Run> = run_tasks(
        &tasks,
        options.jobs(),
        progress,
        |&(c, g)| format!("{game_name}, {}, position {}", configs[c].0, g + 1),
        |&(c, g)| search(&positions[g], eval, &configs[c].1, depth),
    );
    let n = positions.len();
    let run = |c: usize, g: usize| &runs[c * n + g];
    let mut table = Table::new(
        key,
        &format!(
            "{game_name}: the generic library's switches at depth {depth} (NegaScout, preset \
             full, 16 MiB table), over all positions"
        ),
        &[
            "selective search",
            "positions",
            "nodes",
            "time (s)",
            "nodes vs none",
            "selective cuts",
            "reductions",
            "same move",
            "same value",
        ],
    );
    let base_nodes: u64 = (0..n).map(|g| run(0, g).counters.nodes).sum();
    let mut totals = Vec::new();
    for (c, (name, _)) in configs.iter().enumerate() {
        let (mut nodes, mut secs, mut cuts, mut reductions, mut moves, mut values) =
            (0u64, 0.0, 0u64, 0u64, 0u64, 0u64);
        for g in 0..n {
            let (r, b) = (run(c, g), run(0, g));
            nodes += r.counters.nodes;
            secs += r.time.as_secs_f64();
            cuts += r.counters.selective_cuts;
            reductions += r.counters.reductions;
            moves += u64::from(r.best_move == b.best_move);
            values += u64::from(r.score == b.score);
        }
        let vs = ratio(nodes as f64, base_nodes as f64);
        totals.push((name.clone(), vs.unwrap_or(1.0), moves));
        table.push(vec![
            Cell::text(name),
            Cell::Count(n as u64),
            Cell::Count(nodes),
            Cell::real(secs, 2),
            Cell::maybe_real(vs, 3),
            Cell::Count(cuts),
            Cell::Count(reductions),
            Cell::Count(moves),
            Cell::Count(values),
        ]);
    }
    let (all_name, all_vs, all_moves) = totals.last().cloned().expect("configurations");
    let (best_name, best_vs, _) = totals[1..totals.len() - 1]
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .expect("switches");
    let finding = format!(
        "{game_name}, depth {depth}: {all_name} together search {all_vs:.3} times the nodes \
         of no selective search and play its move in {all_moves} of {n} positions; alone, \
         {best_name} cuts the most ({best_vs:.3} times). Refused by the game: {}.",
        refusals(&positions[0], eval).join("; ")
    );
    (table, finding)
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let depths = depths(options, DEFAULT_DEPTHS, 12)?;
    let count = options.games.unwrap_or(DEFAULT_POSITIONS);
    if count == 0 {
        return Err(LabError::Usage("--games: at least one position".into()));
    }
    let games = shogi::positions(count);
    let configs = configs();
    let (n_configs, n_games) = (configs.len(), games.len());
    let tasks = grid(&depths, n_configs, n_games);
    let outcomes = run_tasks(
        &tasks,
        options.jobs(),
        progress,
        |&(d, c, g)| format!("depth {d}, {}, position {}", configs[c].name, g + 1),
        |&(d, c, g)| {
            let options = EngineOptions {
                selective: configs[c].selective,
                ..EngineOptions::preset("full").expect("a preset")
            };
            let (r, secs) = shogi::search_at(options, &games[g], d);
            Outcome {
                nodes: r.nodes,
                secs,
                best: r.best,
                score: r.score,
            }
        },
    );
    let outcome = |d: u32, c: usize, g: usize| {
        let i = tasks
            .iter()
            .position(|&t| t == (d, c, g))
            .expect("every task ran");
        &outcomes[i]
    };
    let mut summary = Table::new(
        "nodes",
        "Nodes, time and agreement with the exhaustive search, over all positions",
        &[
            "depth",
            "selective search",
            "positions",
            "nodes",
            "time (s)",
            "nodes vs exhaustive",
            "same move",
            "same value",
        ],
    );
    let mut findings = Vec::new();
    let mut series = Vec::new();
    for &d in &depths {
        let total = |c: usize| -> (u64, f64, u64, u64) {
            let (mut nodes, mut secs, mut moves, mut values) = (0, 0.0, 0, 0);
            for g in 0..n_games {
                let o = outcome(d, c, g);
                let base = outcome(d, 0, g);
                nodes += o.nodes;
                secs += o.secs;
                moves += u64::from(o.best == base.best);
                values += u64::from(o.score == base.score);
            }
            (nodes, secs, moves, values)
        };
        let (base_nodes, _, _, _) = total(0);
        let mut points = Vec::new();
        for (c, config) in configs.iter().enumerate() {
            let (nodes, secs, moves, values) = total(c);
            summary.push(vec![
                Cell::Count(u64::from(d)),
                Cell::text(&config.name),
                Cell::Count(n_games as u64),
                Cell::Count(nodes),
                Cell::real(secs, 2),
                Cell::maybe_real(ratio(nodes as f64, base_nodes as f64), 3),
                Cell::Count(moves),
                Cell::Count(values),
            ]);
            if c <= Selective::NAMES.len() + 1 {
                points.push((c as f64, nodes as f64));
            }
        }
        let all = Selective::NAMES.len() + 1;
        let (all_nodes, _, all_moves, _) = total(all);
        let alone = (1..all)
            .min_by_key(|&c| total(c).0)
            .expect("at least one switch");
        let (full_nodes, _, full_moves, _) = total(all + 1);
        findings.push(format!(
            "Depth {d}: all the selective search together searches {:.3} times the exhaustive \
             search's nodes and plays its move in {all_moves} of {n_games} positions (the \
             full preset, without Singular: {:.3} times, {full_moves}); alone, {} cuts the \
             most ({:.3} times).",
            all_nodes as f64 / base_nodes as f64,
            full_nodes as f64 / base_nodes as f64,
            configs[alone].name,
            total(alone).0 as f64 / base_nodes as f64,
        ));
        series.push(Series {
            label: format!("depth {d}"),
            points,
            reference: false,
        });
    }
    let mut problems = Vec::new();
    let mut tables = vec![summary];
    // `--depths` and `--games` (the shogi section's) also set the other games' depth (the
    // deepest of them) and cap their positions.
    let generic_depth = |default: u32| options.depths.as_ref().map_or(default, |r| *r.end());
    let cap = options.games.unwrap_or(usize::MAX);
    let othello: Vec<prune_othello::Position> = PositionSet::ffo_40_59()
        .positions
        .into_iter()
        .take(cap)
        .map(|p| p.position)
        .collect();
    let (othello_depth, connect4_depth) =
        (generic_depth(OTHELLO_DEPTH), generic_depth(CONNECT4_DEPTH));
    let connect4_count = CONNECT4_POSITIONS.min(cap);
    let (table, finding) = generic_section(
        "othello",
        "Othello",
        &othello,
        &super::othello_eval(),
        othello_depth,
        options,
        progress,
    );
    tables.push(table);
    findings.push(finding);
    let connect4 = super::connect4::data_dir(options)
        .and_then(|dir| super::connect4::load(&dir, &super::connect4::SETS[3], connect4_count));
    match connect4 {
        Ok(set) => {
            let positions: Vec<_> = set.records.iter().map(|r| r.position).collect();
            let (table, finding) = generic_section(
                "connect4",
                "Connect Four",
                &positions,
                &prune_connect4::ThreatEval,
                connect4_depth,
                options,
                progress,
            );
            tables.push(table);
            findings.push(finding);
        }
        Err(e) => problems.push(format!("Connect Four left out: {e}")),
    }
    let mut categories = vec!["none".to_string()];
    categories.extend(Selective::NAMES.iter().map(|n| n.to_string()));
    categories.push("all".into());
    Ok(Report {
        experiment: "selective".into(),
        files: Vec::new(),
        title: "The selective search in shogi, Othello and Connect Four".into(),
        reproduces: "The selective enhancements of chess and shogi engines (null move, \
                     late-move reductions, futility and its reverse, razoring, internal \
                     iterative reduction, late-move pruning, static-exchange pruning, singular \
                     extension; and two refinements, cut-node reductions and the table's bounds \
                     for the pruning's evaluation, each with what it refines), alone and stacked, in prune's shogi engine (NegaScout with a table, the staged \
                     picker, quiescence, check extension) on \
                     middle game positions: nodes to a fixed depth against the exhaustive \
                     search, and how often the move and the value stay the same; and the \
                     generic library's switches (late-move reductions, futility, razoring, \
                     internal iterative reduction, late-move pruning) alone and together in \
                     Othello and Connect Four, which refuse null moves."
            .into(),
        problems,
        settings: vec![
            depths_setting(&depths),
            (
                "positions".into(),
                format!(
                    "{} from self-play (as shogi-killers: the exhaustive preset at depth 2)",
                    games.len()
                ),
            ),
            (
                "Othello".into(),
                format!(
                    "FFO #40-#59 ({} positions), depth {othello_depth}, the hand-made \
                     evaluation (static ordering by mobility)",
                    othello.len()
                ),
            ),
            (
                "Connect Four".into(),
                format!(
                    "the first {connect4_count} positions of Pons's Begin-Easy \
                     (Test_L1_R1), depth {connect4_depth}, the threat evaluation"
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables,
        plots: vec![Plot {
            name: "selective".into(),
            title: "Nodes to a fixed depth, each enhancement alone".into(),
            x_label: "selective search".into(),
            y_label: "nodes".into(),
            x_axis: XAxis::Categories(categories),
            log_y: true,
            series,
            legend: Legend::MiddleRight,
        }],
    })
}
