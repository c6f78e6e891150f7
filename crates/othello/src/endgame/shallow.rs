//! The leaf search, for nodes with fewer than [`ORDERED_EMPTIES`](super::ORDERED_EMPTIES)
//! empties: alpha-beta without table or move list, in parity order, with dedicated code for
//! the last three, two and one empty squares; and the helpers every node uses (the final
//! score, parity, the stability cutoff).

use prune_search::Counters;

use super::ordering::X_AND_C_SQUARES;
use super::CountCutoff;
use crate::bitboard::{count_last_flip, neighbours, CORNERS, QUADRANTS};
use crate::kernel::Kernel;
use crate::stability::stable_count_at_least;
use crate::Board;

/// From this many empties up, the leaf search tries the stability cutoff (it runs at every
/// node of the ordered search).
const STABILITY_EMPTIES: u32 = 4;

/// The stability cutoff is tried only where it would cut even with `STABILITY_SLACK / 2` of
/// the opponent's discs unstable: at `alpha` of at least `64 - 2 * discs + STABILITY_SLACK`.
/// Nearer that edge a cut needs almost every opponent disc stable, which is rare, and the
/// stable set costs more than the few cuts save (callgrind on FFO #20-#39: 4.1% fewer
/// instructions for 0.55% more nodes; docs/tuning.md).
const STABILITY_SLACK: i32 = 16;

/// Corners, then the squares that are neither X- nor C-squares, then the rest: the order in
/// which shallow nodes try moves within a parity class.
const PRIORITY: [u64; 3] = [CORNERS, !CORNERS & !X_AND_C_SQUARES, X_AND_C_SQUARES];

/// The score of the finished game `(p, o)` (side to move's view).
#[inline(always)]
pub(super) fn final_score(p: u64, o: u64) -> i32 {
    Board::from_disjoint_bits(p, o).final_score()
}

/// The quadrant of each square as a bit (1, 2, 4, 8): a move toggles its quadrant's parity.
const QUADRANT: [u32; 64] = {
    let mut table = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        table[sq] = 1 << ((file / 4) + 2 * (rank / 4));
        sq += 1;
    }
    table
};

/// For each set of odd quadrants (a 4-bit parity), the union of those quadrants.
const ODD_REGIONS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut q = 0;
        while q < 4 {
            if set >> q & 1 == 1 {
                table[set] |= QUADRANTS[q];
            }
            q += 1;
        }
        set += 1;
    }
    table
};

/// The parity of `empty` as 4 bits: bit `q` set when quadrant `q` holds an odd number of
/// empty squares.
#[inline(always)]
pub(super) fn parity(empty: u64) -> u32 {
    (0..4).fold(0, |acc, q| {
        acc | ((empty & QUADRANTS[q]).count_ones() & 1) << q
    })
}

/// The squares next to each square: a move there needs one of the opponent's discs among them.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1u64 << sq);
        sq += 1;
    }
    table
};

/// Alpha-beta without table or sorting, for the last few empties (fail-soft). No move list:
/// the legal moves, computed once, are tried in parity order (odd regions first, corners
/// first within a region).
///
/// Reached through [`Kernel::shallow`], which compiles it for the kernel `k`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn shallow_node<K: Kernel>(
    k: K,
    c: &mut Counters,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empties: u32,
    parity: u32,
) -> i32 {
    let empty = !(p | o);
    match empties {
        0 => {
            c.nodes += 1;
            c.leaves += 1;
            return final_score(p, o);
        }
        1 => {
            c.nodes += 1;
            c.leaves += 1;
            return last_one(p, o, empty);
        }
        2 => return last_two(k, c, p, o, alpha, beta, empty),
        3 => return last_three(k, c, p, o, alpha, beta, empty, parity),
        _ => {}
    }
    if empties >= STABILITY_EMPTIES {
        if let Some(v) = stability_cutoff(c, p, o, alpha) {
            return v;
        }
    }
    let legal = k.moves(p, o);
    if legal == 0 {
        if k.moves(o, p) == 0 {
            c.nodes += 1;
            c.leaves += 1;
            return final_score(p, o);
        }
        // A pass is not a node of its own: the opponent's position counts itself.
        return -k.shallow(c, o, p, -beta, -alpha, empties, parity);
    }
    c.nodes += 1;
    c.interior += 1;
    if empties == 4 {
        // The children's three-empties code inlined here: no call per child.
        parity_order(
            c,
            k,
            p,
            o,
            alpha,
            beta,
            legal,
            parity,
            |c, np, no, a, b, bit, parity| last_three(k, c, np, no, a, b, empty ^ bit, parity),
        )
    } else {
        parity_order(
            c,
            k,
            p,
            o,
            alpha,
            beta,
            legal,
            parity,
            |c, np, no, a, b, _, parity| k.shallow(c, np, no, a, b, empties - 1, parity),
        )
    }
}

/// The moves `legal` of `(p, o)` searched in parity order (odd regions first, corners first
/// within a region), each child by `child(c, p, o, alpha, beta, move bit, parity)`
/// (fail-soft).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn parity_order<K: Kernel>(
    c: &mut Counters,
    k: K,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    legal: u64,
    parity: u32,
    mut child: impl FnMut(&mut Counters, u64, u64, i32, i32, u64, u32) -> i32,
) -> i32 {
    let odd = ODD_REGIONS[parity as usize];
    let mut best = -65;
    let mut i = 0;
    for region in [odd, !odd] {
        for class in PRIORITY {
            let mut todo = legal & region & class;
            while todo != 0 {
                let sq = todo.trailing_zeros();
                todo &= todo - 1;
                let bit = 1u64 << sq;
                let flips = k.flips(sq, p, o);
                let (np, no) = (o & !flips, p | flips | bit);
                let v = -child(
                    c,
                    np,
                    no,
                    -beta,
                    -alpha,
                    bit,
                    parity ^ QUADRANT[sq as usize],
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                    }
                }
                if v >= beta {
                    c.count_cutoff(i);
                    return best;
                }
                i += 1;
            }
        }
    }
    best
}

/// Three empty squares (`empty`, with the quadrant `parity`): each tried directly, with no
/// loop over square classes: first a square alone in its quadrant (the only odd quadrant when
/// the other two share one), then in square order.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn last_three<K: Kernel>(
    k: K,
    c: &mut Counters,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    empty: u64,
    parity: u32,
) -> i32 {
    let a = empty.trailing_zeros();
    let rest = empty & (empty - 1);
    let b = rest.trailing_zeros();
    let d = (rest & (rest - 1)).trailing_zeros();
    // With three empties either one quadrant is odd (two squares share an even one) or all
    // three are: put a square of an odd quadrant first.
    let squares = if parity & QUADRANT[a as usize] != 0 {
        [a, b, d]
    } else if parity & QUADRANT[b as usize] != 0 {
        [b, a, d]
    } else {
        [d, a, b]
    };
    let mut best = -65;
    let mut i = 0;
    for sq in squares {
        if NEIGHBOURS[sq as usize] & o == 0 {
            continue;
        }
        let flips = k.flips(sq, p, o);
        if flips == 0 {
            continue;
        }
        if i == 0 {
            c.nodes += 1;
            c.interior += 1;
        }
        let bit = 1u64 << sq;
        let v = -last_two(
            k,
            c,
            o & !flips,
            p | flips | bit,
            -beta,
            -alpha,
            empty ^ bit,
        );
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
            }
        }
        if v >= beta {
            c.count_cutoff(i);
            return best;
        }
        i += 1;
    }
    if i == 0 {
        if k.moves(o, p) == 0 {
            c.nodes += 1;
            c.leaves += 1;
            return final_score(p, o);
        }
        // A pass is not a node of its own: the opponent's position counts itself.
        return -k.shallow(c, o, p, -beta, -alpha, 3, parity);
    }
    best
}

/// Two empty squares (`empty`): each tried directly, then the opponent's if the side to move
/// has neither.
#[inline(always)]
fn last_two<K: Kernel>(
    k: K,
    c: &mut Counters,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empty: u64,
) -> i32 {
    let x = empty & empty.wrapping_neg();
    let y = empty ^ x;
    /// The move on `bit` (then one empty left, `other`), if legal.
    #[inline(always)]
    fn try_move<K: Kernel>(
        k: K,
        c: &mut Counters,
        p: u64,
        o: u64,
        bit: u64,
        other: u64,
    ) -> Option<i32> {
        if NEIGHBOURS[bit.trailing_zeros() as usize] & o == 0 {
            return None;
        }
        let flips = k.flips(bit.trailing_zeros(), p, o);
        if flips == 0 {
            return None;
        }
        c.nodes += 1;
        c.leaves += 1;
        Some(-last_one(o & !flips, p | flips | bit, other))
    }
    let first = try_move(k, c, p, o, x, y);
    if let Some(v) = first {
        c.nodes += 1;
        c.interior += 1;
        if v >= beta {
            c.count_cutoff(0);
            return v;
        }
    }
    let second = try_move(k, c, p, o, y, x);
    match (first, second) {
        (Some(a), Some(b)) => {
            if b >= beta {
                c.count_cutoff(1);
            }
            a.max(b)
        }
        (Some(a), None) => a,
        (None, Some(b)) => {
            c.nodes += 1;
            c.interior += 1;
            if b >= beta {
                c.count_cutoff(0);
            }
            b
        }
        (None, None) => {
            if k.flips(x.trailing_zeros(), o, p) == 0 && k.flips(y.trailing_zeros(), o, p) == 0 {
                c.nodes += 1;
                c.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            -k.shallow(c, o, p, -beta, -alpha, 2, 0)
        }
    }
}

/// The stability cutoff: the opponent's stable discs are lost for good, so the score is at
/// most 64 less twice their number; when that is no better than `alpha` the node fails low
/// with that bound, unsearched.
#[inline(always)]
pub(super) fn stability_cutoff(c: &mut Counters, p: u64, o: u64, alpha: i32) -> Option<i32> {
    // Unless the cut would survive STABILITY_SLACK / 2 unstable opponent discs, skip the work
    // (with a slack of 0: even if every opponent disc were stable the bound would be above
    // alpha).
    if alpha < 64 - 2 * o.count_ones() as i32 + STABILITY_SLACK {
        return None;
    }
    // The bound is at most alpha when the opponent has at least (64 - alpha) / 2 stable discs,
    // rounded up.
    let min = ((65 - alpha) / 2).max(0) as u32;
    let stable = stable_count_at_least(o, p, min)?;
    c.nodes += 1;
    c.leaves += 1;
    Some(64 - 2 * stable as i32)
}

/// The exact score with one empty square `empty` (a single bit) left.
#[inline(always)]
fn last_one(p: u64, o: u64, empty: u64) -> i32 {
    // After a move on the last square the board is full: the score is twice the mover's
    // discs less 64, and the mover's discs are its own, the new one and the flipped ones
    // (counted from the mover's discs alone, as every other square is taken).
    let sq = empty.trailing_zeros();
    let flips = count_last_flip(sq, p) as i32;
    let mine = p.count_ones() as i32;
    if flips != 0 {
        return 2 * (mine + flips + 1) - 64;
    }
    let flips = count_last_flip(sq, o) as i32;
    if flips != 0 {
        // The opponent (with 63 - mine discs now) plays it.
        return 64 - 2 * (63 - mine + flips + 1);
    }
    final_score(p, o)
}
