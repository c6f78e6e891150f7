//! The mate solver's table: positions by their board (and side to move), each board with the
//! attacker's hands it was searched with. A proof holds for every hand that holds at least
//! as much of each kind (the defender then holds less: the same moves still mate), a
//! disproof for every hand that holds at most as much.

use std::collections::{hash_map, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of the table's map: its keys are Zobrist keys, random already, so the key is
/// its own hash.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A proof or disproof number.
pub(super) type Number = u32;

/// The infinite number: a proof number there means disproved, a disproof number proved.
pub(super) const INFINITE: Number = Number::MAX / 2;

/// The largest number an unsettled position carries. Sums of numbers over a graph with
/// transpositions count some positions many times and can grow without bound; one that
/// reached [`INFINITE`] unsettled would meet the root's threshold, and the root's search
/// would return at once, again and again, until the limits (seen on Zuko #48 and #39). Held
/// here, such a number stays below the root's threshold: the root's search goes on until a
/// verdict or the limits.
pub(super) const MOST: Number = INFINITE - 1;

/// The attacker's hand, by hand index (pawn .. rook).
pub(super) type Hand = [u8; 7];

/// A search depth in plies: how many plies a proof may still use. [`UNLIMITED`] for none.
pub(super) type Plies = u16;

/// No limit on plies (a disproof that holds however deep one looks).
pub(super) const UNLIMITED: Plies = Plies::MAX;

/// Whether `hand` holds at least as much of every kind as `other`.
#[inline]
pub(super) fn covers(hand: &Hand, other: &Hand) -> bool {
    hand.iter().zip(other).all(|(a, b)| a >= b)
}

/// What is known of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    /// The proof number (0: proved).
    pub pn: Number,
    /// The disproof number (0: disproved).
    pub dn: Number,
    /// Proved: the plies of the mate found. Disproved: the plies within which there is
    /// surely no mate ([`UNLIMITED`]: none at all). Unsettled, in the table: the plies left
    /// it was searched with (see [`horizon`]).
    pub plies: Plies,
    /// Disproved only by a repetition on the current path: true for this path alone, never
    /// stored.
    pub path_only: bool,
    /// Settled: the attacker's hand the verdict holds for (a proof for every hand that
    /// covers it, a disproof for every hand it covers); unsettled: unused.
    pub hand: Hand,
}

impl Numbers {
    /// A position not searched yet.
    pub const UNKNOWN: Numbers = Numbers {
        pn: 1,
        dn: 1,
        plies: 0,
        path_only: false,
        hand: [0; 7],
    };

    /// Proved, with a mate in `plies`, for every hand that covers `hand`.
    pub fn proved(plies: Plies, hand: Hand) -> Numbers {
        Numbers {
            pn: 0,
            dn: INFINITE,
            plies,
            path_only: false,
            hand,
        }
    }

    /// Disproved within `plies` for every hand `hand` covers (for this path only with
    /// `path_only`).
    pub fn disproved(plies: Plies, path_only: bool, hand: Hand) -> Numbers {
        Numbers {
            pn: INFINITE,
            dn: 0,
            plies,
            path_only,
            hand,
        }
    }

    /// Unsettled numbers (each at most [`MOST`]).
    pub fn open(pn: Number, dn: Number) -> Numbers {
        Numbers {
            pn: pn.min(MOST),
            dn: dn.min(MOST),
            ..Numbers::UNKNOWN
        }
    }

    /// Whether settled.
    pub fn is_settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether proved.
    pub fn is_proved(&self) -> bool {
        self.pn == 0
    }

    /// Whether disproved.
    pub fn is_disproved(&self) -> bool {
        self.dn == 0
    }
}

/// One position's entry: the attacker's hand and what is known with it (settled: the hand
/// of the verdict, the same as the numbers').
#[derive(Clone, Copy, Debug)]
struct Entry {
    hand: Hand,
    numbers: Numbers,
}

/// A board's entries: most boards are searched with one hand only, kept in place (no
/// allocation, no second memory access); more go to a list.
#[derive(Clone, Debug)]
enum Entries {
    One(Entry),
    Many(Vec<Entry>),
}

impl Entries {
    /// The entries, as a slice.
    #[inline]
    fn as_slice(&self) -> &[Entry] {
        match self {
            Entries::One(e) => std::slice::from_ref(e),
            Entries::Many(v) => v,
        }
    }

    /// The entries, as a mutable slice.
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [Entry] {
        match self {
            Entries::One(e) => std::slice::from_mut(e),
            Entries::Many(v) => v,
        }
    }

    /// Adds `entry`.
    fn push(&mut self, entry: Entry) {
        match self {
            Entries::One(e) => *self = Entries::Many(vec![*e, entry]),
            Entries::Many(v) => v.push(entry),
        }
    }

    /// Removes the entry at `i` (the last takes its place) of a board with more than one.
    fn swap_remove(&mut self, i: usize) {
        match self {
            Entries::One(_) => unreachable!("a board keeps at least one entry"),
            Entries::Many(v) => {
                v.swap_remove(i);
            }
        }
    }

    /// Keeps the entries that pass `keep`; false if none is left.
    fn retain(&mut self, keep: impl Fn(&Entry) -> bool) -> bool {
        match self {
            Entries::One(e) => keep(e),
            Entries::Many(v) => {
                v.retain(keep);
                match v.len() {
                    0 => false,
                    1 => {
                        *self = Entries::One(v[0]);
                        true
                    }
                    _ => true,
                }
            }
        }
    }
}

/// The plies left that an unsettled entry is kept for: one entry for each number up to
/// [`FAR`], one for all from there on. A search within a few plies and one within many see
/// different numbers for the same position (a proof number small where a mate is near, though
/// none may fit in the few); sharing one entry, each overwrote the other's and a shortest
/// solve could go round the same positions for good (musou-071 two plies in: no verdict on
/// a mate within 21 plies in 20 M nodes; kept apart, 0.19 M). The first, unlimited search
/// (from [`UNLIMITED`] down) still shares its transpositions.
fn horizon(plies: Plies) -> Plies {
    plies.min(FAR)
}

/// The plies left from which the unsettled entries of one position are one ([`horizon`]).
const FAR: Plies = 2048;

/// The most entries one board keeps (the least useful unsettled one makes room).
const PER_BOARD: usize = 1000000;
const _: () = assert!(PER_BOARD > 1, "a board with one entry never gives it up");

/// A set of Zobrist keys (hashed by [`KeyHasher`]).
pub(super) type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// The table.
pub(super) struct Table {
    boards: HashMap<u64, Entries, BuildHasherDefault<KeyHasher>>,
    entries: usize,
    max_entries: usize,
    /// On a thread's copy ([`Table::copy_to_absorb`]): the boards a verdict was stored to
    /// since the copy.
    written: Option<Vec<u64>>,
}

impl Table {
    /// An empty table that keeps at most `max_entries` entries (past that its unsettled
    /// entries are dropped).
    pub fn new(max_entries: usize) -> Table {
        Table {
            boards: HashMap::default(),
            entries: 0,
            max_entries,
            written: None,
        }
    }

    /// A copy of this table for another thread, which notes the boards it stores verdicts
    /// to, so that [`Table::absorb`] reads back only those.
    pub fn copy_to_absorb(&self) -> Table {
        Table {
            boards: self.boards.clone(),
            entries: self.entries,
            max_entries: self.max_entries,
            written: Some(Vec::new()),
        }
    }

    /// The entries kept.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// What is known of the position of board `key` with the attacker's `hand`, for a search
    /// that may use `plies` more plies: a proof of at most `plies` with a hand `hand` covers,
    /// a disproof within at least `plies` with a hand that covers `hand`, else the numbers
    /// last stored for exactly this hand and these plies left ([`horizon`]).
    pub fn get(&self, key: u64, hand: &Hand, plies: Plies) -> Numbers {
        self.find(key, hand, plies).unwrap_or(Numbers {
            hand: *hand,
            ..Numbers::UNKNOWN
        })
    }

    /// As [`Table::get`], `None` when the table knows nothing of the position.
    pub fn find(&self, key: u64, hand: &Hand, plies: Plies) -> Option<Numbers> {
        let entries = self.boards.get(&key)?;
        let mut found = None;
        for e in entries.as_slice() {
            let n = e.numbers;
            if n.is_proved() {
                if n.plies <= plies && covers(hand, &e.hand) {
                    return Some(n);
                }
            } else if n.is_disproved() {
                if n.plies >= plies && covers(&e.hand, hand) {
                    return Some(n);
                }
            } else if e.hand == *hand && horizon(n.plies) == horizon(plies) {
                found = Some(Numbers { hand: *hand, ..n });
            }
        }
        found
    }

    /// The shortest mate known for the position (any length), if proved.
    pub fn proof(&self, key: u64, hand: &Hand) -> Option<Plies> {
        // (A proof is kept with the least hand it needs.)
        self.boards
            .get(&key)?
            .as_slice()
            .iter()
            .filter(|e| e.numbers.is_proved() && covers(hand, &e.hand))
            .map(|e| e.numbers.plies)
            .min()
    }

    /// Keeps what a search learned of a position searched with the attacker's `hand` (a
    /// verdict is kept with its own hand; never a path-only disproof).
    pub fn store(&mut self, key: u64, hand: &Hand, numbers: Numbers) {
        debug_assert!(!numbers.path_only);
        let hand = if numbers.is_settled() {
            &numbers.hand
        } else {
            hand
        };
        if self.entries >= self.max_entries {
            self.forget_unsettled();
        }
        let entry = Entry {
            hand: *hand,
            numbers,
        };
        // (Only verdicts are read back: see `absorb`.)
        if let Some(written) = self.written.as_mut().filter(|_| numbers.is_settled()) {
            written.push(key);
        }
        let entries = match self.boards.entry(key) {
            hash_map::Entry::Vacant(v) => {
                v.insert(Entries::One(entry));
                self.entries += 1;
                return;
            }
            hash_map::Entry::Occupied(o) => o.into_mut(),
        };
        let settled = |n: &Numbers| n.is_proved() || n.is_disproved();
        // The entry this one replaces: the same hand, unsettled (numbers move on) or a
        // settled one of the same kind that says less.
        let same = entries.as_slice().iter().position(|e| {
            e.hand == *hand
                && match (settled(&e.numbers), settled(&numbers)) {
                    (false, false) => horizon(e.numbers.plies) == horizon(numbers.plies),
                    (true, true) if numbers.is_proved() => {
                        e.numbers.is_proved() && numbers.plies <= e.numbers.plies
                    }
                    (true, true) => e.numbers.is_disproved() && numbers.plies >= e.numbers.plies,
                    _ => false,
                }
        });
        if let Some(i) = same {
            entries.as_mut_slice()[i].numbers = numbers;
            return;
        }
        if entries.as_slice().len() >= PER_BOARD {
            // Room made by the unsettled entry searched least (else the oldest entry).
            let victim = entries
                .as_slice()
                .iter()
                .enumerate()
                .filter(|(_, e)| !settled(&e.numbers))
                .min_by_key(|(_, e)| e.numbers.pn.min(e.numbers.dn))
                .map_or(0, |(i, _)| i);
            entries.swap_remove(victim);
            self.entries -= 1;
        }
        entries.push(entry);
        self.entries += 1;
    }

    /// Keeps the verdicts `other` holds (a thread's copy of this table, searched on; of a
    /// [`Table::copy_to_absorb`], only the boards it stored to): its unsettled numbers are
    /// left out.
    pub fn absorb(&mut self, other: Table) {
        let mut keep = |key: u64, entries: &Entries| {
            for e in entries.as_slice() {
                if e.numbers.is_settled() {
                    self.store(key, &e.hand, e.numbers);
                }
            }
        };
        match other.written {
            Some(mut written) => {
                written.sort_unstable();
                written.dedup();
                for key in written {
                    if let Some(entries) = other.boards.get(&key) {
                        keep(key, entries);
                    }
                }
            }
            None => {
                for (key, entries) in &other.boards {
                    keep(*key, entries);
                }
            }
        }
    }

    /// Drops every unsettled entry (proofs and disproofs stay); if the settled ones still
    /// fill more than half the table, the disproofs go too.
    fn forget_unsettled(&mut self) {
        self.keep(|n| n.is_proved() || n.is_disproved());
        if self.entries > self.max_entries / 2 {
            self.keep(Numbers::is_proved);
        }
    }

    /// Keeps only the entries whose numbers pass `keep`.
    fn keep(&mut self, keep: impl Fn(&Numbers) -> bool) {
        let mut kept = 0;
        self.boards.retain(|_, entries| {
            let any = entries.retain(|e| keep(&e.numbers));
            if any {
                kept += entries.as_slice().len();
            }
            any
        });
        self.entries = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One hand on a board is kept in place, a second makes a list, and a full table forgets
    /// its unsettled entries first: the verdicts stay findable, with the hands they cover.
    #[test]
    fn a_board_keeps_its_hands_and_a_full_table_forgets_the_unsettled_first() {
        let mut t = Table::new(4);
        let (a, b, c, ab) = (
            [1, 0, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0, 0],
            [2, 0, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0, 0],
        );
        let numbers = |n: Option<Numbers>| n.map(|n| (n.pn, n.dn));
        // Unsettled numbers as the search stores them: with the plies left.
        let open = |pn, dn| Numbers {
            plies: 10,
            ..Numbers::open(pn, dn)
        };
        t.store(7, &a, open(3, 5));
        assert_eq!(numbers(t.find(7, &a, 10)), Some((3, 5)));
        assert_eq!(t.find(7, &a, 8), None, "searched with 10 plies left, not 8");
        assert_eq!(t.find(7, &b, 10), None);
        t.store(7, &b, Numbers::proved(5, b));
        assert!(t.find(7, &ab, 5).is_some_and(|n| n.is_proved()));
        assert_eq!(t.find(7, &ab, 4), None, "a proof in 5 is no proof within 4");
        assert_eq!(
            numbers(t.find(7, &a, 10)),
            Some((3, 5)),
            "a does not cover b"
        );
        t.store(7, &a, open(4, 6));
        assert_eq!(numbers(t.find(7, &a, 10)), Some((4, 6)));
        assert_eq!(t.len(), 2);
        t.store(8, &a, open(1, 1));
        t.store(9, &a, Numbers::disproved(UNLIMITED, false, c));
        assert_eq!(t.len(), 4);
        // Full: the unsettled entries go (board 8 altogether), the verdicts stay.
        t.store(10, &a, open(2, 2));
        assert_eq!(t.len(), 3);
        assert_eq!(t.find(8, &a, 10), None);
        assert_eq!(t.find(7, &a, 10), None);
        assert!(t.find(7, &b, 5).is_some_and(|n| n.is_proved()));
        assert!(t.find(9, &a, 3).is_some_and(|n| n.is_disproved()));
        assert_eq!(numbers(t.find(10, &a, 10)), Some((2, 2)));
    }

    /// A thread's copy, searched on, gives its verdicts back (with their hands and plies);
    /// its unsettled numbers stay behind, and the verdicts already held are not doubled.
    #[test]
    fn a_copy_gives_back_its_verdicts_only() {
        let (a, b) = ([1, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0]);
        let open = |pn, dn| Numbers {
            plies: 9,
            ..Numbers::open(pn, dn)
        };
        let mut t = Table::new(100);
        t.store(1, &a, Numbers::proved(3, a));
        t.store(2, &a, open(5, 5));
        let mut copy = t.copy_to_absorb();
        copy.store(2, &a, Numbers::disproved(9, false, b));
        copy.store(3, &a, open(2, 7));
        copy.store(4, &b, Numbers::proved(5, b));
        t.absorb(copy);
        assert!(t.find(1, &a, 3).is_some_and(|n| n.is_proved()));
        assert!(t.find(2, &a, 9).is_some_and(|n| n.is_disproved()));
        assert_eq!(t.find(3, &a, 9), None, "an unsettled entry stays behind");
        assert!(t.find(4, &b, 5).is_some_and(|n| n.is_proved()));
        assert_eq!(t.len(), 4, "1 once; 2 open and disproved; 4");
    }

    /// Unsettled numbers are kept apart by the plies left, up to [`FAR`]; beyond, as one.
    #[test]
    fn unsettled_entries_are_kept_by_the_plies_left_up_to_far() {
        let mut t = Table::new(100);
        let hand = [0; 7];
        let open = |plies, pn| Numbers {
            plies,
            ..Numbers::open(pn, 1)
        };
        let pn = |t: &Table, plies| t.find(1, &hand, plies).map(|n| n.pn);
        t.store(1, &hand, open(9, 3));
        t.store(1, &hand, open(7, 5));
        assert_eq!((pn(&t, 9), pn(&t, 7), pn(&t, 5)), (Some(3), Some(5), None));
        t.store(1, &hand, open(9, 4));
        assert_eq!(
            (pn(&t, 9), pn(&t, 7)),
            (Some(4), Some(5)),
            "9 replaced, 7 kept"
        );
        t.store(1, &hand, open(FAR + 100, 6));
        assert_eq!(pn(&t, FAR), Some(6), "past FAR, one entry");
        assert_eq!(pn(&t, FAR - 1), None);
        assert_eq!(t.len(), 3);
    }
}
