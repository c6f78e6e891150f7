//! [`SearchLimits`]: when a search stops.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What bounds a search. A fixed-depth search uses `depth` alone; iterative deepening goes
/// deeper until one of the limits that is set is reached (or the tree is exhausted).
///
/// Node and time limits can interrupt an iteration; the result is then the last completed
/// iteration's (and at least a legal move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchLimits {
    /// The (maximum) depth in plies.
    pub depth: Option<u32>,
    /// The maximum number of nodes to visit.
    pub nodes: Option<u64>,
    /// The maximum wall-clock time.
    pub time: Option<Duration>,
}

impl SearchLimits {
    /// The deepest an iterative search goes when no depth is given.
    pub const MAX_DEPTH: u32 = 128;

    /// A fixed depth.
    pub fn depth(depth: u32) -> Self {
        SearchLimits {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// A node budget.
    pub fn nodes(nodes: u64) -> Self {
        SearchLimits {
            nodes: Some(nodes),
            ..Self::default()
        }
    }

    /// A time budget.
    pub fn time(time: Duration) -> Self {
        SearchLimits {
            time: Some(time),
            ..Self::default()
        }
    }

    /// These limits with a time budget of `secs` seconds added.
    pub fn with_time_secs(mut self, secs: u64) -> Self {
        self.time = Some(Duration::from_secs(secs));
        self
    }

    /// The depth to search to: the given one, or [`Self::MAX_DEPTH`].
    pub fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(Self::MAX_DEPTH).min(Self::MAX_DEPTH)
    }

    /// Whether a node or time limit is set, which can interrupt a search part-way.
    pub fn can_interrupt(&self) -> bool {
        self.nodes.is_some() || self.time.is_some()
    }
}
