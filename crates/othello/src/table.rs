//! The endgame solver's transposition table: lock-free, shared by every thread of a solve,
//! verifying the full position (both bitboards, not only a hash) before it trusts an entry.
//!
//! Entries come in buckets of two, one cache line each: a probe costs at most one miss. An
//! entry holds the position, a lower and an upper bound on its exact score (disc difference,
//! side to move's view), the best move found and the number of empties it was solved at
//! (always the position's own), and whether a selective search found the bounds: those hold
//! only for the selective passes (ProbCut may have cut below them), and the exact search
//! takes only the move from such an entry.
//!
//! Each entry is three words written with relaxed atomics: `player ^ data`, `opponent ^
//! data` and `data`. A reader recomputes both bitboards from the words it read; if a write by
//! another thread tore the entry, they do not match the position probed (short of an
//! astronomically unlikely coincidence) and the entry is ignored. No `unsafe`, no locks.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use prune_search::{alloc_slice, TableAllocError};

use crate::board::bitboard_hash;

/// What a probe finds: bounds on the exact score and the best move's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score is at least this (-64 when nothing better is known).
    pub lower: i32,
    /// The score is at most this (64 when nothing better is known).
    pub upper: i32,
    /// The square (0-63) of the best move found, if any.
    pub best: Option<u32>,
    /// The bounds come from a selective search: they hold for selective searches only.
    pub selective: bool,
}

impl Entry {
    /// Whether a search may cut on these bounds: always a selective one; any other only if
    /// the bounds are not selective.
    #[inline(always)]
    pub fn bounds_hold(&self, selective_search: bool) -> bool {
        selective_search || !self.selective
    }
}

/// One entry: the position mixed with its data, and the data.
#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

/// Two entries on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// Marks a written entry (an all-zero slot is empty).
const VALID: u64 = 1 << 40;
/// Marks an entry whose bounds a selective search found.
const SELECTIVE: u64 = 1 << 41;
/// The move field's value when there is no move.
const NO_MOVE: u64 = 0xff;

/// The table (see the module documentation).
pub(crate) struct EndgameTable {
    buckets: Box<[Bucket]>,
    /// The current solve's number: entries of earlier solves are replaced first.
    age: u8,
}

/// Packs an entry's data word.
fn pack(lower: i32, upper: i32, best: Option<u32>, empties: u32, age: u8, selective: bool) -> u64 {
    let byte = |v: i32| u64::from(v as i8 as u8);
    (if selective { SELECTIVE } else { 0 })
        | byte(lower)
        | byte(upper) << 8
        | best.map_or(NO_MOVE, u64::from) << 16
        | u64::from(empties as u8) << 24
        | u64::from(age) << 32
        | VALID
}

/// Reads back a data word.
fn unpack(data: u64) -> Entry {
    let signed = |shift: u32| i32::from((data >> shift) as u8 as i8);
    let best = (data >> 16) & 0xff;
    Entry {
        lower: signed(0),
        upper: signed(8),
        best: (best != NO_MOVE).then_some(best as u32),
        selective: data & SELECTIVE != 0,
    }
}

/// The empties field of a data word.
fn empties_of(data: u64) -> u32 {
    ((data >> 24) & 0xff) as u32
}

/// The age field of a data word.
fn age_of(data: u64) -> u8 {
    (data >> 32) as u8
}

impl EndgameTable {
    /// A table of about `mib` MiB (at least one bucket), or an error if the machine cannot give
    /// that much memory.
    pub fn try_new(mib: usize) -> Result<Self, TableAllocError> {
        Self::try_with_bytes(mib.saturating_mul(1 << 20))
    }

    /// A table of about `bytes` bytes (at least one bucket), or an error if the machine cannot
    /// give that much memory.
    pub fn try_with_bytes(bytes: usize) -> Result<Self, TableAllocError> {
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Advised before the first write, while no page is mapped yet.
        let buckets = alloc_slice(len, |start, bytes| {
            prune_search::advise_huge_pages(start as usize, bytes)
        })?;
        Ok(EndgameTable { buckets, age: 0 })
    }

    /// Starts a new solve: what earlier solves stored stays valid but is replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for bucket in self.buckets.iter_mut() {
            *bucket = Bucket::default();
        }
    }

    /// The bucket of a position.
    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> &Bucket {
        &self.buckets[self.bucket_index(player, opponent)]
    }

    /// The index of the position's bucket: what [`EndgameTable::address`] and
    /// [`EndgameTable::probe_at`] take, for a caller that prefetches before it probes.
    #[inline]
    pub fn bucket_index(&self, player: u64, opponent: u64) -> usize {
        let h = bitboard_hash(player, opponent);
        ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Where the bucket `index` is, to prefetch it.
    #[inline]
    pub fn address(&self, index: usize) -> *const u8 {
        std::ptr::from_ref(&self.buckets[index]).cast()
    }

    /// The position's entry, if the table holds it.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        self.probe_at(self.bucket_index(player, opponent), player, opponent)
    }

    /// [`EndgameTable::probe`] with the position's bucket index already known.
    #[inline]
    pub fn probe_at(&self, index: usize, player: u64, opponent: u64) -> Option<Entry> {
        self.buckets[index].0.iter().find_map(|slot| {
            let data = slot.data.load(Relaxed);
            let found = data & VALID != 0
                && slot.player.load(Relaxed) ^ data == player
                && slot.opponent.load(Relaxed) ^ data == opponent;
            found.then(|| unpack(data))
        })
    }

    /// Records what a search of the position found (`selective`: a selective search, see
    /// [`Entry::selective`]). The position's own entry is overwritten; otherwise the entry of an
    /// earlier solve, or else the one with fewer empties, makes room.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &self,
        player: u64,
        opponent: u64,
        empties: u32,
        lower: i32,
        upper: i32,
        best: Option<u32>,
        selective: bool,
    ) {
        let bucket = self.bucket(player, opponent);
        let data = pack(lower, upper, best, empties, self.age, selective);
        let datas = [
            bucket.0[0].data.load(Relaxed),
            bucket.0[1].data.load(Relaxed),
        ];
        let holds = |k: usize| {
            datas[k] & VALID != 0
                && bucket.0[k].player.load(Relaxed) ^ datas[k] == player
                && bucket.0[k].opponent.load(Relaxed) ^ datas[k] == opponent
        };
        let worth = |k: usize| {
            let d = datas[k];
            if d & VALID == 0 {
                (0, 0)
            } else {
                (u32::from(age_of(d) == self.age) + 1, empties_of(d))
            }
        };
        let k = if holds(0) {
            0
        } else if holds(1) || worth(1) < worth(0) {
            1
        } else {
            0
        };
        let slot = &bucket.0[k];
        slot.player.store(player ^ data, Relaxed);
        slot.opponent.store(opponent ^ data, Relaxed);
        slot.data.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_with_their_bounds_and_move() {
        let mut table = EndgameTable::try_new(1).expect("a table of 1 MiB");
        table.new_search();
        table.store(0x10, 0x20, 30, -64, 12, Some(63), false);
        table.store(0x11, 0x20, 10, -3, 64, None, true);
        assert_eq!(
            table.probe(0x10, 0x20),
            Some(Entry {
                lower: -64,
                upper: 12,
                best: Some(63),
                selective: false
            })
        );
        assert_eq!(
            table.probe(0x11, 0x20),
            Some(Entry {
                lower: -3,
                upper: 64,
                best: None,
                selective: true
            })
        );
        // Same player discs, other opponent discs: a different position.
        assert_eq!(table.probe(0x10, 0x21), None);
        table.clear();
        assert_eq!(table.probe(0x10, 0x20), None);
    }

    #[test]
    fn every_position_is_verified_in_a_tiny_table() {
        // One bucket: every position lands in it; what comes back must be that position's.
        let table = EndgameTable {
            buckets: (0..1).map(|_| Bucket::default()).collect(),
            age: 1,
        };
        for i in 0..200u64 {
            let (p, o) = (i * 3 + 1, (i * 3 + 1) << 20);
            table.store(
                p,
                o,
                (i % 20) as u32,
                (i % 7) as i32 - 3,
                10,
                Some((i % 64) as u32),
                i % 3 == 0,
            );
            let e = table.probe(p, o).expect("just stored");
            assert_eq!(e.lower, (i % 7) as i32 - 3);
            assert_eq!(e.best, Some((i % 64) as u32));
            assert_eq!(e.selective, i % 3 == 0);
            for j in 0..i.saturating_sub(2) {
                let (q, r) = (j * 3 + 1, (j * 3 + 1) << 20);
                // An older position is either still there with its own data or gone.
                if let Some(e) = table.probe(q, r) {
                    assert_eq!(e.best, Some((j % 64) as u32));
                }
            }
        }
    }

    #[test]
    fn deeper_entries_of_the_current_solve_survive() {
        let table = EndgameTable {
            buckets: (0..1).map(|_| Bucket::default()).collect(),
            age: 1,
        };
        table.store(1, 2, 20, 0, 0, None, false);
        table.store(3, 4, 8, 0, 0, None, false);
        // Full: the shallower entry (8 empties) makes room.
        table.store(5, 6, 12, 0, 0, None, false);
        assert!(table.probe(1, 2).is_some());
        assert!(table.probe(3, 4).is_none());
        assert!(table.probe(5, 6).is_some());
    }
}
