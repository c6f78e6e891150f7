//! Every pattern instance's index into a phase's table ([`indices`]), and the sum of a phase's
//! table over them ([`table_sum`]): from the board's symmetric images, row bytes and gathered
//! diagonals turned into base 3 by a table, or, where the CPU has BMI2, each instance's squares
//! gathered with `pext` (module `gather`).

#[cfg(target_arch = "x86_64")]
use super::Family;
use super::{CORNER_VIEWS, FAMILIES, INSTANCES, OFFSETS, ROW_VIEWS};
use crate::symmetry::views;

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
pub(super) fn state(p: u64, o: u64, square: u32) -> u32 {
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
pub(super) fn table_sum(table: &[i16], p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(sum) = gather::table_sum(table, p, o) {
        return sum;
    }
    table_sum_portable(table, p, o)
}

/// [`table_sum`] through [`indices`].
#[inline]
pub(super) fn table_sum_portable(table: &[i16], p: u64, o: u64) -> i32 {
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
