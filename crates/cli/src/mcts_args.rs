//! Monte Carlo tree search on the command line: `--algorithm mcts` and its options (shared by
//! `search`, `play`, `match` and `nboard`), and `prune search --algorithm mcts` on any game.

use std::time::{Duration, Instant};

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_play::{MidgameEngine, PlayerOptions};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, MctsParallel, MctsResult, Playout};
use prune_search::{Algorithm, Evaluator, Game, Named};
use serde_json::{json, Value};

use crate::cells::{right, thousands};
use crate::CliError;

/// The name of Monte Carlo tree search for `--algorithm`.
pub const MCTS: &str = "mcts";

/// `prune search --algorithm mcts`'s playouts when no limit is given.
pub const DEFAULT_SEARCH_PLAYOUTS: u64 = 100_000;

/// Whether `--algorithm` names Monte Carlo tree search.
pub fn is_mcts(algorithm: Option<&str>) -> bool {
    algorithm.is_some_and(|a| a.trim().eq_ignore_ascii_case(MCTS))
}

/// The options of Monte Carlo tree search (with `--algorithm mcts`, or a player named `mcts`).
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Monte Carlo tree search (--algorithm mcts)")]
pub struct MctsArgs {
    /// Playouts per search (per move in a game) [default: 100000 for `search` without
    /// --time-ms; in a game, as many as the move's time allows].
    #[arg(long, value_name = "N")]
    pub playouts: Option<u64>,
    /// UCB1's exploration constant C [default: 1.414, the square root of 2].
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    pub exploration: Option<f64>,
    /// Cut each playout off after K random moves (0: none) and score it with the evaluation
    /// read as a win probability [default: random moves to the end of the game].
    #[arg(long, value_name = "K")]
    pub playout_cutoff: Option<u32>,
    /// Share one node between the positions reached by different move orders.
    #[arg(long)]
    pub transpositions: bool,
    /// Plain UCT: no MCTS-Solver (nothing is proven above the finished games).
    #[arg(long)]
    pub no_solver: bool,
    /// With more than one thread: `tree` (one tree under a lock, virtual loss) or `root` (a
    /// tree per thread, added up at the end) [default: tree].
    #[arg(long, value_name = "tree|root", value_parser = prune_search::parse_name::<MctsParallel>)]
    pub mcts_parallel: Option<MctsParallel>,
    /// The seed of the random draws [default: 1]; one thread is deterministic for a seed.
    #[arg(long, value_name = "S")]
    pub mcts_seed: Option<u64>,
    /// The most nodes of the tree (a memory bound: a node takes about 100-200 bytes);
    /// iterations go on without growing it once it is full [default: 4000000].
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<usize>,
}

impl MctsArgs {
    /// The options given, as typed.
    pub fn given(&self) -> Vec<String> {
        let value = |name: &str, v: Option<String>| v.map(|v| format!("{name} {v}"));
        let flag = |name: &str, on: bool| on.then(|| name.to_string());
        [
            value("--playouts", self.playouts.map(|n| n.to_string())),
            value("--exploration", self.exploration.map(|c| c.to_string())),
            value(
                "--playout-cutoff",
                self.playout_cutoff.map(|k| k.to_string()),
            ),
            flag("--transpositions", self.transpositions),
            flag("--no-solver", self.no_solver),
            value(
                "--mcts-parallel",
                self.mcts_parallel.map(|p| p.name().into()),
            ),
            value("--mcts-seed", self.mcts_seed.map(|s| s.to_string())),
            value("--max-nodes", self.max_nodes.map(|n| n.to_string())),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// An error if an option was given although MCTS does not run.
    pub fn refuse_unless(&self, mcts: bool) -> Result<(), CliError> {
        match self.given().first() {
            Some(option) if !mcts => Err(CliError::Usage(format!(
                "{option}: an option of Monte Carlo tree search; add --algorithm mcts"
            ))),
            _ => Ok(()),
        }
    }

    /// The configuration, with `threads`, checked.
    pub fn build(&self, threads: usize) -> Result<MctsConfig, CliError> {
        let default = MctsConfig::default();
        if self.playouts == Some(0) {
            return Err(CliError::Usage("--playouts must be at least 1".into()));
        }
        let config = MctsConfig {
            exploration: self.exploration.unwrap_or(default.exploration),
            seed: self.mcts_seed.unwrap_or(default.seed),
            playout: match self.playout_cutoff {
                Some(plies) => Playout::Cutoff { plies },
                None => Playout::Random,
            },
            solver: !self.no_solver,
            transpositions: self.transpositions,
            threads,
            parallel: self.mcts_parallel.unwrap_or_default(),
            max_nodes: self.max_nodes.unwrap_or(default.max_nodes),
            ..default
        };
        config.validate().map_err(|e| {
            let option = if e.to_string().contains("exploration") {
                "--exploration"
            } else if e.to_string().contains("threads") {
                "--threads"
            } else {
                "--max-nodes"
            };
            CliError::Usage(format!("{option}: {e}"))
        })?;
        Ok(config)
    }
}

/// How a game-playing command's engine players search: `--algorithm` (an alpha-beta algorithm
/// for the presets, or `mcts`, which makes every engine player an MCTS one) and MCTS's options
/// (for the players named `mcts` too).
pub struct PlayerEngines<'a> {
    /// The presets' algorithm (NegaScout, unused, under `--algorithm mcts`).
    pub algorithm: Algorithm,
    /// Whether `--algorithm mcts` was given.
    pub all_mcts: bool,
    mcts_args: &'a MctsArgs,
}

impl<'a> PlayerEngines<'a> {
    /// Parses `--algorithm`; the MCTS options are refused unless one of the players `specs`
    /// (preset names, `fast`, `mcts`) or `--algorithm` is MCTS.
    pub fn new(
        algorithm: &str,
        mcts_args: &'a MctsArgs,
        specs: &[&str],
    ) -> Result<PlayerEngines<'a>, CliError> {
        let all_mcts = is_mcts(Some(algorithm));
        let algorithm = if all_mcts {
            Algorithm::NegaScout
        } else {
            algorithm
                .parse()
                .map_err(|e| CliError::Usage(format!("--algorithm: {e}, or {MCTS}")))?
        };
        let any = all_mcts || specs.iter().any(|s| is_mcts(Some(s)));
        mcts_args.refuse_unless(any)?;
        Ok(PlayerEngines {
            algorithm,
            all_mcts,
            mcts_args,
        })
    }

    /// The player an engine `spec` names: [`MCTS`] under `--algorithm mcts`, else `spec`.
    pub fn spec<'s>(&self, spec: &'s str) -> &'s str {
        if self.all_mcts {
            MCTS
        } else {
            spec
        }
    }

    /// The MCTS configuration of the command line, with `threads`.
    pub fn mcts_config(&self, threads: usize) -> Result<MctsConfig, CliError> {
        self.mcts_args.build(threads)
    }

    /// The playouts per move of the command line, if given.
    pub fn mcts_playouts(&self) -> Option<u64> {
        self.mcts_args.playouts
    }

    /// A player's name in reports: its own, with the MCTS options given when it is MCTS.
    pub fn label(&self, spec: &prune_play::AgentSpec, name: String) -> String {
        let given = self.mcts_args.given();
        if spec.is_mcts() && !given.is_empty() {
            format!("{name} ({})", given.join(" "))
        } else {
            name
        }
    }

    /// Gives an MCTS player's `options` the MCTS options of the command line (named in its
    /// name when any is given); other players are left alone. Call it once `options.parallel`
    /// is set.
    pub fn configure(&self, options: &mut PlayerOptions) -> Result<(), CliError> {
        if options.engine != MidgameEngine::Mcts {
            return Ok(());
        }
        options.mcts = self.mcts_args.build(options.parallel.threads)?;
        options.mcts_playouts = self.mcts_args.playouts;
        let given = self.mcts_args.given();
        if !given.is_empty() {
            options.name = format!("{} ({})", options.name, given.join(" "));
        }
        Ok(())
    }
}

/// The configuration's description, for tables and JSON.
pub fn describe(config: &MctsConfig) -> Vec<String> {
    let mut parts = vec![format!("UCB1 C={:.3}", config.exploration)];
    parts.push(match config.playout {
        Playout::Random => "random playouts".into(),
        Playout::Cutoff { plies } => format!("playouts cut off after {plies} plies"),
    });
    parts.push(
        if config.solver {
            "MCTS-Solver"
        } else {
            "no solver"
        }
        .into(),
    );
    if config.transpositions {
        parts.push("transpositions".into());
    }
    if config.threads > 1 {
        parts.push(format!(
            "{} parallel, {} threads",
            config.parallel.name(),
            config.threads
        ));
    }
    parts.push(format!("seed {}", config.seed));
    parts
}

/// Searches `game` with Monte Carlo tree search and prints the result (a table, or JSON).
pub fn search<G: Game, E: Evaluator<G>>(
    game_name: &str,
    game: &G,
    eval: &E,
    config: MctsConfig,
    limits: MctsLimits,
    json: bool,
) -> Result<(), CliError> {
    let mut mcts = Mcts::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
    let start = Instant::now();
    let r = mcts.search(game, eval, &limits, None);
    let time = start.elapsed();
    if json {
        let v = result_json(game_name, &config, &limits, &r, time);
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON of plain data")
        );
    } else {
        print_result(game_name, &config, &r, time);
    }
    Ok(())
}

/// The win rate as text: `0.613`, or the proof.
fn value_text<M>(r: &MctsResult<M>) -> String {
    match r.proof {
        Some(p) => format!("proven {}", p.name()),
        None => format!("{:.3}", r.value),
    }
}

/// A search's result and statistics as JSON.
pub fn result_json<M: std::fmt::Display>(
    game: &str,
    config: &MctsConfig,
    limits: &MctsLimits,
    r: &MctsResult<M>,
    time: Duration,
) -> Value {
    let secs = time.as_secs_f64();
    let root_moves: Vec<Value> = r
        .root_moves
        .iter()
        .map(|m| {
            json!({
                "move": m.mv.to_string(),
                "visits": m.visits,
                "value": m.value,
                "proof": m.proof.map(|p| p.name()),
            })
        })
        .collect();
    json!({
        "game": game,
        "engine": "mcts",
        "algorithm": "mcts",
        "config": {
            "exploration": config.exploration,
            "playout": match config.playout {
                Playout::Random => json!("random"),
                Playout::Cutoff { plies } => json!({ "cutoff_plies": plies }),
            },
            "solver": config.solver,
            "transpositions": config.transpositions,
            "threads": config.threads,
            "parallel": config.parallel.name(),
            "seed": config.seed,
            "max_nodes": config.max_nodes,
        },
        "enhancements": describe(config),
        "limits": {
            "playouts": limits.playouts,
            "time_ms": limits.time.map(|t| t.as_secs_f64() * 1e3),
        },
        "best_move": r.best_move.as_ref().map(ToString::to_string),
        "value": r.value,
        "proof": r.proof.map(|p| p.name()),
        "pv": r.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "stats": {
            "playouts": r.playouts,
            "tree_size": r.tree_size,
            "reused_nodes": r.reused_nodes,
            "max_depth": r.max_depth,
            "proven_nodes": r.proven_nodes,
            "time_ms": secs * 1e3,
            "playouts_per_second": if secs > 0.0 { r.playouts as f64 / secs } else { 0.0 },
        },
        "root_moves": root_moves,
    })
}

/// Prints a search's result as tables.
fn print_result<M: std::fmt::Display>(
    game: &str,
    config: &MctsConfig,
    r: &MctsResult<M>,
    time: Duration,
) {
    println!("Game: {game}");
    println!("Algorithm: mcts ({})", describe(config).join(", "));
    let best = r
        .best_move
        .as_ref()
        .map_or("none".to_string(), ToString::to_string);
    println!("Best move: {best}    value: {}", value_text(r));
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    println!("Most visited line: {}", pv.join(" "));
    let secs = time.as_secs_f64();
    let rate = if secs > 0.0 {
        r.playouts as f64 / secs
    } else {
        0.0
    };
    let rows = [
        ("playouts", thousands(r.playouts)),
        ("tree size", thousands(r.tree_size as u64)),
        ("proven nodes", thousands(r.proven_nodes)),
        ("deepest path", r.max_depth.to_string()),
        ("time", format!("{:.3} s", secs)),
        ("playouts/s", thousands(rate as u64)),
    ];
    println!("{}", crate::report::statistics_table(rows.to_vec()));
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["move", "visits", "value", "proof"]);
    let mut moves: Vec<_> = r.root_moves.iter().collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
    for m in moves {
        table.add_row(vec![
            Cell::new(m.mv.to_string()),
            right(thousands(m.visits)),
            right(format!("{:.3}", m.value)),
            Cell::new(m.proof.map_or("", |p| p.name())),
        ]);
    }
    println!("{table}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_build_the_configuration_and_errors_name_them() {
        let args = MctsArgs {
            playouts: Some(10),
            exploration: Some(0.5),
            playout_cutoff: Some(4),
            transpositions: true,
            no_solver: true,
            mcts_parallel: Some(MctsParallel::Root),
            mcts_seed: Some(9),
            max_nodes: Some(1000),
        };
        let config = args.build(2).unwrap();
        assert_eq!(
            (
                config.exploration,
                config.playout,
                config.solver,
                config.seed
            ),
            (0.5, Playout::Cutoff { plies: 4 }, false, 9)
        );
        assert!(config.transpositions && config.threads == 2 && config.max_nodes == 1000);
        assert_eq!(config.parallel, MctsParallel::Root);
        let err = |args: MctsArgs| match args.build(1) {
            Err(CliError::Usage(msg)) => msg,
            other => panic!("{other:?}"),
        };
        let bad = MctsArgs {
            exploration: Some(-1.0),
            ..MctsArgs::default()
        };
        assert!(err(bad).starts_with("--exploration:"));
        let bad = MctsArgs {
            playouts: Some(0),
            ..MctsArgs::default()
        };
        assert!(err(bad).starts_with("--playouts"));
        let bad = MctsArgs {
            max_nodes: Some(0),
            ..MctsArgs::default()
        };
        assert!(err(bad).starts_with("--max-nodes:"));
        match args.refuse_unless(false) {
            Err(CliError::Usage(msg)) => assert!(msg.starts_with("--playouts 10:"), "{msg}"),
            other => panic!("{other:?}"),
        }
        assert!(args.refuse_unless(true).is_ok());
    }
}
