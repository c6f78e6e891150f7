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

/// The window `(alpha, beta)` a search looks at the root with: it finds the value exactly if
/// the value lies strictly inside, and otherwise only a bound on it ([`Bound::classify`]), for
/// less work. A win/draw/loss solve, for example, searches the window around the draw
/// `(Score::LOSS, Score::WIN)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Window {
    /// The lower edge: a value at or below it is reported as an upper bound.
    pub alpha: Score,
    /// The upper edge: a value at or above it is reported as a lower bound.
    pub beta: Score,
}

impl Window {
    /// The whole range of scores: the value is always found exactly.
    pub const FULL: Window = Window {
        alpha: Score::from_raw(-Score::INFINITY.raw()),
        beta: Score::INFINITY,
    };

    /// The window `(alpha, beta)`, or `None` if it is empty (`alpha >= beta`).
    pub fn new(alpha: Score, beta: Score) -> Option<Window> {
        (alpha < beta).then_some(Window { alpha, beta })
    }

    /// Whether this is [`Window::FULL`].
    pub fn is_full(self) -> bool {
        self == Window::FULL
    }

    /// What `value`, found by a search of this window, says about the true value.
    pub fn classify(self, value: Score) -> Bound {
        Bound::classify(value, self.alpha, self.beta)
    }
}

impl Default for Window {
    fn default() -> Self {
        Window::FULL
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
