//! Time controls and time management: how long the engine may think about one move.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How the time of a game is measured out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// The same time for every move.
    PerMove(Duration),
    /// A clock per side: `total` for the whole game, `increment` added after each move.
    Clock {
        /// The time each side starts with.
        total: Duration,
        /// The time added after each move.
        increment: Duration,
    },
    /// No clock: search every move to this depth (and solve the endgame exactly once the
    /// empties are at most [`Budget::DEPTH_SOLVE_EXTRA`] more than the depth).
    Depth(u32),
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerMove(t) => write!(f, "{} ms per move", t.as_millis()),
            TimeControl::Clock { total, increment } if increment.is_zero() => {
                write!(f, "{} s per game", total.as_secs_f64())
            }
            TimeControl::Clock { total, increment } => write!(
                f,
                "{} s per game + {} s per move",
                total.as_secs_f64(),
                increment.as_secs_f64()
            ),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// Why a time control was refused; each names the text given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not of any of the forms.
    #[error(
        "bad time control '{0}' (expected SECONDS[+INCREMENT], move:MS or depth:N, such as 300, \
         60+1, move:500 or depth:8)"
    )]
    Malformed(String),
    /// A depth out of range.
    #[error("{0}: the depth must be 1 to 60")]
    Depth(String),
    /// No time per move.
    #[error("{0}: the time per move must be positive")]
    NoTimePerMove(String),
    /// No time on the clock.
    #[error("{0}: the clock must have some time")]
    NoClock(String),
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `300` or `300s` (a clock of 300 s per side), `300+2` (with 2 s increment),
    /// `500ms` (per move, as `move:500ms` or `500ms/move`), or `depth:8`.
    fn from_str(text: &str) -> Result<Self, TimeControlError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || TimeControlError::Malformed(text.to_string());
        if let Some(d) = t.strip_prefix("depth:") {
            let d: u32 = d.parse().map_err(|_| bad())?;
            if d == 0 || d > 60 {
                return Err(TimeControlError::Depth(text.to_string()));
            }
            return Ok(TimeControl::Depth(d));
        }
        if let Some(ms) = t.strip_prefix("move:") {
            let ms: u64 = ms.trim_end_matches("ms").parse().map_err(|_| bad())?;
            if ms == 0 {
                return Err(TimeControlError::NoTimePerMove(text.to_string()));
            }
            return Ok(TimeControl::PerMove(Duration::from_millis(ms)));
        }
        let (total, increment) = match t.split_once('+') {
            Some((a, b)) => (a, b),
            None => (t.as_str(), "0"),
        };
        let secs = |s: &str| -> Result<Duration, TimeControlError> {
            let v: f64 = s.trim().trim_end_matches('s').parse().map_err(|_| bad())?;
            if !v.is_finite() || !(0.0..=1e6).contains(&v) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (total, increment) = (secs(total)?, secs(increment)?);
        if total.is_zero() {
            return Err(TimeControlError::NoClock(text.to_string()));
        }
        Ok(TimeControl::Clock { total, increment })
    }
}

/// What one move may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The longest the midgame search may take (`None`: no limit).
    pub time: Option<Duration>,
    /// The longest an exact endgame solve may be tried for before it is given up.
    pub solve_time: Option<Duration>,
    /// The depth of the midgame search (`None`: as deep as time allows).
    pub depth: Option<u32>,
    /// With a fixed depth and no time: solve exactly at this many empties or fewer.
    pub solve_empties: Option<u32>,
}

impl Budget {
    /// With a fixed depth D, positions with at most D + this many empties are solved exactly.
    pub const DEPTH_SOLVE_EXTRA: u32 = 6;

    /// A search to `depth` with no time limit.
    pub fn depth(depth: u32) -> Budget {
        Budget {
            time: None,
            solve_time: None,
            depth: Some(depth),
            solve_empties: Some((depth + Self::DEPTH_SOLVE_EXTRA).min(20)),
        }
    }

    /// `time` for the move, solve attempts included.
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            solve_time: Some(time),
            depth: None,
            solve_empties: None,
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left (clock controls only).
    remaining: Duration,
    /// Moves whose time ran over what was left on the clock.
    overruns: u32,
}

/// A move never gets less than this (the engine must return something).
const MIN_MOVE_TIME: Duration = Duration::from_millis(5);

/// Kept back on a clock for the overhead of making moves.
const CLOCK_RESERVE: Duration = Duration::from_millis(50);

impl Clock {
    /// A fresh clock.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control {
            TimeControl::Clock { total, .. } => total,
            _ => Duration::ZERO,
        };
        Clock {
            control,
            remaining,
            overruns: 0,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Time left on a clock (`None` for per-move and depth controls).
    pub fn remaining(&self) -> Option<Duration> {
        matches!(self.control, TimeControl::Clock { .. }).then_some(self.remaining)
    }

    /// How many moves took longer than the clock had left.
    pub fn overruns(&self) -> u32 {
        self.overruns
    }

    /// The budget of the next move in a position with `empties` empty squares. On a clock:
    /// the time left (less a reserve) shared over the moves the side still has to make (about
    /// half the empties), plus most of the increment; an exact solve may use up to a third of
    /// the time left, since once the endgame is solved the remaining moves cost nothing.
    pub fn budget(&self, empties: u32) -> Budget {
        match self.control {
            TimeControl::PerMove(t) => Budget::time(t),
            TimeControl::Depth(d) => Budget::depth(d),
            TimeControl::Clock { increment, .. } => {
                let usable = self.remaining.saturating_sub(CLOCK_RESERVE);
                let moves_left = empties.div_ceil(2) + 1;
                let share = usable / moves_left + increment.mul_f64(0.8);
                let time = share.min(usable / 2).max(MIN_MOVE_TIME);
                let solve_time = (usable / 3).max(time);
                Budget {
                    time: Some(time),
                    solve_time: Some(solve_time),
                    depth: None,
                    solve_empties: None,
                }
            }
        }
    }

    /// Charges a move that took `elapsed` (and adds the increment).
    pub fn spend(&mut self, elapsed: Duration) {
        if let TimeControl::Clock { increment, .. } = self.control {
            if elapsed > self.remaining {
                self.overruns += 1;
            }
            self.remaining = self.remaining.saturating_sub(elapsed) + increment;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            "300".parse(),
            Ok(TimeControl::Clock {
                total: Duration::from_secs(300),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            "60+1.5".parse(),
            Ok(TimeControl::Clock {
                total: Duration::from_secs(60),
                increment: Duration::from_millis(1500)
            })
        );
        assert_eq!(
            "move:250".parse(),
            Ok(TimeControl::PerMove(Duration::from_millis(250)))
        );
        assert_eq!("depth:8".parse(), Ok(TimeControl::Depth(8)));
        for bad in [
            "", "abc", "depth:0", "move:0", "0", "-5", "10+x", "depth:99",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_spreads_its_time_and_keeps_some() {
        let mut clock = Clock::new("60".parse().unwrap());
        let b = clock.budget(60);
        let t = b.time.unwrap();
        // About 60 s over 31 moves.
        assert!(
            t > Duration::from_millis(1500) && t < Duration::from_millis(2500),
            "{t:?}"
        );
        let mut spent = Duration::ZERO;
        for empties in (1..=60).rev().step_by(2) {
            let t = clock.budget(empties).time.unwrap();
            clock.spend(t);
            spent += t;
        }
        assert!(spent < Duration::from_secs(60), "{spent:?}");
        assert_eq!(clock.overruns(), 0);
        clock.spend(Duration::from_secs(100));
        assert_eq!(clock.overruns(), 1);
        assert_eq!(clock.remaining(), Some(Duration::ZERO));
        // Never less than the minimum, even on an empty clock.
        assert_eq!(clock.budget(10).time, Some(MIN_MOVE_TIME));
    }

    #[test]
    fn increments_are_added() {
        let mut clock = Clock::new("10+2".parse().unwrap());
        clock.spend(Duration::from_secs(1));
        assert_eq!(clock.remaining(), Some(Duration::from_secs(11)));
    }
}
