//! # prune-play
//!
//! Playing whole games of Othello with prune's search:
//!
//! * [`clock`]: time controls ([`TimeControl`]: fixed time per move, a clock with increment, or
//!   a fixed depth) and how much of the clock a move may use ([`Budget`]);
//! * [`player`]: the [`Agent`] trait (anything that chooses moves: prune's [`EnginePlayer`],
//!   an external engine) and the engine player itself — iterative deepening that stops in time,
//!   and an exact endgame solve once the empties allow it within the budget;
//! * [`record`]: a game as a start position and its moves ([`GameRecord`]);
//! * [`ggf`]: games in GGF, the format of Othello servers and of the NBoard GUI;
//! * [`nboard`]: the NBoard protocol as an I/O-free session (lines in, replies out);
//! * [`arena`]: games and matches between two agents, from [`openings`] with the colours
//!   swapped, and their results with the Elo difference ([`elo`]);
//! * [`external`]: an external engine that speaks the NBoard protocol, as an agent.
#![deny(missing_docs)]

pub mod arena;
pub mod clock;
pub mod elo;
pub mod external;
pub mod ggf;
pub mod nboard;
pub mod openings;
pub mod player;
pub mod record;

pub use clock::{Budget, Clock, TimeControl, TimeControlError};
pub use player::{
    Agent, AgentError, EnginePlayer, MidgameEngine, PlayerOptions, Thought, FAST, MCTS,
};
pub use record::{GameRecord, RecordError};
