//! The ordering key of the ordered nodes' moves (smaller first): fastest-first with the
//! weights below, and from [`EVAL_ORDER_EMPTIES`] up the evaluation of each move's position.
//!
//! The values were tuned on FFO positions; what was tried and measured is in
//! `docs/tuning.md`.

use super::moves::{KeyedMove, MoveList};
use super::search::Shared;
use crate::bitboard::{neighbours, odd_regions, CORNERS};
use crate::kernel::Kernel;
use crate::table::EndgameTable;
use crate::{Board, HandEval, OthelloEval, PatternEval};

/// From this many empties up, the ordering key also counts the evaluation of each move's
/// position (the solver's evaluation, by default the trained patterns), [`EVAL_ORDER_WEIGHT`]
/// key units per disc (a reply of the opponent counts 16): at smaller nodes an evaluation per
/// move cost more than it saved (docs/tuning.md; 16 until the evaluation was moved on
/// incrementally and the AVX-512 kernel came, 14 since: 7.4% fewer nodes, 5% less time).
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;
/// See [`EVAL_ORDER_EMPTIES`] (docs/tuning.md).
const EVAL_ORDER_WEIGHT: i32 = 3;

/// From this many empties up, the evaluation in the ordering key is not the one of each
/// move's position but the opponent's best reply to it by the evaluation (one ply deeper),
/// [`REPLY_EVAL_WEIGHT`] key units per disc: fewer nodes at the cost of an evaluation per
/// reply. From 16 empties it cost more time than it saved; from 18 and 20 it was a little
/// faster than without (docs/tuning.md).
pub(super) const REPLY_EVAL_EMPTIES: u32 = 20;
/// See [`REPLY_EVAL_EMPTIES`] (docs/tuning.md).
const REPLY_EVAL_WEIGHT: i32 = 6;

/// From this many empties up, each reply in the ordering key is valued one ply deeper still:
/// by our best answer to it by the evaluation, three plies below the node (a reply we must
/// pass after keeps its own evaluation). From 22 empties it cut FFO #40-#52's nodes by 6%
/// and their time by 2% over three rounds; from 24 it saved fewer nodes, from 20 and 21 more
/// at more evaluations (docs/tuning.md).
const DEEP_REPLY_EMPTIES: u32 = 22;

/// Below this many empties, the ordering key prefers moves in odd regions (parity).
const PARITY_EMPTIES: u32 = 14;

/// The ordering key's weights: per opponent reply (a corner reply counts twice), per square of
/// the opponent's potential mobility, and the bonuses of a corner and of an odd region
/// (docs/tuning.md).
const MOBILITY_WEIGHT: i32 = 16;
const POTENTIAL_WEIGHT: i32 = 3;
const CORNER_BONUS: i32 = 8;
const PARITY_BONUS: i32 = 4;
/// The ordering key's penalty for an X-square (b2, g2, b7, g7) and for a C-square (b1, a2,
/// ...) next to an empty corner: such a move tends to give the corner away (values tuned on
/// FFO #45-#47: docs/tuning.md).
const X_PENALTY: i32 = 16;
const C_PENALTY: i32 = 8;

/// The key of the table's move: before every other.
pub(super) const TABLE_MOVE_KEY: i32 = i32::MIN;
/// The key of a move that wipes out the opponent: next after the table's move.
pub(super) const WIPE_OUT_KEY: i32 = i32::MIN + 1;

/// The X-squares b2, g2, b7, g7.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The X- and C-squares: next to a corner.
pub(super) const X_AND_C_SQUARES: u64 = 0x42c3_0000_0000_c342;

/// The X- and C-squares of the corners that are empty in `empty`.
#[inline(always)]
fn squares_beside_empty_corners(empty: u64) -> u64 {
    let corners = empty & CORNERS;
    // A corner's neighbours are exactly its X-square and its two C-squares.
    neighbours(corners) & X_AND_C_SQUARES
}

impl MoveList {
    /// The legal moves `moves` of `(p, o)` with their flips and ordering keys. Fastest-first:
    /// the key (smaller first) is mostly the opponent's number of replies, corners counted
    /// twice; then the opponent's potential mobility (empty squares next to the mover's
    /// discs); less a bonus for taking a corner and, below [`PARITY_EMPTIES`], for playing in
    /// a region with an odd number of empties; plus a penalty for an X- or C-square next to an
    /// empty corner. A move that wipes out the opponent comes first, and before it the table's
    /// move `tt_move`.
    ///
    /// The key is computed here in one piece, not in helpers: split up, it cost the compiled
    /// node function instructions (docs/tuning.md).
    ///
    /// The list is filled in place (`self`, empty), not returned: returned, its 1 KB were
    /// copied at every node.
    #[inline(always)]
    pub(super) fn fill<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut moves: u64,
        tt_move: Option<u32>,
        prefetch: Option<&EndgameTable>,
    ) {
        debug_assert!(self.is_empty());
        let list = self;
        let empty = !(p | o);
        let risky = squares_beside_empty_corners(empty);
        let odd = if empty.count_ones() < PARITY_EMPTIES {
            odd_regions(empty)
        } else {
            0
        };
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let bit = 1u64 << sq;
            let flips = k.flips(sq, p, o);
            let (np, no) = (o & !flips, p | flips | bit);
            if K::PREFETCHES {
                if let Some(tt) = prefetch {
                    k.prefetch(tt.address(tt.bucket_index(np, no)));
                }
            }
            let key = if Some(sq) == tt_move {
                TABLE_MOVE_KEY
            } else {
                if np == 0 {
                    WIPE_OUT_KEY
                } else {
                    let replies = k.moves(np, no);
                    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                    let potential = (neighbours(no) & empty & !bit).count_ones() as i32;
                    let corner = if bit & CORNERS != 0 { CORNER_BONUS } else { 0 };
                    let parity = if bit & odd != 0 { PARITY_BONUS } else { 0 };
                    let x = if bit & risky & X_SQUARES != 0 {
                        X_PENALTY
                    } else {
                        0
                    };
                    let c = if bit & risky & !X_SQUARES != 0 {
                        C_PENALTY
                    } else {
                        0
                    };
                    mobility * MOBILITY_WEIGHT + potential * POTENTIAL_WEIGHT - corner - parity
                        + x
                        + c
                }
            };
            list.moves.push(KeyedMove {
                square: sq,
                flips,
                key,
            });
        }
    }
}

impl Shared<'_> {
    /// Adds the evaluation of each move's position (the opponent's view: lower first) to its
    /// ordering key, [`EVAL_ORDER_WEIGHT`] per disc; at nodes of [`REPLY_EVAL_EMPTIES`]
    /// `empties` or more, the value of the opponent's best reply instead, [`REPLY_EVAL_WEIGHT`]
    /// per disc (a move the opponent must pass after: its position's evaluation at that
    /// weight), and from [`DEEP_REPLY_EMPTIES`] each reply valued by our best answer to it.
    /// The table's move and wipe-outs stay first.
    ///
    /// With the trained patterns the node's pattern indices are read off the board once and
    /// moved on by each move's flips (`PatternState`), not read again for every position:
    /// the same values at a fraction of the cost (docs/tuning.md).
    pub(super) fn order_by_eval<K: Kernel>(
        &self,
        k: K,
        p: u64,
        o: u64,
        empties: u32,
        list: &mut MoveList,
    ) {
        match self.eval {
            OthelloEval::Pattern(e) => order_by_patterns(k, e, p, o, empties, list),
            OthelloEval::Hand => {
                let hand =
                    |p: u64, o: u64| HandEval.evaluate_board(&Board::from_disjoint_bits(p, o));
                let (plies, weight) = key_lookahead(empties);
                for m in list.remaining_mut() {
                    if m.key > WIPE_OUT_KEY {
                        let (np, no) = m.placement().after(p, o);
                        m.key += lookahead(k, &hand, np, no, plies) * weight / 100;
                    }
                }
            }
        }
    }
}

/// How many plies below each move the ordering key looks at a node of `empties` empties (0:
/// the move's position; 1: the opponent's best reply; 2: that reply valued by our best answer)
/// and the key units per disc of the value found.
#[inline(always)]
fn key_lookahead(empties: u32) -> (u32, i32) {
    if empties >= DEEP_REPLY_EMPTIES {
        (2, REPLY_EVAL_WEIGHT)
    } else if empties >= REPLY_EVAL_EMPTIES {
        (1, REPLY_EVAL_WEIGHT)
    } else {
        (0, EVAL_ORDER_WEIGHT)
    }
}

/// The value for the side to move `p` of a `plies`-ply search of `eval` (hundredths of a disc),
/// where a side that must pass keeps its own position's evaluation: the evaluation part of the
/// ordering key computed board by board (the hand-made evaluation's key, and the reference the
/// incremental pattern key is tested against).
fn lookahead<K: Kernel>(k: K, eval: &impl Fn(u64, u64) -> i32, p: u64, o: u64, plies: u32) -> i32 {
    if plies > 0 {
        let best = best_reply(k, p, o, |sq, flips| {
            -lookahead(k, eval, o & !flips, p | flips | 1u64 << sq, plies - 1)
        });
        if let Some(v) = best {
            return v;
        }
    }
    eval(p, o)
}

/// [`Shared::order_by_eval`] with the pattern evaluation `e`, incrementally.
#[inline(always)]
fn order_by_patterns<K: Kernel>(
    k: K,
    e: &PatternEval,
    p: u64,
    o: u64,
    empties: u32,
    list: &mut MoveList,
) {
    // The same values as `lookahead` from scratch, written out for the two depths: each
    // position's state is moved on from its parent's, not read off the board again.
    let (plies, weight) = key_lookahead(empties);
    // Fixed colours: `us` is the side to move here.
    let node = e.state(p, o);
    for m in list.remaining_mut() {
        if m.key > WIPE_OUT_KEY {
            let child = e.play_state(&node, m.square, m.flips, true);
            // The evaluations are in hundredths of a disc; the opponent is to move.
            let own = || e.evaluate_state(&child, empties - 1, false);
            let value = if plies == 0 {
                own()
            } else {
                let (np, no) = m.placement().after(p, o);
                best_reply(k, np, no, |sq, flips| {
                    let grandchild = e.play_state(&child, sq, flips, false);
                    // Our side to move at the grandchild.
                    let ours = || e.evaluate_state(&grandchild, empties - 2, true);
                    if plies == 1 {
                        return -ours();
                    }
                    let (gp, go) = (no & !flips, np | flips | 1u64 << sq);
                    -best_reply(k, gp, go, |sq2, flips2| {
                        let next = e.play_state(&grandchild, sq2, flips2, true);
                        -e.evaluate_state(&next, empties - 3, false)
                    })
                    .unwrap_or_else(ours)
                })
                // A move the opponent must pass after keeps its own evaluation.
                .unwrap_or_else(own)
            };
            m.key += value * weight / 100;
        }
    }
}

/// The value for the side to move `p` of its best move one ply down, each move's value given
/// by `value(square, flips)` (`None` when it must pass).
#[inline(always)]
fn best_reply<K: Kernel>(
    k: K,
    p: u64,
    o: u64,
    mut value: impl FnMut(u32, u64) -> i32,
) -> Option<i32> {
    let mut replies = k.moves(p, o);
    if replies == 0 {
        return None;
    }
    let mut best = i32::MIN;
    while replies != 0 {
        let sq = replies.trailing_zeros();
        replies &= replies - 1;
        best = best.max(value(sq, k.flips(sq, p, o)));
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{legal_moves, random_game};
    use crate::kernel::Portable;
    use prune_search::rng::{Rng, XorShift64};

    /// Each key is the fastest-first key plus the evaluation looked ahead as far as the node's
    /// empties say (the move's position, the best reply, the best reply by our best answer),
    /// though the keys are computed incrementally from the node's `PatternState`.
    #[test]
    fn keys_match_a_lookahead_from_scratch() {
        let e = PatternEval::builtin();
        let from_scratch = |p: u64, o: u64| e.evaluate_bits(p, o);
        let mut rng = XorShift64::new(0x0de9_7e91_c0de);
        let mut checked = [0u32; 3];
        for _ in 0..60 {
            // A random game from the start, stopped at 16 to 26 empties.
            let stop = 16 + (rng.next_u64() % 11) as u32;
            let (p, o) = random_game(&mut rng, stop);
            let moves = legal_moves(p, o);
            let empties = 64 - (p | o).count_ones();
            if moves == 0 || empties < EVAL_ORDER_EMPTIES {
                continue;
            }
            let mut list = MoveList::empty();
            list.fill(Portable, p, o, moves, None, None);
            let base: Vec<i32> = list.remaining().iter().map(|m| m.key).collect();
            order_by_patterns(Portable, &e, p, o, empties, &mut list);
            let (plies, weight) = key_lookahead(empties);
            checked[plies as usize] += 1;
            for (m, key) in list.remaining().iter().zip(base) {
                let expected = if key > WIPE_OUT_KEY {
                    let (np, no) = m.placement().after(p, o);
                    key + lookahead(Portable, &from_scratch, np, no, plies) * weight / 100
                } else {
                    key
                };
                assert_eq!(m.key, expected, "square {} of {p:#x} {o:#x}", m.square);
            }
        }
        assert!(
            checked.iter().all(|&n| n > 0),
            "every kind of key checked: {checked:?}"
        );
    }
}
