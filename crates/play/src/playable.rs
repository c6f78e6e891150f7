//! [`Playable`]: what the play layer needs of a game beyond the registry's
//! [`RegisteredGame`], written once per game: its start and openings, how a game of it ends
//! (shogi's repetition rules read the whole game), how long a game runs (for the clock), its
//! record format and its players. With it, one arena ([`crate::arena`]) plays matches of every
//! game and [`with_playable`] hands a door the typed game.
//!
//! Adding a game to the play layer: a `Playable` impl here and its arm in [`with_playable`].

use prune_connect4::Position as C4;
use prune_games::TicTacToe;
use prune_othello::Position as Othello;
use prune_registry::{GameChoice, RegisteredGame, Side};
use prune_search::Score;
use prune_shogi::Position as Shogi;

use crate::agents::{generic_agent, AgentSpec};
use crate::connect4::Connect4Player;
use crate::external::{ExternalEngine, ExternalOptions, StartWait};
use crate::ggf::to_ggf;
use crate::shogi::ShogiPlayer;
use crate::{Agent, AgentError, EnginePlayer, GameRecord, PlayerOptions};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result from the first player's side: the final margin in the game's unit where it
    /// has one ([`Playable::MARGIN_UNIT`]: Othello's discs), else 1 for a win, 0 for a draw
    /// and -1 for a loss.
    pub first_margin: i32,
    /// How, in words (`black wins 40-24`, `checkmate`, `repetition`, `move limit`).
    pub how: String,
}

/// A game the play layer can play: matches, the terminal, engines against each other.
pub trait Playable: RegisteredGame {
    /// The openings' plies when a match does not say.
    const DEFAULT_OPENING_PLIES: u32;
    /// The most plies of an opening.
    const MAX_OPENING_PLIES: u32;
    /// A game not over after this many plies is a draw (`None`: every game ends by itself).
    const MAX_PLIES: Option<usize> = None;
    /// What a margin counts, where results have margins (Othello: discs).
    const MARGIN_UNIT: Option<&'static str> = None;
    /// The margin of a game won by forfeit.
    const FORFEIT_MARGIN: i32 = 1;
    /// The name of [`Playable::record_text`]'s format.
    const RECORD_FORMAT: &'static str = "PGN-like move list";
    /// The player a door means by `engine`: the game's strongest.
    const ENGINE_PRESET: &'static str = "full";
    /// The protocol of external engines ([`Playable::external`]), if the game has one.
    const PROTOCOL: Option<&'static str> = None;

    /// The start of a game.
    fn start() -> Self;

    /// About how many plies are left in the game (what the clock shares its time over).
    fn plies_left(&self) -> u32;

    /// Every distinct position `plies` plies after the start (the game not over), each as the
    /// moves that reach it, in the order of generation.
    fn openings(plies: u32) -> Vec<GameRecord<Self>> {
        distinct_openings(Self::start(), plies)
    }

    /// How `game` has ended, if it has (by default: its position's outcome; a game without
    /// a draw-free end says "a line" for a win and "the board is full" for a draw, as
    /// tic-tac-toe and Connect Four end).
    fn ending(game: &GameRecord<Self>) -> Option<Ending> {
        let current = game.current();
        let score = current.outcome()?;
        let margin = match Self::MARGIN_UNIT {
            Some(_) => score.margin().unwrap_or(0),
            None => sign(score),
        };
        Some(Ending {
            first_margin: from_first(current.side_to_move(), margin),
            how: if margin == 0 {
                "the board is full"
            } else {
                "a line"
            }
            .into(),
        })
    }

    /// The position as text for the terminal, `last` the move that reached it: by default
    /// the board view's cells (`X`, `O`, labels) under the files' names.
    fn board_text(&self, last: Option<Self::Move>) -> String {
        let _ = last;
        let Some(view) = self.board() else {
            return String::new();
        };
        let mut text = String::from("   ");
        for file in &view.files {
            text.push_str(&format!("{file:^3}"));
        }
        text.push('\n');
        for (row, rank) in view.cells.iter().zip(&view.ranks) {
            text.push_str(&format!("{rank:>2} "));
            for cell in row {
                let mark = match cell {
                    None => ".".to_string(),
                    Some(stone) => stone
                        .label
                        .clone()
                        .unwrap_or_else(|| stone.owner.letter().to_string()),
                };
                text.push_str(&format!("{mark:^3}"));
            }
            text.push('\n');
        }
        text
    }

    /// The game as a record for other software: the players are the first and second sides'
    /// names. By default a PGN-like text: tags, then the moves by name.
    fn record_text(game: &GameRecord<Self>, players: [&str; 2], ending: &Ending) -> String {
        let info = prune_registry::info(Self::NAME).expect("every game is in the catalogue");
        let result = match ending.first_margin.signum() {
            1 => "1-0",
            0 => "1/2-1/2",
            _ => "0-1",
        };
        let mut text = format!("[Game \"{}\"]\n", Self::NAME);
        for (side, player) in info.sides.iter().zip(players) {
            text.push_str(&format!("[{} \"{}\"]\n", capitalised(side), tag(player)));
        }
        let standard = game.start().hash() == Self::start().hash();
        if let Some(start) = game.start().text().filter(|t| !t.is_empty() && !standard) {
            text.push_str(&format!("[Start \"{}\"]\n", tag(&start)));
        }
        text.push_str(&format!("[Result \"{result}\"]\n"));
        text.push_str(&format!("[Ending \"{}\"]\n", tag(&ending.how)));
        text.push_str(&game.line());
        text.push_str(&format!(" {result}\n"));
        text
    }

    /// The player `spec` names (the game's own engine, MCTS or a preset), or why not.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, String>;

    /// Every legal move's exact value for the side to move, in the game's own unit, where the
    /// game solves this position in a moment (a hint shows them); `None` elsewhere.
    fn move_values(&self, threads: usize) -> Option<Vec<(Self::Move, i32)>> {
        let _ = threads;
        None
    }

    /// The algorithm of `spec`'s player, by name (for reports).
    fn algorithm(spec: &AgentSpec) -> String {
        if spec.is_mcts() {
            crate::MCTS.into()
        } else {
            spec.algorithm.name().into()
        }
    }

    /// An external engine started by `command` as a player, `report` told while it starts
    /// (Othello: an NBoard engine; shogi: a USI engine); `Err` if it does not start or the
    /// game has no protocol here.
    fn external(
        command: &str,
        options: ExternalOptions,
        report: Box<dyn FnMut(StartWait<'_>) + Send>,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        let _ = (command, options, report);
        Err(AgentError(format!(
            "external engines speak NBoard (Othello) or USI (shogi); {} has no protocol here",
            Self::NAME
        )))
    }
}

/// The result of `ending` in words: `black wins by 12` (the margin where the game has one),
/// `X wins`, `a draw`.
pub fn result_words<G: Playable>(ending: &Ending) -> String {
    let sides = prune_registry::info(G::NAME).map_or(["first", "second"], |i| i.sides);
    let m = ending.first_margin;
    let winner = match m.signum() {
        0 => return "a draw".into(),
        1 => sides[0],
        _ => sides[1],
    };
    match G::MARGIN_UNIT {
        Some(_) => format!("{winner} wins by {}", m.abs()),
        None => format!("{winner} wins"),
    }
}

/// `+1` for a won score, `0` for a draw, `-1` for a lost one.
fn sign(score: Score) -> i32 {
    match score.cmp(&Score::DRAW) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => -1,
    }
}

/// A margin of the side to move `side`, from the first player's side.
fn from_first(side: Side, margin: i32) -> i32 {
    match side {
        Side::First => margin,
        Side::Second => -margin,
    }
}

/// A word with its first letter in capitals (`Black`, `X`).
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A tag's value with its quotes and backslashes escaped.
fn tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Every distinct position (by hash) `plies` plies after `start`, the game not over.
pub fn distinct_openings<G: RegisteredGame>(start: G, plies: u32) -> Vec<GameRecord<G>> {
    let mut layer = vec![GameRecord::new(start)];
    for _ in 0..plies {
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for line in &layer {
            for mv in line.current().legal_moves() {
                let after = line.current().play(mv);
                if after.outcome().is_some() || !seen.insert(after.hash()) {
                    continue;
                }
                let mut longer = line.clone();
                longer.play(mv).expect("a legal move");
                next.push(longer);
            }
        }
        layer = next;
    }
    layer
}

impl Playable for Othello {
    const DEFAULT_OPENING_PLIES: u32 = crate::openings::DEFAULT_PLIES;
    const MAX_OPENING_PLIES: u32 = crate::openings::MAX_PLIES;
    const MARGIN_UNIT: Option<&'static str> = Some("discs");
    const FORFEIT_MARGIN: i32 = 64;
    const RECORD_FORMAT: &'static str = "GGF";
    const ENGINE_PRESET: &'static str = crate::FAST;
    const PROTOCOL: Option<&'static str> = Some("NBoard");

    fn start() -> Self {
        Othello::START
    }

    fn plies_left(&self) -> u32 {
        self.empty_count()
    }

    /// Counted once up to the board's symmetries, every line starting with f5.
    fn openings(plies: u32) -> Vec<GameRecord<Self>> {
        crate::openings::all_openings(plies)
            .into_iter()
            .map(|o| {
                let mut record = GameRecord::default();
                for mv in o.moves {
                    record.play(mv).expect("openings are legal");
                }
                record
            })
            .collect()
    }

    fn ending(game: &GameRecord<Self>) -> Option<Ending> {
        let black_margin = game.black_margin()?;
        let (black, white) = game.disc_counts();
        Some(Ending {
            first_margin: black_margin,
            how: format!("black {black} - white {white}"),
        })
    }

    /// The board with the last move in brackets, and the discs of each side.
    fn board_text(&self, last: Option<prune_othello::Move>) -> String {
        use prune_othello::Color;
        let (black, white) = (self.discs(Color::Black), self.discs(Color::White));
        let last = last.and_then(|m| m.square());
        let mut text = String::from("     a  b  c  d  e  f  g  h\n");
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
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push_str(&format!(
            "  X {}   O {}\n",
            black.count_ones(),
            white.count_ones()
        ));
        text
    }

    /// GGF, with the result (black's margin) filled in.
    fn record_text(game: &GameRecord<Self>, players: [&str; 2], ending: &Ending) -> String {
        to_ggf(game, players[0], players[1]).replacen(
            "RE[?]",
            &format!("RE[{:+}]", ending.first_margin),
            1,
        ) + "\n"
    }

    /// Othello's engine player: `fast` (the game's own midgame search), `mcts` or a preset of
    /// the generic search, each with the exact endgame solver near the end.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, String> {
        let mut options =
            PlayerOptions::preset(&spec.preset, spec.algorithm).map_err(|e| e.to_string())?;
        let selectivity = match (spec.selectivity, options.engine) {
            (Some(level), _) => level,
            (None, crate::MidgameEngine::Fast) => crate::DEFAULT_SELECTIVITY,
            (None, _) => prune_othello::midgame::Selectivity::Off,
        };
        options = options
            .with_selectivity(selectivity)
            .map_err(|e| e.to_string())?;
        options.parallel = spec.parallel;
        if options.engine == crate::MidgameEngine::Mcts {
            options.mcts = spec.mcts;
            options.mcts_playouts = spec.mcts_playouts;
        }
        if let Some(eval) = spec.eval.as_deref() {
            options.eval = prune_registry::othello_eval(eval).map_err(|e| e.to_string())?;
            options.name = spec.name_with_eval(&options.name, "pattern");
        }
        let player = EnginePlayer::new(options).map_err(|e| format!("{}: {e}", spec.preset))?;
        Ok(Box::new(player))
    }

    /// The fast search is NegaScout whatever the presets' algorithm.
    fn algorithm(spec: &AgentSpec) -> String {
        match () {
            _ if spec.is_mcts() => crate::MCTS.into(),
            _ if spec.is_fast() => prune_search::Algorithm::NegaScout.name().into(),
            _ => spec.algorithm.name().into(),
        }
    }

    fn external(
        command: &str,
        options: ExternalOptions,
        report: Box<dyn FnMut(StartWait<'_>) + Send>,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        if let Some((name, _)) = options.settings.first() {
            return Err(AgentError(format!(
                "option '{name}': NBoard engines take no options here"
            )));
        }
        Ok(Box::new(ExternalEngine::start_reporting(
            command, options, report,
        )?))
    }
}

impl Playable for C4 {
    const DEFAULT_OPENING_PLIES: u32 = 2;
    /// The 16,422 positions after 6 moves (no game is over yet).
    const MAX_OPENING_PLIES: u32 = 6;

    fn start() -> Self {
        C4::START
    }

    fn plies_left(&self) -> u32 {
        prune_connect4::CELLS - self.moves_played()
    }

    fn ending(game: &GameRecord<Self>) -> Option<Ending> {
        let current = game.current();
        let first = current.first_player_to_move();
        if current.is_won() {
            // The side to move has lost: the one who moved last made four.
            return Some(Ending {
                first_margin: if first { -1 } else { 1 },
                how: "four in a row".into(),
            });
        }
        (current.moves_played() == prune_connect4::CELLS).then(|| Ending {
            first_margin: 0,
            how: "the board is full".into(),
        })
    }

    /// Each column's exact score on Pons's scale, solved, once at most
    /// [`C4_HINT_EXACT_LEFT`] moves are left.
    fn move_values(&self, threads: usize) -> Option<Vec<(prune_connect4::Column, i32)>> {
        if prune_connect4::CELLS - self.moves_played() > C4_HINT_EXACT_LEFT || self.is_won() {
            return None;
        }
        let mut solver = prune_connect4::Solver::new().ok()?;
        let options = prune_connect4::SolveOptions {
            threads: threads.max(1),
            ..prune_connect4::SolveOptions::default()
        };
        let scores = solver.analyze(self, &options);
        Some(
            scores
                .iter()
                .enumerate()
                .filter_map(|(c, s)| Some((prune_connect4::Column::new(c as u8)?, (*s)?)))
                .collect(),
        )
    }

    /// The rows from the top (`XOOOX..`), the columns' numbers under them.
    fn board_text(&self, _last: Option<prune_connect4::Column>) -> String {
        format!("{self}\n")
    }

    /// A preset's search with the exact solver when it can finish in the move's budget
    /// ([`Connect4Player`]), or MCTS.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, String> {
        if spec.is_mcts() {
            return generic_agent(C4::START, spec);
        }
        spec.refuse_selectivity::<Self>()?;
        if spec.is_fast() {
            return Err(format!(
                "connect4 has no engine of its own beside its presets (they solve exactly near \
                 the end): name a preset or {}",
                crate::MCTS
            ));
        }
        prune_registry::info(Self::NAME)
            .expect("in the catalogue")
            .eval(spec.eval.as_deref().unwrap_or("threat"))?;
        Ok(Box::new(Connect4Player::new(
            &spec.preset,
            spec.algorithm,
            spec.parallel,
        )?))
    }
}

/// Connect Four's hints give every column's exact score once this many moves are left (a
/// solve of each takes a moment).
pub const C4_HINT_EXACT_LEFT: u32 = 24;

/// Shogi's games are capped as CSA tournaments cap them.
pub const SHOGI_MAX_PLIES: usize = 256;

impl Playable for Shogi {
    /// The 900 positions after two moves.
    const DEFAULT_OPENING_PLIES: u32 = 2;
    /// 25,470 sequences of three moves.
    const MAX_OPENING_PLIES: u32 = 3;
    const MAX_PLIES: Option<usize> = Some(SHOGI_MAX_PLIES);
    const RECORD_FORMAT: &'static str = "PGN-like move list in USI, the start as an SFEN";
    const ENGINE_PRESET: &'static str = crate::FAST;
    const PROTOCOL: Option<&'static str> = Some("USI");

    fn start() -> Self {
        Shogi::start()
    }

    /// Games run to about 120 plies: the clock counts at least 40 more.
    fn plies_left(&self) -> u32 {
        160u32
            .saturating_sub(self.move_number().saturating_sub(1))
            .max(40)
    }

    /// Checkmate, or the fourth occurrence of a position (sennichite: a draw, unless one side
    /// checked with every move, which loses).
    fn ending(game: &GameRecord<Self>) -> Option<Ending> {
        use prune_shogi::{repetition, Repetition};
        let history: Vec<(u64, bool)> = game
            .positions()
            .iter()
            .map(|p| (p.key(), p.in_check()))
            .collect();
        let mover = game.current().side_to_move();
        let (mover_margin, how) = match repetition(&history, 4) {
            Some(Repetition::Draw) => (0, "repetition"),
            Some(Repetition::OpponentCheckedPerpetually) => (1, "perpetual check"),
            Some(Repetition::CheckedPerpetually) => (-1, "perpetual check"),
            None if game.current().legal_moves().is_empty() => (-1, "checkmate"),
            None => return None,
        };
        let first = mover == prune_shogi::Color::Black;
        Some(Ending {
            first_margin: if first { mover_margin } else { -mover_margin },
            how: how.into(),
        })
    }

    /// File 9 on the left, rank a at the top, both hands, and the SFEN.
    fn board_text(&self, _last: Option<prune_shogi::Move>) -> String {
        format!("{}sfen {self}\n", crate::shogi::board_text(self))
    }

    /// The shogi engine of `prune usi` (`fast` is its `full` preset), or MCTS.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, String> {
        if spec.is_mcts() {
            return generic_agent(Shogi::start(), spec);
        }
        spec.refuse_selectivity::<Self>()?;
        Ok(Box::new(ShogiPlayer::new(spec)?))
    }

    /// A USI engine ([`crate::usi::UsiEngine`]).
    fn external(
        command: &str,
        options: ExternalOptions,
        report: Box<dyn FnMut(StartWait<'_>) + Send>,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        Ok(Box::new(crate::usi::UsiEngine::start(
            command,
            options,
            Some(report),
        )?))
    }

    /// The engine's own principal variation search, or MCTS.
    fn algorithm(spec: &AgentSpec) -> String {
        if spec.is_mcts() {
            crate::MCTS.into()
        } else {
            "shogi engine (PVS)".into()
        }
    }
}

impl Playable for TicTacToe {
    const DEFAULT_OPENING_PLIES: u32 = 0;
    const MAX_OPENING_PLIES: u32 = 4;

    fn start() -> Self {
        TicTacToe::new()
    }

    fn plies_left(&self) -> u32 {
        9 - self.moves_played().unwrap_or(0) as u32
    }

    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, String> {
        if spec.is_fast() {
            return Err("tictactoe has no engine of its own: name a preset or mcts".into());
        }
        generic_agent(TicTacToe::new(), spec)
    }
}

/// Work that runs on any playable game.
pub trait PlayableVisitor {
    /// What it gives.
    type Output;
    /// Runs on game `G`.
    fn visit<G: Playable>(self) -> Self::Output;
}

/// Runs `visitor` on the game `choice` names, or says that the play layer does not play it
/// (the synthetic trees).
pub fn with_playable<V: PlayableVisitor>(
    choice: &GameChoice,
    visitor: V,
) -> Result<V::Output, String> {
    match choice {
        GameChoice::Othello => Ok(visitor.visit::<Othello>()),
        GameChoice::Connect4 => Ok(visitor.visit::<C4>()),
        GameChoice::Shogi => Ok(visitor.visit::<Shogi>()),
        GameChoice::Teaching(prune_games::GameSpec::TicTacToe) => Ok(visitor.visit::<TicTacToe>()),
        other => Err(format!(
            "{other} is a synthetic tree: it has no players (play othello, connect4, shogi or \
             tictactoe)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_the_distinct_positions_so_many_plies_in() {
        assert_eq!(C4::openings(0).len(), 1);
        let two = C4::openings(2);
        assert_eq!(two.len(), 49);
        assert_eq!(
            (two[0].line().as_str(), two[48].line().as_str()),
            ("1 1", "7 7")
        );
        // 343 move sequences of three moves make 238 positions (OEIS A212693).
        assert_eq!(C4::openings(3).len(), 238);
        // Shogi: 30 first moves, and no two sequences of two moves meet.
        assert_eq!(Shogi::openings(1).len(), 30);
        assert_eq!(Shogi::openings(2).len(), 900);
        // Othello's count once up to symmetry, every line from f5.
        let othello = Othello::openings(2);
        assert_eq!(othello.len(), 3);
        assert!(othello.iter().all(|o| o.line().starts_with("f5 ")));
        assert_eq!(TicTacToe::openings(1).len(), 9);
    }

    #[test]
    fn endings_read_from_the_first_players_side() {
        // Connect Four: X wins in column 1 with its fourth stone.
        let mut game = GameRecord::new(C4::START);
        for name in ["1", "2", "1", "2", "1", "2", "1"] {
            let mv = game.current().find_move(name).unwrap();
            game.play(mv).unwrap();
        }
        assert_eq!(C4::ending(&game).map(|e| e.first_margin), Some(1));
        // Shogi: the fourth occurrence of the start after shuffling rooks is a draw.
        let mut game = GameRecord::new(Shogi::start());
        for _ in 0..3 {
            for name in ["2h3h", "8b7b", "3h2h", "7b8b"] {
                assert_eq!(Shogi::ending(&game), None);
                let mv = game.current().find_move(name).unwrap();
                game.play(mv).unwrap();
            }
        }
        let ending = Shogi::ending(&game).unwrap();
        assert_eq!(
            (ending.first_margin, ending.how.as_str()),
            (0, "repetition")
        );
    }
}
