//! [`PatternEval`]: a learned evaluation made of board patterns (used in searches through
//! [`crate::OthelloEval`]).
//!
//! The classic scheme of the strong Othello programs: a few families of board patterns (edges
//! with the X-squares, 3x3 and 2x5 corners, the lines and the diagonals); every instance of a
//! family on the board (its images under the board's symmetries) reads the pattern's squares as
//! a base-3 number (empty 0, the side to move's disc 1, the opponent's 2) and looks up that
//! configuration's weight; the value is the sum of the weights plus a small bias for the number
//! of empties. Each game phase (a band of [`PHASE_WIDTH`] empties) has its own weights.
//!
//! Weights are shared wherever the game says they must be equal: instances of one family share
//! one table, a configuration and its mirror image within the pattern share one weight, and a
//! configuration with the colours swapped has the opposite weight (so the patterns' part of
//! the value changes sign when the sides are swapped; only the bias does not). The free
//! parameters are the *classes* of configurations under these symmetries ([`Classes`]).
//!
//! Indices are computed from scratch for each evaluation, fast: the eight symmetric images of
//! the board are made with a few shifts each, and every instance is then one to three row bytes
//! (or one diagonal gathered by a multiplication) turned into base 3 by a 256-entry table
//! ([`indices`]). Where the CPU has BMI2, [`PatternEval::evaluate_bits`] instead gathers each
//! instance's squares with `pext` from the four images without transposition and reads them
//! through a 1,024-entry table (same values, fewer instructions).
//!
//! The weights come from `prune train` (module [`crate::train`]) and live in a small versioned
//! file with a checksum ([`PatternWeights::from_bytes`], [`PatternWeights::to_bytes`]); one
//! trained set is built in ([`PatternWeights::builtin`]).

use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::symmetry::{view_square, views};

mod file;
mod incremental;

pub use file::{WeightsError, WEIGHTS_VERSION};
pub use incremental::{PatternState, LANES};

/// The empties of one game phase: phase `k` covers `k * PHASE_WIDTH` to
/// `(k + 1) * PHASE_WIDTH - 1` empties (the start position's 60 belongs to the last phase).
pub const PHASE_WIDTH: u32 = 4;

/// The number of phases.
pub const PHASES: usize = (60 / PHASE_WIDTH) as usize;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase_of(empties: u32) -> usize {
    (empties.min(59) / PHASE_WIDTH) as usize
}

/// A family of patterns: its name, its squares in one orientation (digit `k` of a
/// configuration's index is the `k`-th square), and the board symmetries ([`view_square`])
/// whose images are its instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// A short name, for reports.
    pub name: &'static str,
    /// The squares, in digit order (a1 = 0, h8 = 63).
    pub squares: &'static [u8],
    /// The views (0..8, see [`view_square`]) in which the squares are read; one instance each.
    pub views: &'static [u8],
}

impl Family {
    /// The number of configurations: 3 to the number of squares.
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The pattern families, in the order of their tables.
pub const FAMILIES: [Family; 11] = [
    Family {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        views: &[0, 1, 2, 3],
    },
    Family {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        views: &[0, 1, 2, 3, 4, 5, 6, 7],
    },
    Family {
        name: "edge + 2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        views: &ROW_VIEWS,
    },
    Family {
        name: "line 2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        views: &ROW_VIEWS,
    },
    Family {
        name: "line 3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        views: &ROW_VIEWS,
    },
    Family {
        name: "line 4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        views: &ROW_VIEWS,
    },
    Family {
        name: "diagonal 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        views: &[0, 1],
    },
    Family {
        name: "diagonal 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        views: &CORNER_VIEWS,
    },
    Family {
        name: "diagonal 6",
        squares: &[2, 11, 20, 29, 38, 47],
        views: &CORNER_VIEWS,
    },
    Family {
        name: "diagonal 5",
        squares: &[3, 12, 21, 30, 39],
        views: &CORNER_VIEWS,
    },
    Family {
        name: "diagonal 4",
        squares: &[4, 13, 22, 31],
        views: &CORNER_VIEWS,
    },
];

/// Views putting each edge on rank 1 once: identity, rank 8, file a, file h.
const ROW_VIEWS: [u8; 4] = [0, 2, 4, 5];
/// Views putting each corner on a1 once.
const CORNER_VIEWS: [u8; 4] = [0, 1, 2, 3];

/// The number of pattern instances on a board.
pub const INSTANCES: usize = {
    let mut n = 0;
    let mut f = 0;
    while f < FAMILIES.len() {
        n += FAMILIES[f].views.len();
        f += 1;
    }
    n
};

/// Where each family's table starts in a phase's table of all configurations.
const OFFSETS: [usize; FAMILIES.len() + 1] = {
    let mut offsets = [0; FAMILIES.len() + 1];
    let mut f = 0;
    while f < FAMILIES.len() {
        offsets[f + 1] = offsets[f] + FAMILIES[f].size();
        f += 1;
    }
    offsets
};

/// The configurations of all families together: the length of one phase's table.
pub const CONFIGURATIONS: usize = OFFSETS[FAMILIES.len()];

/// `TERNARY[b]`: the byte `b` read as base-3 digits 0/1 (bit `k` is worth `3^k`).
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut power, mut k) = (0u16, 1u16, 0);
        while k < 8 {
            if b & (1 << k) != 0 {
                v += power;
            }
            power *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The base-3 index of the low bits of one row byte of each side (`mask` selects them; they
/// must be the lowest bits).
#[inline]
fn row_index(p: u64, o: u64, shift: u32, mask: u64) -> u32 {
    let (a, b) = ((p >> shift) & mask, (o >> shift) & mask);
    u32::from(TERNARY[a as usize]) + 2 * u32::from(TERNARY[b as usize])
}

/// The squares a1, b2, .., h8 (the main diagonal).
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The diagonal starting at file `start` of rank 1, gathered into the low bits (a
/// multiplication copies every rank onto the top byte; no two bits meet, so nothing carries).
#[inline]
fn diagonal(x: u64, start: u32) -> u64 {
    let mask = (DIAGONAL << start) & (u64::MAX >> (8 * start));
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> (56 + start)
}

/// The index of the diagonal starting at file `start` of rank 1.
#[inline]
fn diagonal_index(p: u64, o: u64, start: u32) -> u32 {
    u32::from(TERNARY[diagonal(p, start) as usize])
        + 2 * u32::from(TERNARY[diagonal(o, start) as usize])
}

/// The state of one square: 0 empty, 1 the side to move's disc, 2 the opponent's.
#[inline]
fn state(p: u64, o: u64, square: u32) -> u32 {
    (((p >> square) & 1) + 2 * ((o >> square) & 1)) as u32
}

/// Every instance's index into a phase's table (family offsets included), for the side to move
/// `p` and the opponent `o`, in the order of [`FAMILIES`] and their views.
#[inline]
pub fn indices(p: u64, o: u64) -> [u32; INSTANCES] {
    let (pv, ov) = (views(p), views(o));
    let mut out = [0u32; INSTANCES];
    let mut n = 0;
    let mut push = |value: u32| {
        out[n] = value;
        n += 1;
    };
    let off = |f: usize| OFFSETS[f] as u32;
    for v in CORNER_VIEWS {
        let (p, o) = (pv[v as usize], ov[v as usize]);
        push(
            off(0)
                + row_index(p, o, 0, 7)
                + 27 * row_index(p, o, 8, 7)
                + 729 * row_index(p, o, 16, 7),
        );
    }
    for v in 0..8 {
        let (p, o) = (pv[v], ov[v]);
        push(off(1) + row_index(p, o, 0, 31) + 243 * row_index(p, o, 8, 31));
    }
    for v in ROW_VIEWS {
        let (p, o) = (pv[v as usize], ov[v as usize]);
        push(off(2) + row_index(p, o, 0, 255) + 6561 * state(p, o, 9) + 19683 * state(p, o, 14));
    }
    for (family, shift) in [(3, 8), (4, 16), (5, 24)] {
        for v in ROW_VIEWS {
            let (p, o) = (pv[v as usize], ov[v as usize]);
            push(off(family) + row_index(p, o, shift, 255));
        }
    }
    for v in [0, 1] {
        push(off(6) + diagonal_index(pv[v], ov[v], 0));
    }
    for (family, start) in [(7, 1), (8, 2), (9, 3), (10, 4)] {
        for v in CORNER_VIEWS {
            let (p, o) = (pv[v as usize], ov[v as usize]);
            push(off(family) + diagonal_index(p, o, start));
        }
    }
    debug_assert_eq!(n, INSTANCES);
    out
}

/// The sum of a phase's `table` over every instance of `(p, o)`: read through BMI2's bit
/// gather where the CPU has it (one `pext` per instance and side instead of shifts, masks and
/// a multiplication per row or diagonal), else through [`indices`]. Both give the same sum.
#[inline]
fn table_sum(table: &[i16], p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(sum) = gather::table_sum(table, p, o) {
        return sum;
    }
    table_sum_portable(table, p, o)
}

/// [`table_sum`] through [`indices`].
#[inline]
fn table_sum_portable(table: &[i16], p: u64, o: u64) -> i32 {
    indices(p, o)
        .iter()
        .fold(0, |sum, &i| sum + i32::from(table[i as usize]))
}

#[cfg(target_arch = "x86_64")]
/// How [`table_sum`] reads an instance with bit gathers.
#[derive(Clone, Copy)]
struct Gather {
    /// The board it gathers from: the side's view `base` (0..4: no transposition, which
    /// costs more than the gather; a transposed view's squares are gathered from the view
    /// before the transposition, in another order).
    base: u8,
    /// The instance's squares on that board.
    mask: u64,
    /// The ternary table of the gathered bits (into [`GATHER_TERNARY`]): 0 when the gathered
    /// order is the digit order, else `1 + family`.
    table: u8,
    /// The family's offset in a phase's table.
    offset: u32,
}

#[cfg(target_arch = "x86_64")]
/// Where a family's `square` lies on the board the gather reads: the same square, or, in a
/// transposed view (`transposed`), its place before the transposition.
const fn gathered_square(square: u8, transposed: bool) -> u8 {
    if transposed {
        (square % 8) * 8 + square / 8
    } else {
        square
    }
}

#[cfg(target_arch = "x86_64")]
/// The digit of each gathered bit (in increasing square order) of `family`'s squares, read
/// through the transposition (`transposed`) or not.
const fn gathered_digits(family: &Family, transposed: bool) -> [u8; 10] {
    let n = family.squares.len();
    let mut digits = [0u8; 10];
    // The j-th gathered bit is the square with j squares below it.
    let mut k = 0;
    while k < n {
        let sq = gathered_square(family.squares[k], transposed);
        let mut below = 0;
        let mut l = 0;
        while l < n {
            if gathered_square(family.squares[l], transposed) < sq {
                below += 1;
            }
            l += 1;
        }
        digits[below] = k as u8;
        k += 1;
    }
    digits
}

#[cfg(target_arch = "x86_64")]
/// Whether `digits` (of `n` squares) is the identity.
const fn in_order(digits: &[u8; 10], n: usize) -> bool {
    let mut j = 0;
    while j < n {
        if digits[j] as usize != j {
            return false;
        }
        j += 1;
    }
    true
}

#[cfg(target_arch = "x86_64")]
/// Each instance's gather, in the order of [`indices`].
const INSTANCE_GATHER: [Gather; INSTANCES] = {
    let mut out = [Gather {
        base: 0,
        mask: 0,
        table: 0,
        offset: 0,
    }; INSTANCES];
    let (mut f, mut n) = (0, 0);
    while f < FAMILIES.len() {
        let family = &FAMILIES[f];
        assert!(family.squares.len() <= 10);
        let mut v = 0;
        while v < family.views.len() {
            let view = family.views[v];
            let transposed = view & 4 != 0;
            let mut mask = 0u64;
            let mut k = 0;
            while k < family.squares.len() {
                mask |= 1 << gathered_square(family.squares[k], transposed);
                k += 1;
            }
            let digits = gathered_digits(family, transposed);
            out[n] = Gather {
                base: view & 3,
                mask,
                table: if in_order(&digits, family.squares.len()) {
                    0
                } else {
                    1 + f as u8
                },
                offset: OFFSETS[f] as u32,
            };
            n += 1;
            v += 1;
        }
        f += 1;
    }
    out
};

#[cfg(target_arch = "x86_64")]
/// `GATHER_TERNARY[t][b]`: gathered bits `b` read as base-3 digits 0/1, bit `j` worth 3 to
/// its digit: in order for `t` = 0, else in the order of family `t - 1`'s transposed views.
static GATHER_TERNARY: [[u16; 1024]; 1 + FAMILIES.len()] = {
    let mut t = [[0u16; 1024]; 1 + FAMILIES.len()];
    let mut table = 0;
    while table < t.len() {
        let digits = if table == 0 {
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        } else {
            gathered_digits(&FAMILIES[table - 1], true)
        };
        let mut b = 0;
        while b < 1024 {
            let mut v = 0u32;
            let mut j = 0;
            while j < 10 {
                if b & (1 << j) != 0 {
                    v += 3u32.pow(digits[j] as u32);
                }
                j += 1;
            }
            t[table][b] = v as u16;
            b += 1;
        }
        table += 1;
    }
    t
};

#[cfg(target_arch = "x86_64")]
mod gather {
    #![allow(unsafe_code)]

    use std::arch::x86_64::_pext_u64;

    use super::{Gather, GATHER_TERNARY, INSTANCE_GATHER};
    use crate::symmetry::mirror_files;

    /// [`super::table_sum`] with BMI2, if the CPU has it.
    #[inline]
    pub(super) fn table_sum(table: &[i16], p: u64, o: u64) -> Option<i32> {
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU has BMI2, the only feature `with_bmi2` is compiled with.
            Some(unsafe { with_bmi2(table, p, o) })
        } else {
            None
        }
    }

    /// [`table_sum`], compiled with BMI2.
    #[target_feature(enable = "bmi2")]
    #[inline]
    unsafe fn with_bmi2(table: &[i16], p: u64, o: u64) -> i32 {
        // The four views without transposition of each side.
        let bases = |x: u64| {
            let m = mirror_files(x);
            [x, m, x.swap_bytes(), m.swap_bytes()]
        };
        let (pv, ov) = (bases(p), bases(o));
        let mut sum = 0i32;
        // Unrolled, so that each instance's view, mask, table and offset are constants.
        macro_rules! instances {
            ($($i:literal)*) => {$({
                const G: Gather = INSTANCE_GATHER[$i];
                let ternary = &GATHER_TERNARY[G.table as usize];
                // A mask of at most ten squares gathers at most ten bits.
                let a = _pext_u64(pv[G.base as usize], G.mask) as usize & 1023;
                let b = _pext_u64(ov[G.base as usize], G.mask) as usize & 1023;
                let index = G.offset + u32::from(ternary[a]) + 2 * u32::from(ternary[b]);
                sum += i32::from(table[index as usize]);
            })*};
        }
        instances!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45);
        sum
    }
}

/// The classes of configurations that share one weight (up to sign): a configuration, its
/// images under the symmetries of the board that map the pattern's squares onto themselves,
/// and the same with the colours swapped (with the opposite sign).
#[derive(Clone, Debug)]
pub struct Classes {
    /// For each configuration of a phase's table: its class, or `u32::MAX` when the
    /// configuration equals its own colour swap (up to symmetry), so its weight is 0.
    pub class: Vec<u32>,
    /// For each configuration: +1 or -1 (0 with `u32::MAX`).
    pub sign: Vec<i8>,
    /// The number of classes (free parameters of one phase's patterns).
    pub count: usize,
}

impl Classes {
    /// The classes of [`FAMILIES`], computed once.
    pub fn get() -> &'static Classes {
        static CLASSES: OnceLock<Classes> = OnceLock::new();
        CLASSES.get_or_init(Classes::compute)
    }

    fn compute() -> Classes {
        let mut class = vec![u32::MAX; CONFIGURATIONS];
        let mut sign = vec![0i8; CONFIGURATIONS];
        let mut count = 0u32;
        for (f, family) in FAMILIES.iter().enumerate() {
            let n = family.squares.len();
            // The digit permutations of the symmetries that keep the squares' set.
            let perms: Vec<Vec<usize>> = (0..8u8)
                .filter_map(|view| {
                    family
                        .squares
                        .iter()
                        .map(|&s| {
                            let image = view_square(view, s);
                            family.squares.iter().position(|&t| t == image)
                        })
                        .collect::<Option<Vec<usize>>>()
                })
                .collect();
            let digits = |mut i: usize| {
                let mut d = vec![0u8; n];
                for digit in d.iter_mut() {
                    *digit = (i % 3) as u8;
                    i /= 3;
                }
                d
            };
            let number = |d: &[u8]| d.iter().rev().fold(0usize, |i, &x| 3 * i + x as usize);
            let mut rep_class = std::collections::HashMap::new();
            for i in 0..family.size() {
                let d = digits(i);
                let (mut plus, mut minus) = (usize::MAX, usize::MAX);
                for perm in &perms {
                    let mut image = vec![0u8; n];
                    for (k, &to) in perm.iter().enumerate() {
                        image[to] = d[k];
                    }
                    plus = plus.min(number(&image));
                    let swapped: Vec<u8> = image.iter().map(|&x| [0, 2, 1][x as usize]).collect();
                    minus = minus.min(number(&swapped));
                }
                let (rep, s) = match plus.cmp(&minus) {
                    std::cmp::Ordering::Less => (plus, 1),
                    std::cmp::Ordering::Greater => (minus, -1),
                    std::cmp::Ordering::Equal => continue,
                };
                let global = OFFSETS[f] + i;
                let c = *rep_class.entry(rep).or_insert_with(|| {
                    count += 1;
                    count - 1
                });
                class[global] = c;
                sign[global] = s;
            }
        }
        Classes {
            count: count as usize,
            class,
            sign,
        }
    }
}

/// One phase's learned values: a weight per class and a bias per number of empties of the
/// phase, in hundredths of a disc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseWeights {
    /// The weight of each class ([`Classes`]).
    pub classes: Vec<i16>,
    /// The bias for each number of empties of the phase (`empties % PHASE_WIDTH`).
    pub bias: [i16; PHASE_WIDTH as usize],
}

impl PhaseWeights {
    /// All zero.
    pub fn zero() -> PhaseWeights {
        PhaseWeights {
            classes: vec![0; Classes::get().count],
            bias: [0; PHASE_WIDTH as usize],
        }
    }
}

/// A trained weight set: every phase's weights and a line saying how they were made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// How the weights were trained (the command, seed and data sizes), free text.
    pub provenance: String,
    /// One set per phase, phase 0 (the fewest empties) first.
    pub phases: Vec<PhaseWeights>,
}

impl PatternWeights {
    /// All phases zero.
    pub fn zero(provenance: &str) -> PatternWeights {
        PatternWeights {
            provenance: provenance.to_string(),
            phases: (0..PHASES).map(|_| PhaseWeights::zero()).collect(),
        }
    }

    /// The weights shipped with prune (`crates/othello/data/weights.bin`, made by `prune
    /// train`; see docs/training.md), read once.
    pub fn builtin() -> Arc<PatternWeights> {
        Self::builtin_ref().clone()
    }

    /// The built-in weights, without a new reference.
    fn builtin_ref() -> &'static Arc<PatternWeights> {
        static BUILTIN: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Arc::new(
                PatternWeights::from_bytes(BUILTIN_WEIGHTS)
                    .expect("the built-in weights file is checked by a test"),
            )
        })
    }
}

/// The bytes of the built-in weights file.
pub const BUILTIN_WEIGHTS: &[u8] = include_bytes!("../../data/weights.bin");

/// The pattern evaluation ready to use: each phase's weights expanded to one value per
/// configuration (so an evaluation is one lookup per instance).
#[derive(Clone, Debug)]
pub struct PatternEval {
    tables: Arc<[i16]>,
    bias: Arc<[i16]>,
    weights: Arc<PatternWeights>,
}

impl PatternEval {
    /// The evaluation of `weights`.
    pub fn new(weights: Arc<PatternWeights>) -> PatternEval {
        let classes = Classes::get();
        let mut tables = vec![0i16; PHASES * CONFIGURATIONS];
        // One bias per number of empties (phase `k` covers `k * PHASE_WIDTH` onwards).
        let mut bias = vec![0i16; PHASES * PHASE_WIDTH as usize];
        for (k, phase) in weights.phases.iter().enumerate() {
            let table = &mut tables[k * CONFIGURATIONS..(k + 1) * CONFIGURATIONS];
            for (i, value) in table.iter_mut().enumerate() {
                let c = classes.class[i];
                if c != u32::MAX {
                    *value = i16::from(classes.sign[i]) * phase.classes[c as usize];
                }
            }
            bias[k * PHASE_WIDTH as usize..(k + 1) * PHASE_WIDTH as usize]
                .copy_from_slice(&phase.bias);
        }
        PatternEval {
            tables: tables.into(),
            bias: bias.into(),
            weights,
        }
    }

    /// The evaluation of the built-in weights.
    pub fn builtin() -> PatternEval {
        static BUILTIN: OnceLock<PatternEval> = OnceLock::new();
        BUILTIN
            .get_or_init(|| PatternEval::new(PatternWeights::builtin()))
            .clone()
    }

    /// The weights this evaluation was made from.
    pub fn weights(&self) -> &Arc<PatternWeights> {
        &self.weights
    }

    /// Whether these are the built-in weights themselves (not a copy read from a file): cheap
    /// enough for a search's nodes.
    pub fn is_builtin(&self) -> bool {
        Arc::ptr_eq(&self.weights, PatternWeights::builtin_ref())
    }

    /// The value of the side to move `p` against `o`, in hundredths of a disc.
    #[inline]
    pub fn evaluate_bits(&self, p: u64, o: u64) -> i32 {
        let empties = 64 - (p | o).count_ones();
        let phase = phase_of(empties);
        let table = &self.tables[phase * CONFIGURATIONS..(phase + 1) * CONFIGURATIONS];
        let bias = self.bias[empties.min(59) as usize];
        i32::from(bias) + table_sum(table, p, o)
    }

    /// The value of `board` for its side to move, in hundredths of a disc.
    #[inline]
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        self.evaluate_bits(board.player(), board.opponent())
    }
}

impl PartialEq for PatternEval {
    /// Evaluations are equal when their weights are.
    fn eq(&self, other: &PatternEval) -> bool {
        Arc::ptr_eq(&self.weights, &other.weights) || self.weights == other.weights
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use prune_search::rng::{Rng, XorShift64};

    /// The same indices computed square by square from [`FAMILIES`] (slow; the reference that
    /// [`indices`] is tested against).
    fn indices_by_squares(p: u64, o: u64) -> Vec<u32> {
        let mut out = Vec::with_capacity(INSTANCES);
        for (f, family) in FAMILIES.iter().enumerate() {
            for &view in family.views {
                let mut index = 0u32;
                for &square in family.squares.iter().rev() {
                    // The square whose view is `square`: views are involutions except the
                    // transposed ones, so search for it.
                    let source = (0..64u8)
                        .find(|&s| view_square(view, s) == square)
                        .expect("views are permutations");
                    index = 3 * index + state(p, o, u32::from(source));
                }
                out.push(OFFSETS[f] as u32 + index);
            }
        }
        out
    }

    /// The sum by bit gathers (on a CPU with BMI2) equals the sum over [`indices`], with
    /// random weights, on positions of random games.
    #[test]
    fn table_sum_equals_the_sum_over_indices() {
        let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
        let table: Vec<i16> = (0..CONFIGURATIONS)
            .map(|_| rng.below(20_001) as i16 - 10_000)
            .collect();
        for b in boards() {
            let (p, o) = (b.player(), b.opponent());
            assert_eq!(
                table_sum(&table, p, o),
                table_sum_portable(&table, p, o),
                "{b:?}"
            );
        }
    }

    /// A few thousand positions of pseudo-random games.
    fn boards() -> Vec<Board> {
        let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
        let mut out = Vec::new();
        for _ in 0..60 {
            let mut b = Board::START;
            loop {
                out.push(b);
                let moves = b.moves();
                if moves == 0 {
                    if b.opponent_moves() == 0 {
                        break;
                    }
                    b = b.pass();
                    continue;
                }
                let n = moves.count_ones() as u64;
                let mut m = moves;
                for _ in 0..rng.below(n) {
                    m &= m - 1;
                }
                b = b.play_unchecked(crate::square::Square::new(m.trailing_zeros() as u8).unwrap());
            }
        }
        out
    }

    #[test]
    fn instances_are_distinct_square_sets() {
        for family in FAMILIES {
            let mut sets: Vec<u64> = family
                .views
                .iter()
                .map(|&view| {
                    family.squares.iter().fold(0u64, |set, &s| {
                        let source = (0..64u8).find(|&t| view_square(view, t) == s).unwrap();
                        set | 1 << source
                    })
                })
                .collect();
            sets.sort_unstable();
            sets.dedup();
            assert_eq!(sets.len(), family.views.len(), "{}", family.name);
        }
        assert_eq!(INSTANCES, 46);
    }

    #[test]
    fn fast_indices_equal_the_square_by_square_reference() {
        for b in boards() {
            assert_eq!(
                indices(b.player(), b.opponent()).to_vec(),
                indices_by_squares(b.player(), b.opponent()),
                "{b:?}"
            );
        }
    }

    /// A weight set with every class's weight a pseudo-random number.
    pub(super) fn random_weights() -> Arc<PatternWeights> {
        let mut w = PatternWeights::zero("test");
        let mut rng = XorShift64::new(99);
        for phase in w.phases.iter_mut() {
            for c in phase.classes.iter_mut() {
                let r = rng.next_u64();
                *c = ((r >> 33) % 201) as i16 - 100;
                if r >> 60 < 6 {
                    *c = 0;
                }
            }
            phase.bias = [3, -4, 5, 0];
        }
        Arc::new(w)
    }

    #[test]
    fn the_value_is_the_same_under_every_symmetry_and_changes_sign_with_the_sides() {
        let eval = PatternEval::new(random_weights());
        let map = |x: u64, view: u8| {
            (0..64u8)
                .filter(|&s| x >> s & 1 != 0)
                .fold(0u64, |m, s| m | 1 << view_square(view, s))
        };
        let mut nonzero = 0;
        for b in boards().into_iter().step_by(7) {
            let (p, o) = (b.player(), b.opponent());
            let value = eval.evaluate_bits(p, o);
            nonzero += usize::from(value != 0);
            for view in 1..8 {
                assert_eq!(eval.evaluate_bits(map(p, view), map(o, view)), value);
            }
            let empties = 64 - (p | o).count_ones();
            let bias = i32::from(
                random_weights().phases[phase_of(empties)].bias
                    [(empties.min(59) % PHASE_WIDTH) as usize],
            );
            assert_eq!(eval.evaluate_bits(o, p) - bias, -(value - bias));
        }
        assert!(nonzero > 100);
    }

    #[test]
    fn classes_cover_every_configuration_once() {
        let classes = Classes::get();
        // The all-empty configuration of each family has no weight.
        for &offset in &OFFSETS[..FAMILIES.len()] {
            assert_eq!(classes.class[offset], u32::MAX);
        }
        // Classes are numbered densely, and each has configurations of both signs (a
        // configuration and its colour swap).
        let mut signs = vec![(false, false); classes.count];
        for (&c, &sign) in classes.class.iter().zip(&classes.sign) {
            if c != u32::MAX {
                let seen = &mut signs[c as usize];
                *seen = (seen.0 || sign == 1, seen.1 || sign == -1);
            }
        }
        assert!(signs.iter().all(|&s| s == (true, true)));
        // The line of 8 squares (family 3), against orbits counted directly: a configuration,
        // its reversal and both with the colours swapped; none when a colour swap (with or
        // without the reversal) gives the configuration back.
        let line = (OFFSETS[3]..OFFSETS[4])
            .filter_map(|i| (classes.class[i] != u32::MAX).then_some(classes.class[i]))
            .collect::<std::collections::HashSet<_>>()
            .len();
        let mut expected = std::collections::HashSet::new();
        for i in 0..6561usize {
            let d: Vec<usize> = (0..8).map(|k| i / 3usize.pow(k) % 3).collect();
            let num = |d: &[usize]| d.iter().rev().fold(0, |a, &x| 3 * a + x);
            let rev: Vec<usize> = d.iter().rev().copied().collect();
            let sw = |d: &[usize]| d.iter().map(|&x| [0, 2, 1][x]).collect::<Vec<_>>();
            let orbit = [num(&d), num(&rev), num(&sw(&d)), num(&sw(&rev))];
            if orbit[0] == orbit[2] || orbit[0] == orbit[3] {
                continue;
            }
            expected.insert(*orbit.iter().min().unwrap());
        }
        assert_eq!(line, expected.len());
    }

    #[test]
    fn the_builtin_weights_load() {
        let w = PatternWeights::builtin();
        assert_eq!(w.phases.len(), PHASES);
        assert!(w.phases.iter().any(|p| p.classes.iter().any(|&c| c != 0)));
    }
}
