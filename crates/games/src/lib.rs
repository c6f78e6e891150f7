//! # prune-games
//!
//! Small games to prove and teach the search library on:
//!
//! * [`TicTacToe`]: its full minimax tree has 549,946 nodes and the game is a draw;
//! * [`UniformTree`]: a tree of fixed width and depth whose leaf values are drawn from a seed,
//!   with the best child placed first, last, or anywhere (the Knuth–Moore experiments);
//! * [`RandomTree`]: trees of varying width and depth, optionally with transpositions, for
//!   differential tests of the algorithms against plain minimax.
//!
//! [`GameSpec`] parses the `--game` strings of the command line (`tictactoe`,
//! `uniform:width=3,depth=4,order=perfect,seed=1`, `random:seed=7`).
#![deny(missing_docs)]

mod mix;
mod random_tree;
mod spec;
mod tictactoe;
mod uniform;

pub use mix::mix;
pub use random_tree::{RandomEval, RandomNode, RandomTree};
pub use spec::{parse_key_values, GameSpec, SpecError};
pub use tictactoe::{Cell, LineEval, ParseTicTacToeError, TicTacToe};
pub use uniform::{ChildOrder, NoisyEval, UniformNode, UniformTree};
