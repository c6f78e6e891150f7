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
    /// A clock per side of `total` (possibly none), then `byoyomi` for every move once it is
    /// spent (shogi's time control: the byoyomi does not add up from move to move).
    Byoyomi {
        /// The main time each side starts with.
        total: Duration,
        /// The time every move may take once the main time is spent.
        byoyomi: Duration,
    },
    /// No clock: search every move to this depth (and solve the endgame exactly once the
    /// empties are at most [`Budget::DEPTH_SOLVE_EXTRA`] more than the depth).
    Depth(u32),
    /// No clock: search every move this many nodes (playouts for MCTS).
    Nodes(u64),
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
            TimeControl::Byoyomi { total, byoyomi } if total.is_zero() => {
                write!(f, "byoyomi {} ms", byoyomi.as_millis())
            }
            TimeControl::Byoyomi { total, byoyomi } => write!(
                f,
                "{} s per game + byoyomi {} ms",
                total.as_secs_f64(),
                byoyomi.as_millis()
            ),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes per move"),
        }
    }
}

/// Why a time control was refused; each names the text given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not of any of the forms.
    #[error(
        "bad time control '{0}' (expected SECONDS[+INCREMENT], [SECONDS+]byoyomi:MS, move:MS, \
         depth:N or nodes:N, such as 300, 60+1, byoyomi:100, move:500, depth:8 or nodes:100000)"
    )]
    Malformed(String),
    /// A depth out of range.
    #[error("{0}: the depth must be 1 to 60")]
    Depth(String),
    /// No time per move.
    #[error("{0}: the time per move must be positive")]
    NoTimePerMove(String),
    /// No nodes per move.
    #[error("{0}: the nodes per move must be 1 to 10^15")]
    Nodes(String),
    /// No time on the clock.
    #[error("{0}: the clock must have some time")]
    NoClock(String),
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `300` or `300s` (a clock of 300 s per side), `300+2` (with 2 s increment),
    /// `move:500` (500 ms per move), `byoyomi:100` (100 ms per move in byoyomi),
    /// `60+byoyomi:100` (60 s, then the byoyomi), `depth:8` or `nodes:100000`.
    fn from_str(text: &str) -> Result<Self, TimeControlError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || TimeControlError::Malformed(text.to_string());
        if let Some(n) = t.strip_prefix("nodes:") {
            let n: u64 = n.trim().parse().map_err(|_| bad())?;
            if n == 0 || n > 1_000_000_000_000_000 {
                return Err(TimeControlError::Nodes(text.to_string()));
            }
            return Ok(TimeControl::Nodes(n));
        }
        if let Some(at) = t.find("byoyomi:") {
            let ms: u64 = t[at + "byoyomi:".len()..]
                .trim()
                .trim_end_matches("ms")
                .parse()
                .map_err(|_| bad())?;
            if ms == 0 || ms > 1_000_000_000 {
                return Err(TimeControlError::NoTimePerMove(text.to_string()));
            }
            let total = match t[..at].trim() {
                "" => Duration::ZERO,
                main => {
                    let main = main.strip_suffix('+').ok_or_else(bad)?.trim();
                    let v: f64 = main.trim_end_matches('s').parse().map_err(|_| bad())?;
                    if !v.is_finite() || !(0.0..=1e6).contains(&v) {
                        return Err(bad());
                    }
                    Duration::from_secs_f64(v)
                }
            };
            return Ok(TimeControl::Byoyomi {
                total,
                byoyomi: Duration::from_millis(ms),
            });
        }
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
    /// The nodes the search may visit (`None`: no limit).
    pub nodes: Option<u64>,
    /// Whether time this move does not spend is kept for later moves (a clock), rather than
    /// lost (a time per move, byoyomi): a search may then stop early, between iterations.
    pub time_carries: bool,
    /// The side's clock as it stands, under a clock or byoyomi control: what an external
    /// engine that manages its own time is told (USI's `btime`, `byoyomi`, `binc`).
    pub clock: Option<ClockView>,
}

/// A side's clock before a move, as a protocol tells it to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// The main time left.
    pub remaining: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// The time of each move once the main time is spent.
    pub byoyomi: Duration,
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
            nodes: None,
            time_carries: false,
            clock: None,
        }
    }

    /// A search of `nodes` nodes, with no time or depth limit (an endgame is solved exactly
    /// at as many empties as at depth 8).
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            time: None,
            solve_time: None,
            depth: None,
            solve_empties: Some(8 + Self::DEPTH_SOLVE_EXTRA),
            nodes: Some(nodes),
            time_carries: false,
            clock: None,
        }
    }

    /// `time` for the move, solve attempts included.
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            solve_time: Some(time),
            depth: None,
            solve_empties: None,
            nodes: None,
            time_carries: false,
            clock: None,
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
            TimeControl::Clock { total, .. } | TimeControl::Byoyomi { total, .. } => total,
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
        matches!(
            self.control,
            TimeControl::Clock { .. } | TimeControl::Byoyomi { .. }
        )
        .then_some(self.remaining)
    }

    /// How many moves took longer than the clock had left.
    pub fn overruns(&self) -> u32 {
        self.overruns
    }

    /// The budget of the next move when about `empties` plies are left in the game (Othello:
    /// the empty squares; see [`crate::Playable::plies_left`]). On a clock: the time left
    /// (less a reserve) shared over the moves the side still has to make (about half the
    /// plies), plus most of the increment; an exact solve may use up to a third of the time
    /// left, since once the endgame is solved the remaining moves cost nothing. In byoyomi:
    /// the share of the main time plus the byoyomi less a margin.
    pub fn budget(&self, empties: u32) -> Budget {
        match self.control {
            TimeControl::PerMove(t) => Budget::time(t),
            TimeControl::Depth(d) => Budget::depth(d),
            TimeControl::Nodes(n) => Budget::nodes(n),
            TimeControl::Byoyomi { byoyomi, .. } => {
                let usable = self.remaining.saturating_sub(CLOCK_RESERVE);
                let moves_left = empties.div_ceil(2) + 1;
                let margin = (byoyomi / 10).min(CLOCK_RESERVE);
                let time =
                    (usable / moves_left + byoyomi.saturating_sub(margin)).max(MIN_MOVE_TIME);
                Budget {
                    // Once the main time is (nearly) gone, what a move leaves is lost.
                    time_carries: usable > byoyomi,
                    clock: Some(ClockView {
                        remaining: self.remaining,
                        increment: Duration::ZERO,
                        byoyomi,
                    }),
                    ..Budget::time(time)
                }
            }
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
                    nodes: None,
                    time_carries: true,
                    clock: Some(ClockView {
                        remaining: self.remaining,
                        increment,
                        byoyomi: Duration::ZERO,
                    }),
                }
            }
        }
    }

    /// Charges a move that took `elapsed` (and adds the increment).
    pub fn spend(&mut self, elapsed: Duration) {
        match self.control {
            TimeControl::Clock { increment, .. } => {
                if elapsed > self.remaining {
                    self.overruns += 1;
                }
                self.remaining = self.remaining.saturating_sub(elapsed) + increment;
            }
            TimeControl::Byoyomi { byoyomi, .. } => {
                if elapsed > self.remaining + byoyomi {
                    self.overruns += 1;
                }
                self.remaining = self.remaining.saturating_sub(elapsed);
            }
            _ => {}
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
        assert_eq!("nodes:5000".parse(), Ok(TimeControl::Nodes(5000)));
        assert_eq!(
            "byoyomi:100".parse(),
            Ok(TimeControl::Byoyomi {
                total: Duration::ZERO,
                byoyomi: Duration::from_millis(100)
            })
        );
        assert_eq!(
            "60+byoyomi:250".parse(),
            Ok(TimeControl::Byoyomi {
                total: Duration::from_secs(60),
                byoyomi: Duration::from_millis(250)
            })
        );
        for bad in [
            "",
            "abc",
            "depth:0",
            "move:0",
            "0",
            "-5",
            "10+x",
            "depth:99",
            "nodes:0",
            "nodes:x",
            "byoyomi:0",
            "byoyomi:",
            "60byoyomi:5",
            "x+byoyomi:5",
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
    fn byoyomi_is_spent_per_move_and_never_saved() {
        let mut clock = Clock::new("byoyomi:100".parse().unwrap());
        let t = clock.budget(100).time.unwrap();
        assert!(
            t >= Duration::from_millis(80) && t < Duration::from_millis(100),
            "{t:?}"
        );
        clock.spend(Duration::from_millis(90));
        assert_eq!(
            (clock.remaining(), clock.overruns()),
            (Some(Duration::ZERO), 0)
        );
        clock.spend(Duration::from_millis(150));
        assert_eq!(clock.overruns(), 1);
        let mut clock = Clock::new("10+byoyomi:100".parse().unwrap());
        let t = clock.budget(100).time.unwrap();
        assert!(t > Duration::from_millis(200), "{t:?}");
        clock.spend(Duration::from_secs(4));
        assert_eq!(clock.remaining(), Some(Duration::from_secs(6)));
    }

    #[test]
    fn increments_are_added() {
        let mut clock = Clock::new("10+2".parse().unwrap());
        clock.spend(Duration::from_secs(1));
        assert_eq!(clock.remaining(), Some(Duration::from_secs(11)));
    }
}
