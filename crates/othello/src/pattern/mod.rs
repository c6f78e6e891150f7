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
use crate::symmetry::view_square;

mod file;
mod incremental;
mod index;

pub use file::{WeightsError, WEIGHTS_VERSION};
pub use incremental::{PatternState, LANES};
pub use index::indices;
use index::table_sum;

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
    use super::index::{state, table_sum_portable};
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
