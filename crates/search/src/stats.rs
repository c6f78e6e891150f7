//! [`SearchStats`]: what a search did, as plain counters that merge with `+=`.

use std::ops::AddAssign;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The counters of one search (or of one iteration of iterative deepening).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Every position visited: `interior + leaves`.
    pub nodes: u64,
    /// Positions whose moves were generated and searched.
    pub interior: u64,
    /// Positions evaluated statically or found terminal.
    pub leaves: u64,
    /// Moves whose value reached beta and ended the search of their node (for Scout: TEST
    /// calls proved by a child, which ends the TEST).
    pub beta_cutoffs: u64,
    /// Those beta cutoffs caused by the first move searched (a measure of move ordering).
    pub first_move_cutoffs: u64,
    /// Searches repeated with another window: NegaScout re-searches, Scout EVAL calls after a
    /// successful TEST, aspiration re-searches, MTD(f) passes after the first.
    pub re_searches: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found an entry for the position.
    pub tt_hits: u64,
    /// Hits whose stored bounds ended the node's search at once.
    pub tt_cutoffs: u64,
    /// Beta cutoffs by a move tried before generation (the followed line's or the table's).
    #[serde(default)]
    pub hash_move_cutoffs: u64,
    /// Beta cutoffs by a tactical move of a staged picker.
    #[serde(default)]
    pub tactical_cutoffs: u64,
    /// Beta cutoffs by a killer move.
    #[serde(default)]
    pub killer_cutoffs: u64,
    /// Nodes visited by shallow searches that ordered moves (included in `nodes`).
    #[serde(default)]
    pub ordering_nodes: u64,
    /// Split points: nodes whose younger brothers were shared out among threads.
    #[serde(default)]
    pub splits: u64,
    /// Nodes searched in vain at split points: at a split that ended in a cutoff, those of
    /// every brother after the first that cut (a search on one thread would not have reached
    /// them), finished or stopped.
    #[serde(default)]
    pub split_wasted_nodes: u64,
    /// Nodes ended by forward pruning (ProbCut): a shallow search predicted the deep one's
    /// bound.
    #[serde(default)]
    pub forward_cuts: u64,
    /// Nodes ended and moves skipped by the selective search (null move, futility and its
    /// reverse, razoring, late-move and static-exchange pruning).
    #[serde(default)]
    pub selective_cuts: u64,
    /// Moves searched shallower by late-move reductions (those re-searched at full depth are
    /// also counted in `re_searches`).
    #[serde(default)]
    pub reductions: u64,
}

impl Counters {
    /// Beta cutoffs on the first move as a fraction of all beta cutoffs (`None` if none).
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.beta_cutoffs > 0).then(|| self.first_move_cutoffs as f64 / self.beta_cutoffs as f64)
    }
}

impl Counters {
    /// What was counted since `earlier`, a copy of these counters taken before.
    pub fn since(&self, earlier: &Counters) -> Counters {
        Counters {
            nodes: self.nodes - earlier.nodes,
            interior: self.interior - earlier.interior,
            leaves: self.leaves - earlier.leaves,
            beta_cutoffs: self.beta_cutoffs - earlier.beta_cutoffs,
            first_move_cutoffs: self.first_move_cutoffs - earlier.first_move_cutoffs,
            re_searches: self.re_searches - earlier.re_searches,
            tt_probes: self.tt_probes - earlier.tt_probes,
            tt_hits: self.tt_hits - earlier.tt_hits,
            tt_cutoffs: self.tt_cutoffs - earlier.tt_cutoffs,
            hash_move_cutoffs: self.hash_move_cutoffs - earlier.hash_move_cutoffs,
            tactical_cutoffs: self.tactical_cutoffs - earlier.tactical_cutoffs,
            killer_cutoffs: self.killer_cutoffs - earlier.killer_cutoffs,
            ordering_nodes: self.ordering_nodes - earlier.ordering_nodes,
            splits: self.splits - earlier.splits,
            split_wasted_nodes: self.split_wasted_nodes - earlier.split_wasted_nodes,
            forward_cuts: self.forward_cuts - earlier.forward_cuts,
            selective_cuts: self.selective_cuts - earlier.selective_cuts,
            reductions: self.reductions - earlier.reductions,
        }
    }
}

impl AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.nodes += o.nodes;
        self.interior += o.interior;
        self.leaves += o.leaves;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.re_searches += o.re_searches;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.hash_move_cutoffs += o.hash_move_cutoffs;
        self.tactical_cutoffs += o.tactical_cutoffs;
        self.killer_cutoffs += o.killer_cutoffs;
        self.ordering_nodes += o.ordering_nodes;
        self.splits += o.splits;
        self.split_wasted_nodes += o.split_wasted_nodes;
        self.forward_cuts += o.forward_cuts;
        self.selective_cuts += o.selective_cuts;
        self.reductions += o.reductions;
    }
}

/// The counters of one depth (one iteration of iterative deepening, or the single depth of a
/// fixed-depth search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthRow {
    /// The nominal depth in plies.
    pub depth: u32,
    /// What that depth cost.
    pub counters: Counters,
    /// Wall-clock time spent on that depth.
    pub time: Duration,
}

/// The statistics of a search: totals, one row per depth searched, and time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Totals over the whole search, interrupted iterations included.
    pub total: Counters,
    /// One row per depth, in the order searched (an interrupted iteration has a row too).
    pub per_depth: Vec<DepthRow>,
    /// Wall-clock time of the whole search.
    pub time: Duration,
}

impl SearchStats {
    /// Nodes per second over the whole search (`None` when no time was measured).
    pub fn nodes_per_second(&self) -> Option<f64> {
        let secs = self.time.as_secs_f64();
        (secs > 0.0).then(|| self.total.nodes as f64 / secs)
    }
}

/// Merging statistics (of threads, or of the positions of a suite): totals and time add up,
/// and rows of the same depth add up.
impl AddAssign<&SearchStats> for SearchStats {
    fn add_assign(&mut self, o: &SearchStats) {
        self.total += o.total;
        self.time += o.time;
        for row in &o.per_depth {
            match self.per_depth.iter_mut().find(|r| r.depth == row.depth) {
                Some(mine) => {
                    mine.counters += row.counters;
                    mine.time += row.time;
                }
                None => self.per_depth.push(*row),
            }
        }
        self.per_depth.sort_by_key(|r| r.depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_totals_and_matching_rows() {
        let row = |depth, nodes| DepthRow {
            depth,
            counters: Counters {
                nodes,
                ..Counters::default()
            },
            time: Duration::from_millis(nodes),
        };
        let mut a = SearchStats {
            total: Counters {
                nodes: 3,
                beta_cutoffs: 1,
                ..Counters::default()
            },
            per_depth: vec![row(1, 1), row(2, 2)],
            time: Duration::from_millis(3),
        };
        let b = SearchStats {
            total: Counters {
                nodes: 10,
                ..Counters::default()
            },
            per_depth: vec![row(2, 4), row(3, 6)],
            time: Duration::from_millis(10),
        };
        a += &b;
        assert_eq!(a.total.nodes, 13);
        assert_eq!(a.total.beta_cutoffs, 1);
        assert_eq!(a.time, Duration::from_millis(13));
        let depths: Vec<_> = a
            .per_depth
            .iter()
            .map(|r| (r.depth, r.counters.nodes))
            .collect();
        assert_eq!(depths, vec![(1, 1), (2, 6), (3, 6)]);
    }
}
