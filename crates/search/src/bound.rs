//! [`Bound`]: what a search result says about a position's true value.

use serde::{Deserialize, Serialize};

use crate::Score;

/// How a value returned by a windowed search relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// The true value is at least the returned value (the search failed high).
    Lower,
    /// The true value is at most the returned value (the search failed low).
    Upper,
    /// The returned value is the true value.
    Exact,
}

impl Bound {
    /// Classifies `value`, the result of a search with window `(alpha, beta)`.
    pub fn classify(value: Score, alpha: Score, beta: Score) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_by_window() {
        let (a, b) = (Score::heuristic(-5), Score::heuristic(5));
        assert_eq!(Bound::classify(Score::heuristic(-5), a, b), Bound::Upper);
        assert_eq!(Bound::classify(Score::heuristic(5), a, b), Bound::Lower);
        assert_eq!(Bound::classify(Score::DRAW, a, b), Bound::Exact);
    }
}
