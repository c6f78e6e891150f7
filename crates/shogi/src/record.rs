//! A game as it is played: the positions from the start, the moves, and how the game ends —
//! checkmate, or the repetition rule (sennichite).
//!
//! Sennichite: when the same position (board, hands and side to move) occurs for the fourth
//! time, the game ends. It is a draw, unless one side gave check with every one of its moves
//! since the first of those occurrences (perpetual check): that side loses.

use crate::notation::{whole, ParseError};
use crate::position::{Color, Move, Position};

/// How a repetition is scored, from the side to move's point of view at the repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// Neither side checked throughout: a draw.
    Draw,
    /// The opponent gave check with every move of the cycle: the side to move wins.
    OpponentCheckedPerpetually,
    /// The side to move gave check with every move of the cycle: it loses.
    CheckedPerpetually,
}

/// Whether the last entry of `history` repeats for the `times`-th time, and how it scores.
///
/// `history` lists the positions of a game in order, each as its key
/// ([`Position::key`]) and whether its side to move is in check. Shogi has no pass, so the
/// side to move alternates and only every other entry can repeat the last one. The search uses
/// `times = 2` (the first repetition ends a line), the rules `times = 4`.
pub fn repetition(history: &[(u64, bool)], times: usize) -> Option<Repetition> {
    let n = history.len().checked_sub(1)?;
    let key = history[n].0;
    let mut seen = 1;
    let mut first = None;
    for i in (0..n).rev().skip(1).step_by(2) {
        if history[i].0 == key {
            seen += 1;
            if seen == times {
                first = Some(i);
                break;
            }
        }
    }
    let first = first?;
    // Positions first+2, first+4, ..., n arose from the opponent's moves; first+1, ..., n-1
    // from the side to move's.
    let checked = |from: usize| (from..=n).step_by(2).all(|i| history[i].1);
    Some(if checked(first + 2) {
        Repetition::OpponentCheckedPerpetually
    } else if checked(first + 1) {
        Repetition::CheckedPerpetually
    } else {
        Repetition::Draw
    })
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move has no legal move (in shogi that is always a loss).
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The fourth occurrence of a position, without perpetual check: a draw.
    Repetition,
    /// The fourth occurrence of a position while one side checked with every move: it loses.
    PerpetualCheck {
        /// The side that kept checking.
        loser: Color,
    },
}

impl Ending {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Checkmate { winner } => Some(winner),
            Ending::Repetition => None,
            Ending::PerpetualCheck { loser } => Some(loser.flip()),
        }
    }
}

/// A game: the positions from its start and the moves between them.
#[derive(Clone, Debug)]
pub struct GameRecord {
    positions: Vec<Position>,
    /// Key and check of each position, for the repetition rule.
    history: Vec<(u64, bool)>,
    moves: Vec<Move>,
}

impl GameRecord {
    /// A game starting from `start`.
    pub fn new(start: Position) -> GameRecord {
        let history = vec![(start.key(), start.in_check())];
        GameRecord {
            positions: vec![start],
            history,
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start")
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Each position's key and whether its side to move is in check, from the start (what
    /// [`repetition`] and the engine's search read).
    pub fn history(&self) -> &[(u64, bool)] {
        &self.history
    }

    /// Plays `mv`, which must be legal now and the game not over.
    pub fn play(&mut self, mv: Move) -> Result<(), ParseError> {
        if let Some(ending) = self.ending() {
            return Err(whole(format!("{mv}: the game is over ({ending:?})")));
        }
        if !self.position().legal_moves().contains(&mv) {
            return Err(whole(format!(
                "{mv} is not a legal move in {}",
                self.position()
            )));
        }
        let next = self.position().play(mv);
        self.history.push((next.key(), next.in_check()));
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Plays a move written in USI (`7g7f`, `8h2b+`, `P*5e`).
    pub fn play_usi(&mut self, text: &str) -> Result<Move, ParseError> {
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// How the game has ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        let mover = self.position().side_to_move();
        match repetition(&self.history, 4) {
            Some(Repetition::Draw) => return Some(Ending::Repetition),
            Some(Repetition::OpponentCheckedPerpetually) => {
                return Some(Ending::PerpetualCheck {
                    loser: mover.flip(),
                })
            }
            Some(Repetition::CheckedPerpetually) => {
                return Some(Ending::PerpetualCheck { loser: mover })
            }
            None => {}
        }
        self.position()
            .legal_moves()
            .is_empty()
            .then_some(Ending::Checkmate {
                winner: mover.flip(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut GameRecord, moves: &str) {
        for m in moves.split_whitespace() {
            game.play_usi(m).unwrap();
        }
    }

    #[test]
    fn the_fourth_occurrence_of_a_quiet_position_is_a_draw() {
        let mut game = GameRecord::new("startpos".parse().unwrap());
        // Rooks out and back: the start position recurs after 4, 8 and 12 plies.
        let cycle = "2h3h 8b7b 3h2h 7b8b";
        play(&mut game, cycle);
        play(&mut game, cycle);
        assert_eq!(game.ending(), None, "third occurrence");
        play(&mut game, "2h3h 8b7b 3h2h");
        assert_eq!(game.ending(), None);
        play(&mut game, "7b8b");
        assert_eq!(game.ending(), Some(Ending::Repetition));
        assert_eq!(Ending::Repetition.winner(), None);
        assert!(game.play_usi("2h3h").is_err(), "no move after the end");
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // White's king shuffles between 5a and 4a and Black's rook follows it along rank i,
        // checking down the file with every move.
        let start: Position = "4k4/9/9/9/9/9/9/9/R7K b - 1".parse().unwrap();
        let mut game = GameRecord::new(start);
        play(&mut game, "9i5i");
        assert!(game.position().in_check());
        let cycle = "5a4a 5i4i 4a5a 4i5i";
        play(&mut game, cycle);
        play(&mut game, cycle);
        assert_eq!(game.ending(), None);
        play(&mut game, cycle);
        assert_eq!(
            game.ending(),
            Some(Ending::PerpetualCheck {
                loser: Color::Black
            })
        );
        assert_eq!(game.ending().unwrap().winner(), Some(Color::White));
    }

    #[test]
    fn checkmate_ends_the_game_for_the_side_without_moves() {
        let mut game = GameRecord::new("4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap());
        play(&mut game, "G*5b");
        assert_eq!(
            game.ending(),
            Some(Ending::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn illegal_moves_are_refused_with_the_position() {
        let mut game = GameRecord::new("startpos".parse().unwrap());
        let e = game.play_usi("7g7e").unwrap_err().to_string();
        assert!(e.contains("7g7e"), "{e}");
        assert_eq!(game.moves().len(), 0);
    }
}
