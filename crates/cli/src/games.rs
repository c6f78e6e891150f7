//! The games of the command line, in one registry: the `--game` names, what each game takes
//! (a `--position`, an `--eval`), how deep its tree goes, and how to set it up. A command that
//! works on any game (`search`, `tree`) implements [`GameCommand`] once and calls
//! [`run_on_game`]; adding a game touches its own crate and [`GAMES`] and [`run_on_game`] here,
//! nothing else.

use std::fmt;
use std::str::FromStr;

use prune_connect4::ThreatEval;
use prune_games::{GameSpec, LineEval, NoisyEval, RandomEval, SpecError, TicTacToe};
use prune_othello::{Ordered, Position, StaticOrdering};
use prune_search::{Evaluator, Game};

use crate::eval_arg::parse_eval;
use crate::positions::parse_position;
use crate::CliError;

/// One game of the registry, as the help and error messages describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name before any `:parameters`.
    pub name: &'static str,
    /// The full form, with its parameters.
    pub syntax: &'static str,
    /// What a `--position` of it looks like (`None`: it always starts at its root).
    pub position: Option<&'static str>,
    /// Whether it takes Othello's `--eval` (the other games have their own evaluation).
    pub takes_eval: bool,
}

/// Every game the command line knows.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "othello",
        syntax: "othello",
        position: Some("64 squares a1..h8 of X, O, - and the side to move"),
        takes_eval: true,
    },
    GameInfo {
        name: "connect4",
        syntax: "connect4",
        position: Some("the columns played from the empty board, 1-7, such as 4453"),
        takes_eval: false,
    },
    GameInfo {
        name: "shogi",
        syntax: "shogi",
        position: Some("an SFEN such as lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1, or startpos"),
        takes_eval: false,
    },
    GameInfo {
        name: "tictactoe",
        syntax: "tictactoe",
        position: Some("nine cells such as XO./.X./..."),
        takes_eval: false,
    },
    GameInfo {
        name: "uniform",
        syntax: "uniform:width=W,depth=D[,order=perfect|worst|random|P%,seed=S]",
        position: None,
        takes_eval: false,
    },
    GameInfo {
        name: "random",
        syntax: "random:seed=S[,width=W,depth=D,range=R,states=N]",
        position: None,
        takes_eval: false,
    },
];

/// A game named by `--game`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Othello on bitboards.
    Othello,
    /// Connect Four (7 × 6), searched with the threat-counting evaluation.
    Connect4,
    /// Shogi, searched with the material evaluation.
    Shogi,
    /// A game of `prune-games`: tic-tac-toe or a synthetic tree.
    Teaching(GameSpec),
}

/// Why a `--game` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game of that name.
    #[error("unknown game '{0}' (expected {all})", all = syntaxes())]
    Unknown(String),
    /// A known game with bad parameters.
    #[error(transparent)]
    Parameters(SpecError),
    /// An option the game does not take.
    #[error("{option} is not an option of {game}: {why}")]
    Option {
        /// The option, such as `--position`.
        option: &'static str,
        /// The game's name.
        game: &'static str,
        /// What to do instead.
        why: &'static str,
    },
}

impl From<GameError> for CliError {
    fn from(e: GameError) -> Self {
        CliError::Usage(format!("--game: {e}"))
    }
}

/// The games' forms, for messages: `othello, tictactoe, uniform:..., random:...`.
fn syntaxes() -> String {
    let all: Vec<&str> = GAMES.iter().map(|g| g.syntax).collect();
    all.join(", ")
}

impl GameChoice {
    /// The registry's entry for this game.
    pub fn info(&self) -> &'static GameInfo {
        let name = match self {
            GameChoice::Othello => "othello",
            GameChoice::Connect4 => "connect4",
            GameChoice::Shogi => "shogi",
            GameChoice::Teaching(GameSpec::TicTacToe) => "tictactoe",
            GameChoice::Teaching(GameSpec::Uniform(_)) => "uniform",
            GameChoice::Teaching(GameSpec::Random(_)) => "random",
        };
        GAMES
            .iter()
            .find(|g| g.name == name)
            .expect("every game is in the registry")
    }
}

impl FromStr for GameChoice {
    type Err = GameError;

    fn from_str(text: &str) -> Result<Self, GameError> {
        let text = text.trim();
        let (name, parameters) = text.split_once(':').unwrap_or((text, ""));
        for (plain, choice) in [
            ("othello", GameChoice::Othello),
            ("connect4", GameChoice::Connect4),
            ("shogi", GameChoice::Shogi),
        ] {
            if name.trim().eq_ignore_ascii_case(plain) {
                return match parameters.trim() {
                    "" => Ok(choice),
                    _ => Err(GameError::Parameters(SpecError::Invalid(format!(
                        "{plain} takes no parameters"
                    )))),
                };
            }
        }
        match text.parse::<GameSpec>() {
            Ok(spec) => Ok(GameChoice::Teaching(spec)),
            Err(SpecError::UnknownGame(name)) => Err(GameError::Unknown(name)),
            Err(e) => Err(GameError::Parameters(e)),
        }
    }
}

impl fmt::Display for GameChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

/// How deep a game's tree goes from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeDepth {
    /// Every line ends within this many plies: searching that deep solves it.
    Ends(u32),
    /// Too deep to search to the end: the command picks a depth of its own.
    Open,
}

/// The options of a command that set a game up, beside `--game`.
#[derive(Clone, Copy, Debug)]
pub struct GameOptions<'a> {
    /// `--position`.
    pub position: Option<&'a str>,
    /// `--eval` (Othello's; `None`: the trained patterns).
    pub eval: Option<&'a str>,
    /// Othello's static move ordering.
    pub othello_ordering: StaticOrdering,
}

/// A command that runs on any game of the registry, once it is set up.
pub trait GameCommand {
    /// Runs on `game` (the starting position) with the evaluator `eval`.
    fn run<G: Game, E: Evaluator<G>>(
        self,
        game: &G,
        eval: &E,
        depth: TreeDepth,
    ) -> Result<(), CliError>;
}

/// Sets up `choice` with `options` and runs `command` on it; an option the game does not take
/// is an error naming it.
pub fn run_on_game<C: GameCommand>(
    choice: GameChoice,
    options: &GameOptions,
    command: C,
) -> Result<(), CliError> {
    let info = choice.info();
    if options.position.is_some() && info.position.is_none() {
        return Err(GameError::Option {
            option: "--position",
            game: info.name,
            why: "a synthetic tree always starts at its root",
        }
        .into());
    }
    if options.eval.is_some() && !info.takes_eval {
        return Err(GameError::Option {
            option: "--eval",
            game: info.name,
            why: "--eval names Othello's evaluation; the other games have their own",
        }
        .into());
    }
    match choice {
        GameChoice::Othello => {
            let position = parse_position(options.position, Position::START)?;
            let eval = Ordered {
                eval: parse_eval("--eval", options.eval.unwrap_or("pattern"))?,
                ordering: options.othello_ordering,
            };
            command.run(&position, &eval, TreeDepth::Open)
        }
        GameChoice::Connect4 => {
            let position = parse_position(options.position, prune_connect4::Position::START)?;
            let left = prune_connect4::CELLS - position.moves_played();
            command.run(&position, &ThreatEval, TreeDepth::Ends(left.max(1)))
        }
        GameChoice::Shogi => {
            let start = prune_shogi::START_SFEN
                .parse()
                .expect("the start SFEN is valid");
            let position: prune_shogi::Position = parse_position(options.position, start)?;
            command.run(&position, &prune_shogi::HandMadeEval, TreeDepth::Open)
        }
        GameChoice::Teaching(GameSpec::TicTacToe) => {
            let game = parse_position(options.position, TicTacToe::new())?;
            let empties = game.legal_moves().len() as u32;
            command.run(&game, &LineEval, TreeDepth::Ends(empties.max(1)))
        }
        GameChoice::Teaching(GameSpec::Uniform(tree)) => command.run(
            &tree.root(),
            &NoisyEval::default(),
            TreeDepth::Ends(tree.depth),
        ),
        GameChoice::Teaching(GameSpec::Random(tree)) => {
            command.run(&tree.root(), &RandomEval, TreeDepth::Ends(tree.max_depth))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_parses_from_its_name_or_example() {
        let examples = [
            "othello",
            "connect4",
            "shogi",
            "tictactoe",
            "uniform:width=2,depth=3",
            "random:seed=1",
        ];
        assert_eq!(examples.len(), GAMES.len());
        for (info, example) in GAMES.iter().zip(examples) {
            let choice: GameChoice = example.parse().unwrap();
            assert_eq!(choice.info(), info, "{example}");
        }
    }

    #[test]
    fn an_unknown_game_lists_every_registered_one() {
        let err = "chess".parse::<GameChoice>().unwrap_err();
        assert_eq!(err, GameError::Unknown("chess".into()));
        let text = err.to_string();
        for info in GAMES {
            assert!(text.contains(info.syntax), "{text}");
        }
    }

    #[test]
    fn connect4_takes_no_parameters_and_any_case() {
        assert_eq!("Connect4".parse(), Ok(GameChoice::Connect4));
        let err = "connect4:width=8".parse::<GameChoice>().unwrap_err();
        assert!(
            err.to_string().contains("connect4 takes no parameters"),
            "{err}"
        );
    }

    #[test]
    fn bad_parameters_of_a_known_game_are_not_an_unknown_game() {
        let err = "uniform:width=0,depth=2".parse::<GameChoice>().unwrap_err();
        assert!(matches!(err, GameError::Parameters(_)), "{err:?}");
        assert!(err.to_string().contains("out of range"), "{err}");
    }
}
