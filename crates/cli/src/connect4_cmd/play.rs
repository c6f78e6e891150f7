//! `prune play --game connect4`: a game of Connect Four in the terminal, human or engine on
//! each side, with clocks, `undo`, `hint` and `quit`.

use std::io::{BufRead, Write};
use std::time::Instant;

use prune_connect4::{Column, Position, SolveOptions, Solver, CELLS};
use prune_play::{Budget, Clock, TimeControl};
use prune_search::{Algorithm, Game, Parallel};

use super::{othello_only, result_text, C4Engine, GAME};
use crate::play_cmd::PlayArgs;
use crate::positions::parse_position;
use crate::CliError;

/// `hint` solves every column exactly when at most this many moves are left (a fraction of a
/// second); earlier it asks the engine for its choice.
const HINT_EXACT_LEFT: u32 = 24;

const HELP: &str = "type a column 1-7, `undo` (take back your last move), `hint` (ask the \
                    engine), `help` or `quit`";

/// Who plays a side.
enum Side {
    Human,
    Engine(Box<C4Engine>),
}

impl Side {
    fn is_human(&self) -> bool {
        matches!(self, Side::Human)
    }

    fn name(&self) -> String {
        match self {
            Side::Human => "human".into(),
            Side::Engine(e) => format!("prune ({})", e.name),
        }
    }
}

fn side(
    option: &str,
    spec: &str,
    algorithm: Algorithm,
    parallel: Parallel,
) -> Result<Side, CliError> {
    if spec.trim().eq_ignore_ascii_case("human") {
        return Ok(Side::Human);
    }
    C4Engine::new(option, spec, algorithm, parallel)
        .map(|e| Side::Engine(Box::new(e)))
        .map_err(|e| match e {
            CliError::Usage(msg) => CliError::Usage(format!(
                "{msg} ('{spec}' is neither human, engine nor a preset)"
            )),
            e => e,
        })
}

/// Runs `prune play --game connect4`.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    if args.eval.trim() != "pattern" {
        return Err(othello_only(
            "--eval",
            "it names an Othello evaluation; Connect Four's engine counts threats",
        ));
    }
    let control: TimeControl = args
        .time
        .parse()
        .map_err(|e| CliError::Usage(format!("--time: {e}")))?;
    let algorithm: Algorithm = args
        .algorithm
        .parse()
        .map_err(|e| CliError::Usage(format!("--algorithm: {e}")))?;
    let parallel = args.parallel_args.build()?;
    let start = parse_position(args.position.as_deref(), Position::START)?;
    let sides = [
        side("--x (--black)", &args.black, algorithm, parallel)?,
        side("--o (--white)", &args.white, algorithm, parallel)?,
    ];
    let mut table = Table {
        history: vec![start],
        moves: args.position.as_deref().unwrap_or("").trim().to_string(),
        sides,
        clocks: [Clock::new(control); 2],
        control,
        helper: None,
        hint_solver: None,
        algorithm,
        parallel,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    table
        .play(&mut stdin.lock(), &mut stdout.lock())
        .map_err(|e| CliError::Failure(format!("terminal: {e}")))
}

/// A game in progress.
struct Table {
    /// Every position of the game, the start first.
    history: Vec<Position>,
    /// The moves from the empty board (the `--position` and the moves played since).
    moves: String,
    sides: [Side; 2],
    clocks: [Clock; 2],
    control: TimeControl,
    /// The engine that gives hints when no side is an engine (made on the first `hint`).
    helper: Option<Box<C4Engine>>,
    /// The solver of exact hints (made on the first one near the end).
    hint_solver: Option<Solver>,
    algorithm: Algorithm,
    parallel: Parallel,
}

/// What a human typed.
enum Command {
    Play(Column),
    Undo,
    Hint,
    Help,
    Quit,
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
            word.parse::<Column>()
                .map_err(|_| format!("'{word}' is neither a column (1-7) nor a command"))?,
        ),
    }))
}

/// The side (0: X, who moved first; 1: O) to move in `p`.
fn index(p: &Position) -> usize {
    usize::from(!p.first_player_to_move())
}

fn symbol(p: &Position) -> &'static str {
    if p.first_player_to_move() {
        "X"
    } else {
        "O"
    }
}

fn is_over(p: &Position) -> bool {
    p.is_won() || p.moves_played() == CELLS
}

impl Table {
    fn current(&self) -> Position {
        *self.history.last().expect("the start is always there")
    }

    fn push(&mut self, column: Column) {
        let next = self.current().play_column(column);
        self.history.push(next);
        self.moves.push_str(&column.to_string());
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "prune play {GAME}: X {} against O {}, {}",
            self.sides[0].name(),
            self.sides[1].name(),
            self.control
        )?;
        if self.sides.iter().any(Side::is_human) {
            writeln!(out, "{HELP}")?;
        }
        let mut quit = false;
        while !is_over(&self.current()) && !quit {
            self.draw(out)?;
            if self.sides[index(&self.current())].is_human() {
                quit = self.human_turn(input, out)?;
            } else {
                self.engine_turn(out)?;
            }
        }
        if !quit {
            self.draw(out)?;
        }
        let p = self.current();
        writeln!(out, "moves: {}", self.moves)?;
        match result_text(&p) {
            Some(result) => writeln!(out, "game over: {result}")?,
            None => writeln!(out, "game stopped after {} moves", p.moves_played())?,
        }
        Ok(())
    }

    fn draw(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let p = self.current();
        writeln!(out)?;
        writeln!(out, "{p}")?;
        let mut line = Vec::new();
        for (name, clock) in [("X", &self.clocks[0]), ("O", &self.clocks[1])] {
            if let Some(r) = clock.remaining() {
                line.push(format!("{name} {:.1} s left", r.as_secs_f64()));
            }
        }
        if let Some(c) = self.moves.chars().last() {
            line.push(format!("last move: {c}"));
        }
        if line.is_empty() {
            Ok(())
        } else {
            writeln!(out, "{}", line.join("   "))
        }
    }

    /// Reads commands until the human moves (false) or quits (true).
    fn human_turn(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let p = self.current();
        let began = Instant::now();
        loop {
            let legal: Vec<String> = p.legal_moves().iter().map(|c| c.to_string()).collect();
            write!(out, "{} to move [{}]> ", symbol(&p), legal.join(" "))?;
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
                Ok(Some(Command::Quit)) => return Ok(true),
                Ok(Some(Command::Hint)) => self.hint(out)?,
                Ok(Some(Command::Undo)) => {
                    if self.undo() {
                        return Ok(false);
                    }
                    writeln!(out, "error: there is no move of yours to take back")?;
                }
                Ok(Some(Command::Play(column))) => match p.try_play(column) {
                    Ok(_) => {
                        self.clocks[index(&p)].spend(began.elapsed());
                        self.push(column);
                        return Ok(false);
                    }
                    Err(e) => writeln!(
                        out,
                        "error: {e}; the columns with room: {}",
                        legal.join(" ")
                    )?,
                },
            }
        }
    }

    fn engine_turn(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let p = self.current();
        let i = index(&p);
        let budget = self.clocks[i].budget(CELLS - p.moves_played());
        let Side::Engine(engine) = &mut self.sides[i] else {
            unreachable!("engine_turn is called for engine sides")
        };
        let began = Instant::now();
        let thought = engine.think(&p, &budget);
        self.clocks[i].spend(began.elapsed());
        writeln!(
            out,
            "{} plays {}   {}",
            symbol(&p),
            thought.mv,
            thought.describe()
        )?;
        self.push(thought.mv);
        Ok(())
    }

    /// Every column's exact score near the end; earlier, the engine's choice.
    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let p = self.current();
        if CELLS - p.moves_played() <= HINT_EXACT_LEFT {
            if self.hint_solver.is_none() {
                match Solver::new() {
                    Ok(s) => self.hint_solver = Some(s),
                    Err(e) => return writeln!(out, "error: no solver for hints: {e}"),
                }
            }
            let solver = self.hint_solver.as_mut().expect("made above");
            let options = SolveOptions {
                threads: self.parallel.threads.max(1),
                ..SolveOptions::default()
            };
            let scores = solver.analyze(&p, &options);
            let cells: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(c, s)| match s {
                    Some(s) => format!("{}:{s:+}", c + 1),
                    None => format!("{}:full", c + 1),
                })
                .collect();
            let best = scores
                .iter()
                .enumerate()
                .filter_map(|(c, s)| s.map(|s| (s, c)))
                .max_by_key(|&(s, c)| (s, std::cmp::Reverse(c.abs_diff(3))));
            if let Some((score, c)) = best {
                let verdict = match score {
                    0 => "a draw".to_string(),
                    s if s > 0 => format!("a win, score {s:+}"),
                    s => format!("a loss, score {s:+}"),
                };
                writeln!(out, "hint: {} ({verdict})", c + 1)?;
            }
            return writeln!(
                out,
                "exact score of each column for {}: {}",
                symbol(&p),
                cells.join("  ")
            );
        }
        let budget = match self.control {
            TimeControl::Depth(d) => Budget::depth(d),
            _ => Budget::time(std::time::Duration::from_secs(1)),
        };
        let engine = match self.sides.iter_mut().find_map(|s| match s {
            Side::Engine(e) => Some(e.as_mut()),
            Side::Human => None,
        }) {
            Some(e) => e,
            None => {
                if self.helper.is_none() {
                    match C4Engine::new("hint", "full", self.algorithm, self.parallel).or_else(
                        |_| C4Engine::new("hint", "full", Algorithm::NegaScout, self.parallel),
                    ) {
                        Ok(e) => self.helper = Some(Box::new(e)),
                        Err(e) => {
                            let msg = match e {
                                CliError::Usage(m) | CliError::Failure(m) => m,
                            };
                            return writeln!(out, "error: no engine for hints: {msg}");
                        }
                    }
                }
                self.helper.as_deref_mut().expect("made above")
            }
        };
        let thought = engine.think(&p, &budget);
        writeln!(out, "hint: {}   {}", thought.mv, thought.describe())
    }

    /// Takes back moves up to and including the last human move, so that a human is to move
    /// again; false (and nothing changed) if no human has moved.
    fn undo(&mut self) -> bool {
        let mut kept = self.history.len();
        while kept > 1 {
            kept -= 1;
            if self.sides[index(&self.history[kept - 1])].is_human() {
                self.history.truncate(kept);
                // One character per move, from the empty board.
                let played = self.current().moves_played() as usize;
                self.moves.truncate(played);
                return true;
            }
        }
        false
    }
}
