//! [`TranspositionTable`]: a fixed-size hash table of search results, each entry a pair of
//! bounds (lower and upper) so that it serves both PVS-style and MTD(f)-style searches.
//!
//! Replacement scheme (one entry per slot, slot chosen by the hash): a new result replaces the
//! slot's entry when the slot is empty, holds the same position, holds an entry from an older
//! search (a different age), or holds a result of no greater depth. Results for the same
//! position and depth are merged: the bounds are intersected, so two null-window searches
//! (MTD(f)'s passes) leave both of their bounds in the table.

use crate::Score;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry<M> {
    /// The full 64-bit hash of the position (checked on probe).
    pub key: u64,
    /// The remaining depth of the search that produced the bounds.
    pub depth: u32,
    /// The true value (at that depth) is at least this.
    pub lower: Score,
    /// The true value (at that depth) is at most this.
    pub upper: Score,
    /// The best move found (or the move that caused the cutoff), tried first next time.
    pub best_move: Option<M>,
    /// The search that wrote the entry (see [`TranspositionTable::new_search`]).
    pub age: u8,
}

/// A transposition table of a fixed number of entries.
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    slots: Vec<Option<TtEntry<M>>>,
    age: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `size_mib` MiB (at least one entry).
    pub fn new(size_mib: usize) -> Self {
        let bytes = size_mib.saturating_mul(1 << 20);
        let len = (bytes / std::mem::size_of::<Option<TtEntry<M>>>()).max(1);
        Self::with_entries(len)
    }

    /// A table of exactly `len` entries (at least one).
    pub fn with_entries(len: usize) -> Self {
        TranspositionTable {
            slots: vec![None; len.max(1)],
            age: 0,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no entries (never: a table has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for the position with hash `key`, if the table holds one.
    pub fn probe(&self, key: u64) -> Option<&TtEntry<M>> {
        self.slots[self.index(key)]
            .as_ref()
            .filter(|e| e.key == key)
    }

    /// Records the result of a search of depth `depth` that found `lower <= value <= upper`.
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        lower: Score,
        upper: Score,
        best_move: Option<M>,
    ) {
        let age = self.age;
        let i = self.index(key);
        let fresh = TtEntry {
            key,
            depth,
            lower,
            upper,
            best_move,
            age,
        };
        let slot = &mut self.slots[i];
        match slot {
            Some(old) if old.key == key && old.depth == depth => {
                let (lo, up) = (old.lower.max(lower), old.upper.min(upper));
                if lo <= up {
                    old.lower = lo;
                    old.upper = up;
                } else {
                    old.lower = lower;
                    old.upper = upper;
                }
                old.best_move = best_move.or(old.best_move);
                old.age = age;
            }
            Some(old) if old.key == key && old.depth > depth && old.age == age => {
                // A deeper result for the same position is worth more; keep it, but refresh
                // the move if it had none.
                old.best_move = old.best_move.or(best_move);
            }
            Some(old) if old.key != key && old.age == age && old.depth > depth => {}
            _ => *slot = Some(fresh),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: i32) -> Score {
        Score::heuristic(v)
    }

    #[test]
    fn bounds_of_one_depth_merge() {
        let mut tt = TranspositionTable::<u8>::with_entries(64);
        tt.store(42, 3, s(5), Score::INFINITY, Some(1));
        tt.store(42, 3, -Score::INFINITY, s(9), None);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best_move), (s(5), s(9), Some(1)));
        assert!(tt.probe(43).is_none(), "another key never reads this entry");
    }

    #[test]
    fn deeper_entries_survive_shallower_collisions_within_a_search() {
        let mut tt = TranspositionTable::<u8>::with_entries(1);
        tt.store(1, 5, s(0), s(0), Some(0));
        tt.store(2, 2, s(1), s(1), Some(1));
        assert_eq!(tt.probe(1).unwrap().depth, 5);
        assert!(tt.probe(2).is_none());
        tt.new_search();
        tt.store(2, 2, s(1), s(1), Some(1));
        assert_eq!(
            tt.probe(2).unwrap().depth,
            2,
            "entries of an old search are replaced"
        );
    }

    #[test]
    fn size_in_mib_gives_many_entries() {
        let tt = TranspositionTable::<u8>::new(1);
        assert!(tt.len() > 10_000, "{}", tt.len());
    }
}
