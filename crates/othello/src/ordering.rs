//! Static move ordering for Othello ([`StaticOrdering`]), and [`Ordered`], an evaluator
//! wrapper that applies one to any evaluation, so that the generic search's
//! [`static_ordering`](prune_search::SearchConfig::static_ordering) switch can use it.

use prune_search::{Evaluator, Named, Score};

use crate::board::Board;
use crate::position::Position;
use crate::square::Move;

/// A way to sort a position's moves from static knowledge alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StaticOrdering {
    /// By the value of the square ([`square_value`]): corners first, the squares next to an
    /// empty corner last.
    SquareValue,
    /// Fastest first: the move that leaves the opponent the fewest moves first (mobility),
    /// square value breaking ties.
    #[default]
    Mobility,
    /// By the wrapped evaluation's own ordering ([`Evaluator::order_moves`]).
    Evaluation,
}

impl Named for StaticOrdering {
    const KIND: &'static str = "ordering";
    const ALL: &'static [Self] = &[
        StaticOrdering::SquareValue,
        StaticOrdering::Mobility,
        StaticOrdering::Evaluation,
    ];

    /// The name used on the command line: `square`, `mobility` or `eval`.
    fn name(self) -> &'static str {
        match self {
            StaticOrdering::SquareValue => "square",
            StaticOrdering::Mobility => "mobility",
            StaticOrdering::Evaluation => "eval",
        }
    }
}

prune_search::named!(StaticOrdering);

/// Square values for ordering, by square class, a1 = index 0 (symmetric under the board's
/// eight symmetries). Corners are worth most; the X-squares (b2) and C-squares (b1) next to a
/// corner least, because they tend to give the corner away; edges are better than the inside.
#[rustfmt::skip]
const SQUARE_VALUES: [i8; 64] = [
    20, -3, 11,  8,  8, 11, -3, 20,
    -3, -7, -4,  1,  1, -4, -7, -3,
    11, -4,  2,  2,  2,  2, -4, 11,
     8,  1,  2, -3, -3,  2,  1,  8,
     8,  1,  2, -3, -3,  2,  1,  8,
    11, -4,  2,  2,  2,  2, -4, 11,
    -3, -7, -4,  1,  1, -4, -7, -3,
    20, -3, 11,  8,  8, 11, -3, 20,
];

/// The ordering value of playing `mv` (higher is tried earlier); a pass is worth 0.
pub fn square_value(mv: Move) -> i32 {
    mv.square()
        .map_or(0, |s| i32::from(SQUARE_VALUES[s.index() as usize]))
}

impl StaticOrdering {
    /// Sorts `moves` (legal moves of `board`) best first. Stable: equal moves keep their
    /// order. [`StaticOrdering::Evaluation`] needs an evaluation and leaves `moves` as they
    /// are here; [`Ordered`] applies it.
    pub fn sort(self, board: &Board, moves: &mut [Move]) {
        if moves.len() < 2 {
            return;
        }
        match self {
            StaticOrdering::SquareValue => moves.sort_by_key(|&mv| -square_value(mv)),
            StaticOrdering::Mobility => moves.sort_by_cached_key(|&mv| {
                let replies = mv
                    .square()
                    .map_or(0, |s| board.play_unchecked(s).moves().count_ones());
                (replies as i32, -square_value(mv))
            }),
            // Left to the evaluation (see `Ordered`).
            StaticOrdering::Evaluation => {}
        }
    }
}

/// An evaluation with a chosen static move ordering: [`Evaluator::evaluate`] is the wrapped
/// evaluation's, [`Evaluator::order_moves`] the ordering's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ordered<E> {
    /// The evaluation.
    pub eval: E,
    /// The move ordering.
    pub ordering: StaticOrdering,
}

impl<E: Evaluator<Position>> Evaluator<Position> for Ordered<E> {
    fn evaluate(&self, game: &Position) -> Score {
        self.eval.evaluate(game)
    }

    fn order_moves(&self, game: &Position, moves: &mut [Move]) {
        match self.ordering {
            StaticOrdering::Evaluation => self.eval.order_moves(game, moves),
            ordering => ordering.sort(game.board(), moves),
        }
    }

    fn probcut(&self, game: &Position, depth: u32) -> Option<prune_search::ProbCutFit> {
        self.eval.probcut(game, depth)
    }

    fn win_scale(&self) -> f64 {
        self.eval.win_scale()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::Game;

    #[test]
    fn square_values_are_symmetric() {
        for (i, &v) in SQUARE_VALUES.iter().enumerate() {
            let (r, c) = (i / 8, i % 8);
            assert_eq!(v, SQUARE_VALUES[r * 8 + (7 - c)], "mirror of {i}");
            assert_eq!(v, SQUARE_VALUES[(7 - r) * 8 + c], "flip of {i}");
            assert_eq!(v, SQUARE_VALUES[c * 8 + r], "transpose of {i}");
        }
    }

    #[test]
    fn orderings_permute_the_moves() {
        let p = crate::builtin_suite("ffo-40-59").unwrap()[5].entry.position;
        let moves = p.legal_moves();
        for ordering in StaticOrdering::ALL {
            let mut sorted = moves.clone();
            ordering.sort(p.board(), &mut sorted);
            let mut a = sorted.clone();
            let mut b = moves.clone();
            a.sort_by_key(|m| m.index());
            b.sort_by_key(|m| m.index());
            assert_eq!(a, b, "{ordering}");
            assert_eq!(ordering.name().parse(), Ok(*ordering));
        }
        // Fastest first: replies never increase along the sorted list.
        let mut sorted = moves.clone();
        StaticOrdering::Mobility.sort(p.board(), &mut sorted);
        let replies: Vec<u32> = sorted
            .iter()
            .map(|m| p.play_unchecked(*m).board().moves().count_ones())
            .collect();
        assert!(replies.windows(2).all(|w| w[0] <= w[1]), "{replies:?}");
    }
}
