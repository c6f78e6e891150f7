//! A search request of the page (`POST /api/search`): its JSON body, checked against the
//! server's limits and the game's rules, and turned into a plan ([`Prepared`]).

use std::time::Duration;

use prune_othello::midgame::Selectivity;
use prune_search::mcts::{MctsConfig, Playout};
use prune_search::proof::ProofAlgorithm;

/// The nodes of a proof-number search when `limits.nodes` does not say (as on the command
/// line; at most the server's `--max-nodes`).
const PROOF_NODES: u64 = 2_000_000;
use prune_search::{
    Algorithm, FailMode, KillerIndex, Parallel, ParallelKind, ProbCut, SearchConfig, SearchLimits,
};
use serde::Deserialize;

use super::{with_game, Check};
use crate::config_args::ConfigArgs;
use crate::serve::ServerLimits;
use crate::CliError;

/// A search asked for by the page (`POST /api/search`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// A game of the page (the registry's games with a board): `othello`, `connect4`, `shogi`
    /// or `tictactoe`.
    pub game: String,
    /// The position's text form (the start if absent).
    #[serde(default)]
    pub position: Option<String>,
    /// `fast` (the game's own engine: Othello's search, the shogi engine), `generic` or `mcts`.
    #[serde(default)]
    pub engine: Option<String>,
    /// The evaluation by the registry's name (Othello `pattern` or `hand`, shogi `hand` or
    /// `material`).
    #[serde(default)]
    pub eval: Option<String>,
    /// The configuration, by the command line's names.
    #[serde(default)]
    pub config: ApiConfig,
    /// The limits.
    #[serde(default)]
    pub limits: ApiLimits,
    /// Threads (1 by default).
    #[serde(default)]
    pub threads: Option<usize>,
    /// Score every legal move instead of searching the position once.
    #[serde(default)]
    pub analyze: bool,
}

/// The search configuration by the command line's names (`--killers 2` is `"killers": 2`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ApiConfig {
    pub preset: Option<String>,
    pub algorithm: Option<String>,
    pub iterative: Option<bool>,
    pub aspiration: Option<i32>,
    pub tt_mb: Option<usize>,
    pub static_ordering: Option<bool>,
    pub killers: Option<usize>,
    pub killer_index: Option<String>,
    pub staged_killers: Option<bool>,
    pub history: Option<bool>,
    pub refutation: Option<bool>,
    pub shallow_order: Option<u32>,
    pub shallow_depth: Option<u32>,
    pub selectivity: Option<f64>,
    pub playouts: Option<u64>,
    pub exploration: Option<f64>,
    pub playout_cutoff: Option<u32>,
    pub transpositions: Option<bool>,
}

/// The limits of a search.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiLimits {
    /// Plies.
    pub depth: Option<u32>,
    /// Milliseconds.
    pub time_ms: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
}

/// Which search runs.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    Generic(SearchConfig),
    Fast(Selectivity),
    Mcts(MctsConfig, Option<u64>),
    /// A proof-number search (win, draw or loss) within this many nodes.
    Proof(ProofAlgorithm, u64),
}

/// A checked request, ready to run.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub(super) request: SearchRequest,
    pub(super) plan: Plan,
    pub(super) limits: SearchLimits,
    pub(super) parallel: Parallel,
}

fn bad(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// Checks `request` against the server's `max` and the game's rules, and plans it.
pub fn prepare(request: SearchRequest, max: &ServerLimits) -> Result<Prepared, CliError> {
    let game = crate::serve::board::page_game(&request.game)
        .map_err(bad)?
        .info()
        .name
        .to_string();
    // The position must read (the search reads it again on its thread).
    with_game(
        &game,
        request.position.as_deref(),
        request.eval.as_deref(),
        Check,
    )
    .map_err(bad)??;
    let l = request.limits;
    if let Some(d) = l.depth {
        if d == 0 || d > max.max_depth {
            return Err(bad(format!(
                "limits.depth: {d} is not 1 to {} (the server's --max-depth)",
                max.max_depth
            )));
        }
    }
    if let Some(t) = l.time_ms {
        if t == 0 || t > max.max_time_ms {
            return Err(bad(format!(
                "limits.time_ms: {t} is not 1 to {} (the server's --max-time-ms)",
                max.max_time_ms
            )));
        }
    }
    if let Some(n) = l.nodes {
        if n == 0 || n > max.max_nodes {
            return Err(bad(format!(
                "limits.nodes: {n} is not 1 to {} (the server's --max-nodes)",
                max.max_nodes
            )));
        }
    }
    let threads = request.threads.unwrap_or(1);
    if threads == 0 || threads > max.max_threads {
        return Err(bad(format!(
            "threads: {threads} is not 1 to {} (the server's --max-threads)",
            max.max_threads
        )));
    }
    let parallel =
        Parallel::new(threads, ParallelKind::Ybwc).map_err(|e| bad(format!("threads: {e}")))?;
    let c = &request.config;
    let mcts = request
        .engine
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("mcts"))
        || c.algorithm
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case("mcts"));
    let generic_options = [
        c.preset.is_some(),
        c.algorithm.is_some(),
        c.iterative.is_some(),
        c.aspiration.is_some(),
        c.static_ordering.is_some(),
        c.killers.is_some(),
        c.killer_index.is_some(),
        c.staged_killers.is_some(),
        c.history.is_some(),
        c.refutation.is_some(),
        c.shallow_order.is_some(),
        c.shallow_depth.is_some(),
    ]
    .contains(&true);
    let mcts_options = [
        c.playouts.is_some(),
        c.exploration.is_some(),
        c.playout_cutoff.is_some(),
        c.transpositions.is_some(),
    ]
    .contains(&true);
    if mcts_options && !mcts {
        return Err(bad(
            "config: playouts, exploration, playout_cutoff and transpositions are options of \
             engine mcts",
        ));
    }
    let own_engine = prune_registry::info(&game).is_some_and(|g| g.native_engine.is_some());
    let engine = match request.engine.as_deref().map(str::trim) {
        _ if mcts => "mcts",
        Some(e) if e.eq_ignore_ascii_case("fast") => "fast",
        Some(e) if e.eq_ignore_ascii_case("generic") => "generic",
        Some(e) if !e.is_empty() => {
            return Err(bad(format!(
                "engine: unknown engine '{e}' (expected fast, generic or mcts)"
            )))
        }
        _ if own_engine && !generic_options => "fast",
        _ => "generic",
    };
    if engine == "fast" && !own_engine {
        return Err(bad(format!(
            "engine: {game} has no engine of its own (fast: othello and shogi have one); use \
             generic or mcts"
        )));
    }
    let tt = c.tt_mb.unwrap_or(0);
    if tt > max.max_tt_mb {
        return Err(bad(format!(
            "config.tt_mb: {tt} is more than the server's --max-tt-mb {}",
            max.max_tt_mb
        )));
    }
    let plan = match engine {
        "mcts" => {
            // Any generic option but the algorithm (which is `mcts`) is refused.
            let alpha_beta = c.preset.is_some()
                || c.algorithm
                    .as_deref()
                    .is_some_and(|a| !a.trim().eq_ignore_ascii_case("mcts"))
                || (c.iterative.is_some()
                    || c.aspiration.is_some()
                    || c.static_ordering.is_some()
                    || c.killers.is_some()
                    || c.killer_index.is_some()
                    || c.staged_killers.is_some()
                    || c.history.is_some()
                    || c.refutation.is_some()
                    || c.shallow_order.is_some()
                    || c.shallow_depth.is_some());
            if alpha_beta || c.selectivity.is_some() || c.tt_mb.is_some() {
                return Err(bad("config: engine mcts takes playouts, exploration, playout_cutoff and transpositions only"));
            }
            let config = MctsConfig {
                exploration: c.exploration.unwrap_or(MctsConfig::default().exploration),
                playout: c
                    .playout_cutoff
                    .map_or(Playout::Random, |plies| Playout::Cutoff { plies }),
                transpositions: c.transpositions.unwrap_or(false),
                threads,
                max_nodes: max.max_mcts_nodes,
                ..MctsConfig::default()
            };
            config.validate().map_err(|e| bad(format!("config: {e}")))?;
            if c.playouts == Some(0) {
                return Err(bad("config.playouts must be at least 1"));
            }
            Plan::Mcts(config, c.playouts)
        }
        "fast" => {
            if generic_options {
                return Err(bad(
                    "engine fast: preset, algorithm and the switches configure the generic \
                     search; drop engine fast",
                ));
            }
            if c.selectivity.is_some() && game != "othello" {
                return Err(bad("config.selectivity: only othello has a ProbCut fit"));
            }
            Plan::Fast(match c.selectivity {
                Some(t) => Selectivity::Sigma(t),
                None => Selectivity::Off,
            })
        }
        _ => match c.algorithm.as_deref().and_then(ProofAlgorithm::named) {
            Some(proof) => {
                let others = [
                    c.preset.is_some(),
                    c.iterative == Some(true),
                    c.aspiration.is_some(),
                    c.tt_mb.is_some(),
                    c.static_ordering == Some(true),
                    c.killers.is_some(),
                    c.killer_index.is_some(),
                    c.staged_killers == Some(true),
                    c.history == Some(true),
                    c.refutation == Some(true),
                    c.shallow_order.is_some(),
                    c.shallow_depth.is_some(),
                    c.selectivity.is_some(),
                    l.time_ms.is_some(),
                    l.depth.is_some(),
                    threads > 1,
                ]
                .contains(&true);
                if others {
                    return Err(bad(format!(
                        "config.algorithm {proof}: a proof-number search takes no other option \
                         and no depth, time or threads; limits.nodes bounds it"
                    )));
                }
                Plan::Proof(proof, l.nodes.unwrap_or(PROOF_NODES.min(max.max_nodes)))
            }
            None => {
                let limited = l.time_ms.is_some() || l.nodes.is_some();
                let config = generic_config(c, limited, max, &game)?;
                Plan::Generic(config)
            }
        },
    };
    if let Plan::Fast(Selectivity::Sigma(t)) = plan {
        if !(0.1..=10.0).contains(&t) {
            return Err(bad(format!("config.selectivity: {t} is not 0.1 to 10")));
        }
    }
    // Every search is bounded: the server's time and node caps apply to all.
    let limits = SearchLimits {
        depth: l.depth,
        nodes: Some(l.nodes.unwrap_or(max.max_nodes)),
        time: Some(Duration::from_millis(l.time_ms.unwrap_or(max.max_time_ms))),
    };
    Ok(Prepared {
        request: SearchRequest { game, ..request },
        plan,
        limits,
        parallel,
    })
}

/// The generic search's configuration of `c` (iterative deepening also when `limited`),
/// checked against the server's table limit.
pub fn generic_config(
    c: &ApiConfig,
    limited: bool,
    max: &ServerLimits,
    game: &str,
) -> Result<SearchConfig, CliError> {
    let killer_index = match &c.killer_index {
        Some(text) => Some(
            text.parse::<KillerIndex>()
                .map_err(|e| bad(format!("config.killer_index: {e}")))?,
        ),
        None => None,
    };
    let args = ConfigArgs {
        preset: c.preset.clone(),
        algorithm: c.algorithm.clone(),
        iterative: c.iterative.unwrap_or(false),
        aspiration: c.aspiration,
        tt_mb: c.tt_mb,
        static_ordering: c.static_ordering.unwrap_or(false),
        killers: c.killers,
        killer_index,
        staged_killers: c.staged_killers.unwrap_or(false),
        history: c.history.unwrap_or(false),
        refutation: c.refutation.unwrap_or(false),
        shallow_order: c.shallow_order,
        shallow_depth: c.shallow_depth,
    };
    let mut config = args
        .build(Algorithm::AlphaBeta(FailMode::Soft), limited)
        .map_err(|e| match e {
            CliError::Usage(m) | CliError::Failure(m) => bad(format!("config: {m}")),
        })?;
    if config
        .transposition_table
        .is_some_and(|t| t.size_mib > max.max_tt_mb)
    {
        return Err(bad(format!(
            "config: the preset's table is more than the server's --max-tt-mb {}",
            max.max_tt_mb
        )));
    }
    if let Some(t) = c.selectivity {
        if game != "othello" {
            return Err(bad("config.selectivity: only othello has a ProbCut fit"));
        }
        config.probcut = Some(ProbCut {
            margin_tenths: (t * 10.0).round() as u32,
        });
        config
            .validate()
            .map_err(|e| bad(format!("config.selectivity: {e}")))?;
    }
    Ok(config)
}
