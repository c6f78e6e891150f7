//! `shogi-killers`: the killer experiment in the game the staged picker was made for. Middle
//! game positions from self-play are searched to a fixed depth by the shogi engine with the
//! plain order and with the staged picker holding 0, 1, 2, 4, 8 ... killer slots per ply
//! (history off, to see the killers alone), then with two killers and history (the full
//! preset); nodes against the plain order, and the cutoffs each stage of the full picker made.

use std::time::Instant;

use prune_shogi::engine::{Engine, EngineOptions, Limits, SearchResult, Stage, StageCounts};
use prune_shogi::{GameRecord, Position};

use super::{depths, depths_setting, grid, jobs_setting, ratio, slots_setting};
use crate::{run_tasks, Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series};
use crate::{Table, XAxis};

/// The defaults, in words, for `prune lab list`.
pub(super) const DEFAULTS: &str = "24 positions from self-play, depth 5, slots 0, 1, 2, 4, 8";
const DEFAULT_POSITIONS: usize = 24;
const DEFAULT_DEPTH: u32 = 5;
const DEFAULT_SLOTS: [usize; 5] = [0, 1, 2, 4, 8];
/// The plies of a self-play game at which positions are taken.
const SAMPLE_PLIES: [usize; 3] = [24, 40, 56];

/// Middle game positions: self-play of the exhaustive preset at depth 2 from the two-move openings
/// (every 37th of the 900, in order), the positions after [`SAMPLE_PLIES`] plies.
pub(super) fn positions(count: usize) -> Vec<GameRecord> {
    let mut openings = Vec::new();
    let start = Position::start();
    for a in start.legal_moves() {
        let p = start.play(a);
        for b in p.legal_moves() {
            openings.push([a, b]);
        }
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 4,
        ..EngineOptions::preset("exhaustive").expect("a preset")
    });
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut found = Vec::new();
    for opening in openings.iter().step_by(37).cycle().take(count * 4) {
        let mut game = GameRecord::new(start.clone());
        for &m in opening {
            game.play(m).expect("legal openings");
        }
        engine.clear();
        while game.moves().len() < SAMPLE_PLIES[2] && game.ending().is_none() {
            let history = &game.history()[..game.history().len() - 1];
            let r = engine.search(game.position(), history, limits, &mut |_| {});
            game.play(r.best.expect("not over")).expect("legal");
            if SAMPLE_PLIES.contains(&game.moves().len()) && game.ending().is_none() {
                found.push(game.clone());
                if found.len() == count {
                    return found;
                }
            }
        }
    }
    found
}

/// A fresh engine with `options` searches the last position of `game` (its earlier positions
/// as the repetition history) to `depth`: the result and the seconds it took.
pub(super) fn search_at(
    options: EngineOptions,
    game: &GameRecord,
    depth: u32,
) -> (SearchResult, f64) {
    let mut engine = Engine::new(options);
    let history = &game.history()[..game.history().len() - 1];
    let began = Instant::now();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(game.position(), history, limits, &mut |_| {});
    (r, began.elapsed().as_secs_f64())
}

struct Config {
    name: String,
    options: EngineOptions,
    slots: Option<usize>,
}

struct Outcome {
    nodes: u64,
    secs: f64,
    stages: StageCounts,
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let depths = depths(options, DEFAULT_DEPTH..=DEFAULT_DEPTH, 12)?;
    let slots = options.slots.clone().unwrap_or(DEFAULT_SLOTS.to_vec());
    if let Some(&n) = slots.iter().find(|&&n| n > 64) {
        return Err(LabError::Usage(format!(
            "--slots {n}: at most 64 killer slots per ply in shogi"
        )));
    }
    let count = options.games.unwrap_or(DEFAULT_POSITIONS);
    if count == 0 {
        return Err(LabError::Usage("--games: at least one position".into()));
    }
    let games = positions(count);
    // The killers are measured in the exhaustive search: the selective search's prunings
    // would change the trees the orderings are compared on.
    let full = EngineOptions::preset("exhaustive").expect("a preset");
    let mut configs = vec![Config {
        name: "plain order".into(),
        options: EngineOptions::preset("plain").expect("a preset"),
        slots: None,
    }];
    for &n in &slots {
        configs.push(Config {
            name: format!("staged, {n} killers"),
            options: EngineOptions {
                killers: n,
                history: false,
                ..full.clone()
            },
            slots: Some(n),
        });
    }
    configs.push(Config {
        name: "staged, 2 killers + history (exhaustive preset)".into(),
        options: full.clone(),
        slots: None,
    });
    let full_index = configs.len() - 1;
    let (n_configs, n_games) = (configs.len(), games.len());
    let tasks = grid(&depths, n_configs, n_games);
    let outcomes = run_tasks(
        &tasks,
        options.jobs(),
        progress,
        |&(d, c, g)| format!("depth {d}, {}, position {}", configs[c].name, g + 1),
        |&(d, c, g)| {
            let (r, secs) = search_at(configs[c].options.clone(), &games[g], d);
            Outcome {
                nodes: r.nodes,
                secs,
                stages: r.stages,
            }
        },
    );
    let mut summary = Table::new(
        "nodes",
        "Nodes and time over all positions, by ordering",
        &[
            "depth",
            "ordering",
            "killer slots",
            "positions",
            "nodes",
            "time (s)",
            "nodes vs plain",
        ],
    );
    let mut stage_table = Table::new(
        "stages",
        "The full picker's stages: moves searched and the beta cutoffs they caused",
        &[
            "depth",
            "stage",
            "moves searched",
            "cutoffs",
            "cutoffs per move",
            "share of cutoffs",
        ],
    );
    let mut findings = Vec::new();
    let mut series = Vec::new();
    for &d in &depths {
        let total = |c: usize| {
            let mut nodes = 0;
            let mut secs = 0.0;
            let mut stages = StageCounts::default();
            for (t, o) in tasks.iter().zip(&outcomes) {
                if t.0 == d && t.1 == c {
                    nodes += o.nodes;
                    secs += o.secs;
                    stages.add(&o.stages);
                }
            }
            (nodes, secs, stages)
        };
        let (plain_nodes, _, _) = total(0);
        let mut points = Vec::new();
        for (c, config) in configs.iter().enumerate() {
            let (nodes, secs, _) = total(c);
            summary.push(vec![
                Cell::Count(u64::from(d)),
                Cell::text(&config.name),
                config.slots.map_or(Cell::Empty, |n| Cell::Count(n as u64)),
                Cell::Count(games.len() as u64),
                Cell::Count(nodes),
                Cell::real(secs, 2),
                Cell::maybe_real(ratio(nodes as f64, plain_nodes as f64), 3),
            ]);
            if config.slots.is_some() {
                // Categories: the x of a point is its index among the slot counts.
                points.push(((c - 1) as f64, nodes as f64));
            }
        }
        let (zero, _, _) = total(1);
        let best = (1..configs.len() - 1)
            .min_by_key(|&c| total(c).0)
            .expect("at least one slot count");
        let (full_nodes, _, stages) = total(full_index);
        findings.push(format!(
            "Depth {d}: the staged picker without killers searches {:.2} times the plain \
             order's nodes; with {} it searches {:.2} times ({} killer slots do best); two \
             killers and history: {:.2} times.",
            zero as f64 / plain_nodes as f64,
            configs[best].name,
            total(best).0 as f64 / plain_nodes as f64,
            configs[best].slots.unwrap_or(0),
            full_nodes as f64 / plain_nodes as f64,
        ));
        let all_cutoffs: u64 = stages.cutoffs.iter().sum();
        for stage in Stage::ALL {
            let i = stage as usize;
            stage_table.push(vec![
                Cell::Count(u64::from(d)),
                Cell::text(stage.name()),
                Cell::Count(stages.searched[i]),
                Cell::Count(stages.cutoffs[i]),
                Cell::maybe_real(
                    ratio(stages.cutoffs[i] as f64, stages.searched[i] as f64),
                    3,
                ),
                Cell::maybe_real(ratio(stages.cutoffs[i] as f64, all_cutoffs as f64), 3),
            ]);
        }
        series.push(Series {
            label: format!("depth {d}"),
            points,
            reference: false,
        });
    }
    let mut position_table = Table::new("positions", "The positions (SFEN)", &["#", "ply", "sfen"]);
    for (i, g) in games.iter().enumerate() {
        position_table.push(vec![
            Cell::Count(i as u64 + 1),
            Cell::Count(g.moves().len() as u64),
            Cell::text(g.position().to_string()),
        ]);
    }
    Ok(Report {
        experiment: "shogi-killers".into(),
        files: Vec::new(),
        title: "Killers and the staged picker in shogi".into(),
        reproduces: "The staged move picker of shogi engines (Apery, and Stockfish before it): \
                     the table's move, good captures, two killer moves per ply, quiet moves by \
                     history, bad captures. Fixed-depth searches of prune's shogi engine \
                     (NegaScout with a table, quiescence and check extension) on middle game \
                     positions, with N killer slots per ply against the plain order (table \
                     move, then captures by victim, the rest as generated)."
            .into(),
        problems: Vec::new(),
        settings: vec![
            depths_setting(&depths),
            (
                "positions".into(),
                format!(
                    "{} from self-play of the exhaustive preset at depth 2 (plies {:?} of each game)",
                    games.len(),
                    SAMPLE_PLIES
                ),
            ),
            slots_setting(&slots),
            jobs_setting(options),
        ],
        findings,
        tables: vec![summary, stage_table, position_table],
        plots: vec![Plot {
            name: "killers".into(),
            title: "Nodes against killer slots (staged picker, no history)".into(),
            x_label: "killer slots per ply".into(),
            y_label: "nodes".into(),
            x_axis: XAxis::Categories(slots.iter().map(|n| n.to_string()).collect()),
            log_y: false,
            series,
            legend: Legend::MiddleRight,
        }],
    })
}
