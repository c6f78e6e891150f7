//! The engine side of the NBoard protocol, without any I/O: [`NboardSession`] reads one line
//! from the GUI at a time and answers with [`Reply`]s — lines for the GUI (stdout),
//! diagnostics for a human (stderr) and the request to quit. `prune nboard` connects it to
//! stdin and stdout.
//!
//! The protocol (by Chris Welty, for the NBoard GUI and the NTest engine) is line based:
//!
//! | GUI sends | the session |
//! |---|---|
//! | `nboard <version>` | notes the version, answers `set myname <name>` |
//! | `set depth <n>` | searches `n` plies from now on (1 to 60), answers `set myname <name>` |
//! | `set game <GGF>` | replaces the game: later commands concern the position at its end |
//! | `set contempt <x>` | accepted (a number) and ignored |
//! | `move <mv>[/<eval>[/<time>]]` | plays the move (`PA`: pass) on the stored game |
//! | `<mv>` alone | the same (NBoard 1.1 sends bare moves) |
//! | `go` | searches and answers `=== <MOVE>/<eval>/<seconds>` without playing the move |
//! | `hint <n>` | answers `search <pv> <eval> 0 <depth>` for up to `n` moves, best first |
//! | `ping <n>` | answers `pong <n>` (every command is finished before the next is read) |
//! | `learn` | answers `learned` (there is no book to learn into) |
//! | `analyze` | not supported: a diagnostic and an empty `status` |
//! | `quit` | [`Reply::Quit`] |
//!
//! Evaluations are in discs from the side to move's view; exact endgame values report the
//! depth `100%`. `go` and `hint` send `status prune is thinking` before they search, then
//! `nodestats <nodes> <seconds>`, and an empty `status` when done.
//!
//! Bad input never ends the session: an empty line, an unknown command, a malformed or
//! out-of-place one (`move z9`, an illegal move, `set game` with bad GGF, `set depth abc`,
//! `ping` without its number, `go` or `hint` when the game is over) gets a
//! [`Reply::Diagnostic`] naming the line and what is wrong, and changes nothing. Before any
//! `set game` the game is the standard start position, so `go` and `hint` work at once.

use std::time::{Duration, Instant};

use prune_othello::{Move, Position};
use prune_search::{ConfigError, Game};

use crate::ggf::{parse_ggf, parse_move};
use crate::{Budget, EnginePlayer, GameRecord, PlayerOptions};

/// The midgame depth before the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;

/// The deepest `set depth` accepted.
pub const MAX_DEPTH: u32 = 60;

/// The shortest time a move gets in a `hint` that shares a time per move between its moves.
const MIN_HINT_TIME: Duration = Duration::from_millis(10);

/// The longest part of a bad line quoted in a diagnostic.
const QUOTE_CHARS: usize = 60;

/// One thing the session wants done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A line for the GUI (stdout, flushed at once).
    Out(String),
    /// A line for a human reading the engine's error output (stderr): what was wrong with a
    /// line, which was then ignored.
    Diagnostic(String),
    /// The GUI said `quit`: stop reading.
    Quit,
}

/// How the session searches.
#[derive(Clone, Debug, PartialEq)]
pub struct NboardOptions {
    /// The engine player's options (preset, algorithm, threads).
    pub player: PlayerOptions,
    /// The midgame depth until the GUI sends `set depth`.
    pub depth: u32,
    /// When set, `go` takes this long per move whatever the depth (a `hint` of several moves
    /// shares it between them).
    pub time_per_move: Option<Duration>,
}

impl NboardOptions {
    /// `player` at [`DEFAULT_DEPTH`] with no time per move.
    pub fn new(player: PlayerOptions) -> NboardOptions {
        NboardOptions {
            player,
            depth: DEFAULT_DEPTH,
            time_per_move: None,
        }
    }
}

/// One move's evaluation in a `hint`.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    /// The line of play, starting with the move evaluated.
    pv: Vec<Move>,
    /// The value for the side to move at the position evaluated, in discs.
    eval: f64,
    /// Whether `eval` is exact.
    exact: bool,
    /// Plies searched.
    depth: u32,
    /// Positions searched.
    nodes: u64,
}

/// A conversation with an NBoard GUI: the engine, the game and the settings. See the module
/// documentation for the commands.
pub struct NboardSession {
    player: EnginePlayer,
    game: GameRecord,
    depth: u32,
    time_per_move: Option<Duration>,
    version: Option<u32>,
    lines_read: usize,
}

impl NboardSession {
    /// A session that searches with `options`, at the start position.
    pub fn new(options: NboardOptions) -> Result<NboardSession, ConfigError> {
        if !(1..=MAX_DEPTH).contains(&options.depth) {
            return Err(ConfigError::Invalid(format!(
                "the depth must be 1 to {MAX_DEPTH}, not {}",
                options.depth
            )));
        }
        if options.time_per_move.is_some_and(|t| t.is_zero()) {
            return Err(ConfigError::Invalid(
                "the time per move must be positive".into(),
            ));
        }
        Ok(NboardSession {
            player: EnginePlayer::new(options.player)?,
            game: GameRecord::default(),
            depth: options.depth,
            time_per_move: options.time_per_move,
            version: None,
            lines_read: 0,
        })
    }

    /// The game the commands concern.
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// The midgame depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The protocol version of the GUI's `nboard` command, once received.
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// The engine's name for the GUI: `prune-<preset>-d<depth>`, or `prune-<preset>-<ms>ms`
    /// with a time per move.
    pub fn name(&self) -> String {
        // One token: `fast (selectivity 2.0)` reads `fast-selectivity-2.0`.
        let preset: String = self
            .player
            .options()
            .name
            .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        match self.time_per_move {
            Some(t) => format!("prune-{preset}-{}ms", t.as_millis()),
            None => format!("prune-{preset}-d{}", self.depth),
        }
    }

    /// Handles one line from the GUI (its line ending may be included) and returns the replies
    /// in order. A search runs before this returns.
    pub fn handle(&mut self, line: &str) -> Vec<Reply> {
        let mut replies = Vec::new();
        self.handle_with(line, &mut |r| replies.push(r));
        replies
    }

    /// Handles one line from the GUI, giving each reply to `out` as soon as it is known (so
    /// that `status prune is thinking` reaches the GUI before the search starts).
    pub fn handle_with(&mut self, line: &str, out: &mut dyn FnMut(Reply)) {
        self.lines_read += 1;
        let line = line.trim();
        if let Err(message) = self.command(line, out) {
            let mut quoted: String = line.chars().take(QUOTE_CHARS).collect();
            if quoted.len() < line.len() {
                quoted.push_str("...");
            }
            out(Reply::Diagnostic(format!(
                "nboard: line {}: '{quoted}': {message}; ignored",
                self.lines_read
            )));
        }
    }

    /// Runs one trimmed line; an error is the diagnostic's text (and nothing was changed).
    fn command(&mut self, line: &str, out: &mut dyn FnMut(Reply)) -> Result<(), String> {
        let (word, rest) = split_word(line);
        match word.to_ascii_lowercase().as_str() {
            "" => Err("empty line".into()),
            "nboard" => {
                let version = rest
                    .parse::<u32>()
                    .map_err(|_| format!("'{rest}' is not a protocol version (such as 2)"))?;
                self.version = Some(version);
                out(Reply::Out(format!("set myname {}", self.name())));
                Ok(())
            }
            "set" => self.set(rest, out),
            "move" => {
                if rest.is_empty() {
                    return Err("the move is missing (such as 'move F5' or 'move PA')".into());
                }
                let (mv, _) = split_word(rest);
                self.play(mv, out)
            }
            "go" => self.go(out),
            "hint" => {
                let n = if rest.is_empty() {
                    1
                } else {
                    rest.parse::<usize>().map_err(|_| {
                        format!("'{rest}' is not a number of moves (such as 'hint 3')")
                    })?
                };
                if n == 0 {
                    return Err("hint needs at least 1 move to evaluate".into());
                }
                self.hint(n, out)
            }
            "ping" => {
                let n = rest
                    .parse::<i64>()
                    .map_err(|_| format!("'{rest}' is not a ping number (such as 'ping 1')"))?;
                out(Reply::Out(format!("pong {n}")));
                Ok(())
            }
            "learn" => {
                out(Reply::Out("learned".into()));
                Ok(())
            }
            "analyze" => {
                out(Reply::Out("status".into()));
                Err("analyze is not supported (use hint)".into())
            }
            "quit" => {
                out(Reply::Quit);
                Ok(())
            }
            _ if rest.is_empty() && word.len() == 2 && word.parse::<Move>().is_ok() => {
                // NBoard 1.1 sends a bare move.
                self.play(word, out)
            }
            _ => Err(format!("unknown command '{word}'")),
        }
    }

    /// `set depth`, `set game`, `set contempt`.
    fn set(&mut self, rest: &str, out: &mut dyn FnMut(Reply)) -> Result<(), String> {
        let (what, value) = split_word(rest);
        match what.to_ascii_lowercase().as_str() {
            "" => Err("set what? (depth, game or contempt)".into()),
            "depth" => {
                let depth = value
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=MAX_DEPTH).contains(d))
                    .ok_or_else(|| {
                        format!(
                            "'{value}' is not a depth (expected a whole number 1 to {MAX_DEPTH})"
                        )
                    })?;
                self.depth = depth;
                out(Reply::Out(format!("set myname {}", self.name())));
                Ok(())
            }
            "game" => {
                if value.is_empty() {
                    return Err("the game (GGF) is missing".into());
                }
                self.game = parse_ggf(value).map_err(|e| e.to_string())?;
                Ok(())
            }
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => Ok(()),
                _ => Err(format!("'{value}' is not a contempt (a number)")),
            },
            other => Err(format!("unknown setting '{other}'")),
        }
    }

    /// Plays `text` (`F5`, `PA` or `F5/eval/time`) on the stored game.
    fn play(&mut self, text: &str, out: &mut dyn FnMut(Reply)) -> Result<(), String> {
        let mv = parse_move(text).map_err(|e| e.to_string())?;
        let position = *self.game.current();
        if !position.is_legal(mv)
            && position.is_legal(Move::PASS)
            && position.play_unchecked(Move::PASS).is_legal(mv)
        {
            // The GUI left out a forced pass.
            let mut game = self.game.clone();
            if game.play(Move::PASS).is_ok() && game.play(mv).is_ok() {
                self.game = game;
                out(Reply::Diagnostic(format!(
                    "nboard: line {}: '{text}': played the forced pass before it",
                    self.lines_read
                )));
                return Ok(());
            }
        }
        self.game.play(mv).map_err(|e| e.to_string())
    }

    /// Whether there is a move to search for; if not, tells the GUI and says why.
    fn check_not_over(&self, out: &mut dyn FnMut(Reply)) -> Result<Position, String> {
        let position = *self.game.current();
        if position.legal_moves().is_empty() {
            out(Reply::Out("status prune: the game is over".into()));
            let (black, white) = self.game.disc_counts();
            return Err(format!(
                "the game is over (black {black}, white {white}): no move to search"
            ));
        }
        Ok(position)
    }

    /// The budget of one search: the time per move if there is one, else the depth.
    fn budget(&self) -> Budget {
        match self.time_per_move {
            Some(t) => Budget::time(t),
            None => Budget::depth(self.depth),
        }
    }

    /// `go`: the move prune would play, not played.
    fn go(&mut self, out: &mut dyn FnMut(Reply)) -> Result<(), String> {
        let position = self.check_not_over(out)?;
        out(Reply::Out("status prune is thinking".into()));
        let forced = position.legal_moves().len() == 1;
        let thought = self.player.think(&position, &self.budget());
        out(Reply::Out(format!(
            "nodestats {} {:.3}",
            thought.nodes,
            thought.time.as_secs_f64()
        )));
        let mv = move_text(thought.mv, true);
        out(Reply::Out(if forced {
            // A forced move has no search behind it: the protocol lets the eval out.
            format!("=== {mv}")
        } else {
            format!(
                "=== {mv}/{}/{:.3}",
                eval_text(thought.eval),
                thought.time.as_secs_f64()
            )
        }));
        out(Reply::Out("status".into()));
        Ok(())
    }

    /// `hint n`: the best move's line when `n` is 1; else every move searched one ply less
    /// deep (or with an equal share of the time per move) and the best `n` reported.
    fn hint(&mut self, n: usize, out: &mut dyn FnMut(Reply)) -> Result<(), String> {
        let position = self.check_not_over(out)?;
        out(Reply::Out("status prune is thinking".into()));
        let start = Instant::now();
        let moves = position.legal_moves();
        let mut lines = if n == 1 && moves.len() > 1 {
            let t = self.player.think(&position, &self.budget());
            vec![Line {
                pv: t.pv,
                eval: t.eval,
                exact: t.exact,
                depth: t.depth,
                nodes: t.nodes,
            }]
        } else {
            let budget = match self.time_per_move {
                Some(t) => Budget::time((t / moves.len() as u32).max(MIN_HINT_TIME)),
                None => Budget::depth((self.depth - 1).max(1)),
            };
            moves
                .iter()
                .map(|&mv| self.line_after(&position, mv, &budget))
                .collect()
        };
        lines.sort_by(|a, b| b.eval.total_cmp(&a.eval));
        let mut nodes = 0;
        for line in lines.iter().take(n) {
            let depth = if line.exact {
                "100%".to_string()
            } else {
                line.depth.to_string()
            };
            out(Reply::Out(format!(
                "search {} {} 0 {depth}",
                pv_text(&line.pv),
                eval_text(line.eval)
            )));
        }
        for line in &lines {
            nodes += line.nodes;
        }
        out(Reply::Out(format!(
            "nodestats {nodes} {:.3}",
            start.elapsed().as_secs_f64()
        )));
        out(Reply::Out("status".into()));
        Ok(())
    }

    /// The value of `mv` (legal) in `position` for its side to move: the move, then any
    /// forced moves (passes included) after it, then a search within `budget` (or the final
    /// score, if the game ends).
    fn line_after(&mut self, position: &Position, mv: Move, budget: &Budget) -> Line {
        let mut pv = vec![mv];
        let mut p = position.play_unchecked(mv);
        // The sign that turns a value for p's side to move into one for position's.
        let mut sign = -1.0;
        loop {
            let moves = p.legal_moves();
            match moves.len() {
                0 => {
                    return Line {
                        depth: pv.len() as u32,
                        pv,
                        eval: sign * f64::from(p.final_score()),
                        exact: true,
                        nodes: 0,
                    }
                }
                1 if pv.len() < 64 => {
                    pv.push(moves[0]);
                    p = p.play_unchecked(moves[0]);
                    sign = -sign;
                }
                _ => break,
            }
        }
        let plies = pv.len() as u32;
        let t = self.player.think(&p, budget);
        pv.extend(t.pv);
        Line {
            pv,
            eval: sign * t.eval,
            exact: t.exact,
            depth: t.depth + plies,
            nodes: t.nodes,
        }
    }
}

/// The first word of `text` and the rest, both trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    }
}

/// A move as NBoard writes it: `F5` (`upper`) or `f5`, `PA` or `pa`.
fn move_text(mv: Move, upper: bool) -> String {
    let text = mv.to_string();
    if upper {
        text.to_ascii_uppercase()
    } else {
        text.to_ascii_lowercase()
    }
}

/// An evaluation with two decimals, never `-0.00`.
fn eval_text(eval: f64) -> String {
    let rounded = (eval * 100.0).round() / 100.0;
    // Adding 0.0 turns -0.0 into 0.0.
    format!("{:.2}", rounded + 0.0)
}

/// A line of play without spaces, the side to move's moves in capitals: `F5d6C3`.
fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .enumerate()
        .map(|(i, &mv)| move_text(mv, i % 2 == 0))
        .collect()
}

#[cfg(test)]
mod tests;
