//! `prune play`: a game of Othello in the terminal — human against engine (either colour),
//! engine against engine, or two humans — with clocks, `undo`, `hint` and a final score.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use clap::Args;
use prune_othello::midgame::Selectivity;
use prune_othello::{Color, Move, OthelloEval, Position};
use prune_play::record::color_name;
use prune_play::{ggf, MidgameEngine, Thought, FAST};
use prune_play::{Agent, Budget, Clock, EnginePlayer, GameRecord, PlayerOptions, TimeControl};
use prune_search::{Algorithm, Game, Parallel};

use crate::config_args::ParallelArgs;
use crate::eval_arg::parse_eval;
use crate::games::GameChoice;
use crate::mcts_args::{MctsArgs, PlayerEngines};
use crate::positions::parse_position;
use crate::CliError;

/// Options of `prune play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game: `othello`, `connect4` (columns typed 1-7; the engine solves exactly when it
    /// can finish in time, else searches with the threat-counting evaluation) or `shogi` (USI
    /// moves such as 7g7f, 8h2b+, P*5e; the engine is shogi's, its sides human, engine or a
    /// shogi preset: full, exhaustive, plain, minimal).
    #[arg(long, short, default_value = "othello")]
    pub game: String,
    /// Who plays black (who moves first; `X` in Connect Four, also `--x`): `human`, `engine`
    /// (the game's strongest: Othello's fast midgame search, Connect Four's `full` preset),
    /// `fast` (Othello's fast midgame search) or a preset of the generic search (`prune
    /// presets` lists them).
    #[arg(long, visible_alias = "x", default_value = "human")]
    pub black: String,
    /// Who plays white (second; `O` in Connect Four, also `--o`): as `--black`.
    #[arg(long, visible_alias = "o", default_value = "engine")]
    pub white: String,
    /// The time control of both sides: SECONDS[+INCREMENT] per game (a clock, such as `300`
    /// or `60+1`), `move:MS` (a fixed time per move) or `depth:N` (a fixed search depth).
    #[arg(long, default_value = "60")]
    pub time: String,
    /// The engines' algorithm: one of the alpha-beta family for the presets (minimax,
    /// negamax, alphabeta, alphabeta-hard, scout, negascout, mtdf), or `mcts`: every engine
    /// searches with Monte Carlo tree search (a side can also be named `mcts`).
    #[arg(long, short, default_value = "negascout")]
    pub algorithm: String,
    /// Start from this position (64 squares a1..h8 of `X`, `O`, `-` and the side to move;
    /// Connect Four: the columns played, 1-7, such as `4453`) instead of the start position.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// The engines' evaluation: pattern (the built-in trained weights), hand (the hand-made
    /// evaluation) or a weights file written by `prune train`.
    #[arg(long, value_name = "EVAL", default_value = "pattern")]
    pub eval: String,
    /// The engines' forward pruning (and the hints'): off, or Multi-ProbCut's margin in
    /// deviations such as 1.0, 1.5, 2.0 or 2.6 [default: 2.0 for `engine` and `fast`, which
    /// played strongest at 100 ms per move in `prune lab probcut` (docs/lab/probcut); off for
    /// the presets of the generic search].
    #[arg(long, value_name = "LEVEL")]
    pub selectivity: Option<Selectivity>,
    /// Threads and parallel scheme of the engines.
    #[command(flatten)]
    pub parallel_args: ParallelArgs,
    /// Monte Carlo tree search's options (a side named `mcts`, or --algorithm mcts).
    #[command(flatten)]
    pub mcts_args: MctsArgs,
}

/// The engines' forward pruning when `--selectivity` is not given: the level that played
/// strongest at 100 ms per move in `prune lab probcut` (docs/lab/probcut).
pub const DEFAULT_SELECTIVITY: Selectivity = Selectivity::Sigma(2.0);

/// Who plays a side.
enum Side {
    Human,
    Engine(Box<EnginePlayer>),
}

impl Side {
    fn is_human(&self) -> bool {
        matches!(self, Side::Human)
    }

    fn name(&self) -> String {
        match self {
            Side::Human => "human".into(),
            Side::Engine(e) => format!("prune ({})", e.name()),
        }
    }
}

/// The side of `color` (black first).
fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn side(
    spec: &str,
    engines: &PlayerEngines,
    parallel: Parallel,
    eval: &OthelloEval,
    selectivity: Option<Selectivity>,
) -> Result<Side, CliError> {
    if spec.eq_ignore_ascii_case("human") {
        return Ok(Side::Human);
    }
    let spec = if spec.trim().eq_ignore_ascii_case("engine") {
        FAST
    } else {
        spec
    };
    let spec = engines.spec(spec);
    let algorithm = engines.algorithm;
    let mut options = PlayerOptions::preset(spec, algorithm)
        .map_err(|e| CliError::Usage(format!("'{spec}' is neither human nor a preset: {e}")))?;
    // The fast search prunes at 2.0 unless told otherwise; a generic preset only if told.
    let level = match (options.engine, selectivity) {
        (_, Some(s)) => s,
        (MidgameEngine::Fast, None) => DEFAULT_SELECTIVITY,
        (MidgameEngine::Generic | MidgameEngine::Mcts, None) => Selectivity::Off,
    };
    options = options
        .with_selectivity(level)
        .map_err(|e| CliError::Usage(format!("--selectivity: {e}")))?;
    options.parallel = parallel;
    options.eval = eval.clone();
    engines.configure(&mut options)?;
    let engine = EnginePlayer::new(options).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(Side::Engine(Box::new(engine)))
}

/// Runs `prune play`.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    match args.game.parse::<GameChoice>()? {
        GameChoice::Othello => {}
        GameChoice::Connect4 => return crate::connect4_cmd::play::run(args),
        GameChoice::Shogi => return crate::shogi_cmd::run_play(args),
        other => {
            return Err(CliError::Usage(format!(
                "--game {other}: prune play plays othello, connect4 and shogi"
            )))
        }
    }
    let control: TimeControl = args
        .time
        .parse()
        .map_err(|e| CliError::Usage(format!("--time: {e}")))?;
    let engines = PlayerEngines::new(
        &args.algorithm,
        &args.mcts_args,
        &[&args.black, &args.white],
    )?;
    let parallel = args.parallel_args.build()?;
    let eval = parse_eval("--eval", &args.eval)?;
    let start = parse_position(args.position.as_deref(), Position::START)?;
    let sides = [
        side(&args.black, &engines, parallel, &eval, args.selectivity)?,
        side(&args.white, &engines, parallel, &eval, args.selectivity)?,
    ];
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut table = Table {
        game: GameRecord::new(start),
        sides,
        clocks: [Clock::new(control); 2],
        control,
        helper: None,
        parallel,
        selectivity: args.selectivity.unwrap_or(DEFAULT_SELECTIVITY),
    };
    table
        .play(&mut stdin.lock(), &mut stdout.lock())
        .map_err(|e| CliError::Failure(format!("terminal: {e}")))
}

/// A game in progress with its players and clocks.
struct Table {
    game: GameRecord,
    sides: [Side; 2],
    clocks: [Clock; 2],
    control: TimeControl,
    /// The engine that gives hints in games without one (made on the first `hint`).
    helper: Option<EnginePlayer>,
    parallel: Parallel,
    /// The hint engine's forward pruning.
    selectivity: Selectivity,
}

/// What a human typed.
enum Command {
    Play(Move),
    Undo,
    Hint,
    Help,
    Quit,
}

const HELP: &str = "type a move (such as f5), `undo` (take back your last move), `hint` (ask \
                    the engine), `help` or `quit`";

impl Table {
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "prune play: black (X) {} against white (O) {}, {}",
            self.sides[0].name(),
            self.sides[1].name(),
            self.control
        )?;
        if self.sides.iter().any(Side::is_human) {
            writeln!(out, "{HELP}")?;
        }
        let mut quit = false;
        while !self.game.is_over() && !quit {
            self.draw(out)?;
            let position = *self.game.current();
            let color = position.to_move();
            let moves = position.legal_moves();
            if moves == [Move::PASS] {
                writeln!(out, "{} has no move and passes", color_name(color))?;
                self.game.play(Move::PASS).expect("a forced pass is legal");
                continue;
            }
            if self.sides[index(color)].is_human() {
                quit = self.human_turn(input, out, &moves)?;
            } else {
                self.engine_turn(out)?;
            }
        }
        if !quit {
            self.draw(out)?;
        }
        self.finish(out, quit)
    }

    /// Reads commands until the human moves (false) or quits (true).
    fn human_turn(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        moves: &[Move],
    ) -> std::io::Result<bool> {
        let color = self.game.current().to_move();
        let began = Instant::now();
        loop {
            let legal: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            write!(
                out,
                "{} ({}) to move [{}]> ",
                color_name(color),
                color.symbol(),
                legal.join(" ")
            )?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                writeln!(out, "end of input: the game stops here")?;
                return Ok(true);
            }
            match parse_command(&line) {
                Err(msg) => writeln!(out, "error: {msg}; {HELP}")?,
                Ok(None) => {}
                Ok(Some(Command::Help)) => writeln!(out, "{HELP}")?,
                Ok(Some(Command::Quit)) => {
                    writeln!(out)?;
                    return Ok(true);
                }
                Ok(Some(Command::Hint)) => self.hint(out)?,
                Ok(Some(Command::Undo)) => {
                    if self.undo() {
                        return Ok(false);
                    }
                    writeln!(out, "error: there is no move of yours to take back")?;
                }
                Ok(Some(Command::Play(mv))) => match self.game.play(mv) {
                    Ok(()) => {
                        self.clocks[index(color)].spend(began.elapsed());
                        return Ok(false);
                    }
                    Err(e) => writeln!(out, "error: {e}")?,
                },
            }
        }
    }

    fn engine_turn(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let color = self.game.current().to_move();
        let i = index(color);
        let budget = self.clocks[i].budget(self.game.current().empty_count());
        let Side::Engine(engine) = &mut self.sides[i] else {
            unreachable!("engine_turn is called for engine sides")
        };
        let began = Instant::now();
        let thought = engine.think(self.game.current(), &budget);
        self.clocks[i].spend(began.elapsed());
        writeln!(
            out,
            "{} ({}) plays {}   {}",
            color_name(color),
            color.symbol(),
            thought.mv,
            describe(&thought)
        )?;
        self.game
            .play(thought.mv)
            .expect("the engine plays legal moves");
        Ok(())
    }

    /// Asks an engine (the opponent engine, or a `fast` one) for the side to move's best move.
    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = *self.game.current();
        let budget = match self.control {
            TimeControl::Depth(d) => Budget::depth(d),
            _ => {
                let t = self.clocks[index(position.to_move())]
                    .budget(position.empty_count())
                    .time
                    .unwrap_or(Duration::from_secs(1));
                Budget::time(t.min(Duration::from_secs(2)))
            }
        };
        let engine = match self.sides.iter_mut().find_map(|s| match s {
            Side::Engine(e) => Some(e.as_mut()),
            Side::Human => None,
        }) {
            Some(e) => e,
            None => {
                if self.helper.is_none() {
                    // The fast midgame search.
                    let made = PlayerOptions::preset(FAST, Algorithm::NegaScout)
                        .and_then(|options| options.with_selectivity(self.selectivity))
                        .and_then(|mut options| {
                            options.parallel = self.parallel;
                            EnginePlayer::new(options)
                        });
                    match made {
                        Ok(engine) => self.helper = Some(engine),
                        Err(e) => return writeln!(out, "error: no engine for hints: {e}"),
                    }
                }
                self.helper.as_mut().expect("made above")
            }
        };
        let thought = engine.think(&position, &budget);
        writeln!(out, "hint: {}   {}", thought.mv, describe(&thought))
    }

    /// Takes back moves up to and including the last human move, so that a human is to move
    /// again; false (and nothing changed) if no human has moved.
    fn undo(&mut self) -> bool {
        let mut trial = self.game.clone();
        let mut undone_human = false;
        while trial.undo() {
            let mover = trial.current().to_move();
            if self.sides[index(mover)].is_human() && trial.current().legal_moves() != [Move::PASS]
            {
                undone_human = true;
                break;
            }
        }
        if undone_human {
            self.game = trial;
        }
        undone_human
    }

    fn draw(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.game.current();
        let (black, white) = (position.discs(Color::Black), position.discs(Color::White));
        let last = self.game.last_move().and_then(|m| m.square());
        writeln!(out)?;
        writeln!(out, "     a  b  c  d  e  f  g  h")?;
        for row in 0..8 {
            let mut line = format!("  {} ", row + 1);
            for col in 0..8 {
                let i = row * 8 + col;
                let symbol = if black >> i & 1 == 1 {
                    'X'
                } else if white >> i & 1 == 1 {
                    'O'
                } else {
                    '.'
                };
                if last.is_some_and(|s| s.index() as usize == i) {
                    line.push_str(&format!("[{symbol}]"));
                } else {
                    line.push_str(&format!(" {symbol} "));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        let clock = |c: &Clock| match c.remaining() {
            Some(r) => format!(" ({:.1} s left)", r.as_secs_f64()),
            None => String::new(),
        };
        let (b, w) = self.game.disc_counts();
        write!(
            out,
            "  X {b}{}   O {w}{}",
            clock(&self.clocks[0]),
            clock(&self.clocks[1])
        )?;
        match self.game.last_move() {
            Some(mv) => writeln!(out, "   last move: {mv}")?,
            None => writeln!(out)?,
        }
        Ok(())
    }

    fn finish(&self, out: &mut dyn Write, quit: bool) -> std::io::Result<()> {
        let moves: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        writeln!(out, "moves: {}", moves.join(" "))?;
        writeln!(
            out,
            "ggf: {}",
            ggf::to_ggf(&self.game, &self.sides[0].name(), &self.sides[1].name())
        )?;
        let (b, w) = self.game.disc_counts();
        match self.game.black_margin() {
            Some(m) => {
                let verdict = match m {
                    0 => "a draw".to_string(),
                    m if m > 0 => format!("black wins by {m}"),
                    m => format!("white wins by {}", -m),
                };
                writeln!(out, "game over: black {b} - white {w}: {verdict}")?;
            }
            None if quit => writeln!(out, "game stopped: black {b} - white {w}")?,
            None => {}
        }
        for (color, clock) in [
            (Color::Black, &self.clocks[0]),
            (Color::White, &self.clocks[1]),
        ] {
            if clock.overruns() > 0 {
                writeln!(
                    out,
                    "{} overran the clock on {} move(s)",
                    color_name(color),
                    clock.overruns()
                )?;
            }
        }
        Ok(())
    }
}

/// One line of what the engine found.
fn describe(t: &Thought) -> String {
    let value = if t.exact {
        format!("exact {:+}", t.eval as i32)
    } else {
        format!("eval {:+.2}", t.eval)
    };
    let depth = if t.exact {
        format!("solved {} empties", t.depth)
    } else if t.depth == 0 {
        "forced".to_string()
    } else {
        format!("depth {}", t.depth)
    };
    format!(
        "{value}, {depth}, {} nodes, {:.2} s",
        t.nodes,
        t.time.as_secs_f64()
    )
}

/// Reads a line typed at the prompt: `None` for an empty line.
fn parse_command(line: &str) -> Result<Option<Command>, String> {
    let word = line.trim();
    if word.is_empty() {
        return Ok(None);
    }
    Ok(Some(match word.to_ascii_lowercase().as_str() {
        "undo" | "u" | "takeback" => Command::Undo,
        "hint" | "h" => Command::Hint,
        "help" | "?" => Command::Help,
        "quit" | "q" | "exit" => Command::Quit,
        _ => Command::Play(
            word.parse::<Move>()
                .map_err(|e| format!("'{word}' is not a move or a command ({e})"))?,
        ),
    }))
}
