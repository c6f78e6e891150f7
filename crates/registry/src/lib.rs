//! Every game of prune in one place, below every door (the command line, `prune serve`, the
//! Python module, the lab):
//!
//! - [`catalog`]: each game's name and aliases, the form of its game string, what its
//!   positions look like, its evaluations by name, its published perft counts and test suites;
//!   [`GameChoice`] parses a user's game string.
//! - [`RegisteredGame`]: what the doors need of a game beyond the search's `Game`, written
//!   once per game: positions read and written, move names, scores in the game's own words
//!   (discs, Pons's scale, centipawns or mate), the default depth, the board to draw, an exact
//!   solver near the end.
//! - [`with_game`]: from names to the typed game and evaluation, handed to a [`GameVisitor`]
//!   (one generic method: the code a door writes once for every game).
//! - [`board`]: a position as any door draws it, and an SVG picture of it.
//! - [`native`]: a game's own engine beside the generic search (Othello's midgame search and
//!   exact solver, the shogi engine), asked and answered the same way for every game.
//!
//! Adding a game: its crate implements `prune_search::Game`; here it gets a [`GameInfo`], a
//! [`GameChoice`] arm, a [`RegisteredGame`] impl and its arm in [`with_game`]. The doors then
//! know it.

pub mod board;
pub mod catalog;
pub mod dispatch;
pub mod native;
pub mod registered;

pub use board::{svg, BoardView, Hand, MoveView, Side, Stone};
pub use catalog::{
    board_games, info, syntaxes, EvalInfo, GameChoice, GameError, GameInfo, Perft, GAMES,
};
pub use dispatch::{othello_eval, with_game, GameVisitor, LegalMoveNames, Setup, TreeDepth};
pub use native::{NativeEngine, NativeLimits, NativeReport, NativeResult, NATIVE_TT_MIB};
pub use registered::{RegisteredGame, OPEN_GAME_DEPTH, OTHELLO_EXACT_EMPTIES};
