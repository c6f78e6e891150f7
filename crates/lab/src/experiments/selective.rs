//! `selective`: the selective search of chess and shogi engines, measured in shogi. Middle
//! game positions from self-play (those of `shogi-killers`) are searched to a fixed depth by
//! the shogi engine with no selective search (the `exhaustive` preset), with each enhancement
//! alone, with all of them (the `full` preset), and with all but one; the nodes against the
//! exhaustive search, and how often each picks the exhaustive search's move and finds its
//! value. Elo at equal time comes from matches (docs/shogi.md), not from this experiment.
//!
//! Othello and Connect Four are not in it: their searches (the generic library's and
//! Othello's fast midgame search) do not have these switches yet.

use prune_shogi::engine::{EngineOptions, Selective};

use super::{depths, depths_setting, jobs_setting, ratio, shogi};
use crate::{run_tasks, Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series};
use crate::{Table, XAxis};

/// The defaults, in words, for `prune lab list`.
pub(super) const DEFAULTS: &str = "24 positions from self-play, depths 3-5";
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
        let mut one = Selective::default();
        *one.switch(name).expect("a switch") = true;
        configs.push(Config {
            name: format!("{name} alone"),
            selective: one,
        });
    }
    configs.push(Config {
        name: "all (full)".into(),
        selective: Selective::ALL,
    });
    for name in Selective::NAMES {
        let mut but = Selective::ALL;
        *but.switch(name).expect("a switch") = false;
        configs.push(Config {
            name: format!("all but {name}"),
            selective: but,
        });
    }
    configs
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
    let tasks: Vec<(u32, usize, usize)> = depths
        .iter()
        .flat_map(|&d| (0..n_configs).flat_map(move |c| (0..n_games).map(move |g| (d, c, g))))
        .collect();
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
        findings.push(format!(
            "Depth {d}: all the selective search together searches {:.3} times the exhaustive \
             search's nodes and plays its move in {all_moves} of {n_games} positions; alone, \
             {} cuts the most ({:.3} times).",
            all_nodes as f64 / base_nodes as f64,
            configs[alone].name,
            total(alone).0 as f64 / base_nodes as f64,
        ));
        series.push(Series {
            label: format!("depth {d}"),
            points,
            reference: false,
        });
    }
    let mut categories = vec!["none".to_string()];
    categories.extend(Selective::NAMES.iter().map(|n| n.to_string()));
    categories.push("all".into());
    Ok(Report {
        experiment: "selective".into(),
        files: Vec::new(),
        title: "The selective search in shogi".into(),
        reproduces: "The selective enhancements of chess and shogi engines (null move, \
                     late-move reductions, futility and its reverse, razoring, internal \
                     iterative reduction, late-move pruning, static-exchange pruning), alone \
                     and stacked, in prune's shogi engine (NegaScout with a table, the staged \
                     picker, quiescence, check extension) on \
                     middle game positions: nodes to a fixed depth against the exhaustive \
                     search, and how often the move and the value stay the same."
            .into(),
        problems: Vec::new(),
        settings: vec![
            depths_setting(&depths),
            (
                "positions".into(),
                format!(
                    "{} from self-play (as shogi-killers: the exhaustive preset at depth 2)",
                    games.len()
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![summary],
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
