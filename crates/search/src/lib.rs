//! # prune-search
//!
//! Game-agnostic game-tree search: every member of the alpha-beta family, selectable at run
//! time through a [`SearchConfig`], with statistics as numbers. The crate does no I/O: it never
//! prints and never reads files; it reports through return values and an observer.
#![deny(missing_docs)]

mod game;
mod score;

pub use game::{perft, Evaluator, Game};
pub use score::Score;
