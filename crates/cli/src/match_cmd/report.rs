//! The report of `prune match`, the same for every game: the JSON document and the table with
//! the totals, the Elo estimate and the forfeits (the margins where the game has them).

use std::time::Duration;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_play::arena::{MatchGame, MatchSummary, Side, SideStats, Tally};
use prune_play::elo::{EloEstimate, Z_95};
use prune_play::{Playable, TimeControl};
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

/// The game's names of its two sides (`black`, `white`; `X`, `O`).
fn sides<G: Playable>() -> [&'static str; 2] {
    prune_registry::info(G::NAME).map_or(["first", "second"], |i| i.sides)
}

fn result_word<G: Playable>(g: &MatchGame<G>) -> &'static str {
    match g.a_margin().signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Everything as one JSON object (the players are filled in by the caller).
pub(super) fn match_json<G: Playable>(
    info: &Info,
    results: &[MatchGame<G>],
    s: &MatchSummary,
) -> Value {
    let elo = s.elo.as_ref();
    let side_names = sides::<G>();
    let games: Vec<Value> = results
        .iter()
        .map(|g| {
            let [first, second] = g.players(info.a_label, info.b_label);
            json!({
                "number": g.number,
                "opening": g.opening_line,
                "a_first": g.a_first,
                "a_side": side_names[usize::from(!g.a_first)],
                "first": first,
                "second": second,
                "moves": g.game.record.line(),
                "first_margin": g.game.first_margin(),
                "a_margin": g.a_margin(),
                "result": result_word(g),
                "ending": g.game.ending.how,
                "forfeit": g.game.forfeit.as_ref().map(|f| json!({
                    "by": if g.forfeited_by() == Some(Side::A) { "a" } else { "b" },
                    "side": side_names[usize::from(!f.first)],
                    "reason": f.reason,
                })),
                "a_time_ms": millis(g.a_stats().time),
                "b_time_ms": millis(g.b_stats().time),
                "record": g.record_text(info.a_label, info.b_label),
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
        "game": G::NAME,
        "sides": side_names,
        "margin_unit": G::MARGIN_UNIT,
        "record_format": G::RECORD_FORMAT,
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
            "as_first": tally_json(&s.as_first),
            "as_second": tally_json(&s.as_second),
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
pub(super) fn print_match<G: Playable>(
    info: &Info,
    algorithms: [&str; 2],
    results: &[MatchGame<G>],
    s: &MatchSummary,
) {
    let [first, second] = sides::<G>();
    let b_what = match info.b_engine {
        Some(command) => format!("{} engine '{command}'", G::PROTOCOL.unwrap_or("external")),
        None => algorithms[1].to_string(),
    };
    println!(
        "{} match: A = {} ({}) vs B = {} ({b_what}), {} game{}, {}",
        G::NAME,
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
        1 => format!("one game, A {first}"),
        n if n % 2 == 1 => {
            format!("each played twice with the sides swapped, the last once with A {first}")
        }
        _ => "each played twice with the sides swapped".to_string(),
    };
    println!(
        "Openings: {} of the {} distinct positions {} pl{} from the start ({order}), \
         {pairing}{}",
        info.pairs.min(info.available),
        info.available,
        info.plies,
        if info.plies == 1 { "y" } else { "ies" },
        if s.openings_repeated {
            "; the set is too small: openings repeat"
        } else {
            ""
        }
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![
        "player".to_string(),
        "wins".into(),
        "draws".into(),
        "losses".into(),
        "score".into(),
    ];
    if G::MARGIN_UNIT.is_some() {
        header.push("mean margin".into());
    }
    header.extend([
        format!("as {first} (W-D-L)"),
        format!("as {second} (W-D-L)"),
        "ms / move".into(),
        "forfeits".into(),
    ]);
    table.set_header(header);
    let n = s.tally.games().max(1) as f64;
    let a_score = (f64::from(s.tally.wins) + f64::from(s.tally.draws) / 2.0) / n;
    let b = reversed(&s.tally);
    for (label, t, score, margin, black, white, stats, forfeits) in [
        (
            format!("A {}", info.a_label),
            s.tally,
            a_score,
            s.margin_mean,
            s.as_first,
            s.as_second,
            &s.a_stats,
            s.a_forfeits,
        ),
        (
            format!("B {}", info.b_label),
            b,
            1.0 - a_score,
            -s.margin_mean,
            reversed(&s.as_second),
            reversed(&s.as_first),
            &s.b_stats,
            s.b_forfeits,
        ),
    ] {
        let mut row = vec![
            Cell::new(label),
            right(t.wins),
            right(t.draws),
            right(t.losses),
            right(format!("{:.1}%", 100.0 * score)),
        ];
        if G::MARGIN_UNIT.is_some() {
            row.push(right(format!("{margin:+.2}")));
        }
        row.extend([
            right(wdl(&black)),
            right(wdl(&white)),
            right(format!("{:.2}", ms_per_move(stats))),
            right(forfeits),
        ]);
        table.add_row(row);
    }
    println!("{table}");
    if let Some(unit) = G::MARGIN_UNIT {
        println!(
            "Margin of A in {unit}: {:+} in total, {:+.2} per game",
            s.margin_total, s.margin_mean
        );
    }
    let mut endings: Vec<(&str, usize)> = Vec::new();
    for g in results.iter().filter(|g| g.game.forfeit.is_none()) {
        let how = g.game.ending.how.as_str();
        if G::MARGIN_UNIT.is_none() {
            match endings.iter_mut().find(|(h, _)| *h == how) {
                Some((_, n)) => *n += 1,
                None => endings.push((how, 1)),
            }
        }
    }
    if !endings.is_empty() {
        let words: Vec<String> = endings.iter().map(|(h, n)| format!("{h} {n}")).collect();
        println!("Endings: {}", words.join(", "));
    }
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
