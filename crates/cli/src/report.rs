//! Formatting search results: readable tables for people, JSON for scripts.

use std::fmt::Display;

use crate::cells::{count, right, thousands};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_registry::{NativeLimits, NativeResult, RegisteredGame};
use prune_search::{Counters, SearchConfig, SearchLimits, SearchResult};
use serde_json::{json, Value};

/// The counters as a JSON object: every field of [`Counters`], under its own name.
pub fn counters_json(c: &Counters) -> Value {
    serde_json::to_value(c).expect("JSON of plain counters")
}

/// The counters as rows of a statistics table: the node counts, cutoffs and re-searches; the
/// table's counts if it was probed; the move-ordering counts that are not zero (rows of zeros
/// would only be noise for configurations without those enhancements).
pub fn counter_rows(c: &Counters) -> Vec<(&'static str, String)> {
    let first_rate = c
        .first_move_cutoff_rate()
        .map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
    let mut rows = vec![
        ("nodes", thousands(c.nodes)),
        ("interior nodes", thousands(c.interior)),
        ("leaves", thousands(c.leaves)),
        ("beta cutoffs", thousands(c.beta_cutoffs)),
        ("cutoffs on the first move", first_rate),
        ("re-searches", thousands(c.re_searches)),
    ];
    if c.tt_probes > 0 {
        rows.push(("TT probes", thousands(c.tt_probes)));
        rows.push(("TT hits", thousands(c.tt_hits)));
        rows.push(("TT cutoffs", thousands(c.tt_cutoffs)));
    }
    let ordering = [
        ("hash-move cutoffs", c.hash_move_cutoffs),
        ("tactical cutoffs", c.tactical_cutoffs),
        ("killer cutoffs", c.killer_cutoffs),
        ("ordering nodes", c.ordering_nodes),
        ("split points", c.splits),
        ("nodes wasted at split points", c.split_wasted_nodes),
        ("forward-pruning cuts", c.forward_cuts),
        ("selective cuts", c.selective_cuts),
        ("late-move reductions", c.reductions),
    ];
    rows.extend(
        ordering
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(k, n)| (k, thousands(n))),
    );
    rows
}

/// A two-column table of `rows`, values aligned right.
pub fn statistics_table(rows: Vec<(&str, String)>) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["statistic", "value"]);
    for (k, v) in rows {
        table.add_row(vec![Cell::new(k), right(v)]);
    }
    table
}

fn millis(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn line<M: Display>(pv: &[M]) -> Vec<String> {
    pv.iter().map(ToString::to_string).collect()
}

/// Which search ran: the generic library search with its configuration, or a game's own fast
/// search (Othello's midgame search) described in words.
#[derive(Clone, Copy, Debug)]
pub enum SearchEngine<'a> {
    /// The library's search of any game.
    Generic(&'a SearchConfig),
    /// A specialised search: its algorithm and what it uses.
    Fast {
        /// The algorithm, as the generic search names it.
        algorithm: &'a str,
        /// Its enhancements and settings, one phrase each.
        enhancements: &'a [String],
    },
}

impl SearchEngine<'_> {
    /// `generic` or `fast`.
    pub fn name(&self) -> &'static str {
        match self {
            SearchEngine::Generic(_) => "generic",
            SearchEngine::Fast { .. } => "fast",
        }
    }
}

/// The whole result as one JSON object.
pub fn result_json<M: Display>(
    game: &str,
    engine: &SearchEngine,
    limits: &SearchLimits,
    r: &SearchResult<M>,
    score_text: &str,
) -> Value {
    let mut stats = counters_json(&r.stats.total);
    stats["time_ms"] = json!(millis(r.stats.time));
    stats["nodes_per_second"] = json!(r.stats.nodes_per_second());
    let per_depth: Vec<Value> = r
        .stats
        .per_depth
        .iter()
        .map(|row| {
            let mut v = counters_json(&row.counters);
            v["depth"] = json!(row.depth);
            v["time_ms"] = json!(millis(row.time));
            v
        })
        .collect();
    let iterations: Vec<Value> = r
        .iterations
        .iter()
        .map(|it| {
            json!({
                "depth": it.depth,
                "score": it.score,
                "best_move": it.best_move.as_ref().map(ToString::to_string),
                "pv": line(&it.pv),
            })
        })
        .collect();
    let (algorithm, config, enhancements) = match engine {
        SearchEngine::Generic(config) => (
            config.algorithm.name(),
            json!(config),
            config.enhancements(),
        ),
        SearchEngine::Fast {
            algorithm,
            enhancements,
        } => (*algorithm, Value::Null, enhancements.to_vec()),
    };
    json!({
        "game": game,
        "engine": engine.name(),
        "algorithm": algorithm,
        "config": config,
        "enhancements": enhancements,
        "limits": {
            "depth": limits.depth,
            "nodes": limits.nodes,
            "time_ms": limits.time.map(millis),
        },
        "score": r.score,
        "score_text": score_text,
        "best_move": r.best_move.as_ref().map(ToString::to_string),
        "pv": line(&r.pv),
        "depth": r.depth,
        "exhausted": r.exhausted,
        "interrupted": r.interrupted,
        "stats": stats,
        "per_depth": per_depth,
        "iterations": iterations,
    })
}

/// The algorithm and its enhancements in a line: `negascout: iterative, tt 64 MiB`.
pub fn describe(config: &SearchConfig) -> String {
    let enhancements = config.enhancements();
    if enhancements.is_empty() {
        format!("{} (no enhancements)", config.algorithm.name())
    } else {
        format!("{}: {}", config.algorithm.name(), enhancements.join(", "))
    }
}

/// Prints the result as tables.
pub fn print_result<M: Display>(
    game: &str,
    engine: &SearchEngine,
    limits: &SearchLimits,
    r: &SearchResult<M>,
    score_text: &str,
) {
    let search = match engine {
        SearchEngine::Generic(config) => describe(config),
        SearchEngine::Fast {
            algorithm,
            enhancements,
        } => format!(
            "fast {game} search, {algorithm}: {}",
            enhancements.join(", ")
        ),
    };
    let mut summary = Table::new();
    summary.load_preset(UTF8_FULL_CONDENSED);
    let limit = [
        limits.depth.map(|d| format!("depth {d}")),
        limits.nodes.map(|n| format!("{n} nodes")),
        limits.time.map(|t| format!("{} ms", t.as_millis())),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let status = if r.exhausted {
        "game tree exhausted (exact)"
    } else if r.interrupted {
        "interrupted by a limit"
    } else {
        "complete"
    };
    let best = r
        .best_move
        .as_ref()
        .map_or_else(|| "none (game over)".to_string(), ToString::to_string);
    for (k, v) in [
        ("game", game.to_string()),
        ("search", search),
        ("limit", limit),
        ("score", score_text.to_string()),
        ("best move", best),
        ("principal variation", line(&r.pv).join(" ")),
        ("depth reached", r.depth.to_string()),
        ("status", status.to_string()),
    ] {
        summary.add_row(vec![Cell::new(k), Cell::new(v)]);
    }
    println!("{summary}");

    let nps = r
        .stats
        .nodes_per_second()
        .map_or("-".to_string(), |x| format!("{x:.0}"));
    let mut rows = counter_rows(&r.stats.total);
    rows.push(("time (ms)", format!("{:.2}", millis(r.stats.time))));
    rows.push(("nodes per second", nps));
    println!("{}", statistics_table(rows));

    if r.stats.per_depth.len() > 1 {
        let mut depths = Table::new();
        depths.load_preset(UTF8_FULL_CONDENSED);
        depths.set_header(vec![
            "depth",
            "score",
            "best",
            "nodes",
            "leaves",
            "cutoffs",
            "re-searches",
            "ms",
        ]);
        for row in &r.stats.per_depth {
            let it = r.iterations.iter().find(|it| it.depth == row.depth);
            let (score, best) = it.map_or(("(interrupted)".to_string(), String::new()), |it| {
                (
                    it.score.to_string(),
                    it.best_move
                        .as_ref()
                        .map_or(String::new(), ToString::to_string),
                )
            });
            depths.add_row(vec![
                right(row.depth),
                right(score),
                Cell::new(best),
                count(row.counters.nodes),
                count(row.counters.leaves),
                count(row.counters.beta_cutoffs),
                count(row.counters.re_searches),
                right(format!("{:.2}", millis(row.time))),
            ]);
        }
        println!("{depths}");
    }
}

/// Nodes per second over `elapsed` (0 for no time).
pub fn per_second(nodes: u64, elapsed: std::time::Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        nodes as f64 / secs
    } else {
        0.0
    }
}

/// A search by a game's own engine ([`RegisteredGame::native_search`]) as JSON, in the shape
/// of [`result_json`]'s: the limits it had, whether a limit or `stopped` cut it short
/// (`elapsed` is its whole time), the statistics.
pub fn native_json<G: RegisteredGame>(
    game: &G,
    limits: &NativeLimits,
    r: &NativeResult<G::Move>,
    elapsed: std::time::Duration,
    stopped: bool,
) -> Value {
    let name = |m: &G::Move| game.move_name(*m);
    json!({
        "game": G::NAME,
        "engine": "fast",
        "algorithm": r.engine,
        "limits": {
            "depth": limits.depth,
            "nodes": limits.nodes,
            "time_ms": limits.time.map(millis),
        },
        "score": r.last.score,
        "score_text": r.last.score_text,
        "best_move": r.best.as_ref().map(name),
        "pv": r.last.pv.iter().map(name).collect::<Vec<_>>(),
        "depth": r.last.depth,
        "exhausted": r.exact,
        "interrupted": stopped
            || limits.time.is_some_and(|t| elapsed >= t)
            || limits.nodes.is_some_and(|n| r.last.nodes >= n),
        "stats": {
            "nodes": r.last.nodes,
            "time_ms": millis(elapsed),
            "nodes_per_second": per_second(r.last.nodes, elapsed),
        },
    })
}
