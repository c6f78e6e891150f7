//! [`GameRecord`]: a game as a start position and the moves played from it.

use std::fmt;

use prune_othello::{Color, Move, Position};
use prune_search::Game;

/// A move that cannot be added to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The move refused.
    pub mv: Move,
    /// The position it was refused in.
    pub position: Position,
    /// Its place in the game (1 = the first move).
    pub number: usize,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let legal: Vec<String> = self
            .position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        write!(
            f,
            "move {} ({}) is not legal for {} (legal: {})",
            self.number,
            self.mv,
            color_name(self.position.to_move()),
            if legal.is_empty() {
                "none, the game is over".to_string()
            } else {
                legal.join(" ")
            }
        )
    }
}

impl std::error::Error for RecordError {}

/// "black" or "white".
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A game: where it started and the moves since (passes included), with the position reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    start: Position,
    moves: Vec<Move>,
    current: Position,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::new(Position::START)
    }
}

impl GameRecord {
    /// A game starting at `start` with no moves yet.
    pub fn new(start: Position) -> Self {
        GameRecord {
            start,
            moves: Vec::new(),
            current: start,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position now.
    pub fn current(&self) -> &Position {
        &self.current
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// Plays `mv` (checked).
    pub fn play(&mut self, mv: Move) -> Result<(), RecordError> {
        let next = self.current.play(mv).map_err(|e| RecordError {
            mv,
            position: e.position,
            number: self.moves.len() + 1,
        })?;
        self.moves.push(mv);
        self.current = next;
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        let mut pos = self.start;
        for &mv in &self.moves {
            pos = Game::play(&pos, mv);
        }
        self.current = pos;
        true
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.current.outcome().is_some()
    }

    /// The final result as black's disc margin (empty squares go to the winner), once the game
    /// is over.
    pub fn black_margin(&self) -> Option<i32> {
        let margin = self.current.outcome()?.margin()?;
        Some(match self.current.to_move() {
            Color::Black => margin,
            Color::White => -margin,
        })
    }

    /// Black's and white's discs now.
    pub fn disc_counts(&self) -> (u32, u32) {
        (
            self.current.discs(Color::Black).count_ones(),
            self.current.discs(Color::White).count_ones(),
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
