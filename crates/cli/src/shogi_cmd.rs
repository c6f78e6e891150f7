//! Shogi on the command line: `prune usi` (the USI protocol on stdin and stdout, for shogi
//! GUIs), `prune match --game shogi` (games between two presets of the shogi engine) and
//! `prune play --game shogi` (a game in the terminal, human or engine on each side).

use std::io::{self, BufRead, Write};
use std::sync::mpsc::channel;
use std::sync::Mutex;

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use prune_play::elo::EloEstimate;
use prune_play::openings::pick;
use prune_play::{Clock, TimeControl};
use prune_shogi::engine::{Engine, EngineOptions, Limits};
use prune_shogi::usi::UsiSession;
use prune_shogi::{Color, Ending, GameRecord, Position};
use serde_json::{json, Value};

use crate::cells::right;
use crate::match_cmd::{
    elo_line, progress_bar, score_percent, time_control, totals_json, MatchArgs,
};
use crate::CliError;

/// Options of `prune usi`.
#[derive(Args, Debug)]
pub struct UsiArgs {
    /// The engine's preset until the GUI sets the `Preset` option: full, exhaustive, plain or minimal.
    #[arg(long, value_name = "NAME", default_value = "full")]
    pub preset: String,
}

/// Runs `prune usi`: the GUI's lines from stdin, the answers to stdout (flushed line by line).
/// At the end of the input a bounded search finishes and sends its move first.
pub fn run_usi(args: &UsiArgs) -> Result<(), CliError> {
    if EngineOptions::preset(&args.preset).is_none() {
        return Err(CliError::Usage(format!(
            "--preset: expected one of {}, got '{}'",
            EngineOptions::PRESETS.join(", "),
            args.preset
        )));
    }
    let (tx, rx) = channel::<String>();
    let writer = std::thread::spawn(move || -> io::Result<()> {
        let mut stdout = io::stdout().lock();
        for line in rx {
            writeln!(stdout, "{line}")?;
            stdout.flush()?;
        }
        Ok(())
    });
    let mut session = UsiSession::new(tx);
    session.handle(&format!("setoption name Preset value {}", args.preset));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::Failure(format!("reading stdin: {e}"))),
        }
        // A line that is not UTF-8 is read as well as it can be (and refused as a command).
        if !session.handle(&String::from_utf8_lossy(&buffer)) {
            break;
        }
    }
    session.finish();
    drop(session);
    match writer.join() {
        Ok(Ok(())) => Ok(()),
        // The GUI has gone: nobody is left to answer.
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Ok(Err(e)) => Err(CliError::Failure(format!("writing stdout: {e}"))),
        Err(_) => Err(CliError::Failure("the writer thread failed".into())),
    }
}

/// The openings' plies when `--openings` is not given: the 900 positions after two moves.
const DEFAULT_PLIES: u32 = 2;
/// The most plies of an opening (25,470 sequences of three moves).
const MAX_PLIES: u32 = 3;
/// A game not over after this many plies is a draw (CSA tournaments cap games similarly).
pub const MAX_GAME_PLIES: usize = 256;

/// Every distinct position `plies` moves after the start, as its moves in USI.
fn openings(plies: u32) -> Vec<String> {
    let mut layer = vec![(Position::start(), String::new())];
    for _ in 0..plies {
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for (p, moves) in &layer {
            for m in p.legal_moves() {
                let q = p.play(m);
                if seen.insert(q.key()) {
                    next.push((q, format!("{moves} {m}").trim().to_string()));
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
    a_black: bool,
    moves: Vec<String>,
    ending: Option<Ending>,
    /// +1 A won, 0 a draw, -1 A lost.
    a_result: i32,
}

fn limits(control: TimeControl) -> Limits {
    match control {
        TimeControl::PerMove(t) => Limits {
            hard_time: Some(t),
            soft_time: Some(t / 2),
            ..Limits::default()
        },
        TimeControl::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        TimeControl::Clock { .. } => unreachable!("refused in run_match"),
    }
}

/// Plays one game from `opening`: `black` moves first.
fn play_game(
    black: &mut Engine,
    white: &mut Engine,
    opening: &str,
    limits: Limits,
) -> (GameRecord, Option<Ending>) {
    let mut game = GameRecord::new(Position::start());
    for m in opening.split_whitespace() {
        game.play_usi(m).expect("openings are legal");
    }
    black.clear();
    white.clear();
    loop {
        if let Some(ending) = game.ending() {
            return (game, Some(ending));
        }
        if game.moves().len() >= MAX_GAME_PLIES {
            return (game, None);
        }
        let engine = match game.position().side_to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let history = &game.history()[..game.history().len() - 1];
        let r = engine.search(game.position(), history, limits, &mut |_| {});
        let mv = r.best.expect("a position that is not over has a move");
        game.play(mv).expect("the engine plays legal moves");
    }
}

fn preset(option: &str, name: &str) -> Result<EngineOptions, CliError> {
    EngineOptions::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "{option}: a shogi preset is one of {}, got '{name}'",
            EngineOptions::PRESETS.join(", ")
        ))
    })
}

/// Runs `prune match --game shogi`.
pub fn run_match(args: &MatchArgs) -> Result<(), CliError> {
    let not_here = |option: &str, why: &str| {
        CliError::Usage(format!("{option} is not an option of shogi matches: {why}"))
    };
    let b = match (&args.b, &args.b_engine) {
        (_, Some(_)) => return Err(not_here("--b-engine", "external engines speak NBoard")),
        (Some(b), None) => b,
        (None, None) => {
            return Err(CliError::Usage(
                "player B is missing: give --b PRESET".into(),
            ))
        }
    };
    for (option, value) in [("--a-eval", &args.a_eval), ("--b-eval", &args.b_eval)] {
        if value.trim() != "pattern" {
            return Err(not_here(option, "shogi has one (hand-made) evaluation"));
        }
    }
    if args.ggf.is_some() {
        return Err(not_here("--ggf", "GGF records Othello games"));
    }
    if args.threads != 1 {
        return Err(not_here(
            "--threads",
            "shogi matches run each engine on one thread (its threads: the USI option Threads)",
        ));
    }
    let a_options = preset("--a", &args.a)?;
    let b_options = preset("--b", b)?;
    let plies = args.openings.unwrap_or(DEFAULT_PLIES);
    if plies > MAX_PLIES {
        return Err(CliError::Usage(format!(
            "--openings: at most {MAX_PLIES} plies for shogi"
        )));
    }
    let control = time_control(args)?;
    if let TimeControl::Clock { .. } = control {
        return Err(CliError::Usage(
            "--time: shogi matches take move:MS or depth:N (or --time-per-move, --depth)".into(),
        ));
    }
    let limits = limits(control);
    let games = args.games as usize;
    let all = openings(plies);
    let chosen = pick(&all, games.div_ceil(2), args.seed);
    let bar = progress_bar(games as u64, args.quiet || args.json);
    let jobs = args.jobs.clamp(1, games.div_ceil(2));
    let results: Mutex<Vec<(usize, GameResult)>> = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let (results, chosen, bar) = (&results, &chosen, &bar);
            let (a_options, b_options) = (a_options.clone(), b_options.clone());
            scope.spawn(move || {
                let mut a = Engine::new(a_options);
                let mut b = Engine::new(b_options);
                // Pairs of games (one opening, both colours) are dealt out to the jobs.
                for g in (0..games).filter(|g| (g / 2) % jobs == job) {
                    let opening = &chosen[g / 2];
                    let a_black = g % 2 == 0;
                    let (game, ending) = if a_black {
                        play_game(&mut a, &mut b, opening, limits)
                    } else {
                        play_game(&mut b, &mut a, opening, limits)
                    };
                    let a_color = if a_black { Color::Black } else { Color::White };
                    let a_result = match ending.and_then(Ending::winner) {
                        Some(w) if w == a_color => 1,
                        Some(_) => -1,
                        None => 0,
                    };
                    let result = GameResult {
                        opening: opening.clone(),
                        a_black,
                        moves: game.moves().iter().map(ToString::to_string).collect(),
                        ending,
                        a_result,
                    };
                    results.lock().expect("no panics").push((g, result));
                    if let Some(bar) = bar {
                        bar.inc(1);
                    }
                }
            });
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut results = results.into_inner().expect("no panics");
    results.sort_by_key(|(g, _)| *g);
    let results: Vec<GameResult> = results.into_iter().map(|(_, r)| r).collect();
    let count = |v: i32| results.iter().filter(|r| r.a_result == v).count() as u32;
    let (wins, draws, losses) = (count(1), count(0), count(-1));
    let elo = EloEstimate::from_results(wins, draws, losses);
    let ending_text = |r: &GameResult| match r.ending {
        Some(Ending::Checkmate { .. }) => "checkmate",
        Some(Ending::Repetition) => "repetition",
        Some(Ending::PerpetualCheck { .. }) => "perpetual check",
        None => "move limit",
    };
    if args.json {
        let list: Vec<Value> = results
            .iter()
            .map(|r| {
                json!({
                    "opening": r.opening,
                    "a_black": r.a_black,
                    "moves": r.moves.join(" "),
                    "ending": ending_text(r),
                    "result": match r.a_result { 1 => "win", 0 => "draw", _ => "loss" },
                })
            })
            .collect();
        let value = json!({
            "game": "shogi",
            "a": args.a,
            "b": b,
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
        "shogi match: A {} against B {b}, {control}, {games} games from {} of the {} openings \
         of {plies} moves, colours swapped; a game is drawn after {MAX_GAME_PLIES} plies",
        args.a,
        chosen.len().min(all.len()),
        all.len()
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "mean plies",
    ]);
    for (label, filter) in [
        ("A as black (sente)", Some(true)),
        ("A as white (gote)", Some(false)),
        ("A in all", None),
    ] {
        let of: Vec<&GameResult> = results
            .iter()
            .filter(|r| filter.is_none_or(|black| r.a_black == black))
            .collect();
        let n = of.len();
        let c = |v: i32| of.iter().filter(|r| r.a_result == v).count();
        let score = score_percent(c(1), c(0), n);
        let plies = if n == 0 {
            "-".to_string()
        } else {
            let total: usize = of.iter().map(|r| r.moves.len()).sum();
            format!("{:.0}", total as f64 / n as f64)
        };
        table.add_row(vec![
            Cell::new(label),
            right(n),
            right(c(1)),
            right(c(0)),
            right(c(-1)),
            right(score),
            right(plies),
        ]);
    }
    println!("{table}");
    let endings: Vec<String> = ["checkmate", "repetition", "perpetual check", "move limit"]
        .iter()
        .map(|e| {
            let n = results.iter().filter(|r| ending_text(r) == *e).count();
            format!("{e} {n}")
        })
        .collect();
    println!("Endings: {}", endings.join(", "));
    if let Some(elo) = elo {
        println!("{}", elo_line(&elo));
    }
    Ok(())
}

/// What a human may type in `prune play --game shogi`.
const PLAY_HELP: &str = "type a move in USI (7g7f, 8h2b+, P*5e), `undo` (take back your last \
                         move), `hint` (ask the engine), `moves` (the legal moves), `help` or \
                         `quit`";

/// Who plays a side in `prune play --game shogi`.
enum PlaySide {
    Human,
    Engine { preset: String, engine: Box<Engine> },
}

impl PlaySide {
    fn name(&self) -> String {
        match self {
            PlaySide::Human => "human".into(),
            PlaySide::Engine { preset, .. } => format!("prune ({preset})"),
        }
    }
}

fn play_side(option: &str, spec: &str) -> Result<PlaySide, CliError> {
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("human") {
        return Ok(PlaySide::Human);
    }
    let name = if spec.eq_ignore_ascii_case("engine") {
        "full"
    } else {
        spec
    };
    let options = EngineOptions::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "{option}: expected human, engine or a shogi preset ({}), got '{spec}'",
            EngineOptions::PRESETS.join(", ")
        ))
    })?;
    Ok(PlaySide::Engine {
        preset: name.to_string(),
        engine: Box::new(Engine::new(options)),
    })
}

/// The limits of one engine move from the side's clock.
fn move_limits(clock: &Clock, plies: usize) -> Limits {
    // Shogi games run to about 120 plies; the clock's budget counts moves left as half the
    // "empties" it is given, plus one.
    let left = 160u32.saturating_sub(plies as u32).max(40);
    let budget = clock.budget(left);
    Limits {
        depth: budget.depth,
        hard_time: budget.time,
        soft_time: budget.time.map(|t| t / 2),
        ..Limits::default()
    }
}

/// The board as a shogi player reads it: file 9 on the left, rank a at the top, White's pieces
/// in lower case, promoted ones with `+`; the hands below and above.
pub fn board_text(p: &Position) -> String {
    let hand = |c: Color| {
        let held: Vec<String> = prune_shogi::Kind::HAND
            .iter()
            .rev()
            .filter_map(|&k| {
                let n = p.in_hand(c, k);
                let letter = k.letter();
                (n > 0).then(|| {
                    if n > 1 {
                        format!("{letter}{n}")
                    } else {
                        letter.to_string()
                    }
                })
            })
            .collect();
        if held.is_empty() {
            "-".to_string()
        } else {
            held.join(" ")
        }
    };
    let mut text = format!("white (gote) in hand: {}\n", hand(Color::White));
    text += "   9  8  7  6  5  4  3  2  1\n";
    for rank in 0..9u8 {
        text += "  ";
        for file in (1..=9u8).rev() {
            let square = prune_shogi::Square::new(file, rank).expect("on the board");
            let cell = match p.piece(square) {
                None => " . ".to_string(),
                Some(piece) => {
                    let base = piece.kind.unpromoted();
                    let letter = base.letter();
                    let letter = if piece.color == Color::White {
                        letter.to_ascii_lowercase()
                    } else {
                        letter
                    };
                    let mark = if base == piece.kind { ' ' } else { '+' };
                    format!("{mark}{letter} ")
                }
            };
            text += &cell;
        }
        text.push((b'a' + rank) as char);
        text.push('\n');
    }
    text += &format!("black (sente) in hand: {}\n", hand(Color::Black));
    text
}

/// Runs `prune play --game shogi`.
pub fn run_play(args: &crate::play_cmd::PlayArgs) -> Result<(), CliError> {
    let not_here = |option: &str, why: &str| {
        CliError::Usage(format!("{option} is not an option of shogi: {why}"))
    };
    if args.eval.trim() != "pattern" {
        return Err(not_here(
            "--eval",
            "it names an Othello evaluation; shogi's engine has one hand-made evaluation",
        ));
    }
    if args.selectivity.is_some() {
        return Err(not_here(
            "--selectivity",
            "shogi's engine has no forward pruning",
        ));
    }
    if args.algorithm.trim() != "negascout" {
        return Err(not_here(
            "--algorithm",
            "shogi's playing engine is NegaScout (prune search --game shogi runs the others)",
        ));
    }
    if args.parallel_args.threads.is_some_and(|t| t > 1) || args.parallel_args.parallel.is_some() {
        return Err(not_here(
            "--threads",
            "shogi play runs the engine on one thread (its threads: the USI option Threads)",
        ));
    }
    let control: TimeControl = args
        .time
        .parse()
        .map_err(|e| CliError::Usage(format!("--time: {e}")))?;
    let start: Position = match args.position.as_deref() {
        None => Position::start(),
        Some(text) => text
            .parse()
            .map_err(|e| CliError::Usage(format!("--position: {e}")))?,
    };
    let mut sides = [
        play_side("--black (--x)", &args.black)?,
        play_side("--white (--o)", &args.white)?,
    ];
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_game_in_terminal(
        start,
        &mut sides,
        control,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )
    .map_err(|e| CliError::Failure(format!("terminal: {e}")))
}

fn play_game_in_terminal(
    start: Position,
    sides: &mut [PlaySide; 2],
    control: TimeControl,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<()> {
    let index = |c: Color| match c {
        Color::Black => 0,
        Color::White => 1,
    };
    let mut clocks = [Clock::new(control); 2];
    let mut game = GameRecord::new(start.clone());
    let mut helper: Option<Engine> = None;
    writeln!(
        out,
        "prune play shogi: black (sente) {} against white (gote) {}, {control}",
        sides[0].name(),
        sides[1].name()
    )?;
    if sides.iter().any(|s| matches!(s, PlaySide::Human)) {
        writeln!(out, "{PLAY_HELP}")?;
    }
    let mut stopped = false;
    while game.ending().is_none() {
        let p = game.position().clone();
        writeln!(out)?;
        write!(out, "{}", board_text(&p))?;
        let mut line = vec![format!("sfen {p}")];
        for (name, clock) in [("black", &clocks[0]), ("white", &clocks[1])] {
            if let Some(r) = clock.remaining() {
                line.push(format!("{name} {:.1} s left", r.as_secs_f64()));
            }
        }
        if let Some(m) = game.moves().last() {
            line.push(format!("last move: {m}"));
        }
        writeln!(out, "{}", line.join("   "))?;
        let i = index(p.side_to_move());
        let history = game.history()[..game.history().len() - 1].to_vec();
        let began = std::time::Instant::now();
        match &mut sides[i] {
            PlaySide::Engine { engine, .. } => {
                let limits = move_limits(&clocks[i], game.moves().len());
                let r = engine.search(&p, &history, limits, &mut |_| {});
                clocks[i].spend(began.elapsed());
                let mv = r.best.expect("a game not over has a move");
                writeln!(
                    out,
                    "{} plays {mv}   score {} depth {} nodes {} time {:.2} s",
                    if i == 0 { "black" } else { "white" },
                    prune_shogi::usi::score_text(r.score),
                    r.depth,
                    r.nodes,
                    r.elapsed.as_secs_f64()
                )?;
                game.play(mv).expect("the engine plays legal moves");
            }
            PlaySide::Human => loop {
                write!(out, "{} to move> ", if i == 0 { "black" } else { "white" })?;
                out.flush()?;
                let mut text = String::new();
                if input.read_line(&mut text)? == 0 {
                    writeln!(out)?;
                    writeln!(out, "end of input: the game stops here")?;
                    stopped = true;
                    break;
                }
                let word = text.trim();
                match word.to_ascii_lowercase().as_str() {
                    "" => {}
                    "help" | "?" => writeln!(out, "{PLAY_HELP}")?,
                    "quit" | "q" | "exit" => {
                        stopped = true;
                        break;
                    }
                    "moves" => {
                        let moves: Vec<String> =
                            p.legal_moves().iter().map(ToString::to_string).collect();
                        writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
                    }
                    "hint" => {
                        let engine = match sides.iter_mut().find_map(|s| match s {
                            PlaySide::Engine { engine, .. } => Some(engine.as_mut()),
                            PlaySide::Human => None,
                        }) {
                            Some(e) => e,
                            None => helper.get_or_insert_with(|| {
                                Engine::new(EngineOptions::preset("full").expect("a preset"))
                            }),
                        };
                        let limits = Limits {
                            hard_time: Some(std::time::Duration::from_secs(1)),
                            soft_time: Some(std::time::Duration::from_millis(500)),
                            ..Limits::default()
                        };
                        let r = engine.search(&p, &history, limits, &mut |_| {});
                        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
                        writeln!(
                            out,
                            "hint: {}   score {} depth {} pv {}",
                            r.best.map_or("-".to_string(), |m| m.to_string()),
                            prune_shogi::usi::score_text(r.score),
                            r.depth,
                            pv.join(" ")
                        )?;
                    }
                    "undo" | "u" | "takeback" => {
                        // Back to the last position where a human was to move: sides
                        // alternate, so the side to move after k moves is known without
                        // replaying; the game is replayed once, up to there.
                        let side_after = |k: usize| (index(start.side_to_move()) + k) % 2;
                        let kept = (0..game.moves().len())
                            .rev()
                            .find(|&k| matches!(sides[side_after(k)], PlaySide::Human));
                        if let Some(kept) = kept {
                            let mut replay = GameRecord::new(start.clone());
                            for &m in &game.moves()[..kept] {
                                replay.play(m).expect("moves of the game");
                            }
                            game = replay;
                            break;
                        }
                        writeln!(out, "error: there is no move of yours to take back")?;
                    }
                    _ => match game.play_usi(word) {
                        Ok(_) => {
                            clocks[i].spend(began.elapsed());
                            break;
                        }
                        Err(e) => writeln!(out, "error: {e}; {PLAY_HELP}")?,
                    },
                }
            },
        }
        if stopped {
            break;
        }
    }
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    writeln!(out, "moves: {}", moves.join(" "))?;
    match game.ending() {
        Some(ending) => {
            let how = match ending {
                Ending::Checkmate { .. } => "checkmate",
                Ending::Repetition => "fourfold repetition",
                Ending::PerpetualCheck { .. } => "perpetual check",
            };
            match ending.winner() {
                Some(Color::Black) => writeln!(out, "game over: black (sente) wins by {how}")?,
                Some(Color::White) => writeln!(out, "game over: white (gote) wins by {how}")?,
                None => writeln!(out, "game over: a draw by {how}")?,
            }
        }
        None => writeln!(out, "game stopped after {} moves", game.moves().len())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_openings_are_the_distinct_positions_after_so_many_moves() {
        assert_eq!(openings(0), [""]);
        // 30 first moves; 900 two-move sequences, all distinct positions.
        assert_eq!(openings(1).len(), 30);
        assert_eq!(openings(2).len(), 900);
    }

    #[test]
    fn engines_play_a_game_to_its_end() {
        let mut a = Engine::new(EngineOptions::preset("full").unwrap());
        let mut b = Engine::new(EngineOptions::preset("plain").unwrap());
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let (game, ending) = play_game(&mut a, &mut b, "7g7f 3c3d", limits);
        // Over by the rules, or at the move limit; every move was legal (play checked it).
        match ending {
            Some(e) => assert_eq!(game.ending(), Some(e)),
            None => assert_eq!(game.moves().len(), MAX_GAME_PLIES),
        }
        assert!(game.moves().len() > 2);
    }
}
