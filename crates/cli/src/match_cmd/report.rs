//! The report of `prune match`: the JSON document and the table with the totals, the Elo
//! estimate and the forfeits.

use std::time::Duration;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_othello::Color;
use prune_play::arena::{MatchGame, MatchSummary, Side, SideStats, Tally};
use prune_play::elo::{EloEstimate, Z_95};
use prune_play::TimeControl;
use serde_json::{json, Value};

use super::MAX_FORFEITS_SHOWN;
use crate::cells::right;

/// What the report says besides the games.
pub(super) struct Info<'a> {
    pub(super) a_label: &'a str,
    pub(super) b_label: &'a str,
    pub(super) control: TimeControl,
    pub(super) plies: u32,
    pub(super) available: usize,
    pub(super) pairs: usize,
    pub(super) seed: Option<u64>,
    pub(super) b_engine: Option<&'a str>,
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ms_per_move(s: &SideStats) -> f64 {
    if s.moves == 0 {
        0.0
    } else {
        millis(s.time) / f64::from(s.moves)
    }
}

fn tally_json(t: &Tally) -> Value {
    json!({"wins": t.wins, "draws": t.draws, "losses": t.losses})
}

fn side_json(s: &SideStats) -> Value {
    json!({
        "moves": s.moves,
        "time_ms": millis(s.time),
        "ms_per_move": ms_per_move(s),
        "nodes": s.nodes,
        "overruns": s.overruns,
    })
}

fn color_word(c: Color) -> &'static str {
    prune_play::record::color_name(c)
}

fn result_word(g: &MatchGame) -> &'static str {
    match g.a_margin().signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Everything as one JSON object (the players are filled in by the caller).
pub(super) fn match_json(info: &Info, results: &[MatchGame], s: &MatchSummary) -> Value {
    let elo = s.elo.as_ref();
    let games: Vec<Value> = results
        .iter()
        .map(|g| {
            let (black, white) = match g.a_color {
                Color::Black => (info.a_label, info.b_label),
                Color::White => (info.b_label, info.a_label),
            };
            let moves: Vec<String> = g
                .game
                .record
                .moves()
                .iter()
                .map(|m| m.to_string())
                .collect();
            json!({
                "number": g.number,
                "opening": g.opening_line,
                "a_color": color_word(g.a_color),
                "black": black,
                "white": white,
                "moves": moves.join(" "),
                "black_margin": g.game.black_margin,
                "a_margin": g.a_margin(),
                "result": result_word(g),
                "forfeit": g.game.forfeit.as_ref().map(|f| json!({
                    "by": if g.forfeited_by() == Some(Side::A) { "a" } else { "b" },
                    "color": color_word(f.color),
                    "reason": f.reason,
                })),
                "a_time_ms": millis(g.a_stats().time),
                "b_time_ms": millis(g.b_stats().time),
                "ggf": g.ggf(info.a_label, info.b_label),
            })
        })
        .collect();
    let lines: Vec<String> = {
        let mut seen = Vec::new();
        for g in results {
            if !seen.contains(&g.opening_line) {
                seen.push(g.opening_line.clone());
            }
        }
        seen
    };
    json!({
        "time_control": info.control.to_string(),
        "games_played": results.len(),
        "openings": {
            "plies": info.plies,
            "available": info.available,
            "pairs": info.pairs,
            "seed": info.seed,
            "repeated": s.openings_repeated,
            "lines": lines,
        },
        "results": {
            "games": s.tally.games(),
            "wins": s.tally.wins,
            "draws": s.tally.draws,
            "losses": s.tally.losses,
            "score": elo.map(|e| e.score),
            "score_error": elo.map(|e| e.score_error),
            "margin_total": s.margin_total,
            "margin_mean": s.margin_mean,
            "elo": elo.and_then(|e| e.elo),
            "elo_low": elo.and_then(|e| e.low),
            "elo_high": elo.and_then(|e| e.high),
            "elo_error": elo.and_then(|e| e.error()),
            "elo_text": elo.map(|e| e.to_string()),
            "as_black": tally_json(&s.as_black),
            "as_white": tally_json(&s.as_white),
            "a_forfeits": s.a_forfeits,
            "b_forfeits": s.b_forfeits,
        },
        "players": {"a": side_json(&s.a_stats), "b": side_json(&s.b_stats)},
        "games": games,
    })
}

/// The line under a match's table: the Elo difference of A over B with its interval, and the
/// score with its error.
pub fn elo_line(elo: &EloEstimate) -> String {
    format!(
        "Elo difference (A - B): {elo}  [score {:.1}% ± {:.1}%]",
        100.0 * elo.score,
        100.0 * Z_95 * elo.score_error
    )
}

/// The totals of a Connect Four or shogi match as JSON, from A's wins, draws and losses.
pub fn totals_json(games: usize, wins: u32, draws: u32, losses: u32) -> Value {
    let elo = EloEstimate::from_results(wins, draws, losses);
    json!({
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": elo.map(|e| e.score),
        "elo": elo.and_then(|e| e.elo),
        "elo_low": elo.and_then(|e| e.low),
        "elo_high": elo.and_then(|e| e.high),
        "elo_text": elo.map(|e| e.to_string()),
    })
}

/// A score (wins and half the draws) as a percentage of `games`, `-` for none.
pub fn score_percent(wins: usize, draws: usize, games: usize) -> String {
    if games == 0 {
        "-".to_string()
    } else {
        format!(
            "{:.1}%",
            100.0 * (wins as f64 + draws as f64 / 2.0) / games as f64
        )
    }
}

fn wdl(t: &Tally) -> String {
    format!("{}-{}-{}", t.wins, t.draws, t.losses)
}

fn reversed(t: &Tally) -> Tally {
    Tally {
        wins: t.losses,
        draws: t.draws,
        losses: t.wins,
    }
}

/// The report as text: a table of both players and the Elo difference.
/// `algorithms` are A's and B's (B's unused for an external engine).
pub(super) fn print_match(
    info: &Info,
    algorithms: [&str; 2],
    results: &[MatchGame],
    s: &MatchSummary,
) {
    let b_what = match info.b_engine {
        Some(command) => format!("NBoard engine '{command}'"),
        None => algorithms[1].to_string(),
    };
    println!(
        "Match: A = {} ({}) vs B = {} ({b_what}), {} game{}, {}",
        info.a_label,
        algorithms[0],
        info.b_label,
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        info.control
    );
    let order = if info.seed.is_some() {
        format!("shuffled by seed {}", info.seed.unwrap_or_default())
    } else {
        "spread over the set".to_string()
    };
    let games = results.len();
    let pairing = match games {
        1 => "one game, A black".to_string(),
        n if n % 2 == 1 => {
            "each played twice with the colours swapped, the last once with A black".to_string()
        }
        _ => "each played twice with the colours swapped".to_string(),
    };
    println!(
        "Openings: {} of the {} distinct positions {} plies from the start ({order}), \
         {pairing}{}",
        info.pairs.min(info.available),
        info.available,
        info.plies,
        if s.openings_repeated {
            "; the set is too small: openings repeat"
        } else {
            ""
        }
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "player",
        "wins",
        "draws",
        "losses",
        "score",
        "mean margin",
        "as black (W-D-L)",
        "as white (W-D-L)",
        "ms / move",
        "forfeits",
    ]);
    let n = s.tally.games().max(1) as f64;
    let a_score = (f64::from(s.tally.wins) + f64::from(s.tally.draws) / 2.0) / n;
    let b = reversed(&s.tally);
    for (label, t, score, margin, black, white, stats, forfeits) in [
        (
            format!("A {}", info.a_label),
            s.tally,
            a_score,
            s.margin_mean,
            s.as_black,
            s.as_white,
            &s.a_stats,
            s.a_forfeits,
        ),
        (
            format!("B {}", info.b_label),
            b,
            1.0 - a_score,
            -s.margin_mean,
            reversed(&s.as_white),
            reversed(&s.as_black),
            &s.b_stats,
            s.b_forfeits,
        ),
    ] {
        table.add_row(vec![
            Cell::new(label),
            right(t.wins),
            right(t.draws),
            right(t.losses),
            right(format!("{:.1}%", 100.0 * score)),
            right(format!("{margin:+.2}")),
            right(wdl(&black)),
            right(wdl(&white)),
            right(format!("{:.2}", ms_per_move(stats))),
            right(forfeits),
        ]);
    }
    println!("{table}");
    println!(
        "Disc margin (A): {:+} in total, {:+.2} per game",
        s.margin_total, s.margin_mean
    );
    if let Some(elo) = &s.elo {
        println!("{}", elo_line(elo));
    }
    let overruns = s.a_stats.overruns + s.b_stats.overruns;
    if overruns > 0 {
        println!(
            "Clock overruns: A {}, B {} (moves that took longer than the time left)",
            s.a_stats.overruns, s.b_stats.overruns
        );
    }
    let forfeits: Vec<_> = results
        .iter()
        .filter_map(|g| Some((g.number, g.game.forfeit.as_ref()?)))
        .collect();
    for (number, f) in forfeits.iter().take(MAX_FORFEITS_SHOWN) {
        println!("Game {number} forfeited by {}", f.reason);
    }
    if forfeits.len() > MAX_FORFEITS_SHOWN {
        println!(
            "... and {} more forfeits (--json lists them all)",
            forfeits.len() - MAX_FORFEITS_SHOWN
        );
    }
}
