//! The move list of the ordered nodes: each legal move with its flips and its ordering key,
//! handed out best first. The keys are computed where the list is built, in the `ordering`
//! module.

#![allow(unsafe_code)]

use std::mem::MaybeUninit;

use super::ordering::TABLE_MOVE_KEY;

/// The most legal moves a position can have, whatever its discs: at most one per empty
/// square, and a position with a legal move has at least two discs.
pub(super) const MAX_MOVES: usize = 62;

/// An entry of a [`MoveList`]: a move, its flips and its ordering key (smaller first).
pub(super) use crate::kernel::ListedMove as KeyedMove;
pub(super) use crate::kernel::Placement;

/// Up to `N` values of a `Copy` type on the stack, without writing the unused places: a
/// node's move list (at every ordered node) would otherwise clear its 62 places (its 1,000
/// bytes were a `memset` that took 2% of the solver's instructions, docs/tuning.md).
// The count first, in C layout: laid out after the places, its zero and the unwritten places
// were merged by the compiler into one `memset` of the whole stack.
#[repr(C)]
pub(super) struct Stack<T: Copy, const N: usize> {
    /// How many are written.
    len: usize,
    /// The values; the first `len` are written.
    items: MaybeUninit<[T; N]>,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    /// No values.
    #[inline(always)]
    pub(super) fn new() -> Self {
        Stack {
            len: 0,
            items: MaybeUninit::uninit(),
        }
    }

    /// Adds `value` at the end (panics beyond `N` values).
    #[inline(always)]
    pub(super) fn push(&mut self, value: T) {
        assert!(self.len < N, "a stack of {N} values is full");
        // SAFETY: `len < N`, so the place is inside the array.
        unsafe {
            self.items
                .as_mut_ptr()
                .cast::<T>()
                .add(self.len)
                .write(value)
        };
        self.len += 1;
    }

    /// The values.
    #[inline(always)]
    pub(super) fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` places are written (`push` writes before it counts, and
        // `len` only shrinks otherwise).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    /// The values, to change them.
    #[inline(always)]
    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    /// Removes the value at `index` (< len), putting the last one in its place.
    #[inline(always)]
    pub(super) fn swap_remove(&mut self, index: usize) -> T {
        let value = self.as_slice()[index];
        let last = self.as_slice()[self.len - 1];
        self.as_mut_slice()[index] = last;
        self.len -= 1;
        value
    }
}

/// The moves of a node with their flips and ordering keys, handed out best first (built,
/// keys and all, by `MoveList::fill` in the `ordering` module).
pub(super) struct MoveList {
    /// The moves not handed out yet.
    pub(super) moves: Stack<KeyedMove, MAX_MOVES>,
}

impl MoveList {
    /// No moves (see `MoveList::fill`).
    #[inline(always)]
    pub(super) fn empty() -> Self {
        MoveList {
            moves: Stack::new(),
        }
    }

    /// The moves not handed out yet, in no particular order.
    #[inline(always)]
    pub(super) fn remaining(&self) -> &[KeyedMove] {
        self.moves.as_slice()
    }

    /// [`MoveList::remaining`], to change their keys.
    #[inline(always)]
    pub(super) fn remaining_mut(&mut self) -> &mut [KeyedMove] {
        self.moves.as_mut_slice()
    }

    /// Whether every move was handed out.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.moves.len == 0
    }

    /// Lazy SMP helpers: gives the `k % len`-th best move (by key) the first place, so that
    /// helpers start on different root moves.
    pub(super) fn rotate(&mut self, k: usize) {
        let moves = self.remaining_mut();
        if moves.len() > 1 {
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&i| moves[i].key);
            let chosen = order[k % moves.len()];
            moves[chosen].key = TABLE_MOVE_KEY;
        }
    }

    /// The remaining move with the smallest key (selection: most nodes cut off after the first
    /// one or two moves, so a full sort would be wasted).
    pub(super) fn next_best(&mut self) -> Option<Placement> {
        let moves = self.remaining();
        if moves.is_empty() {
            return None;
        }
        let mut best = 0;
        for i in 1..moves.len() {
            if moves[i].key < moves[best].key {
                best = i;
            }
        }
        Some(self.moves.swap_remove(best).placement())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{flips_at, legal_moves};
    use crate::kernel::Portable;
    use crate::obf::parse_obf;
    use prune_search::rng::{Rng, XorShift64};

    /// Every legal move comes out of the list once, with its flips.
    fn check_list(p: u64, o: u64) {
        let moves = legal_moves(p, o);
        let mut list = MoveList::empty();
        list.fill(Portable, p, o, moves, None, None);
        let mut seen = 0u64;
        while let Some(m) = list.next_best() {
            let bit = 1u64 << m.square;
            assert_eq!(seen & bit, 0, "square {} handed out twice", m.square);
            assert_eq!(
                m.flips,
                flips_at(m.square, p, o),
                "flips of square {}",
                m.square
            );
            seen |= bit;
        }
        assert_eq!(seen, moves, "{p:#x} {o:#x}");
    }

    #[test]
    fn the_list_holds_every_legal_move_even_beyond_32() {
        // Not a reachable position: black (to move) has 34 legal moves (found by a local
        // search for boards with many moves; the count is checked here).
        let line = "--X------OXO--OX-XXX-XXXXO--OXO---------XX-O-X---OX-OXO-X---XXX- X";
        let entries = parse_obf(line).expect("a valid OBF line");
        let board = entries[0].position.board();
        let (p, o) = (board.player(), board.opponent());
        assert_eq!(legal_moves(p, o).count_ones(), 34);
        check_list(p, o);
        // Random boards of every density, both sides to move.
        let mut rng = XorShift64::new(0x005e_ed0f_3a11);
        for i in 0..5_000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let filled = if i % 2 == 0 { a } else { a | b };
            let p = filled & rng.next_u64();
            check_list(p, filled & !p);
            check_list(filled & !p, p);
        }
    }
}
