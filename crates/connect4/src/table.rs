//! The solver's transposition table: one 64-bit word per entry holding the whole position key,
//! a bound on its score and the best column found, so a probe never mistakes one position for
//! another and threads can share the table without locks (a word is read and written whole).
//!
//! It has two parts. The large one ("far") holds the positions near the root, whose subtrees
//! are large; a small one ("near", 4 MiB at most) holds the positions deep in the tree, which
//! are most of the nodes and whose entries are cheap to lose: small enough to stay in the
//! processor's cache, where a probe costs a fraction of a trip to memory. Which part a
//! position goes to is the caller's choice ([`Part`]).

use std::sync::atomic::{AtomicU64, Ordering};

use prune_search::{advise_huge_pages, alloc_slice, TableAllocError};

/// Bits of the position key (keys are below 2⁴⁹).
const KEY_BITS: u32 = 49;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Where the bound's byte starts.
const BOUND_SHIFT: u32 = KEY_BITS;
/// Where the best column (plus one; 0 for none) starts.
const MOVE_SHIFT: u32 = KEY_BITS + 8;
/// Offset that keeps an encoded score above zero (scores lie in −21..=21).
const SCORE_OFFSET: i32 = 64;
/// The flag of a lower bound in the bound's byte.
const LOWER: u64 = 0x80;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score is at most this (an upper bound), if known.
    pub upper: Option<i32>,
    /// The score is at least this (a lower bound), if known.
    pub lower: Option<i32>,
    /// The column that last refuted a window here (0..7), if any.
    pub best: Option<u8>,
}

/// The part of the table an entry lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The large part, for positions near the root.
    Far,
    /// The small, cache-sized part, for positions deep in the tree.
    Near,
}

/// One part: `2^bits` one-word entries, always replaced.
struct Slots {
    words: Box<[AtomicU64]>,
    shift: u32,
}

impl Slots {
    fn try_new(bits: u32) -> Result<Slots, TableAllocError> {
        let words = alloc_slice::<AtomicU64>(1usize << bits, |start, bytes| {
            advise_huge_pages(start as usize, bytes)
        })?;
        Ok(Slots {
            words,
            shift: 64 - bits,
        })
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        &self.words[i]
    }
}

/// The two parts of the table.
pub struct Table {
    far: Slots,
    near: Slots,
}

impl Table {
    /// The default size of the far part, 2²³ entries (64 MiB), ample for the hardest test set.
    pub const DEFAULT_BITS: u32 = 23;

    /// The largest near part, 2¹⁹ entries (4 MiB): measured fastest on a machine with 2 MiB
    /// of level-2 cache per core and 32 MiB of level 3 (docs/connect4.md).
    pub const NEAR_BITS: u32 = 19;

    /// A table whose far part has `2^bits` entries (`bits` in 10..=32) and whose near part
    /// has `2^min(bits, NEAR_BITS)`, or why it could not be allocated.
    pub fn try_new(bits: u32) -> Result<Table, TableAllocError> {
        let bits = bits.clamp(10, 32);
        Ok(Table {
            far: Slots::try_new(bits)?,
            near: Slots::try_new(bits.min(Self::NEAR_BITS))?,
        })
    }

    /// A table whose far part takes at most `bytes` (rounded down to a power of two entries;
    /// the near part comes on top, 4 MiB at most).
    pub fn try_with_bytes(bytes: usize) -> Result<Table, TableAllocError> {
        let entries = (bytes / 8).max(1 << 10);
        Table::try_new(usize::BITS - 1 - entries.leading_zeros())
    }

    /// The memory the table takes, both parts, in bytes.
    pub fn bytes(&self) -> usize {
        (self.far.words.len() + self.near.words.len()) * 8
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for w in self.far.words.iter().chain(self.near.words.iter()) {
            w.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64, part: Part) -> &AtomicU64 {
        match part {
            Part::Far => self.far.slot(key),
            Part::Near => self.near.slot(key),
        }
    }

    /// Starts loading `key`'s slot into the cache, so that a probe soon after finds it there
    /// (a probe is a random access into a table far larger than the cache: waiting for memory
    /// is most of a node's time without this).
    #[inline(always)]
    pub fn prefetch(&self, key: u64, part: Part) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const AtomicU64 = self.slot(key, part);
            // SAFETY: SSE is part of x86-64, so the instruction exists on every machine this
            // code runs on, and a prefetch only hints the cache: it reads nothing into the
            // program and never faults, whatever the address.
            #[allow(unsafe_code)]
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(slot.cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, part);
    }

    /// What is stored about `key` in `part`.
    #[inline(always)]
    pub fn probe(&self, key: u64, part: Part) -> Option<Entry> {
        let word = self.slot(key, part).load(Ordering::Relaxed);
        if word & KEY_MASK != key || word >> BOUND_SHIFT == 0 {
            return None;
        }
        let byte = (word >> BOUND_SHIFT) & 0xFF;
        let score = (byte & !LOWER) as i32 - SCORE_OFFSET;
        let column = ((word >> MOVE_SHIFT) & 0xF) as u8;
        Some(Entry {
            upper: (byte & LOWER == 0).then_some(score),
            lower: (byte & LOWER != 0).then_some(score),
            best: column.checked_sub(1),
        })
    }

    /// Records in `part` that `key`'s score is at most `score` (`lower == false`) or at least
    /// `score`.
    #[inline(always)]
    pub fn store(&self, key: u64, part: Part, score: i32, lower: bool, best: Option<u8>) {
        let byte = (score + SCORE_OFFSET) as u64 | if lower { LOWER } else { 0 };
        let column = best.map_or(0, |c| u64::from(c) + 1);
        let word = key | byte << BOUND_SHIFT | column << MOVE_SHIFT;
        self.slot(key, part).store(word, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_other_keys_miss() {
        let table = Table::try_new(12).unwrap();
        let key = (1 << 48) | 12345;
        for part in [Part::Far, Part::Near] {
            assert_eq!(table.probe(key, part), None);
            table.store(key, part, -7, false, Some(3));
            let e = table.probe(key, part).unwrap();
            assert_eq!((e.upper, e.lower, e.best), (Some(-7), None, Some(3)));
            table.store(key, part, 18, true, None);
            let e = table.probe(key, part).unwrap();
            assert_eq!((e.upper, e.lower, e.best), (None, Some(18), None));
            assert_eq!(table.probe(key ^ 1 << 40, part), None);
            table.store(0, part, 0, false, Some(0));
            assert_eq!(table.probe(0, part).unwrap().upper, Some(0));
        }
        table.clear();
        assert_eq!(table.probe(0, Part::Far), None);
        assert_eq!(table.probe(key, Part::Near), None);
        assert_eq!(table.bytes(), 2 * (8 << 12));
    }
}
