//! # prune-play
//!
//! Playing whole games with prune's engines, one layer for every game:
//!
//! * [`clock`]: the one limits vocabulary ([`TimeControl`]: time per move, a clock with
//!   increment or byoyomi, a fixed depth or nodes) and what one move may cost ([`Budget`]),
//!   which every agent accepts;
//! * [`player`]: the [`Agent`] trait (anything that chooses moves in a game) and Othello's
//!   engine player ([`EnginePlayer`]: iterative deepening that stops in time, and an exact
//!   endgame solve once the empties allow it within the budget);
//! * [`agents`]: the players every game has (any preset of the generic search, MCTS) and
//!   [`AgentSpec`], what a door asks for; [`connect4`] and [`shogi`]: those games' own players;
//! * [`playable`]: [`Playable`], what the play layer needs of a game (openings, endings, the
//!   clock's horizon, records, players), and [`with_playable`];
//! * [`record`]: a game as a start position and its moves ([`GameRecord`]);
//! * [`arena`]: games and matches between two agents of any game, from openings with the
//!   sides swapped, on several threads if asked, and their results with the Elo difference
//!   ([`elo`]);
//! * [`ggf`]: Othello games in GGF, the format of Othello servers and of the NBoard GUI;
//! * [`nboard`]: the NBoard protocol as an I/O-free session (lines in, replies out);
//! * [`external`]: an external Othello engine that speaks the NBoard protocol, as an agent;
//!   [`usi`]: an external shogi engine that speaks USI, as an agent.
#![deny(missing_docs)]

pub mod agents;
pub mod arena;
pub mod clock;
pub mod connect4;
pub mod elo;
pub mod external;
pub mod ggf;
pub mod nboard;
pub mod openings;
pub mod playable;
pub mod player;
mod process;
pub mod record;
pub mod shogi;
pub mod usi;

pub use agents::AgentSpec;
pub use clock::{Budget, Clock, ClockView, TimeControl, TimeControlError};
pub use playable::{with_playable, Ending, Playable, PlayableVisitor};
pub use player::{
    Agent, AgentError, EnginePlayer, MidgameEngine, PlayerOptions, Thought, DEFAULT_SELECTIVITY,
    FAST, MCTS,
};
pub use record::{GameRecord, RecordError};
