//! [`TranspositionTable`]: a fixed-size hash table of search results, each entry a pair of
//! bounds (lower and upper) so that it serves both PVS-style and MTD(f)-style searches, and
//! shared by every thread of a parallel search.
//!
//! Replacement scheme (one entry per slot, slot chosen by the hash): a new result replaces the
//! slot's entry when the slot is empty, holds the same position, holds an entry from an older
//! search (a different age), or holds a result of no greater depth. Results for the same
//! position and depth are merged: the bounds are intersected, so two null-window searches
//! (MTD(f)'s passes) leave both of their bounds in the table.
//!
//! # Sharing between threads without locks
//!
//! A slot is three `AtomicU64` words: the bounds, the rest (move, depth, age, flags), and a
//! check word holding `key ^ bounds ^ rest`. Every access is a plain relaxed atomic load or
//! store (an ordinary `mov` on x86-64, so one thread pays nothing for it), with no `unsafe`.
//! Two threads writing the same slot at once may leave words of both writes; a reader then
//! finds `check ^ bounds ^ rest` different from its key and treats the slot as empty, exactly as
//! for a slot holding another position (the lockless scheme of Hyatt and Mann). A merge of
//! bounds (read, intersect, write) may lose a concurrent writer's update: a lost table entry,
//! never a wrong one.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::Score;

/// A table the machine could not allocate: how much was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot allocate a table of {} MiB ({bytes} bytes): not enough free memory; \
     ask for a smaller table",
    bytes.div_ceil(1 << 20)
)]
pub struct TableAllocError {
    /// The bytes asked for.
    pub bytes: usize,
}

/// Asks the kernel to back the `len` bytes at `start` with huge pages (2 MiB on x86-64) where
/// it can: a probe is a random access, which with 4 KiB pages likely misses the TLB too (huge
/// pages made the solver faster: docs/tuning.md). Linux only; elsewhere, and if the kernel
/// says no, nothing changes.
pub fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        // Only whole huge pages inside the allocation: aligned at both ends (which also
        // aligns to any base page size).
        const HUGE: usize = 2 << 20;
        let first = start.next_multiple_of(HUGE);
        let last = (start + len) & !(HUGE - 1);
        if last > first {
            #[allow(unsafe_code)]
            // SAFETY: the range lies inside one allocation that nothing else uses yet; this
            // advice changes how the memory is backed, never its contents or validity.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// A boxed slice of `len` default values, allocated fallibly (a size the machine cannot give is
/// an error, not an abort). `before_fill` sees the address and size in bytes of the memory
/// before anything is written to it (to advise the kernel how to back it).
pub fn alloc_slice<T: Default>(
    len: usize,
    before_fill: impl FnOnce(*const T, usize),
) -> Result<Box<[T]>, TableAllocError> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    let mut items = Vec::new();
    items
        .try_reserve_exact(len)
        .map_err(|_| TableAllocError { bytes })?;
    before_fill(items.as_ptr(), bytes);
    items.extend((0..len).map(|_| T::default()));
    Ok(items.into_boxed_slice())
}

/// A move as 32 bits, so that a table shared between threads can keep it in an atomic word.
pub trait MoveBits: Copy {
    /// The move's bits.
    fn to_bits(self) -> u32;
    /// The move with these bits (`None` if no move has them).
    fn from_bits(bits: u32) -> Option<Self>;
}

macro_rules! move_bits_for_integers {
    ($($t:ty),*) => {$(
        impl MoveBits for $t {
            fn to_bits(self) -> u32 {
                self as u32
            }
            fn from_bits(bits: u32) -> Option<Self> {
                <$t>::try_from(bits).ok()
            }
        }
    )*};
}

move_bits_for_integers!(u8, u16, u32, usize);

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

/// The largest depth stored as such; deeper ones (and [`u32::MAX`], "exhaustive") saturate to
/// this, which still compares as deeper than any real search depth.
const MAX_STORED_DEPTH: u32 = u16::MAX as u32;

/// Flags of the `rest` word.
const OCCUPIED: u64 = 1;
const HAS_MOVE: u64 = 2;

/// One slot: three words (see the module documentation).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    bounds: AtomicU64,
    rest: AtomicU64,
}

/// The words of an entry.
fn encode<M: MoveBits>(e: &TtEntry<M>) -> (u64, u64) {
    let bounds = (u64::from(e.lower.raw() as u32) << 32) | u64::from(e.upper.raw() as u32);
    let (mv, has) = match e.best_move {
        Some(m) => (u64::from(m.to_bits()), HAS_MOVE),
        None => (0, 0),
    };
    let depth = u64::from(e.depth.min(MAX_STORED_DEPTH));
    let rest = (mv << 32) | (depth << 16) | (u64::from(e.age) << 8) | has | OCCUPIED;
    (bounds, rest)
}

/// The entry of words `bounds` and `rest` for `key`.
fn decode<M: MoveBits>(key: u64, bounds: u64, rest: u64) -> TtEntry<M> {
    let depth = ((rest >> 16) & 0xffff) as u32;
    TtEntry {
        key,
        depth: if depth == MAX_STORED_DEPTH {
            u32::MAX
        } else {
            depth
        },
        lower: Score::from_raw((bounds >> 32) as u32 as i32),
        upper: Score::from_raw(bounds as u32 as i32),
        best_move: if rest & HAS_MOVE != 0 {
            M::from_bits((rest >> 32) as u32)
        } else {
            None
        },
        age: (rest >> 8) as u8,
    }
}

impl Clone for Slot {
    fn clone(&self) -> Self {
        let word = |w: &AtomicU64| AtomicU64::new(w.load(Relaxed));
        Slot {
            check: word(&self.check),
            bounds: word(&self.bounds),
            rest: word(&self.rest),
        }
    }
}

/// The entry `slot` holds for `key` (if its check word matches), and its `rest` word (for the
/// replacement decision when it holds another position): each word loaded once.
fn read<M: MoveBits>(slot: &Slot, key: u64) -> (Option<TtEntry<M>>, u64) {
    let bounds = slot.bounds.load(Relaxed);
    let rest = slot.rest.load(Relaxed);
    let check = slot.check.load(Relaxed);
    let found = rest & OCCUPIED != 0 && check ^ bounds ^ rest == key;
    (found.then(|| decode(key, bounds, rest)), rest)
}

/// A transposition table of a fixed number of entries, shareable between threads (`&self`
/// probes and stores).
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    slots: Box<[Slot]>,
    age: u8,
    moves: PhantomData<fn() -> M>,
}

impl<M: MoveBits> TranspositionTable<M> {
    /// A table of about `size_mib` MiB (at least one entry), or an error if the machine cannot
    /// give that much memory.
    pub fn new(size_mib: usize) -> Result<Self, TableAllocError> {
        let bytes = size_mib.saturating_mul(1 << 20);
        Self::with_entries(bytes / std::mem::size_of::<Slot>())
    }

    /// A table of as many entries as fit in `bytes` (at least one), for small tables that
    /// should stay in the caches; an error if the machine cannot give the memory.
    pub fn with_bytes(bytes: usize) -> Result<Self, TableAllocError> {
        Self::with_entries(bytes / std::mem::size_of::<Slot>())
    }

    /// A table of exactly `len` entries (at least one), or an error if the machine cannot give
    /// that much memory.
    pub fn with_entries(len: usize) -> Result<Self, TableAllocError> {
        Ok(TranspositionTable {
            slots: alloc_slice(len.max(1), |start, bytes| {
                advise_huge_pages(start as usize, bytes)
            })?,
            age: 0,
            moves: PhantomData,
        })
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
        for slot in self.slots.iter_mut() {
            *slot = Slot::default();
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// Asks the processor to bring the slot of `key` into its caches, without waiting: called
    /// as soon as a child's key is known, the memory access overlaps the work before its
    /// probe (a probe of a large table is a cache miss most of the time). Only on x86-64;
    /// elsewhere it does nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const Slot = self.slot(key);
            #[allow(unsafe_code)]
            // SAFETY: SSE, which the intrinsic needs, is part of every x86-64 processor; a
            // prefetch reads nothing into the program and cannot fault, and the address is
            // that of a slot of this table anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(slot.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for the position with hash `key`, if the table holds one (and no concurrent
    /// write tore it).
    pub fn probe(&self, key: u64) -> Option<TtEntry<M>> {
        read(self.slot(key), key).0
    }

    /// Records the result of a search of depth `depth` that found `lower <= value <= upper`.
    pub fn store(&self, key: u64, depth: u32, lower: Score, upper: Score, best_move: Option<M>) {
        let age = self.age;
        let slot = self.slot(key);
        let fresh = TtEntry {
            key,
            depth,
            lower,
            upper,
            best_move,
            age,
        };
        let stored = depth.min(MAX_STORED_DEPTH);
        let (found, rest) = read(slot, key);
        let entry = match found {
            Some(old) if old.depth.min(MAX_STORED_DEPTH) == stored => {
                let (lo, up) = (old.lower.max(lower), old.upper.min(upper));
                let (lower, upper) = if lo <= up { (lo, up) } else { (lower, upper) };
                TtEntry {
                    lower,
                    upper,
                    best_move: best_move.or(old.best_move),
                    ..fresh
                }
            }
            // A deeper result for the same position is worth more; keep it, but give it the
            // move if it had none.
            Some(old) if old.depth > depth && old.age == age => {
                if old.best_move.is_some() || best_move.is_none() {
                    return;
                }
                TtEntry { best_move, ..old }
            }
            Some(_) => fresh,
            None => {
                // Another position (or nothing): keep it if it is deeper and of this search.
                let other_depth = ((rest >> 16) & 0xffff) as u32;
                let other_age = (rest >> 8) as u8;
                if rest & OCCUPIED != 0 && other_age == age && other_depth > stored {
                    return;
                }
                fresh
            }
        };
        let (bounds, rest) = encode(&entry);
        slot.bounds.store(bounds, Relaxed);
        slot.rest.store(rest, Relaxed);
        slot.check.store(key ^ bounds ^ rest, Relaxed);
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
        let tt = TranspositionTable::<u8>::with_entries(64).unwrap();
        tt.store(42, 3, s(5), Score::INFINITY, Some(1));
        tt.store(42, 3, -Score::INFINITY, s(9), None);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best_move), (s(5), s(9), Some(1)));
        assert!(tt.probe(43).is_none(), "another key never reads this entry");
    }

    #[test]
    fn deeper_entries_survive_shallower_collisions_within_a_search() {
        let mut tt = TranspositionTable::<u8>::with_entries(1).unwrap();
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
    fn entries_round_trip_through_the_words() {
        let tt = TranspositionTable::<u32>::with_entries(8).unwrap();
        for (key, depth, lo, up, mv) in [
            (0u64, 0u32, -Score::INFINITY, Score::INFINITY, None),
            (
                7,
                u32::MAX,
                Score::exact(-64),
                Score::exact(-64),
                Some(u32::MAX),
            ),
            (u64::MAX, 40, s(-999_999), s(999_999), Some(0)),
        ] {
            tt.store(key, depth, lo, up, mv);
            let e = tt.probe(key).unwrap();
            assert_eq!(
                (e.depth, e.lower, e.upper, e.best_move),
                (depth, lo, up, mv)
            );
        }
        let empty = TranspositionTable::<u32>::with_entries(4).unwrap();
        assert!(
            empty.probe(0).is_none(),
            "an empty slot matches no key, not even 0"
        );
    }

    #[test]
    fn a_table_larger_than_the_address_space_is_an_error_that_says_its_size() {
        // 2^27 MiB = 128 TiB: more than a 64-bit process can map, so refused on any machine.
        let err = TranspositionTable::<u8>::new(1 << 27).unwrap_err();
        assert!(
            err.bytes <= 1 << 47 && err.bytes > (1 << 47) - 64,
            "{}",
            err.bytes
        );
        let text = err.to_string();
        assert!(
            text.contains("134217728 MiB") && text.contains("smaller"),
            "{text}"
        );
        assert!(TranspositionTable::<u8>::with_entries(usize::MAX / 2).is_err());
    }

    #[test]
    fn size_in_mib_gives_many_entries() {
        let tt = TranspositionTable::<u8>::new(1).unwrap();
        assert!(tt.len() > 40_000, "{}", tt.len());
    }

    /// Threads hammer a tiny table with entries whose bounds are a function of the key; every
    /// probe must return either nothing or a consistent entry (never a torn mix).
    #[test]
    fn concurrent_writers_never_produce_a_torn_entry() {
        let tt = TranspositionTable::<u32>::with_entries(4).unwrap();
        let value = |key: u64| (key % 1000) as i32;
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i * 4 + t).wrapping_mul(crate::rng::GOLDEN_GAMMA);
                        let v = value(key);
                        tt.store(key, (key % 7) as u32, s(v), s(v), Some(v as u32));
                        let probe = key ^ 0x5555;
                        if let Some(e) = tt.probe(probe) {
                            let v = value(probe);
                            assert_eq!(
                                (e.lower, e.upper, e.best_move),
                                (s(v), s(v), Some(v as u32))
                            );
                        }
                        if let Some(e) = tt.probe(key) {
                            assert_eq!(
                                (e.lower, e.upper, e.best_move),
                                (s(v), s(v), Some(v as u32))
                            );
                        }
                    }
                });
            }
        });
    }
}
