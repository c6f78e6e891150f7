//! The experiments ([`EXPERIMENTS`]) and what they share: searching an Othello position with a
//! configuration, reading presets and depths, checking options.

mod ablation;
mod algorithms;
mod connect4;
mod grid;
mod killers;
mod mcts;
mod minimal_tree;
mod nodes;
mod parallel;
mod probcut;
mod proof;
mod selective;
mod shogi;
mod wthor;

use std::ops::RangeInclusive;
use std::time::Duration;

use prune_othello::{HandEval, Ordered, Position, StaticOrdering};
use prune_search::{
    Algorithm, Counters, Engine, Evaluator, FailMode, Game, Preset, Score, SearchConfig,
    SearchLimits,
};

use crate::{LabError, LabOptions, PositionSet, Progress, Report};
use grid::{Grid, Job};

/// An experiment of the lab: its name, what it reproduces, and what it accepts.
#[derive(Clone, Copy, Debug)]
pub struct ExperimentInfo {
    /// The name on the command line (`prune lab NAME`).
    pub name: &'static str,
    /// What it measures and reproduces, in a sentence or two.
    pub reproduces: &'static str,
    /// Its default settings, in words.
    pub defaults: &'static str,
    /// The options it takes beyond `--out` and `--jobs` (names of the command line's flags).
    pub options: &'static [&'static str],
    run: fn(&LabOptions, &dyn Progress) -> Result<Report, LabError>,
}

/// Every experiment, in the order of `prune lab list`.
pub const EXPERIMENTS: &[ExperimentInfo] = &[
    ExperimentInfo {
        name: "nodes",
        reproduces: "Nodes searched by nega-alpha, Scout and NegaScout at fixed depths on the FFO \
                     #40-#59 positions, one block per position (rows = algorithm, columns = \
                     depth), with the plain and the full preset; nodes against depth on a log \
                     scale.",
        defaults: "FFO #40-#59, depths 2-10, presets plain and full",
        options: &["positions", "depths", "preset"],
        run: nodes::run,
    },
    ExperimentInfo {
        name: "killers",
        reproduces: "The killer-slot experiment: complete self-play games where both sides \
                     search with nega-alpha plus N killer slots (one list per remaining depth), \
                     against plain nega-alpha; nodes and time per game and the share saved.",
        defaults: "depth 6, N = 1, 2, 4, ..., 128, 32 games (openings), base preset plain",
        options: &["positions", "depths", "preset", "games", "slots"],
        run: killers::run,
    },
    ExperimentInfo {
        name: "ablation",
        reproduces: "Each enhancement alone and the cumulative stack (static ordering, \
                     transposition table, history, killers, refutation table, aspiration, null \
                     window, shallow-search ordering, MTD(f)): nodes and time relative to plain \
                     alpha-beta.",
        defaults: "FFO #40-#59, depth 8",
        options: &["positions", "depths"],
        run: ablation::run,
    },
    ExperimentInfo {
        name: "minimal-tree",
        reproduces: "Leaves evaluated on uniform trees against the Knuth-Moore minimal tree \
                     w^ceil(d/2) + w^floor(d/2) - 1 as move ordering degrades from perfect to \
                     random to worst, for alpha-beta, NegaScout and MTD(f).",
        defaults: "width 5, depths 2-8, 20 trees per cell, preset plain",
        options: &["depths", "preset", "width", "trees"],
        run: minimal_tree::run,
    },
    ExperimentInfo {
        name: "algorithms",
        reproduces: "Every algorithm side by side on a position file at fixed depth: nodes, \
                     time, effective branching factor and the share of cutoffs on the first \
                     move.",
        defaults: "FFO #40-#59, depth 6, preset plain",
        options: &["positions", "depths", "preset"],
        run: algorithms::run,
    },
    ExperimentInfo {
        name: "parallel",
        reproduces: "Speed-up and node overhead of the parallel searches against one thread, \
                     1 to N threads: exact solves with the fast endgame solver (YBWC, PV \
                     splitting, Lazy SMP) and fixed-depth midgame searches (the same schemes).",
        defaults: "solves of FFO #40-#44, midgame depth 12 on FFO #40-#59, 1 to (cores) threads",
        options: &["positions", "depths", "threads-max"],
        run: parallel::run,
    },
    ExperimentInfo {
        name: "connect4",
        reproduces: "Pons's \"Solving Connect 4\" progression on his test sets: one row per step \
                     of the exact solver (plain negamax, alpha-beta, centre-first, table, null \
                     window, losing moves pruned, threat ordering, then prune's own steps), mean \
                     nodes and time per position on each set, positions capped by the node \
                     limit counted, every finished score checked against the file's.",
        defaults: connect4::DEFAULTS,
        options: &["positions", "sets", "node-limit", "data"],
        run: connect4::run,
    },
    ExperimentInfo {
        name: "probcut",
        reproduces: "Buro's Multi-ProbCut for Othello's fast midgame search: the regression of \
                     deep on shallow search values fitted per band of empties and depth pair \
                     on self-play positions (written as probcut.txt), then each selectivity \
                     level's nodes and error (against full width and the exact scores), and \
                     matches of each level against full width at equal time per move.",
        defaults: probcut::DEFAULTS,
        options: &["positions", "depths", "games", "time-per-move", "fit-games"],
        run: probcut::run,
    },
    ExperimentInfo {
        name: "mcts-vs-alphabeta",
        reproduces: "Monte Carlo tree search (UCT with MCTS-Solver, random or evaluation \
                     playouts) against alpha-beta (the full preset) at equal time per move on \
                     tic-tac-toe, Connect Four and Othello (hand-made and trained evaluation): \
                     Elo at three times per move; and solving power: how many Othello \
                     endgames (14-18 empties) and Connect Four test positions each proves \
                     within a time budget.",
        defaults: mcts::DEFAULTS,
        options: &["games", "time-per-move", "data"],
        run: mcts::run,
    },
    ExperimentInfo {
        name: "proof-number",
        reproduces: "Proof-number search (PN, df-pn, df-pn+) against alpha-beta searched to \
                     the end and MCTS-Solver on the same positions within the same node \
                     budget: tic-tac-toe, Connect Four test positions, Othello endgames, each \
                     result checked against the truth; tsume by the mate solver against the \
                     generic df-pn.",
        defaults: proof::DEFAULTS,
        options: &["node-limit", "data"],
        run: proof::run,
    },
    ExperimentInfo {
        name: "shogi-killers",
        reproduces: "The killer experiment in shogi, the game the staged picker was made for: \
                     fixed-depth searches of the shogi engine on self-play positions with the \
                     plain order and with the staged picker holding N killer slots per ply; \
                     nodes against the plain order, and the cutoffs per stage of the full \
                     picker (hash move, good captures, killers, quiet moves, bad captures).",
        defaults: shogi::DEFAULTS,
        options: &["depths", "games", "slots"],
        run: shogi::run,
    },
    ExperimentInfo {
        name: "selective",
        reproduces: "The selective search of chess and shogi engines in shogi: each \
                     enhancement (null move, late-move reductions, futility, razoring, internal \
                     iterative reduction, late-move pruning, static-exchange pruning) alone, \
                     all together and all but one; nodes to a fixed depth against the \
                     exhaustive search, and how often the move and the value stay the same. \
                     The generic library's switches alone and together in Othello and Connect \
                     Four (--depths: the deepest also sets theirs; --games also caps their \
                     positions; --data: Pons's sets).",
        defaults: selective::DEFAULTS,
        options: &["depths", "games", "data"],
        run: selective::run,
    },
    ExperimentInfo {
        name: "wthor",
        reproduces: "Othello evaluations against exact positions from real games: positions of \
                     the held-out games of the WTHOR database (the games `prune train --games` \
                     holds out), exact by the games' theoretical scores at 24 empties and by \
                     exact solves at 22 and fewer; the mean absolute and mean signed error of \
                     each evaluation's static value and of a shallow search, by number of \
                     empties. --positions N: positions per number of empties; --eval FILE: \
                     weights files measured beside the built-in ones.",
        defaults: wthor::DEFAULTS,
        options: &["positions", "empties", "eval", "depths", "data"],
        run: wthor::run,
    },
];

/// Runs the experiment called `name` with `options`, reporting progress to `progress`.
pub fn run_experiment(
    name: &str,
    options: &LabOptions,
    progress: &dyn Progress,
) -> Result<Report, LabError> {
    let info = EXPERIMENTS.iter().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<_> = EXPERIMENTS.iter().map(|e| e.name).collect();
        LabError::Usage(format!(
            "unknown experiment '{name}' (expected one of: {})",
            names.join(", ")
        ))
    })?;
    check_options(info, options)?;
    (info.run)(options, progress)
}

/// Refuses the options the experiment does not use, naming them.
fn check_options(info: &ExperimentInfo, o: &LabOptions) -> Result<(), LabError> {
    let given = [
        ("positions", o.positions.is_some()),
        ("depths", o.depths.is_some()),
        ("preset", !o.presets.is_empty()),
        ("games", o.games.is_some()),
        ("time-per-move", o.time_per_move.is_some()),
        ("fit-games", o.fit_games.is_some()),
        ("slots", o.slots.is_some()),
        ("width", o.width.is_some()),
        ("trees", o.trees.is_some()),
        ("threads-max", o.threads_max.is_some()),
        ("positions", o.per_set.is_some()),
        ("sets", o.sets.is_some()),
        ("node-limit", o.node_limit.is_some()),
        ("data", o.data.is_some()),
        ("empties", o.empties.is_some()),
        ("eval", !o.evals.is_empty()),
    ];
    for (name, is_given) in given {
        if is_given && !info.options.contains(&name) {
            let takes: Vec<String> = info.options.iter().map(|o| format!("--{o}")).collect();
            return Err(LabError::Usage(format!(
                "--{name} does not apply to experiment {} (it takes {}, --out and --jobs)",
                info.name,
                takes.join(", ")
            )));
        }
    }
    // `--positions` is a count of positions per set for connect4 (per number of empties for
    // wthor), a file or suite elsewhere.
    let takes_count = matches!(info.name, "connect4" | "wthor");
    if let (Some(n), false) = (o.per_set, takes_count) {
        return Err(LabError::Usage(format!(
            "--positions {n}: a count of positions applies to experiment connect4 or wthor; {} \
             takes a position file or ffo-40-59 (for a file named {n}, write ./{n})",
            info.name
        )));
    }
    if o.positions.is_some() && takes_count {
        let what = if info.name == "wthor" {
            "positions per number of empties"
        } else {
            "the first N positions of each set"
        };
        return Err(LabError::Usage(format!(
            "--positions: experiment {} takes a count ({what}), not a position file",
            info.name
        )));
    }
    Ok(())
}

/// The depths to run: the options' or the default, within `1..=max`.
fn depths(
    options: &LabOptions,
    default: RangeInclusive<u32>,
    max: u32,
) -> Result<Vec<u32>, LabError> {
    let range = options.depths.clone().unwrap_or(default);
    if *range.start() == 0 || *range.end() > max || range.is_empty() {
        return Err(LabError::Usage(format!(
            "--depths {}-{}: depths must run from 1 up to at most {max} here",
            range.start(),
            range.end()
        )));
    }
    Ok(range.collect())
}

/// The presets to run: the options' or the default names, each checked.
fn presets(options: &LabOptions, default: &[&str]) -> Result<Vec<&'static Preset>, LabError> {
    let names: Vec<&str> = if options.presets.is_empty() {
        default.to_vec()
    } else {
        options.presets.iter().map(String::as_str).collect()
    };
    names
        .iter()
        .map(|n| Preset::find(n).map_err(|e| LabError::Usage(format!("--preset: {e}"))))
        .collect()
}

/// Every preset with every algorithm, flattened: configuration `p * algorithms.len() + a` is
/// preset `p` with algorithm `a`.
fn preset_configs(
    presets: &[&Preset],
    algorithms: &[Algorithm],
) -> Result<Vec<SearchConfig>, LabError> {
    presets
        .iter()
        .flat_map(|p| algorithms.iter().map(|&a| p.config(a)))
        .collect::<Result<_, _>>()
        .map_err(|e| LabError::Usage(format!("--preset: {e}")))
}

/// The positions to search: the options' or FFO #40-#59.
fn position_set(options: &LabOptions) -> PositionSet {
    options
        .positions
        .clone()
        .unwrap_or_else(PositionSet::ffo_40_59)
}

/// Nega-alpha (fail-soft alpha-beta), the baseline of the classic experiments.
const NEGA_ALPHA: Algorithm = Algorithm::AlphaBeta(FailMode::Soft);

/// The evaluation of the Othello experiments: the hand-made evaluation with the default static
/// ordering (mobility), which only configurations with static ordering use.
fn othello_eval() -> Ordered<HandEval> {
    Ordered {
        eval: HandEval,
        ordering: StaticOrdering::default(),
    }
}

/// What one search cost and found.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    counters: Counters,
    time: Duration,
    score: Score,
    best_move: Option<String>,
}

/// Searches `game` to `depth` with a fresh engine for `config`.
fn search<G: Game, E: Evaluator<G>>(game: &G, eval: &E, config: &SearchConfig, depth: u32) -> Run
where
    G::Move: std::fmt::Display,
{
    let mut engine = Engine::<G>::new(*config).expect("lab configurations are validated");
    let result = engine
        .search(game, eval, &SearchLimits::depth(depth))
        .expect("a depth limit suits every configuration");
    Run {
        counters: result.stats.total,
        time: result.stats.time,
        score: result.score,
        best_move: result.best_move.map(|m| m.to_string()),
    }
}

/// Searches an Othello position.
fn search_othello(position: &Position, config: &SearchConfig, depth: u32) -> Run {
    search(position, &othello_eval(), config, depth)
}

/// The effective branching factor `b` of a search of `nodes` nodes to `depth`: the solution of
/// `1 + b + b^2 + ... + b^depth = nodes` (the uniform tree of that size).
fn effective_branching(nodes: f64, depth: u32) -> Option<f64> {
    if depth == 0 || nodes < 1.0 {
        return None;
    }
    let size = |b: f64| (0..=depth).map(|k| b.powi(k as i32)).sum::<f64>();
    let (mut lo, mut hi) = (0.0f64, nodes.max(2.0));
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if size(mid) < nodes {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

/// A setting line for the report: the positions used.
fn positions_setting(set: &PositionSet) -> (String, String) {
    (
        "positions".into(),
        format!("{} ({} positions)", set.source, set.positions.len()),
    )
}

/// A setting line: depths `a-b`.
fn depths_setting(depths: &[u32]) -> (String, String) {
    let text = match (depths.first(), depths.last()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => String::new(),
    };
    ("depths".into(), text)
}

/// A setting line: the killer slot counts tried.
fn slots_setting(slots: &[usize]) -> (String, String) {
    let text: Vec<String> = slots.iter().map(ToString::to_string).collect();
    ("slots".into(), text.join(", "))
}

/// A setting line: the presets, each with its summary.
fn presets_setting(presets: &[&Preset]) -> (String, String) {
    let text: Vec<String> = presets
        .iter()
        .map(|p| format!("{} ({})", p.name, p.summary))
        .collect();
    ("presets".into(), text.join("; "))
}

/// A setting line: jobs, with what they do and do not change.
fn jobs_setting(options: &LabOptions) -> (String, String) {
    (
        "jobs".into(),
        format!(
            "{} (searches run at once: node counts do not depend on it, times may)",
            options.jobs()
        ),
    )
}

/// Every (depth, configuration, position) of a grid experiment, depth by depth, each depth's
/// configurations in order, each configuration's positions in order.
fn grid(depths: &[u32], configs: usize, positions: usize) -> Vec<(u32, usize, usize)> {
    depths
        .iter()
        .flat_map(|&d| (0..configs).flat_map(move |c| (0..positions).map(move |g| (d, c, g))))
        .collect()
}

/// `part / whole` as a ratio, if `whole > 0`.
fn ratio(part: f64, whole: f64) -> Option<f64> {
    (whole > 0.0).then(|| part / whole)
}

/// Othello endgames reached by random play from the start with a generator seeded by
/// `seed`: `per` unfinished positions for each count of `empties`.
pub(super) fn random_endgames(
    seed: u64,
    empties: impl IntoIterator<Item = u32>,
    per: usize,
) -> Vec<(Position, u32)> {
    use prune_search::rng::{Rng, XorShift64};
    let mut rng = XorShift64::new(seed);
    let mut out = Vec::new();
    for empties in empties {
        while out.iter().filter(|(_, e)| *e == empties).count() < per {
            let mut p = Position::START;
            while p.empty_count() > empties && p.outcome().is_none() {
                let moves = p.legal_moves();
                p = Game::play(&p, moves[rng.below(moves.len() as u64) as usize]);
            }
            if p.outcome().is_none() && p.empty_count() == empties {
                out.push((p, empties));
            }
        }
    }
    out
}

/// A data folder beside the repository: `--data`, or `../shared/data/NAME` from the current
/// folder or the nearest folder above it that has one. `holds` says what the folder should
/// hold, `what` names it in the hint to give `--data`.
pub(super) fn shared_data_dir(
    options: &LabOptions,
    name: &str,
    holds: &str,
    what: &str,
) -> Result<std::path::PathBuf, LabError> {
    use std::path::Path;
    if let Some(dir) = &options.data {
        if !dir.is_dir() {
            return Err(LabError::Usage(format!(
                "--data {}: no such folder (it should hold {holds})",
                dir.display()
            )));
        }
        return Ok(dir.clone());
    }
    let relative = Path::new("..").join("shared").join("data").join(name);
    let cwd = std::env::current_dir().map_err(|e| LabError::io(Path::new("."), e))?;
    cwd.ancestors()
        .map(|a| a.join(&relative))
        .find(|d| d.is_dir())
        .ok_or_else(|| {
            LabError::Usage(format!(
                "{name}: no folder {} here or above {}; give {what} with --data DIR",
                relative.display(),
                cwd.display()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effective_branching_of_uniform_trees() {
        // A width-3 depth-4 tree has 1 + 3 + 9 + 27 + 81 = 121 nodes.
        let b = effective_branching(121.0, 4).unwrap();
        assert!((b - 3.0).abs() < 1e-9, "{b}");
        assert_eq!(effective_branching(0.0, 3), None);
    }

    #[test]
    fn options_an_experiment_does_not_take_are_refused() {
        let options = LabOptions {
            width: Some(4),
            ..LabOptions::default()
        };
        let err = run_experiment("nodes", &options, &crate::NoProgress)
            .unwrap_err()
            .to_string();
        assert!(err.contains("--width") && err.contains("nodes"), "{err}");
        let err = run_experiment("nodez", &LabOptions::default(), &crate::NoProgress)
            .unwrap_err()
            .to_string();
        assert!(err.contains("minimal-tree"), "{err}");
    }
}
