//! [`SearchObserver`]: how a search reports progress (the search itself never prints).

use serde::{Deserialize, Serialize};

use crate::{DepthRow, Score};

/// The outcome of one completed iteration of iterative deepening (or of a fixed-depth search).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u32,
    /// The root value at that depth.
    pub score: Score,
    /// The best move at that depth.
    pub best_move: Option<M>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// What the iteration cost.
    pub row: DepthRow,
}

/// Receives reports while a search runs.
pub trait SearchObserver<M> {
    /// Called after each completed iteration.
    fn on_iteration(&mut self, iteration: &Iteration<M>) {
        let _ = iteration;
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<M> SearchObserver<M> for NoObserver {}

impl<M, F: FnMut(&Iteration<M>)> SearchObserver<M> for F {
    fn on_iteration(&mut self, iteration: &Iteration<M>) {
        self(iteration)
    }
}
