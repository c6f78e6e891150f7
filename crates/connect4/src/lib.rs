//! # prune-connect4
//!
//! Connect Four (7 columns × 6 rows) for prune: the rules on two bitboards ([`Position`]),
//! the move strings of Pascal Pons's test sets (`4453…`, columns `1`–`7`), the [`Game`]
//! implementation that every algorithm of `prune-search` runs on, a heuristic evaluation
//! ([`ThreatEval`]) for depth-limited searches, and an exact [`Solver`] whose enhancements
//! can be switched on one [`Step`] at a time.
//!
//! Scores follow the test sets: 0 for a draw, `22 - n` when the side to move wins with its
//! `n`-th stone, the negation when it loses. Through [`Game`] they are proven margins
//! ([`Score::exact`]), so a generic search prints the same number.
//!
//! ```
//! use prune_connect4::{Position, SolveOptions, Solver};
//!
//! // Position from Pons's End-Easy set (Test_L3_R1), listed there with the score -1.
//! let p: Position = "2252576253462244111563365343671351441".parse().unwrap();
//! let mut solver = Solver::with_table_bits(16).unwrap();
//! assert_eq!(solver.solve(&p, &SolveOptions::default()).score, -1);
//! ```
//!
//! [`Game`]: prune_search::Game
//! [`Score::exact`]: prune_search::Score::exact
#![deny(missing_docs)]

mod eval;
mod position;
mod solver;
pub mod suite;
mod table;

pub use eval::ThreatEval;
pub use position::{
    Column, MoveError, MoveErrorKind, Position, CELLS, CENTRE_FIRST, HEIGHT, WIDTH,
};
pub use solver::{Solution, SolveOptions, Solver, Step};
pub use table::{Entry, Part, Table};
