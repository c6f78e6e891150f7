//! `prune match --game connect4`: games between two engine presets from a set of openings
//! (every distinct position a few moves after the start), each opening played twice with the
//! sides swapped; wins, draws and losses of A and the Elo difference.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use prune_connect4::{Position, CELLS};
use prune_play::elo::EloEstimate;
use prune_play::openings::pick;
use prune_play::Clock;
use prune_search::{Algorithm, Game, Parallel, ParallelKind};
use serde_json::{json, Value};

use super::{othello_only, C4Engine, GAME};
use crate::cells::right;
use crate::match_cmd::{
    elo_line, progress_bar, score_percent, time_control, totals_json, MatchArgs,
};
use crate::CliError;

/// The openings' moves when `--openings` is not given: the 49 positions after two moves.
pub const DEFAULT_PLIES: u32 = 2;

/// The most plies of an opening (the 16,422 positions after 6 moves; no game is over yet).
pub const MAX_PLIES: u32 = 6;

/// Every distinct position `plies` moves after the start, as move strings in order (`11`,
/// `12`, ... for two moves).
pub fn openings(plies: u32) -> Vec<String> {
    let mut layer = vec![(Position::START, String::new())];
    for _ in 0..plies {
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for (p, moves) in &layer {
            for c in p.legal_moves() {
                let q = p.play(c);
                if seen.insert(q.key()) {
                    next.push((q, format!("{moves}{c}")));
                }
            }
        }
        layer = next;
    }
    layer.into_iter().map(|(_, m)| m).collect()
}

/// One game's record.
struct GameResult {
    opening: String,
    /// Whether A moved first (played X).
    a_first: bool,
    /// All the moves, the opening's included.
    moves: String,
    /// +1 A won, 0 a draw, -1 A lost.
    a_result: i32,
}

/// Plays one game from `opening`; `first` moves first.
fn play_game(
    first: &mut C4Engine,
    second: &mut C4Engine,
    opening: &str,
    control: prune_play::TimeControl,
) -> Result<(Position, String), CliError> {
    let mut p: Position = opening
        .parse()
        .map_err(|e| CliError::Failure(format!("opening {opening}: {e}")))?;
    let mut moves = opening.to_string();
    let mut clocks = [Clock::new(control); 2];
    while !(p.is_won() || p.moves_played() == CELLS) {
        let i = usize::from(!p.first_player_to_move());
        let engine = if i == 0 { &mut *first } else { &mut *second };
        let budget = clocks[i].budget(CELLS - p.moves_played());
        let began = std::time::Instant::now();
        let thought = engine.think(&p, &budget);
        clocks[i].spend(began.elapsed());
        p = p.play(thought.mv);
        moves.push_str(&thought.mv.to_string());
    }
    Ok((p, moves))
}

/// Runs `prune match --game connect4`.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let b = match (&args.b, &args.b_engine) {
        (_, Some(_)) => {
            return Err(othello_only(
                "--b-engine",
                "external engines speak NBoard, an Othello protocol",
            ))
        }
        (Some(b), None) => b,
        (None, None) => {
            return Err(CliError::Usage(
                "player B is missing: give --b PRESET".into(),
            ))
        }
    };
    for (option, value) in [("--a-eval", &args.a_eval), ("--b-eval", &args.b_eval)] {
        if value.trim() != "pattern" {
            return Err(othello_only(
                option,
                "it names an Othello evaluation; Connect Four's engines count threats",
            ));
        }
    }
    if args.ggf.is_some() {
        return Err(othello_only("--ggf", "GGF records Othello games"));
    }
    let plies = args.openings.unwrap_or(DEFAULT_PLIES);
    if plies > MAX_PLIES {
        return Err(CliError::Usage(format!(
            "--openings: at most {MAX_PLIES} plies for {GAME}"
        )));
    }
    let control = time_control(args)?;
    let algorithm: Algorithm = args
        .algorithm
        .parse()
        .map_err(|e| CliError::Usage(format!("--algorithm: {e}")))?;
    let parallel = Parallel::new(args.threads, ParallelKind::Ybwc)
        .map_err(|e| CliError::Usage(format!("--threads: {e}")))?;
    let mut a = C4Engine::new("--a", &args.a, algorithm, parallel)?;
    let mut b = C4Engine::new("--b", b, algorithm, parallel)?;
    let games = args.games as usize;
    let all = openings(plies);
    let chosen = pick(&all, games.div_ceil(2), args.seed);

    let bar = progress_bar(games as u64, args.quiet || args.json);
    let mut results = Vec::with_capacity(games);
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    for g in 0..games {
        let opening = &chosen[g / 2];
        let a_first = g % 2 == 0;
        let (end, moves) = if a_first {
            play_game(&mut a, &mut b, opening, control)?
        } else {
            play_game(&mut b, &mut a, opening, control)?
        };
        let a_result = if end.is_won() {
            // The player who made the last move won.
            let first_won = end.moves_played() % 2 == 1;
            if first_won == a_first {
                1
            } else {
                -1
            }
        } else {
            0
        };
        match a_result {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
        if let Some(bar) = &bar {
            bar.set_message(format!("A: +{wins} ={draws} -{losses}"));
            bar.inc(1);
        }
        results.push(GameResult {
            opening: opening.clone(),
            a_first,
            moves,
            a_result,
        });
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let elo = EloEstimate::from_results(wins, draws, losses);
    if args.json {
        let list: Vec<Value> = results
            .iter()
            .map(|r| {
                json!({
                    "opening": r.opening,
                    "a_first": r.a_first,
                    "moves": r.moves,
                    "result": match r.a_result { 1 => "win", 0 => "draw", _ => "loss" },
                })
            })
            .collect();
        let value = json!({
            "game": GAME,
            "a": a.name,
            "b": b.name,
            "algorithm": algorithm.to_string(),
            "control": control.to_string(),
            "opening_plies": plies,
            "openings_available": all.len(),
            "games": list,
            "totals": totals_json(games, wins, draws, losses),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
        return Ok(());
    }
    println!(
        "{GAME} match: A {} against B {} ({algorithm}), {control}, {games} games from {} of \
         the {} openings of {plies} moves, sides swapped",
        a.name,
        b.name,
        chosen.len().min(all.len()),
        all.len()
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["", "games", "wins", "draws", "losses", "score"]);
    let side = |first: bool| {
        let of: Vec<&GameResult> = results.iter().filter(|r| r.a_first == first).collect();
        let count = |v: i32| of.iter().filter(|r| r.a_result == v).count();
        (of.len(), count(1), count(0), count(-1))
    };
    for (label, (n, w, d, l)) in [
        ("A as X (first)", side(true)),
        ("A as O (second)", side(false)),
        (
            "A in all",
            (games, wins as usize, draws as usize, losses as usize),
        ),
    ] {
        let score = score_percent(w, d, n);
        table.add_row(vec![
            comfy_table::Cell::new(label),
            right(n),
            right(w),
            right(d),
            right(l),
            right(score),
        ]);
    }
    println!("{table}");
    if let Some(elo) = elo {
        println!("{}", elo_line(&elo));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_openings_are_the_distinct_positions_after_so_many_moves() {
        assert_eq!(openings(0), [""]);
        let two = openings(2);
        assert_eq!(two.len(), 49);
        assert_eq!((two[0].as_str(), two[48].as_str()), ("11", "77"));
        // 343 move sequences of three moves make 238 positions (OEIS A212693).
        assert_eq!(openings(3).len(), 238);
    }

    #[test]
    fn picking_spreads_or_shuffles() {
        let all = openings(2);
        let spread = pick(&all, 7, None);
        assert_eq!(spread[0], "11");
        assert_eq!(spread[1], all[7]);
        let shuffled = pick(&all, 7, Some(1));
        assert_eq!(shuffled, pick(&all, 7, Some(1)));
        assert_eq!(pick(&all, 50, None).len(), 50);
    }
}
