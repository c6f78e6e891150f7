//! [`HandEval`]: a hand-made static evaluation of Othello positions.
//!
//! The value is a weighted sum of [`Features`], each measured as the side to move's count
//! minus the opponent's, so the value is relative to the side to move. Units: 100 is about one
//! disc. Each weight is a pair (opening, ending) blended linearly by the number of empty
//! squares: the opening weight applies at 60 empties, the ending weight at 0.

use prune_search::{Evaluator, Score};

use crate::bitboard::{neighbours, CORNERS, FILE_A, FILE_H, RANK_1, RANK_8};
use crate::board::Board;
use crate::pattern::PatternEval;
use crate::position::Position;

/// The raw terms of the evaluation for the side to move; all but `parity` are "mine minus
/// yours", so they change sign when the two sides are swapped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Legal moves now: a side with more choices is rarely forced into bad ones.
    pub mobility: i32,
    /// Potential mobility: empty squares next to the opponent's discs (where moves may appear
    /// later) minus empty squares next to one's own (the opponent's future moves). Fewer
    /// frontier discs of one's own is good.
    pub potential_mobility: i32,
    /// Corners owned: a corner disc can never be flipped and anchors its edges.
    pub corners: i32,
    /// X-squares (b2, g2, b7, g7) held next to an empty corner: they give the corner away.
    pub x_squares: i32,
    /// C-squares (the edge squares beside a corner) held next to an empty corner: milder.
    pub c_squares: i32,
    /// A cheap stable-disc estimate: edge discs joined to an owned corner by an unbroken line
    /// of one's own discs along that edge (the corner itself is counted by `corners`).
    pub stable_edges: i32,
    /// Discs: counts little early (fewer discs often means more mobility) and more near the end.
    pub discs: i32,
    /// Parity, late only: +1 when the number of empties is odd (the side to move should get
    /// the last move if nobody passes), -1 when even, 0 before [`PARITY_EMPTIES`].
    pub parity: i32,
}

/// Parity counts from this number of empty squares down.
pub const PARITY_EMPTIES: u32 = 18;

/// The X-squares b2, g2, b7, g7 with their corners a1, h1, a8, h8.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// The C-squares of each corner: b1+a2, g1+h2, a7+b8, h7+g8.
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1 << 0),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];

/// The squares of `table` whose corner is empty.
fn beside_empty_corners(table: &[(u64, u64); 4], empties: u64) -> u64 {
    table
        .iter()
        .filter(|&&(_, corner)| empties & corner != 0)
        .fold(0, |mask, &(squares, _)| mask | squares)
}

/// Edge discs of `own` linked to an owned corner along the edge by `own` discs (corners
/// included).
fn anchored_edges(own: u64) -> u64 {
    let ranks = own & (RANK_1 | RANK_8);
    let files = own & (FILE_A | FILE_H);
    let mut anchored = own & CORNERS;
    for _ in 0..6 {
        anchored |= ranks & (((anchored << 1) & !FILE_A) | ((anchored >> 1) & !FILE_H));
        anchored |= files & ((anchored << 8) | (anchored >> 8));
    }
    anchored
}

/// `a`'s count minus `b`'s count.
fn diff(a: u64, b: u64) -> i32 {
    a.count_ones() as i32 - b.count_ones() as i32
}

impl Features {
    /// Measures the features of `board` for its side to move.
    pub fn of(board: &Board) -> Features {
        let (me, you, empties) = (board.player(), board.opponent(), board.empties());
        let x = beside_empty_corners(&X_SQUARES, empties);
        let c = beside_empty_corners(&C_SQUARES, empties);
        let n = board.empty_count();
        Features {
            mobility: diff(board.moves(), board.opponent_moves()),
            potential_mobility: diff(empties & neighbours(you), empties & neighbours(me)),
            corners: diff(me & CORNERS, you & CORNERS),
            x_squares: diff(me & x, you & x),
            c_squares: diff(me & c, you & c),
            stable_edges: diff(
                anchored_edges(me) & !CORNERS,
                anchored_edges(you) & !CORNERS,
            ),
            discs: diff(me, you),
            parity: match (n <= PARITY_EMPTIES, n % 2) {
                (false, _) => 0,
                (true, 1) => 1,
                (true, _) => -1,
            },
        }
    }
}

/// The weights of [`HandEval`] as (opening, ending) pairs, per unit of each feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Weights {
    mobility: (i32, i32),
    potential_mobility: (i32, i32),
    corners: (i32, i32),
    x_squares: (i32, i32),
    c_squares: (i32, i32),
    stable_edges: (i32, i32),
    discs: (i32, i32),
    parity: (i32, i32),
}

const WEIGHTS: Weights = Weights {
    mobility: (60, 30),
    potential_mobility: (20, 5),
    corners: (800, 400),
    x_squares: (-300, -100),
    c_squares: (-100, -30),
    stable_edges: (120, 120),
    discs: (-5, 60),
    parity: (100, 100),
};

/// A hand-made evaluation: the weighted [`Features`], blended by game phase (see the module
/// documentation). Values are heuristic scores from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandEval;

impl HandEval {
    /// The value of `board` for its side to move, in hundredths of a disc.
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        let f = Features::of(board);
        let empties = board.empty_count().min(60) as i32;
        let blend = |(opening, ending): (i32, i32)| opening * empties + ending * (60 - empties);
        let w = WEIGHTS;
        let total = blend(w.mobility) * f.mobility
            + blend(w.potential_mobility) * f.potential_mobility
            + blend(w.corners) * f.corners
            + blend(w.x_squares) * f.x_squares
            + blend(w.c_squares) * f.c_squares
            + blend(w.stable_edges) * f.stable_edges
            + blend(w.discs) * f.discs
            + blend(w.parity) * f.parity;
        total / 60
    }
}

impl Evaluator<Position> for HandEval {
    fn evaluate(&self, game: &Position) -> Score {
        Score::heuristic(self.evaluate_board(game.board()))
    }

    /// The move whose resulting position is worst for the opponent first (a one-ply look at
    /// the evaluation); a forced pass is left alone.
    fn order_moves(&self, game: &Position, moves: &mut [crate::Move]) {
        order_by_reply(game, moves, |b| self.evaluate_board(b));
    }

    /// Six discs ahead is about a 73% chance (values are in hundredths of a disc).
    fn win_scale(&self) -> f64 {
        WIN_SCALE
    }
}

/// Sorts `moves` so that the one leaving the opponent the lowest `eval` comes first; a forced
/// pass (a single move) is left alone.
fn order_by_reply(game: &Position, moves: &mut [crate::Move], eval: impl Fn(&Board) -> i32) {
    if moves.len() > 1 {
        moves.sort_by_cached_key(|&mv| eval(game.play_unchecked(mv).board()));
    }
}

/// An Othello evaluation chosen at run time: the hand-made one or a learned pattern set.
#[derive(Clone, Debug, PartialEq)]
pub enum OthelloEval {
    /// [`HandEval`].
    Hand,
    /// A [`PatternEval`] (the built-in weights or a weights file).
    Pattern(PatternEval),
}

impl Default for OthelloEval {
    /// The trained patterns with the built-in weights.
    fn default() -> Self {
        OthelloEval::Pattern(PatternEval::builtin())
    }
}

impl OthelloEval {
    /// The value of `board` for its side to move, in hundredths of a disc.
    #[inline]
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        match self {
            OthelloEval::Hand => HandEval.evaluate_board(board),
            OthelloEval::Pattern(e) => e.evaluate_board(board),
        }
    }

    /// `hand` or `pattern`.
    pub fn name(&self) -> &'static str {
        match self {
            OthelloEval::Hand => "hand",
            OthelloEval::Pattern(_) => "pattern",
        }
    }
}

impl Evaluator<Position> for OthelloEval {
    fn evaluate(&self, game: &Position) -> Score {
        Score::heuristic(self.evaluate_board(game.board()))
    }

    /// The built-in ProbCut fit ([`crate::midgame::probcut`]) for the built-in trained
    /// weights, which it was measured with; none for other weights or the hand-made evaluation.
    fn probcut(&self, game: &Position, depth: u32) -> Option<prune_search::ProbCutFit> {
        match self {
            OthelloEval::Pattern(e) if e.is_builtin() => {
                crate::midgame::probcut::generic_fit(game.empty_count(), depth)
            }
            _ => None,
        }
    }

    /// As [`HandEval`]'s: a one-ply look at the evaluation.
    fn order_moves(&self, game: &Position, moves: &mut [crate::Move]) {
        order_by_reply(game, moves, |b| self.evaluate_board(b));
    }

    /// Six discs ahead is about a 73% chance (values are in hundredths of a disc).
    fn win_scale(&self) -> f64 {
        WIN_SCALE
    }
}

/// The evaluations' [`Evaluator::win_scale`], in hundredths of a disc: a rough reading, not a
/// fit, of a midgame lead of six discs as about a 73% chance of winning.
const WIN_SCALE: f64 = 600.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::from_diagram;
    use crate::square::{squares, Square};
    use crate::Color;
    use prune_search::rng::{Rng, XorShift64};
    use prune_search::Game;

    /// The positions of a deterministic pseudo-random game (xorshift move choice).
    fn playout(seed: u64) -> Vec<Position> {
        let mut rng = XorShift64::new(seed | 1);
        let mut p = Position::START;
        let mut seen = vec![p];
        loop {
            let moves = p.legal_moves();
            if moves.is_empty() {
                return seen;
            }
            p = p
                .play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
            seen.push(p);
        }
    }

    #[test]
    fn start_is_even() {
        assert_eq!(HandEval.evaluate(&Position::START), Score::heuristic(0));
        assert_eq!(Features::of(&Board::START), Features::default());
    }

    #[test]
    fn antisymmetric_when_sides_swap() {
        for seed in 1..20 {
            for p in playout(seed * 0x9e37_79b9) {
                let b = *p.board();
                let (here, swapped) = (
                    HandEval.evaluate_board(&b),
                    HandEval.evaluate_board(&b.pass()),
                );
                if b.empty_count() > PARITY_EMPTIES {
                    assert_eq!(here, -swapped, "{p}");
                } else {
                    // Parity favours whoever is to move in both, so it does not cancel
                    // (and each value is rounded on its own).
                    let parity = 100 * Features::of(&b).parity;
                    assert!((here + swapped - 2 * parity).abs() <= 1, "{p}");
                }
            }
        }
    }

    #[test]
    fn prefers_taking_a_corner() {
        // Black can take a1 (over b2, c3 to d4) or play elsewhere.
        let (black, white) =
            from_diagram("........ ........ ........ ...OX... ...XO... ..O..... .O...... ........");
        let p = Position::from_discs(black, white, Color::Black).unwrap();
        let best = squares(p.board().moves())
            .max_by_key(|&s: &Square| -HandEval.evaluate_board(&p.board().play_unchecked(s)))
            .unwrap();
        assert_eq!(best.to_string(), "a1");
        let owns = Board::from_bits(1, 0).unwrap();
        assert!(HandEval.evaluate_board(&owns) > 0);
        assert_eq!(Features::of(&owns).corners, 1);
    }

    #[test]
    fn orders_the_corner_first() {
        let (black, white) =
            from_diagram("........ ........ ........ ...OX... ...XO... ..O..... .O...... ........");
        let p = Position::from_discs(black, white, Color::Black).unwrap();
        let mut moves = p.legal_moves();
        HandEval.order_moves(&p, &mut moves);
        assert_eq!(moves[0].to_string(), "a1");
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(sorted, p.legal_moves());
    }

    #[test]
    fn x_square_next_to_empty_corner_is_bad() {
        let on_x = Board::from_bits(1 << 9, 0).unwrap(); // b2, a1 empty
        let f = Features::of(&on_x);
        assert_eq!(f.x_squares, 1);
        assert!(HandEval.evaluate_board(&on_x) < 0);
        let corner_taken = Board::from_bits((1 << 9) | 1, 0).unwrap();
        assert_eq!(Features::of(&corner_taken).x_squares, 0);
    }

    #[test]
    fn stable_edges_grow_from_owned_corners() {
        // a1, b1, c1 owned and a2, a3: four anchored edge discs besides the corner; e1 is not.
        let own = 0b10111 | (1 << 8) | (1 << 16);
        let b = Board::from_bits(own, 1 << 63).unwrap();
        assert_eq!(Features::of(&b).stable_edges, 4);
        assert_eq!(Features::of(&b).corners, 0, "one corner each");
    }
}
