//! From names to typed games: [`with_game`] reads a game's position and evaluation by name and
//! hands them to a [`GameVisitor`], whose one generic method is all the code a door writes to
//! work on every game.

use std::sync::Arc;

use prune_games::{GameSpec, TicTacToe};
use prune_othello::{OthelloEval, PatternEval, PatternWeights, StaticOrdering};
use prune_search::Evaluator;

use crate::catalog::{GameChoice, GameError};
use crate::registered::RegisteredGame;

/// How deep a game's tree goes from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeDepth {
    /// Every line ends within this many plies: searching that deep solves it.
    Ends(u32),
    /// Too deep to search to the end: the door picks a depth of its own.
    Open,
}

/// What sets a game up beside its name.
#[derive(Clone, Copy, Debug, Default)]
pub struct Setup<'a> {
    /// The position's text (`None` or blank: the start).
    pub position: Option<&'a str>,
    /// The evaluation's name (`None`: the game's default). Othello also takes the path of a
    /// weights file written by `prune train`.
    pub eval: Option<&'a str>,
    /// Othello's static move ordering.
    pub othello_ordering: StaticOrdering,
}

/// Work that runs on any registered game.
pub trait GameVisitor {
    /// What it gives.
    type Output;
    /// Runs on `game` (the position set up) with the evaluation `eval`
    /// ([`RegisteredGame::tree_depth`] says how deep the game's tree goes from it).
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output;
}

/// The position of `setup` for game `G` (the `start` when none is given).
fn position<G: RegisteredGame>(setup: &Setup, start: G) -> Result<G, GameError> {
    match setup.position.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(start),
        Some(text) => G::read(text).map_err(GameError::Position),
    }
}

/// Othello's evaluation called `name`: `pattern`, `hand`, or a weights file.
pub fn othello_eval(name: &str) -> Result<OthelloEval, GameError> {
    match name.trim() {
        n if n.eq_ignore_ascii_case("pattern") => Ok(OthelloEval::default()),
        n if n.eq_ignore_ascii_case("hand") => Ok(OthelloEval::Hand),
        path => {
            let bytes = std::fs::read(path).map_err(|e| {
                GameError::Eval(format!(
                    "{path}: not pattern or hand, and the file cannot be read: {e}"
                ))
            })?;
            let weights = PatternWeights::from_bytes(&bytes)
                .map_err(|e| GameError::Eval(format!("{path}: {e}")))?;
            Ok(OthelloEval::Pattern(PatternEval::new(Arc::new(weights))))
        }
    }
}

/// Sets up `choice` by `setup` and runs `visitor` on it. A position or an evaluation the game
/// does not take is an error naming it.
pub fn with_game<V: GameVisitor>(
    choice: GameChoice,
    setup: &Setup,
    visitor: V,
) -> Result<V::Output, GameError> {
    let info = choice.info();
    if setup.position.is_some_and(|p| !p.trim().is_empty()) && info.position.is_none() {
        return Err(GameError::Option {
            option: "position",
            game: info.name,
            why: "a synthetic tree always starts at its root",
        });
    }
    match choice {
        GameChoice::Othello => {
            position(setup, prune_othello::Position::START)?.visit(setup, visitor)
        }
        GameChoice::Connect4 => {
            position(setup, prune_connect4::Position::START)?.visit(setup, visitor)
        }
        GameChoice::Shogi => position(setup, prune_shogi::Position::start())?.visit(setup, visitor),
        GameChoice::Teaching(GameSpec::TicTacToe) => {
            position(setup, TicTacToe::new())?.visit(setup, visitor)
        }
        GameChoice::Teaching(GameSpec::Uniform(tree)) => tree.root().visit(setup, visitor),
        GameChoice::Teaching(GameSpec::Random(tree)) => tree.root().visit(setup, visitor),
    }
}

/// Reads the position and names every legal move: a visitor for the tests and a sample of one.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalMoveNames;

impl GameVisitor for LegalMoveNames {
    type Output = Vec<String>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
    ) -> Vec<String> {
        game.legal_moves()
            .into_iter()
            .map(|m| game.move_name(m))
            .collect()
    }
}
