//! Pattern indices kept up to date move by move ([`PatternState`]), for searches that evaluate
//! every leaf: instead of reading all 46 instances off the board again (the eight symmetric
//! images, then the row bytes and diagonals), a move adds one precomputed vector per changed
//! square to the indices.
//!
//! The indices are kept in *fixed colours*: digit 1 is a disc of the side that moved at the
//! state's root (`us`), digit 2 one of the other side, whoever is to move now. A configuration
//! seen with the colours swapped has the opposite weight ([`super::Classes`]), so the value for
//! the side to move is the bias plus the sum of the weights when `us` moves, minus it when the
//! other side does.
//!
//! Each square has a vector of 48 lanes (the 46 instances and two unused ones): lane `i` is
//! the power of 3 of the square's digit in instance `i`, or 0 if the instance does not read the
//! square. A disc placed by `us` adds the vector once (0 -> 1), by the other side twice
//! (0 -> 2); a flip to `us` subtracts it (2 -> 1), to the other side adds it (1 -> 2). The lanes
//! are `u16` (the largest family has 3^10 = 59,049 configurations), added with wrapping
//! arithmetic, which is exact because every final index is in range; a fixed-size loop over
//! them compiles to a few vector additions.

use super::{PatternEval, CONFIGURATIONS, FAMILIES, INSTANCES, OFFSETS};
use crate::symmetry::view_square;

/// The lanes of a state: the instances, rounded up to a multiple of 16 lanes (32 bytes).
pub const LANES: usize = INSTANCES.next_multiple_of(16);

/// The pattern indices of a position in fixed colours (see the module documentation); made by
/// [`PatternEval::state`], moved on by [`PatternEval::play_state`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub struct PatternState {
    /// Each instance's configuration within its family's table (the family offset is added
    /// when the table is read).
    lanes: [u16; LANES],
}

/// `BY_SQUARE[s]`: lane `i` is the power of 3 of square `s` in instance `i` (0 if none),
/// instances in the order of [`super::indices`] (families, then their views).
static BY_SQUARE: [PatternState; 64] = {
    let mut by_square = [PatternState { lanes: [0; LANES] }; 64];
    let (mut f, mut instance) = (0, 0);
    while f < FAMILIES.len() {
        let family = &FAMILIES[f];
        let mut v = 0;
        while v < family.views.len() {
            let view = family.views[v];
            let mut power = 1u16;
            let mut k = 0;
            while k < family.squares.len() {
                // The board square that the view shows at the pattern's square `k`.
                let mut source = 0u8;
                while view_square(view, source) != family.squares[k] {
                    source += 1;
                }
                by_square[source as usize].lanes[instance] = power;
                power = power.wrapping_mul(3);
                k += 1;
            }
            instance += 1;
            v += 1;
        }
        f += 1;
    }
    by_square
};

/// The offset of each instance's family in a phase's table.
static OFFSET: [u32; INSTANCES] = {
    let mut offset = [0u32; INSTANCES];
    let (mut f, mut instance) = (0, 0);
    while f < FAMILIES.len() {
        let mut v = 0;
        while v < FAMILIES[f].views.len() {
            offset[instance] = OFFSETS[f] as u32;
            instance += 1;
            v += 1;
        }
        f += 1;
    }
    offset
};

impl PatternState {
    /// `self += times * v` lane by lane, wrapping.
    #[inline(always)]
    fn add(&mut self, v: &PatternState, times: u16) {
        for (lane, &x) in self.lanes.iter_mut().zip(&v.lanes) {
            *lane = lane.wrapping_add(x.wrapping_mul(times));
        }
    }

    /// `self -= v` lane by lane, wrapping.
    #[inline(always)]
    fn sub(&mut self, v: &PatternState) {
        for (lane, &x) in self.lanes.iter_mut().zip(&v.lanes) {
            *lane = lane.wrapping_sub(x);
        }
    }

    /// The instances' indices into a phase's table (family offsets included), in the order of
    /// [`super::indices`].
    pub fn indices(&self) -> [u32; INSTANCES] {
        std::array::from_fn(|i| OFFSET[i] + u32::from(self.lanes[i]))
    }
}

impl PatternEval {
    /// The state of the position where `us` (the side to move) owns `us` and the other side
    /// owns `them`.
    #[inline]
    pub fn state(&self, us: u64, them: u64) -> PatternState {
        let mut state = PatternState { lanes: [0; LANES] };
        // Only the occupied squares, without a branch per square.
        let mut todo = us;
        while todo != 0 {
            state.add(&BY_SQUARE[todo.trailing_zeros() as usize], 1);
            todo &= todo - 1;
        }
        let mut todo = them & !us;
        while todo != 0 {
            state.add(&BY_SQUARE[todo.trailing_zeros() as usize], 2);
            todo &= todo - 1;
        }
        state
    }

    /// The state after a disc placed on `square` flips `flips`: placed by `us` (the side that
    /// moved at the state's root) when `by_us`, by the other side otherwise.
    #[inline(always)]
    pub fn play_state(
        &self,
        state: &PatternState,
        square: u32,
        flips: u64,
        by_us: bool,
    ) -> PatternState {
        let v = &BY_SQUARE;
        let mut next = *state;
        let mut todo = flips;
        if by_us {
            next.add(&v[square as usize], 1);
            while todo != 0 {
                next.sub(&v[todo.trailing_zeros() as usize]);
                todo &= todo - 1;
            }
        } else {
            next.add(&v[square as usize], 2);
            while todo != 0 {
                next.add(&v[todo.trailing_zeros() as usize], 1);
                todo &= todo - 1;
            }
        }
        next
    }

    /// The value, for the side to move, of the position of `state` with `empties` empty
    /// squares: `us_to_move` tells whether `us` (see [`PatternEval::state`]) is to move. Equal
    /// to [`PatternEval::evaluate_bits`] of the same position, in hundredths of a disc.
    #[inline(always)]
    pub fn evaluate_state(&self, state: &PatternState, empties: u32, us_to_move: bool) -> i32 {
        let phase = super::phase_of(empties);
        let table = &self.tables[phase * CONFIGURATIONS..(phase + 1) * CONFIGURATIONS];
        let mut sum = 0i32;
        for (&offset, &lane) in OFFSET.iter().zip(&state.lanes) {
            sum += i32::from(table[(offset + u32::from(lane)) as usize]);
        }
        let bias = i32::from(self.bias[empties.min(59) as usize]);
        if us_to_move {
            bias + sum
        } else {
            bias - sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_weights;
    use super::*;
    use crate::pattern::indices;
    use crate::Board;
    use prune_search::rng::{Rng, XorShift64};

    /// Random games from the start, the state carried along move by move (passes included),
    /// compared at every position with the indices and the value computed from scratch.
    #[test]
    fn the_state_follows_the_moves_and_evaluates_as_from_scratch() {
        let evals = [PatternEval::new(random_weights()), PatternEval::builtin()];
        let mut rng = XorShift64::new(7);
        let mut checked = 0;
        for game in 0..40 {
            let eval = &evals[game % 2];
            let mut b = Board::START;
            let mut state = eval.state(b.player(), b.opponent());
            let mut us_to_move = true;
            loop {
                let (p, o) = (b.player(), b.opponent());
                let (us, them) = if us_to_move { (p, o) } else { (o, p) };
                assert_eq!(state, eval.state(us, them));
                assert_eq!(state.indices(), indices(us, them));
                assert_eq!(
                    eval.evaluate_state(&state, b.empty_count(), us_to_move),
                    eval.evaluate_bits(p, o)
                );
                checked += 1;
                let moves = b.moves();
                if moves == 0 {
                    if b.opponent_moves() == 0 {
                        break;
                    }
                    b = b.pass();
                    us_to_move = !us_to_move;
                    continue;
                }
                let mut m = moves;
                for _ in 0..rng.below(u64::from(moves.count_ones())) {
                    m &= m - 1;
                }
                let square = m.trailing_zeros();
                let sq = crate::Square::new(square as u8).unwrap();
                let flips = b.flips(sq);
                state = eval.play_state(&state, square, flips, us_to_move);
                b = b.play_unchecked(sq);
                us_to_move = !us_to_move;
            }
        }
        assert!(checked > 2000, "{checked}");
    }
}
