//! Opening enumeration: every position a few plies after the start, each counted once (as a
//! position, or up to the board's eight symmetries), in a fixed order.
//!
//! The lines start with f5 (the four first moves are one up to symmetry) and are generated
//! move by move in square order (a1 first), so the set and its order are the same on every
//! run. Two lines that reach the same position (or, up to symmetry, positions that are
//! rotations or reflections of each other) give one opening: the first line found, which is
//! the smallest in move order. Positions where the game is already over are left out.

use std::collections::HashSet;

use prune_search::Game;

use crate::position::Position;
use crate::square::Move;
use crate::symmetry::symmetry_key;

/// The most plies an opening set may have (9 plies would mean millions of lines).
pub const MAX_PLIES: u32 = 8;

/// The first move of every opening.
const FIRST_MOVE: Move = match Move::new(37) {
    Some(mv) => mv,
    None => panic!("f5 is a square"),
};

/// A start position: a line of moves from the standard start and the position it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position they reach.
    pub position: Position,
}

impl Opening {
    /// The moves as text: `f5 d6 c3 d3`.
    pub fn line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    }
}

/// When two openings count as the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distinct {
    /// When they reach the same position.
    Position,
    /// When they reach the same position up to a rotation or reflection of the board.
    UpToSymmetry,
}

/// Every distinct position `plies` plies after the start (distinct as `distinct` says, the game
/// not over), in the order of generation; `plies` is capped at [`MAX_PLIES`]. Zero plies: the
/// start position alone.
pub fn enumerate_openings(plies: u32, distinct: Distinct) -> Vec<Opening> {
    let start = Opening {
        moves: Vec::new(),
        position: Position::START,
    };
    if plies == 0 {
        return vec![start];
    }
    // The four first moves are one up to symmetry: all lines start with f5, as usual.
    let mut lines = vec![Opening {
        moves: vec![FIRST_MOVE],
        position: Position::START.play_unchecked(FIRST_MOVE),
    }];
    for _ in 1..plies.min(MAX_PLIES) {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for opening in &lines {
            for mv in opening.position.legal_moves() {
                let position = opening.position.play_unchecked(mv);
                if position.is_game_over() {
                    continue;
                }
                let key = match distinct {
                    Distinct::Position => key_of_position(&position),
                    Distinct::UpToSymmetry => symmetry_key(&position),
                };
                if !seen.insert(key) {
                    continue;
                }
                let mut moves = opening.moves.clone();
                moves.push(mv);
                next.push(Opening { moves, position });
            }
        }
        lines = next;
    }
    lines
}

/// The key of a position as it stands (the same shape as [`symmetry_key`]'s).
fn key_of_position(position: &Position) -> (u64, u64, bool) {
    use crate::position::Color;
    (
        position.discs(Color::Black),
        position.discs(Color::White),
        position.to_move() == Color::Black,
    )
}

/// Every position `plies` plies after the start counted once up to symmetry (see
/// [`enumerate_openings`]): the openings of matches.
pub fn all_openings(plies: u32) -> Vec<Opening> {
    enumerate_openings(plies, Distinct::UpToSymmetry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_move_is_f5() {
        assert_eq!(FIRST_MOVE, "f5".parse().unwrap());
    }

    #[test]
    fn the_first_plies_up_to_symmetry() {
        // The four first moves are one up to symmetry; after two plies there are three
        // (perpendicular, diagonal, parallel).
        assert_eq!(all_openings(0).len(), 1);
        assert_eq!(all_openings(1).len(), 1);
        assert_eq!(all_openings(2).len(), 3);
        // 56 lines of three plies and 244 of four reach 14 and 60 positions up to symmetry.
        assert_eq!(all_openings(3).len(), 14);
        assert_eq!(all_openings(4).len(), 60);
    }

    #[test]
    fn openings_are_distinct_legal_and_deterministic() {
        for distinct in [Distinct::Position, Distinct::UpToSymmetry] {
            for plies in 1..=5 {
                let all = enumerate_openings(plies, distinct);
                assert_eq!(all, enumerate_openings(plies, distinct));
                let keys: HashSet<_> = all
                    .iter()
                    .map(|o| match distinct {
                        Distinct::Position => key_of_position(&o.position),
                        Distinct::UpToSymmetry => symmetry_key(&o.position),
                    })
                    .collect();
                assert_eq!(keys.len(), all.len(), "{plies} plies");
                for o in &all {
                    assert_eq!(o.moves.len(), plies as usize);
                    assert!(o.line().starts_with("f5"));
                    let mut p = Position::START;
                    for &mv in &o.moves {
                        p = p.play(mv).expect("a legal line");
                    }
                    assert_eq!(p, o.position);
                    assert!(o.position.outcome().is_none());
                }
            }
        }
    }

    /// Counting positions as themselves gives at least as many openings as counting them up
    /// to symmetry (more from four plies on: after f5, symmetric lines first meet there), and
    /// exactly one symmetry class per opening of the match set.
    #[test]
    fn distinct_positions_are_at_least_the_symmetry_classes() {
        let mut counts = Vec::new();
        for plies in 1..=5 {
            let positions = enumerate_openings(plies, Distinct::Position);
            let classes = all_openings(plies);
            let keys: HashSet<_> = positions
                .iter()
                .map(|o| symmetry_key(&o.position))
                .collect();
            assert_eq!(keys.len(), classes.len(), "{plies} plies");
            counts.push((positions.len(), classes.len()));
        }
        assert_eq!(counts, [(1, 1), (3, 3), (14, 14), (61, 60), (337, 322)]);
    }
}
