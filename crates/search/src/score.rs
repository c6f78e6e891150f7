//! [`Score`]: a value from the side to move's point of view that keeps proven results
//! (wins, losses, exact margins) apart from heuristic estimates.

use std::fmt;
use std::ops::Neg;

use serde::{Deserialize, Serialize};

/// A score from the point of view of the side to move, ordered so that larger is better.
///
/// The `i32` inside is split into bands:
///
/// * `|v| < Score::DECISIVE`: a heuristic value from an [`Evaluator`](crate::Evaluator), or an
///   exact draw (`0`, [`Score::DRAW`]);
/// * `v = DECISIVE + m` for `m >= 1`: a proven win by margin `m` (a game without margins, such
///   as tic-tac-toe, uses `m = 1`; Othello uses the final disc difference);
/// * `v = -(DECISIVE + m)`: a proven loss by margin `m`;
/// * `±INFINITY`: window bounds only, never the value of a position.
///
/// So every proven win is better than every heuristic value, a larger winning margin is better
/// than a smaller one, and negation turns a win into the loss it is for the opponent. A draw and
/// a heuristic value of zero share the encoding `0`: they are equally good, and a search that
/// needs to know whether its root value is proven asks [`Score::is_decisive`] or reads it from
/// an exact solve.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(into = "ScoreRepr", try_from = "ScoreRepr")]
pub struct Score(i32);

impl Score {
    /// Any `|value|` at or above this is a proven win or loss.
    pub const DECISIVE_RAW: i32 = 1_000_000;
    /// The largest margin a win or loss can carry.
    pub const MAX_MARGIN: i32 = 100_000;
    /// A window bound above every score.
    pub const INFINITY: Score = Score(2 * Self::DECISIVE_RAW);
    /// A draw (or a heuristic even position).
    pub const DRAW: Score = Score(0);
    /// The smallest proven win, `win_by(1)`.
    pub const WIN: Score = Score(Self::DECISIVE_RAW + 1);
    /// The largest proven loss, `loss_by(1)`.
    pub const LOSS: Score = Score(-Self::DECISIVE_RAW - 1);

    /// A heuristic value; `value` is clamped into the heuristic band.
    pub const fn heuristic(value: i32) -> Score {
        let limit = Self::DECISIVE_RAW - 1;
        Score(if value > limit {
            limit
        } else if value < -limit {
            -limit
        } else {
            value
        })
    }

    /// A proven result with final margin `margin` for the side to move: a win if positive, a
    /// loss if negative, a draw if zero. The margin is clamped to `±MAX_MARGIN`.
    pub const fn exact(margin: i32) -> Score {
        let m = if margin > Self::MAX_MARGIN {
            Self::MAX_MARGIN
        } else if margin < -Self::MAX_MARGIN {
            -Self::MAX_MARGIN
        } else {
            margin
        };
        if m > 0 {
            Score(Self::DECISIVE_RAW + m)
        } else if m < 0 {
            Score(-Self::DECISIVE_RAW + m)
        } else {
            Self::DRAW
        }
    }

    /// The raw encoded value (for hashing, tables and arithmetic on windows).
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Rebuilds a score from [`Score::raw`].
    pub const fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// Whether this is a proven win.
    pub const fn is_win(self) -> bool {
        self.0 >= Self::DECISIVE_RAW && self.0 < Self::INFINITY.0
    }

    /// Whether this is a proven loss.
    pub const fn is_loss(self) -> bool {
        self.0 <= -Self::DECISIVE_RAW && self.0 > -Self::INFINITY.0
    }

    /// Whether this is a proven win or loss.
    pub const fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }

    /// Whether this is one of the window bounds `±INFINITY` (never a position's value).
    pub const fn is_infinite(self) -> bool {
        self.0 >= Self::INFINITY.0 || self.0 <= -Self::INFINITY.0
    }

    /// The margin of a proven result (`Some(0)` for the draw encoding), or `None` for a
    /// heuristic value other than zero.
    pub const fn margin(self) -> Option<i32> {
        if self.is_win() {
            Some(self.0 - Self::DECISIVE_RAW)
        } else if self.is_loss() {
            Some(self.0 + Self::DECISIVE_RAW)
        } else if self.0 == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// The next score above this one (`self + 1` in the raw encoding): the upper edge of a
    /// null window `(self, self.next())`.
    pub const fn next(self) -> Score {
        Score(self.0 + 1)
    }

    /// The next score below this one.
    pub const fn prev(self) -> Score {
        Score(self.0 - 1)
    }

    /// This score moved by `delta` raw units, saturating at `±INFINITY` (for aspiration windows).
    pub fn offset(self, delta: i32) -> Score {
        Score(
            self.0
                .saturating_add(delta)
                .clamp(-Self::INFINITY.0, Self::INFINITY.0),
        )
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Score({self})")
    }
}

/// `+12`, `-3` and `0` for heuristic values; `win+4`, `loss-4` for proven results;
/// `+inf`/`-inf` for window bounds.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_infinite() {
            write!(f, "{}inf", if self.0 > 0 { '+' } else { '-' })
        } else if self.is_win() {
            write!(f, "win+{}", self.0 - Self::DECISIVE_RAW)
        } else if self.is_loss() {
            write!(f, "loss{}", self.0 + Self::DECISIVE_RAW)
        } else if self.0 == 0 {
            write!(f, "0")
        } else {
            write!(f, "{:+}", self.0)
        }
    }
}

/// How a [`Score`] reads in JSON: `{"kind": "heuristic", "value": 12}`,
/// `{"kind": "win", "value": 4}` (the margin), `{"kind": "loss", "value": -4}`, or
/// `{"kind": "draw", "value": 0}`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
enum ScoreRepr {
    Heuristic(i32),
    Win(i32),
    Loss(i32),
    Draw(i32),
}

impl From<Score> for ScoreRepr {
    fn from(s: Score) -> Self {
        match s.margin() {
            Some(m) if m > 0 => ScoreRepr::Win(m),
            Some(m) if m < 0 => ScoreRepr::Loss(m),
            Some(_) => ScoreRepr::Draw(0),
            None => ScoreRepr::Heuristic(s.0),
        }
    }
}

impl TryFrom<ScoreRepr> for Score {
    type Error = String;
    fn try_from(r: ScoreRepr) -> Result<Self, String> {
        match r {
            ScoreRepr::Heuristic(v) if v.abs() < Score::DECISIVE_RAW => Ok(Score(v)),
            ScoreRepr::Heuristic(v) => Err(format!("heuristic score {v} is out of range")),
            ScoreRepr::Win(m) if (1..=Score::MAX_MARGIN).contains(&m) => Ok(Score::exact(m)),
            ScoreRepr::Loss(m) if (-Score::MAX_MARGIN..=-1).contains(&m) => Ok(Score::exact(m)),
            ScoreRepr::Draw(0) => Ok(Score::DRAW),
            other => Err(format!("inconsistent score {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_results_order_around_heuristics() {
        let h = Score::heuristic(999_999);
        assert!(Score::exact(1) > h);
        assert!(Score::exact(-1) < -h);
        assert!(Score::exact(5) > Score::exact(4));
        assert_eq!(-Score::exact(7), Score::exact(-7));
        assert!(Score::INFINITY > Score::exact(Score::MAX_MARGIN));
        assert_eq!(Score::exact(0), Score::DRAW);
        assert!(Score::WIN.is_win() && Score::LOSS.is_loss());
        assert!(!h.is_decisive());
        assert_eq!(Score::heuristic(5_000_000), h);
    }

    #[test]
    fn margins_and_display() {
        assert_eq!(Score::exact(12).margin(), Some(12));
        assert_eq!(Score::exact(-12).margin(), Some(-12));
        assert_eq!(Score::heuristic(3).margin(), None);
        assert_eq!(Score::exact(12).to_string(), "win+12");
        assert_eq!(Score::exact(-3).to_string(), "loss-3");
        assert_eq!(Score::heuristic(-3).to_string(), "-3");
        assert_eq!((-Score::INFINITY).to_string(), "-inf");
    }

    #[test]
    fn json_round_trip() {
        for s in [
            Score::exact(9),
            Score::exact(-2),
            Score::DRAW,
            Score::heuristic(-41),
        ] {
            let text = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<Score>(&text).unwrap(), s, "{text}");
        }
        assert_eq!(
            serde_json::to_string(&Score::exact(9)).unwrap(),
            r#"{"kind":"win","value":9}"#
        );
        assert!(serde_json::from_str::<Score>(r#"{"kind":"win","value":-1}"#).is_err());
    }
}
