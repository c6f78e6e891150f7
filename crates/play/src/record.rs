//! [`GameRecord`]: a game of any registered game as its start position and the moves played
//! from it, with every position on the way (the history the repetition rules of shogi read).

use std::fmt;

use prune_othello::{Color, Position};
use prune_registry::RegisteredGame;
use prune_search::Game;

/// A move that cannot be added to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The move refused, by name.
    pub mv: String,
    /// Its place in the game (1 = the first move).
    pub number: usize,
    /// The side whose move it was (the catalogue's name: `black`, `X`...).
    pub side: &'static str,
    /// The legal moves there, by name (empty: the game is over).
    pub legal: Vec<String>,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) is not legal for {} (legal: {})",
            self.number,
            self.mv,
            self.side,
            if self.legal.is_empty() {
                "none, the game is over".to_string()
            } else {
                self.legal.join(" ")
            }
        )
    }
}

impl std::error::Error for RecordError {}

/// `black` or `white`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A game: its start, the moves played and the positions they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: RegisteredGame = Position> {
    /// The start, then the position after each move.
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl Default for GameRecord<Position> {
    fn default() -> Self {
        GameRecord::new(Position::START)
    }
}

impl<G: RegisteredGame> GameRecord<G> {
    /// A game from `start` with no moves yet.
    pub fn new(start: G) -> Self {
        GameRecord {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The moves played.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The position now.
    pub fn current(&self) -> &G {
        self.positions.last().expect("a record has its start")
    }

    /// The start and the position after each move, in order.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<G::Move> {
        self.moves.last().copied()
    }

    /// The moves by name, separated by spaces (`f5 d6 c3`, `7g7f 3c3d`).
    pub fn line(&self) -> String {
        let names: Vec<String> = self
            .positions
            .iter()
            .zip(&self.moves)
            .map(|(p, &m)| p.move_name(m))
            .collect();
        names.join(" ")
    }

    /// Plays `mv` if it is legal now.
    pub fn play(&mut self, mv: G::Move) -> Result<(), RecordError> {
        let current = self.current();
        let legal = current.legal_moves();
        if !legal.contains(&mv) {
            return Err(RecordError {
                mv: current.move_name(mv),
                number: self.moves.len() + 1,
                side: current.side_name(),
                legal: legal.iter().map(|&m| current.move_name(m)).collect(),
            });
        }
        let next = current.play(mv);
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Takes back the last move (`false` if there is none).
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        true
    }

    /// Whether the position now is over by the rules of the position alone (the play layer's
    /// [`crate::Playable::ending`] adds the rules that read the history).
    pub fn is_over(&self) -> bool {
        self.current().outcome().is_some()
    }
}

impl GameRecord<Position> {
    /// The final disc margin from black's side (empty squares to the winner), once over.
    pub fn black_margin(&self) -> Option<i32> {
        let current = self.current();
        let margin = current.outcome()?.margin()?;
        Some(match current.to_move() {
            Color::Black => margin,
            Color::White => -margin,
        })
    }

    /// Black's and white's discs now.
    pub fn disc_counts(&self) -> (u32, u32) {
        let current = self.current();
        (
            current.discs(Color::Black).count_ones(),
            current.discs(Color::White).count_ones(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_undo_and_illegal_moves() {
        let mut g = GameRecord::default();
        g.play("f5".parse().unwrap()).unwrap();
        g.play("d6".parse().unwrap()).unwrap();
        assert_eq!(g.moves().len(), 2);
        let err = g.play("a1".parse().unwrap()).unwrap_err();
        assert_eq!(err.number, 3);
        assert!(err.to_string().contains("not legal for black"), "{err}");
        assert!(g.undo());
        assert_eq!(g.last_move(), Some("f5".parse().unwrap()));
        assert!(g.undo());
        assert_eq!(g.current(), &Position::START);
        assert!(!g.undo());
        assert_eq!(g.black_margin(), None);
        assert_eq!(g.disc_counts(), (2, 2));
    }
}
