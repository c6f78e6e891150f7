//! The solver's transposition table: one 64-bit word per entry holding the whole position key,
//! a bound on its score and the best column found, so a probe never mistakes one position for
//! another and threads can share the table without locks (a word is read and written whole).

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

/// A table of `2^bits` one-word entries, always replaced.
pub struct Table {
    words: Box<[AtomicU64]>,
    shift: u32,
}

impl Table {
    /// The default size, 2²³ entries (64 MiB), ample for the hardest test set.
    pub const DEFAULT_BITS: u32 = 23;

    /// A table of `2^bits` entries (`bits` in 10..=32), or why it could not be allocated.
    pub fn try_new(bits: u32) -> Result<Table, TableAllocError> {
        let bits = bits.clamp(10, 32);
        let words = alloc_slice::<AtomicU64>(1usize << bits, |start, bytes| {
            advise_huge_pages(start as usize, bytes)
        })?;
        Ok(Table {
            words,
            shift: 64 - bits,
        })
    }

    /// A table with `bytes` of memory at most (rounded down to a power of two entries).
    pub fn try_with_bytes(bytes: usize) -> Result<Table, TableAllocError> {
        let entries = (bytes / 8).max(1 << 10);
        Table::try_new(usize::BITS - 1 - entries.leading_zeros())
    }

    /// The memory the table takes, in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        &self.words[i]
    }

    /// Starts loading `key`'s slot into the cache, so that a probe soon after finds it there
    /// (a probe is a random access into a table far larger than the cache: waiting for memory
    /// is most of a node's time without this).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const AtomicU64 = self.slot(key);
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
        let _ = key;
    }

    /// What is stored about `key`.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let word = self.slot(key).load(Ordering::Relaxed);
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

    /// Records that `key`'s score is at most `score` (`lower == false`) or at least `score`.
    #[inline(always)]
    pub fn store(&self, key: u64, score: i32, lower: bool, best: Option<u8>) {
        let byte = (score + SCORE_OFFSET) as u64 | if lower { LOWER } else { 0 };
        let column = best.map_or(0, |c| u64::from(c) + 1);
        let word = key | byte << BOUND_SHIFT | column << MOVE_SHIFT;
        self.slot(key).store(word, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_other_keys_miss() {
        let table = Table::try_new(12).unwrap();
        let key = (1 << 48) | 12345;
        assert_eq!(table.probe(key), None);
        table.store(key, -7, false, Some(3));
        let e = table.probe(key).unwrap();
        assert_eq!((e.upper, e.lower, e.best), (Some(-7), None, Some(3)));
        table.store(key, 18, true, None);
        let e = table.probe(key).unwrap();
        assert_eq!((e.upper, e.lower, e.best), (None, Some(18), None));
        assert_eq!(table.probe(key ^ 1 << 40), None);
        table.store(0, 0, false, Some(0));
        assert_eq!(table.probe(0).unwrap().upper, Some(0));
        table.clear();
        assert_eq!(table.probe(0), None);
    }
}
