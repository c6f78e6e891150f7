//! `prune play`: a game in the terminal, one loop for every game — human against engine
//! (either side), engine against engine, or two humans — with clocks, `undo`, `hint`, `moves`
//! and the result. The game comes from the play layer ([`with_playable`]); its players are the
//! play layer's agents, its board text and endings the game's own ([`Playable`]).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use clap::Args;
use prune_othello::midgame::Selectivity;
use prune_play::playable::result_words;
use prune_play::{with_playable, Agent, AgentSpec, Budget, Clock, GameRecord};
use prune_play::{Playable, PlayableVisitor, Thought, TimeControl};
use prune_registry::RegisteredGame;
use prune_search::{Algorithm, Parallel};

use crate::config_args::ParallelArgs;
use crate::games::GameChoice;
use crate::mcts_args::{MctsArgs, PlayerEngines};
use crate::CliError;

/// Options of `prune play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game: `othello`, `connect4` (columns typed 1-7; its players solve exactly when they
    /// can finish in time), `shogi` (USI moves such as 7g7f, 8h2b+, P*5e; its players are
    /// presets of its own engine: full, exhaustive, plain, minimal) or `tictactoe` (cells
    /// such as b2).
    #[arg(long, short, default_value = "othello")]
    pub game: String,
    /// Who moves first (black; `X` in Connect Four and tic-tac-toe, also `--x`): `human`,
    /// `engine` (the game's strongest: Othello's and shogi's own engines, the `full` preset
    /// elsewhere), `fast` (the game's own engine), `mcts` or a preset of the generic search
    /// (`prune presets` lists them).
    #[arg(long, visible_alias = "x", default_value = "human")]
    pub black: String,
    /// Who moves second (white; `O`, also `--o`): as `--black`.
    #[arg(long, visible_alias = "o", default_value = "engine")]
    pub white: String,
    /// The time control of both sides: SECONDS[+INCREMENT] per game (a clock, such as `300`
    /// or `60+1`), [SECONDS+]byoyomi:MS, `move:MS` (a fixed time per move), `depth:N` (a
    /// fixed search depth) or `nodes:N`.
    #[arg(long, default_value = "60")]
    pub time: String,
    /// The engines' algorithm: one of the alpha-beta family for the presets (minimax,
    /// negamax, alphabeta, alphabeta-hard, scout, negascout, mtdf), or `mcts`: every engine
    /// searches with Monte Carlo tree search (a side can also be named `mcts`).
    #[arg(long, short, default_value = "negascout")]
    pub algorithm: String,
    /// Start from this position, in the game's form (`prune games` shows each: Othello's 64
    /// squares and the side to move, Connect Four's columns played such as `4453`, an SFEN).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// The engines' evaluation by name (`prune games` lists each game's; the first is the
    /// default): Othello's pattern, hand or a weights file written by `prune train`; shogi's
    /// hand or material.
    #[arg(long, value_name = "EVAL")]
    pub eval: Option<String>,
    /// Othello's engines' forward pruning (and the hints'): off, or Multi-ProbCut's margin in
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

/// Runs `prune play`.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let choice = args.game.parse::<GameChoice>()?;
    with_playable(&choice, Play { args }).map_err(|e| CliError::Usage(format!("--game: {e}")))?
}

/// `prune play` on the game the visitor is given.
struct Play<'a> {
    args: &'a PlayArgs,
}

impl PlayableVisitor for Play<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Playable>(self) -> Self::Output {
        run_game::<G>(self.args)
    }
}

/// Who plays a side.
enum Side<G: Playable> {
    Human,
    Engine(Box<dyn Agent<G>>),
}

impl<G: Playable> Side<G> {
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

/// What the engines of the command line are made of.
struct Setup<'a> {
    engines: PlayerEngines<'a>,
    parallel: Parallel,
    eval: Option<&'a str>,
    selectivity: Option<Selectivity>,
}

impl Setup<'_> {
    /// The spec of the engine `name` (`engine`: the game's strongest).
    fn spec<G: Playable>(&self, name: &str) -> Result<AgentSpec, CliError> {
        let name = if name.trim().eq_ignore_ascii_case("engine") {
            G::ENGINE_PRESET
        } else {
            name.trim()
        };
        let mut spec = AgentSpec::new(self.engines.spec(name));
        spec.algorithm = self.engines.algorithm;
        spec.eval = self.eval.map(str::to_string);
        spec.selectivity = self.selectivity;
        spec.parallel = self.parallel;
        if spec.is_mcts() {
            spec.mcts = self.engines.mcts_config(self.parallel.threads)?;
            spec.mcts_playouts = self.engines.mcts_playouts();
        }
        Ok(spec)
    }

    /// The side `name` asks for: a human, or an engine.
    fn side<G: Playable>(&self, option: &str, name: &str) -> Result<Side<G>, CliError> {
        if name.trim().eq_ignore_ascii_case("human") {
            return Ok(Side::Human);
        }
        let spec = self.spec::<G>(name)?;
        G::agent(&spec).map(Side::Engine).map_err(|e| {
            CliError::Usage(format!(
                "{option}: '{name}' is neither human nor a player of {}: {e}",
                G::NAME
            ))
        })
    }
}

/// Runs `prune play` on game `G`.
fn run_game<G: Playable>(args: &PlayArgs) -> Result<(), CliError> {
    let control: TimeControl = args
        .time
        .parse()
        .map_err(|e| CliError::Usage(format!("--time: {e}")))?;
    let engines = PlayerEngines::new(
        &args.algorithm,
        &args.mcts_args,
        &[&args.black, &args.white],
    )?;
    crate::match_cmd::check_eval::<G>("--eval", args.eval.as_deref())?;
    let setup = Setup {
        engines,
        parallel: args.parallel_args.build()?,
        eval: args.eval.as_deref(),
        selectivity: args.selectivity,
    };
    let start = match args.position.as_deref().map(str::trim) {
        None | Some("") => G::start(),
        Some(text) => G::read(text).map_err(|e| CliError::Usage(format!("--position: {e}")))?,
    };
    if start.outcome().is_some() {
        return Err(CliError::Usage("--position: the game is over there".into()));
    }
    let sides = [
        setup.side::<G>("--black (--x)", &args.black)?,
        setup.side::<G>("--white (--o)", &args.white)?,
    ];
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let start_text = match args.position.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => Some(text.to_string()),
        _ => start.text(),
    };
    let mut table = Table {
        start_text,
        game: GameRecord::new(start),
        sides,
        clocks: [Clock::new(control); 2],
        control,
        helper: None,
        setup,
    };
    table
        .play(&mut stdin.lock(), &mut stdout.lock())
        .map_err(|e| CliError::Failure(format!("terminal: {e}")))
}

/// A game in progress with its players and clocks.
struct Table<'a, G: Playable> {
    /// The start's text as given (or as the game writes it), for the final position's text.
    start_text: Option<String>,
    game: GameRecord<G>,
    sides: [Side<G>; 2],
    clocks: [Clock; 2],
    control: TimeControl,
    /// The engine that gives hints in games without one (made on the first `hint`).
    helper: Option<Box<dyn Agent<G>>>,
    setup: Setup<'a>,
}

/// What a human typed.
enum Command<M> {
    Play(M),
    Undo,
    Hint,
    Moves,
    Help,
    Quit,
}

/// The legal moves listed at the prompt when there are at most this many (`moves` lists them
/// all).
const PROMPT_MOVES: usize = 20;

const HELP: &str = "type a move (such as f5 in Othello, 4 in Connect Four, 7g7f or P*5e in \
                    shogi), `undo` (take back your last move), `hint` (ask the engine), \
                    `moves` (the legal moves), `help` or `quit`";

/// The index (0: the first player) of the side to move in `position`.
fn index<G: RegisteredGame>(position: &G) -> usize {
    usize::from(position.side_to_move() != prune_registry::Side::First)
}

impl<G: Playable> Table<'_, G> {
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        let [first, second] = side_names::<G>();
        writeln!(
            out,
            "prune play {}: {first} {} against {second} {}, {}",
            G::NAME,
            self.sides[0].name(),
            self.sides[1].name(),
            self.control
        )?;
        if self.sides.iter().any(Side::is_human) {
            writeln!(out, "{HELP}")?;
        }
        let mut quit = false;
        while !quit && self.ending().is_none() {
            self.draw(out)?;
            let position = self.game.current().clone();
            let moves = position.legal_moves();
            if let [only] = moves[..] {
                if position.is_pass(only) {
                    writeln!(out, "{} has no move and passes", position.side_name())?;
                    self.game.play(only).expect("a forced pass is legal");
                    continue;
                }
            }
            if self.sides[index(&position)].is_human() {
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

    /// How the game has ended, if it has (the move limit included).
    fn ending(&self) -> Option<prune_play::Ending> {
        G::ending(&self.game).or_else(|| {
            G::MAX_PLIES
                .is_some_and(|max| self.game.moves().len() >= max)
                .then(|| prune_play::Ending {
                    first_margin: 0,
                    how: "move limit".into(),
                })
        })
    }

    /// Reads commands until the human moves (false) or quits (true).
    fn human_turn(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        moves: &[G::Move],
    ) -> std::io::Result<bool> {
        let position = self.game.current().clone();
        let began = Instant::now();
        let names: Vec<String> = moves.iter().map(|&m| position.move_name(m)).collect();
        loop {
            if names.len() <= PROMPT_MOVES {
                write!(
                    out,
                    "{} to move [{}]> ",
                    position.side_name(),
                    names.join(" ")
                )?;
            } else {
                write!(out, "{} to move> ", position.side_name())?;
            }
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                writeln!(out, "end of input: the game stops here")?;
                return Ok(true);
            }
            match self.parse_command(&line) {
                Err(msg) => writeln!(out, "error: {msg}; type `help` for the commands")?,
                Ok(None) => {}
                Ok(Some(Command::Help)) => writeln!(out, "{HELP}")?,
                Ok(Some(Command::Quit)) => {
                    writeln!(out)?;
                    return Ok(true);
                }
                Ok(Some(Command::Moves)) => {
                    writeln!(out, "{} legal moves: {}", names.len(), names.join(" "))?
                }
                Ok(Some(Command::Hint)) => self.hint(out)?,
                Ok(Some(Command::Undo)) => {
                    if self.undo() {
                        return Ok(false);
                    }
                    writeln!(out, "error: there is no move of yours to take back")?;
                }
                Ok(Some(Command::Play(mv))) => {
                    self.game.play(mv).expect("parse_command finds legal moves");
                    self.clocks[index(&position)].spend(began.elapsed());
                    return Ok(false);
                }
            }
        }
    }

    /// Reads a line typed at the prompt: `None` for an empty line, a legal move, a command, or
    /// an error naming the move and the legal ones.
    fn parse_command(&self, line: &str) -> Result<Option<Command<G::Move>>, String> {
        let word = line.trim();
        if word.is_empty() {
            return Ok(None);
        }
        Ok(Some(match word.to_ascii_lowercase().as_str() {
            "undo" | "u" | "takeback" => Command::Undo,
            "hint" | "h" => Command::Hint,
            "moves" | "m" => Command::Moves,
            "help" | "?" => Command::Help,
            "quit" | "q" | "exit" => Command::Quit,
            _ => {
                let position = self.game.current();
                match position.find_move(word) {
                    Ok(mv) => Command::Play(mv),
                    Err(_) => {
                        let legal: Vec<String> = position
                            .legal_moves()
                            .iter()
                            .map(|&m| position.move_name(m))
                            .collect();
                        return Err(format!(
                            "move {} ({word}) is not legal for {} (legal: {})",
                            self.game.moves().len() + 1,
                            position.side_name(),
                            legal.join(" ")
                        ));
                    }
                }
            }
        }))
    }

    fn engine_turn(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.game.current().clone();
        let i = index(&position);
        let budget = self.clocks[i].budget(position.plies_left());
        let Side::Engine(engine) = &mut self.sides[i] else {
            unreachable!("engine_turn is called for engine sides")
        };
        let began = Instant::now();
        let answer = engine.choose(&self.game, &budget);
        self.clocks[i].spend(began.elapsed());
        match answer {
            Ok(thought) if self.game.current().is_legal(thought.mv) => {
                writeln!(
                    out,
                    "{} plays {}   {}",
                    position.side_name(),
                    position.move_name(thought.mv),
                    describe(&position, &thought)
                )?;
                self.game.play(thought.mv).expect("checked legal");
                Ok(())
            }
            Ok(thought) => Err(std::io::Error::other(format!(
                "{} answered the illegal move {}",
                engine.name(),
                position.move_name(thought.mv)
            ))),
            Err(e) => Err(std::io::Error::other(format!("{}: {e}", engine.name()))),
        }
    }

    /// Asks an engine (the opponent engine, or the game's strongest) for the side to move's
    /// best move, within the side's share of its clock (at most 2 s) or the fixed depth.
    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.game.current().clone();
        let budget = match self.control {
            TimeControl::Depth(d) => Budget::depth(d),
            TimeControl::Nodes(n) => Budget::nodes(n),
            _ => {
                let t = self.clocks[index(&position)]
                    .budget(position.plies_left())
                    .time
                    .unwrap_or(Duration::from_secs(1));
                Budget::time(t.min(Duration::from_secs(2)))
            }
        };
        let engine = match self.sides.iter_mut().find_map(|s| match s {
            Side::Engine(e) => Some(e),
            Side::Human => None,
        }) {
            Some(e) => e,
            None => {
                if self.helper.is_none() {
                    // The game's strongest, with the command line's algorithm if it can take
                    // it, else NegaScout's.
                    let made = self.setup.spec::<G>(G::ENGINE_PRESET).map_err(|e| match e {
                        CliError::Usage(m) | CliError::Failure(m) => m,
                    });
                    let made = made.and_then(|spec| {
                        G::agent(&spec).or_else(|_| {
                            G::agent(&AgentSpec {
                                algorithm: Algorithm::NegaScout,
                                ..spec
                            })
                        })
                    });
                    match made {
                        Ok(engine) => self.helper = Some(engine),
                        Err(e) => return writeln!(out, "error: no engine for hints: {e}"),
                    }
                }
                self.helper.as_mut().expect("made above")
            }
        };
        match engine.choose(&self.game, &budget) {
            Ok(thought) => writeln!(
                out,
                "hint: {}   {}",
                position.move_name(thought.mv),
                describe(&position, &thought)
            )?,
            Err(e) => writeln!(out, "error: no hint: {e}")?,
        }
        if let Some(values) = position.move_values(self.setup.parallel.threads) {
            let cells: Vec<String> = values
                .iter()
                .map(|&(m, v)| format!("{}:{v:+}", position.move_name(m)))
                .collect();
            writeln!(
                out,
                "exact value of each move for {}: {}",
                position.side_name(),
                cells.join("  ")
            )?;
        }
        Ok(())
    }

    /// Takes back moves up to and including the last human move, so that a human is to move
    /// again; false (and nothing changed) if no human has moved.
    fn undo(&mut self) -> bool {
        let mut trial = self.game.clone();
        while trial.undo() {
            let position = trial.current();
            let moves = position.legal_moves();
            let forced_pass = moves.len() == 1 && position.is_pass(moves[0]);
            if self.sides[index(position)].is_human() && !forced_pass {
                self.game = trial;
                return true;
            }
        }
        false
    }

    fn draw(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.game.current();
        writeln!(out)?;
        write!(out, "{}", position.board_text(self.game.last_move()))?;
        let mut line = Vec::new();
        for (name, clock) in side_names::<G>().iter().zip(&self.clocks) {
            if let Some(r) = clock.remaining() {
                line.push(format!("{name} {:.1} s left", r.as_secs_f64()));
            }
        }
        if let (Some(mv), Some(before)) = (
            self.game.last_move(),
            self.game.positions().iter().rev().nth(1),
        ) {
            line.push(format!("last move: {}", before.move_name(mv)));
        }
        if !line.is_empty() {
            writeln!(out, "{}", line.join("   "))?;
        }
        Ok(())
    }

    fn finish(&self, out: &mut dyn Write, quit: bool) -> std::io::Result<()> {
        writeln!(out, "moves: {}", self.game.line())?;
        // The final position as the game writes it (Connect Four: every column from the
        // empty board).
        let mut text = self.start_text.clone();
        for (position, &mv) in self.game.positions().iter().zip(self.game.moves()) {
            text = text.and_then(|t| position.text_after(&t, mv));
        }
        if let Some(text) = text {
            writeln!(out, "position: {text}")?;
        }
        let names = [self.sides[0].name(), self.sides[1].name()];
        let ending = self.ending();
        match &ending {
            Some(ending) => {
                let record = G::record_text(&self.game, [&names[0], &names[1]], ending);
                writeln!(out, "record ({}):", G::RECORD_FORMAT)?;
                write!(out, "{record}")?;
                writeln!(
                    out,
                    "game over: {} ({})",
                    result_words::<G>(ending),
                    ending.how
                )?;
            }
            None if quit => writeln!(out, "game stopped after {} moves", self.game.moves().len())?,
            None => {}
        }
        for (name, clock) in side_names::<G>().iter().zip(&self.clocks) {
            if clock.overruns() > 0 {
                writeln!(
                    out,
                    "{name} overran the clock on {} move(s)",
                    clock.overruns()
                )?;
            }
        }
        Ok(())
    }
}

/// The game's names of its two sides.
fn side_names<G: Playable>() -> [&'static str; 2] {
    prune_registry::info(G::NAME).map_or(["first", "second"], |i| i.sides)
}

/// One line of what an engine found in `position`.
fn describe<G: Playable>(position: &G, t: &Thought<G::Move>) -> String {
    let value = if t.exact {
        format!("exact {:+}", t.eval.round())
    } else {
        format!("eval {:+.2}", t.eval)
    };
    let depth = if t.exact && t.depth > 0 {
        format!("solved at depth {}", t.depth)
    } else if t.exact {
        "solved".to_string()
    } else if t.depth == 0 {
        "forced".to_string()
    } else {
        format!("depth {}", t.depth)
    };
    let pv = if t.pv.len() > 1 {
        // Named as far as the moves stay legal (a line read from a table may go stale).
        let mut p = position.clone();
        let mut names = Vec::new();
        for &m in &t.pv {
            if !p.is_legal(m) {
                break;
            }
            names.push(p.move_name(m));
            p = p.play(m);
        }
        format!(", pv {}", names.join(" "))
    } else {
        String::new()
    };
    format!(
        "{value}, {depth}, {} nodes, {:.2} s{pv}",
        t.nodes,
        t.time.as_secs_f64()
    )
}
