//! [`MovePicker`]: a node's moves, one at a time, in stages — the move-ordering state machine
//! of shogi and chess engines, for any [`Game`].
//!
//! The stages ([`Stage`]) in order:
//!
//! 1. [`Stage::HashMove`]: up to two moves known to be good before any generation (the move of
//!    the line being followed and the transposition table's move), each if it is legal here.
//!    If one of them causes a cutoff, the node's moves are never generated.
//! 2. [`Stage::Generate`]: all moves are generated; those already tried are set aside, and the
//!    rest are sorted by the caller's ordering (static knowledge, history, shallow search).
//! 3. [`Stage::Tactical`] (only in a staged picker): the game's tactical moves, in that order.
//! 4. [`Stage::Killers`]: the killer moves given, in slot order, each if it is legal here (that
//!    is, among the generated moves not yet tried).
//! 5. [`Stage::Rest`]: the remaining moves in order.
//!
//! Every legal move is yielded exactly once, whatever the hash moves and killers are (illegal
//! ones and repeats are skipped): the tests check it with perft through the picker.

use serde::{Deserialize, Serialize};

use crate::Game;

/// Where a [`MovePicker`] stands, and which stage yielded a move.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The moves known before generation (followed line, table move).
    #[default]
    HashMove,
    /// Generating and ordering the moves (yields nothing).
    Generate,
    /// Tactical moves (staged pickers only).
    Tactical,
    /// Killer moves.
    Killers,
    /// Everything else, in order.
    Rest,
    /// No moves left.
    Done,
}

/// The moves of one node, one at a time, in stages. A new picker yields nothing until
/// [`MovePicker::reset`] prepares it for a node; reset keeps the allocations, so one picker
/// per ply serves a whole search.
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    stage: Stage,
    /// The moves to try before generating, in order.
    first: [Option<M>; 2],
    /// How many of `first` have been looked at.
    first_seen: usize,
    /// Those of `first` that were yielded (legal, not repeated).
    early: [Option<M>; 2],
    killers: Vec<M>,
    killer_seen: usize,
    staged: bool,
    /// The generated moves: `moves[..next]` were yielded, in the order they were.
    moves: Vec<M>,
    next: usize,
    last: Stage,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            stage: Stage::Done,
            first: [None, None],
            first_seen: 0,
            early: [None, None],
            killers: Vec::new(),
            killer_seen: 0,
            staged: false,
            moves: Vec::new(),
            next: 0,
            last: Stage::Done,
        }
    }
}

impl<M: Copy + Eq> MovePicker<M> {
    /// Prepares to pick the moves of a new node: `first` are tried before generation (each if
    /// legal), `killers` (copied) after the tactical moves. `staged` turns the tactical stage
    /// on.
    pub fn reset(&mut self, first: [Option<M>; 2], killers: &[M], staged: bool) {
        self.stage = Stage::HashMove;
        self.first = first;
        self.first_seen = 0;
        self.early = [None; 2];
        self.killers.clear();
        self.killers.extend_from_slice(killers);
        self.killer_seen = 0;
        self.staged = staged;
        self.moves.clear();
        self.next = 0;
        self.last = Stage::HashMove;
    }

    /// The stage that yielded the last move.
    pub fn last_stage(&self) -> Stage {
        self.last
    }

    /// The next move of `game`, or `None` when all were yielded. `order` sorts the moves left
    /// after the hash moves, once, when they are generated.
    pub fn next<G: Game<Move = M>>(
        &mut self,
        game: &G,
        order: &mut dyn FnMut(&G, &mut [M]),
    ) -> Option<M> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    while self.first_seen < self.first.len() {
                        let candidate = self.first[self.first_seen];
                        self.first_seen += 1;
                        let Some(mv) = candidate else { continue };
                        if self.early.contains(&Some(mv)) || !game.is_legal(mv) {
                            continue;
                        }
                        let slot = self.early.iter().position(Option::is_none);
                        self.early[slot.expect("two slots for two moves")] = Some(mv);
                        self.last = Stage::HashMove;
                        return Some(mv);
                    }
                    self.stage = Stage::Generate;
                }
                Stage::Generate => {
                    self.moves.clear();
                    game.generate_moves(&mut self.moves);
                    for mv in self.early.into_iter().flatten() {
                        self.take_from(self.next, |m| m == mv);
                    }
                    order(game, &mut self.moves[self.next..]);
                    self.stage = if self.staged {
                        Stage::Tactical
                    } else {
                        Stage::Killers
                    };
                }
                Stage::Tactical => match self.take_from(self.next, |m| game.is_tactical(m)) {
                    Some(mv) => return self.yielded(mv, Stage::Tactical),
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    while self.killer_seen < self.killers.len() {
                        let killer = self.killers[self.killer_seen];
                        self.killer_seen += 1;
                        if let Some(mv) = self.take_from(self.next, |m| m == killer) {
                            return self.yielded(mv, Stage::Killers);
                        }
                    }
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.next < self.moves.len() {
                        let mv = self.moves[self.next];
                        self.next += 1;
                        return self.yielded(mv, Stage::Rest);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    fn yielded(&mut self, mv: M, stage: Stage) -> Option<M> {
        self.last = stage;
        Some(mv)
    }

    /// Moves the first move at or after `from` that satisfies `pick` to position `next` (the
    /// others keep their order) and marks it yielded.
    fn take_from(&mut self, from: usize, mut pick: impl FnMut(M) -> bool) -> Option<M> {
        let offset = self.moves[from..].iter().position(|&m| pick(m))?;
        let at = from + offset;
        self.moves[self.next..=at].rotate_right(1);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    /// Moves 0..n; multiples of 3 are tactical; odd numbers are legal only.
    #[derive(Clone)]
    struct Odd(u32);
    impl Game for Odd {
        type Move = u32;
        fn generate_moves(&self, moves: &mut Vec<u32>) {
            moves.extend((0..self.0).filter(|m| m % 2 == 1));
        }
        fn play(&self, _: u32) -> Self {
            Odd(0)
        }
        fn outcome(&self) -> Option<Score> {
            (self.0 < 2).then_some(Score::DRAW)
        }
        fn hash(&self) -> u64 {
            u64::from(self.0)
        }
        fn is_tactical(&self, mv: u32) -> bool {
            mv.is_multiple_of(3)
        }
    }

    fn all(picker: &mut MovePicker<u32>, game: &Odd) -> Vec<(u32, Stage)> {
        let mut out = Vec::new();
        let mut reverse = |_: &Odd, moves: &mut [u32]| moves.reverse();
        while let Some(mv) = picker.next(game, &mut reverse) {
            out.push((mv, picker.last_stage()));
        }
        out
    }

    #[test]
    fn stages_come_in_order_and_skip_illegal_and_repeated_moves() {
        let game = Odd(12); // legal: 1 3 5 7 9 11
        let mut p = MovePicker::default();
        p.reset([Some(7), Some(4)], &[4, 5, 9, 7, 5], true);
        use Stage::*;
        assert_eq!(
            all(&mut p, &game),
            vec![
                (7, HashMove),
                (9, Tactical), // reversed order: 11 9 5 3 1
                (3, Tactical),
                (5, Killers),
                (11, Rest),
                (1, Rest)
            ]
        );
        p.reset([Some(3), Some(3)], &[], false);
        assert_eq!(
            all(&mut p, &game),
            vec![
                (3, HashMove),
                (11, Rest),
                (9, Rest),
                (7, Rest),
                (5, Rest),
                (1, Rest)
            ]
        );
    }
}
