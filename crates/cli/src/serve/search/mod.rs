//! Searches started by the page: a request ([`SearchRequest`]) checked against the server's
//! limits and turned into a plan, run on a thread of its own, its progress kept as a list of
//! events ([`Job`]) that any number of event streams read, and a stop flag.
//!
//! - [`request`]: the request's body, checked and planned;
//! - [`job`]: a search's events and stop flag;
//! - [`runner`]: the search itself, on any game of the page.

mod job;
mod request;
mod runner;

pub use job::Job;
pub use request::{generic_config, prepare, ApiConfig, SearchRequest};
pub use runner::run;

use prune_othello::StaticOrdering;
use prune_registry::{with_game as with_registered, GameError, GameVisitor, RegisteredGame, Setup};
use prune_search::Evaluator;

use crate::CliError;
/// Reads the position `text` of `game` (a game of the page) and runs `task` on it with the
/// evaluation called `eval` (the game's default if `None`), all through the registry.
pub fn with_game<T: GameVisitor>(
    game: &str,
    text: Option<&str>,
    eval: Option<&str>,
    task: T,
) -> Result<T::Output, String> {
    let choice = crate::serve::board::page_game(game)?;
    // The page takes the catalogue's evaluations only: never a file of the server's (which
    // Othello's reader would take as a weights file).
    if let Some(name) = eval {
        choice.info().eval(name).map_err(|e| format!("eval: {e}"))?;
    }
    let setup = Setup {
        position: text,
        eval,
        othello_ordering: StaticOrdering::Mobility,
    };
    with_registered(choice, &setup, task).map_err(|e| match e {
        GameError::Position(m) => format!("position: {m}"),
        GameError::Eval(m) => format!("eval: {m}"),
        e => format!("game: {e}"),
    })
}

/// Reads the position only.
struct Check;

impl GameVisitor for Check {
    type Output = Result<(), CliError>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        _: G,
        _: E,
    ) -> Self::Output {
        Ok(())
    }
}
