//! What the midgame search evaluates its leaves with: the trained patterns, their indices
//! carried along the moves ([`PatternState`]), or the hand-made evaluation, computed from
//! scratch (it has no state).

use crate::eval::HandEval;
use crate::pattern::{PatternEval, PatternState};
use crate::Board;

/// An evaluation with a state carried from a node to its children.
pub(crate) trait Leaf: Sync {
    /// What a node hands its children.
    type State: Copy;

    /// The state of the root, where `us` owns `us` and is to move.
    fn state(&self, us: u64, them: u64) -> Self::State;

    /// The state after a move on `square` flipping `flips`, played by `us` when `by_us`.
    fn play(&self, s: &Self::State, square: u32, flips: u64, by_us: bool) -> Self::State;

    /// The value of `(p, o)` (side to move owns `p`, `empties` empty squares) for the side to
    /// move, in hundredths of a disc; `us_to_move` tells whether that side is `us`.
    fn value(&self, s: &Self::State, p: u64, o: u64, empties: u32, us_to_move: bool) -> i32;
}

impl Leaf for PatternEval {
    type State = PatternState;

    #[inline(always)]
    fn state(&self, us: u64, them: u64) -> PatternState {
        PatternEval::state(self, us, them)
    }

    #[inline(always)]
    fn play(&self, s: &PatternState, square: u32, flips: u64, by_us: bool) -> PatternState {
        self.play_state(s, square, flips, by_us)
    }

    #[inline(always)]
    fn value(&self, s: &PatternState, _: u64, _: u64, empties: u32, us_to_move: bool) -> i32 {
        self.evaluate_state(s, empties, us_to_move)
    }
}

impl Leaf for HandEval {
    type State = ();

    #[inline(always)]
    fn state(&self, _: u64, _: u64) {}

    #[inline(always)]
    fn play(&self, _: &(), _: u32, _: u64, _: bool) {}

    #[inline(always)]
    fn value(&self, _: &(), p: u64, o: u64, _: u32, _: bool) -> i32 {
        self.evaluate_board(&Board::from_disjoint_bits(p, o))
    }
}
