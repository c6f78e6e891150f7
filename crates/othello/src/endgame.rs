//! A fast exact endgame solver specialised for Othello: its own node loop over raw bitboards
//! (as the style guide allows for the hottest code), sharing the search crate's transposition
//! table and counters, and proved against the generic search by differential tests.
//!
//! The search is principal variation search at the root and null-window search below it
//! (every interior node is searched with a window one disc wide, except along the first move
//! of a PV node). Move ordering changes with the number of empty squares:
//!
//! * many empties ([`ORDERED_EMPTIES`] or more): the table's best move first, then
//!   fastest-first — the move that leaves the opponent the fewest replies — with corners
//!   preferred among equals;
//! * few empties: no table and no sorting; squares in regions with an odd number of empties
//!   first (parity), corners before the rest;
//! * one empty: no move list at all, the flips of the last move are counted directly.

use prune_search::{Counters, Score, TranspositionTable};

use crate::bitboard::{flipped, legal_moves, odd_regions, CORNERS};
use crate::{Board, Move, Square};

/// From this many empties up, nodes use the transposition table and fastest-first ordering.
pub const ORDERED_EMPTIES: u32 = 7;

/// Corners, then the squares that are neither X- nor C-squares, then the rest: the order in
/// which shallow nodes try moves within a parity class.
const PRIORITY: [u64; 3] = [CORNERS, !CORNERS & !X_AND_C_SQUARES, X_AND_C_SQUARES];

/// The X- and C-squares: next to a corner.
const X_AND_C_SQUARES: u64 = 0x42c3_0000_0000_c342;

/// The result of an exact solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameResult {
    /// The final disc difference for the side to move under perfect play (clamped to the
    /// window asked for: outside it, a bound).
    pub score: i32,
    /// A move reaching `score` (`None` when the game is over; `Move::PASS` when the side to
    /// move must pass).
    pub best_move: Option<Move>,
    /// What the search did.
    pub counters: Counters,
}

/// An exact endgame solver with its transposition table (reused between solves).
pub struct EndgameSolver {
    tt: TranspositionTable<Move>,
    counters: Counters,
}

#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    Board::from_disjoint_bits(p, o).final_score()
}

fn to_score(v: i32) -> Score {
    Score::exact(v)
}

fn from_score(s: Score) -> i32 {
    if s >= Score::INFINITY {
        65
    } else if s <= -Score::INFINITY {
        -65
    } else {
        s.margin().unwrap_or(0)
    }
}

impl EndgameSolver {
    /// A solver with a transposition table of `tt_mib` MiB.
    pub fn new(tt_mib: usize) -> Self {
        EndgameSolver {
            tt: TranspositionTable::new(tt_mib.max(1)),
            counters: Counters::default(),
        }
    }

    /// Forgets what earlier solves stored.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// The exact score of `board` (side to move's view) if it lies in `(alpha, beta)`; a bound
    /// otherwise. `-64 <= alpha < beta <= 64` are disc differences; use `(-64, 64)` for the exact
    /// score and `(-1, 1)` to learn only win, draw or loss.
    pub fn solve(&mut self, board: &Board, alpha: i32, beta: i32) -> EndgameResult {
        self.counters = Counters::default();
        self.tt.new_search();
        let (p, o) = (board.player(), board.opponent());
        let (alpha, beta) = (alpha.clamp(-65, 64), beta.clamp(-64, 65));
        let mut best_move = None;
        let score = self.pvs(p, o, alpha, beta, true, Some(&mut best_move));
        EndgameResult {
            score,
            best_move,
            counters: self.counters,
        }
    }

    /// Principal variation search of the position `(p, o)` (side to move owns `p`); a null
    /// window everywhere off the principal variation. At the root (`root_move` given) the
    /// table cannot end the search and the best move is written back.
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        root_move: Option<&mut Option<Move>>,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties < ORDERED_EMPTIES && root_move.is_none() {
            return self.shallow(p, o, alpha, beta, empties);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                self.counters.nodes += 1;
                self.counters.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            if let Some(best) = root_move {
                *best = Some(Move::PASS);
            }
            return -self.pvs(o, p, -beta, -alpha, pv_node, None);
        }
        self.counters.nodes += 1;
        self.counters.interior += 1;
        let key = Board::from_disjoint_bits(p, o).hash();
        let mut a = alpha;
        self.counters.tt_probes += 1;
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            self.counters.tt_hits += 1;
            let (lower, upper) = (from_score(e.lower), from_score(e.upper));
            if root_move.is_none() && (lower >= beta || upper <= alpha || lower == upper) {
                self.counters.tt_cutoffs += 1;
                return if lower >= beta { lower } else { upper };
            }
            if root_move.is_none() {
                a = a.max(lower);
            }
            tt_move = e.best_move.and_then(Move::square).map(|s| s.index() as u32);
        }
        let mut list = MoveList::new(p, o, moves, tt_move);
        let mut best = -65;
        let mut best_sq = None;
        let mut i = 0;
        while let Some((sq, flips)) = list.next_best() {
            let (np, no) = (o & !flips, p | flips | (1u64 << sq));
            let v = if i == 0 || !pv_node {
                -self.pvs(np, no, -beta, -a, pv_node, None)
            } else {
                let mut v = -self.pvs(np, no, -a - 1, -a, false, None);
                if v > a && v < beta {
                    self.counters.re_searches += 1;
                    v = -self.pvs(np, no, -beta, -v, true, None);
                }
                v
            };
            if v > best {
                best = v;
                best_sq = Some(sq);
                a = a.max(v);
            }
            if v >= beta {
                self.counters.count_cutoff(i);
                break;
            }
            i += 1;
        }
        let lower = if best > alpha {
            to_score(best)
        } else {
            -Score::INFINITY
        };
        let upper = if best < beta {
            to_score(best)
        } else {
            Score::INFINITY
        };
        let best_move = best_sq
            .and_then(|s| Square::new(s as u8))
            .map(Move::from_square);
        self.tt.store(key, empties, lower, upper, best_move);
        if let Some(root) = root_move {
            *root = best_move;
        }
        best
    }

    /// Alpha-beta without table or sorting, for the last few empties (fail-soft).
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u32) -> i32 {
        let empty = !(p | o);
        if empties <= 1 {
            self.counters.nodes += 1;
            self.counters.leaves += 1;
            return if empties == 0 {
                final_score(p, o)
            } else {
                last_one(p, o, empty)
            };
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                self.counters.nodes += 1;
                self.counters.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            return -self.shallow(o, p, -beta, -alpha, empties);
        }
        self.counters.nodes += 1;
        self.counters.interior += 1;
        let odd = odd_regions(empty);
        let mut best = -65;
        let mut i = 0;
        for region in [odd, !odd] {
            for class in PRIORITY {
                let mut todo = moves & region & class;
                while todo != 0 {
                    let sq = todo.trailing_zeros();
                    todo &= todo - 1;
                    let bit = 1u64 << sq;
                    let flips = flipped(bit, p, o);
                    let v = -self.shallow(o & !flips, p | flips | bit, -beta, -alpha, empties - 1);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                        }
                    }
                    if v >= beta {
                        self.counters.count_cutoff(i);
                        return best;
                    }
                    i += 1;
                }
            }
        }
        best
    }
}

/// The exact score with one empty square `empty` (a single bit) left.
#[inline]
fn last_one(p: u64, o: u64, empty: u64) -> i32 {
    let f = flipped(empty, p, o);
    if f != 0 {
        return final_score(p | f | empty, o & !f);
    }
    let f = flipped(empty, o, p);
    if f != 0 {
        return -final_score(o | f | empty, p & !f);
    }
    final_score(p, o)
}

/// The moves of a node with their flips and ordering keys, handed out best first.
struct MoveList {
    moves: [(u32, u64, i32); 32],
    len: usize,
}

impl MoveList {
    /// Fastest-first: the key is the opponent's number of replies (x 16), less a bonus for a
    /// corner; the table's move comes first.
    fn new(p: u64, o: u64, mut moves: u64, tt_move: Option<u32>) -> Self {
        let mut list = MoveList {
            moves: [(0, 0, 0); 32],
            len: 0,
        };
        while moves != 0 && list.len < 32 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let bit = 1u64 << sq;
            let flips = flipped(bit, p, o);
            let key = if Some(sq) == tt_move {
                i32::MIN
            } else {
                let (np, no) = (o & !flips, p | flips | bit);
                let replies = legal_moves(np, no).count_ones() as i32;
                let corner = if bit & CORNERS != 0 { 8 } else { 0 };
                replies * 16 - corner
            };
            list.moves[list.len] = (sq, flips, key);
            list.len += 1;
        }
        list
    }

    /// The remaining move with the smallest key (selection: most nodes cut off after the first
    /// one or two moves, so a full sort would be wasted).
    fn next_best(&mut self) -> Option<(u32, u64)> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].2 < self.moves[best].2 {
                best = i;
            }
        }
        let m = self.moves[best];
        self.len -= 1;
        self.moves[best] = self.moves[self.len];
        Some((m.0, m.1))
    }
}

trait CountCutoff {
    fn count_cutoff(&mut self, index: usize);
}

impl CountCutoff for Counters {
    fn count_cutoff(&mut self, index: usize) {
        self.beta_cutoffs += 1;
        if index == 0 {
            self.first_move_cutoffs += 1;
        }
    }
}
