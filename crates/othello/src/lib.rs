//! # prune-othello
//!
//! Othello for prune: bitboard rules ([`Board`], [`Position`]), text notation, OBF position
//! files with exact move scores, the built-in FFO endgame suite, a fast perft, a hand-made and
//! a trained pattern evaluation, and exact endgame solving ([`Solver`]): by a specialised node
//! loop of its own ([`endgame`]), or through the generic search as the reference.
//! [`Position`] implements [`prune_search::Game`], so every search in `prune-search` can play
//! Othello.
//!
//! Squares are bits of a `u64`: a1 = bit 0, b1 = bit 1, .., h1 = bit 7, a2 = bit 8, ..,
//! h8 = bit 63. Boards are relative to the side to move, so a pass is a swap and a move is
//! three XORs.
//!
//! ```
//! use prune_othello::{perft, Move, Position};
//! use prune_search::Game;
//!
//! let start: Position = "---------------------------OX------XO--------------------------- X"
//!     .parse()
//!     .unwrap();
//! assert_eq!(start, Position::START);
//! let moves: Vec<String> = start.legal_moves().iter().map(Move::to_string).collect();
//! assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
//! let next = start.play("f5".parse().unwrap()).unwrap();
//! assert!(next.play("a1".parse().unwrap()).is_err());
//! assert_eq!(perft(&start, 5), 1_396);
//! ```
#![deny(missing_docs)]

pub mod bitboard;
mod board;
pub mod check;
pub mod endgame;
pub mod eval;
mod kernel;
pub mod midgame;
pub mod notation;
pub mod obf;
pub mod openings;
pub mod ordering;
pub mod pattern;
pub mod perft;
mod position;
pub mod solve;
mod square;
pub mod stability;
pub mod suite;
pub mod symmetry;
mod table;
pub mod train;
pub mod wthor;

pub use board::{Board, OverlappingDiscs};
pub use eval::{Features, HandEval, OthelloEval};
pub use notation::{ParseError, ParseErrorKind};
pub use obf::{
    parse_obf, parse_obf_numbered, parse_obf_records, ObfEntry, ObfError, ObfErrorKind, ObfRecords,
};
pub use ordering::{Ordered, StaticOrdering};
pub use pattern::{PatternEval, PatternWeights, WeightsError};
pub use perft::perft;
pub use position::{Color, IllegalMove, Position};
pub use solve::{
    solve, EndgameOrdering, SolveOptions, SolveResult, SolveWindow, Solver, SolverKind,
};
pub use square::{squares, Move, Square, Squares};
pub use suite::{builtin_suite, load_suite_or_file, SuitePosition, BUILTIN_SUITES};
pub use suite::{BadRecord, LoadError, LoadedPositions, NumberedEntry};
