//! The algorithms of the alpha-beta family, one per file. Each is a function over a
//! [`Searcher`](crate::searcher::Searcher) returning the value of a position searched to a
//! given depth; [`crate::engine`] picks one according to the configuration.
//!
//! Conventions: values are from the side to move's point of view (negamax), except inside
//! [`minimax`], whose two functions work from the root player's point of view; `ply` is the
//! distance from the root; a search stopped by a limit returns a meaningless value and the
//! caller checks [`Searcher::stopped`](crate::searcher::Searcher::stopped).

pub(crate) mod alpha_beta;
pub(crate) mod aspiration;
pub(crate) mod iterative;
pub(crate) mod minimax;
pub(crate) mod mtdf;
pub(crate) mod negamax;
pub(crate) mod negascout;
pub(crate) mod scout;
