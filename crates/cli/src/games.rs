//! The command line's door to the game registry ([`prune_registry`]): `--game`, `--position`
//! and `--eval` read there, and a command that works on any game (`search`, `tree`)
//! implements the registry's [`GameVisitor`] once and calls [`run_on_game`]. Adding a game touches its own
//! crate and the registry, nothing here.

use prune_othello::StaticOrdering;
use prune_registry::{with_game, Setup};

pub use prune_registry::{GameChoice, GameError, GameVisitor};

use crate::CliError;

impl From<GameError> for CliError {
    fn from(e: GameError) -> Self {
        CliError::Usage(match e {
            GameError::Unknown(_) | GameError::Parameters(_) => format!("--game: {e}"),
            GameError::Position(m) => format!("--position: {m}"),
            GameError::Eval(m) => format!("--eval: {m}"),
            GameError::Option { .. } => format!("--{e}"),
        })
    }
}

/// The options of a command that set a game up, beside `--game`.
#[derive(Clone, Copy, Debug)]
pub struct GameOptions<'a> {
    /// `--position`.
    pub position: Option<&'a str>,
    /// `--eval` (`None`: the game's default).
    pub eval: Option<&'a str>,
    /// Othello's static move ordering.
    pub othello_ordering: StaticOrdering,
}

/// Sets up `choice` with `options` and runs `command` on it; a position, an evaluation or an
/// option the game does not take is an error naming it.
pub fn run_on_game<C: GameVisitor<Output = Result<(), CliError>>>(
    choice: GameChoice,
    options: &GameOptions,
    command: C,
) -> Result<(), CliError> {
    let setup = Setup {
        position: options.position,
        eval: options.eval,
        othello_ordering: options.othello_ordering,
    };
    with_game(choice, &setup, command)?
}
