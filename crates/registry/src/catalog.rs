//! The catalogue: every game's name and aliases, the form of its `--game` string, what its
//! positions look like, its evaluations by name, the facts that check it, and [`GameChoice`],
//! a game named by a user.

use std::fmt;
use std::str::FromStr;

use prune_games::{GameSpec, SpecError};

/// One evaluation of a game, by the name the doors take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalInfo {
    /// The name (`--eval NAME`, `"eval": "NAME"`, `eval="NAME"`).
    pub name: &'static str,
    /// What it is, in a few words.
    pub about: &'static str,
}

/// Published counts that check a game's move generation: the leaves `depth` plies from the
/// start (a game that ends sooner counts as one leaf), as `(depth, leaves)` pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perft {
    /// The counts, the shallowest first.
    pub counts: &'static [(u32, u64)],
    /// Where they were published.
    pub source: &'static str,
}

/// One game of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name before any `:parameters`.
    pub name: &'static str,
    /// Other names it answers to (any case).
    pub aliases: &'static [&'static str],
    /// The full form, with its parameters.
    pub syntax: &'static str,
    /// A game string of it that reads (its name, or its name with parameters).
    pub example: &'static str,
    /// What a position of it looks like (`None`: it always starts at its root).
    pub position: Option<&'static str>,
    /// Its evaluations, the default first.
    pub evals: &'static [EvalInfo],
    /// Whether a position has a board to draw (the page, pictures); synthetic trees have none.
    pub board: bool,
    /// The game's own engine beside the generic search, if it has one
    /// ([`crate::RegisteredGame::native_search`]).
    pub native_engine: Option<&'static str>,
    /// How its scores read, in words.
    pub score_words: &'static str,
    /// What its two sides are called, the first to move first (`black`, `X`...).
    pub sides: [&'static str; 2],
    /// Published perft counts from the start, if any.
    pub perft: Option<Perft>,
    /// The test suites with known answers that the project checks it against.
    pub suites: &'static [&'static str],
}

impl GameInfo {
    /// The evaluation called `name` (any case), or an error listing the game's.
    pub fn eval(&self, name: &str) -> Result<&'static EvalInfo, String> {
        let name = name.trim();
        self.evals
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = self.evals.iter().map(|e| e.name).collect();
                format!(
                    "unknown evaluation '{name}' of {} (expected {})",
                    self.name,
                    names.join(", ")
                )
            })
    }

    /// Whether `name` (any case) is this game's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        let name = name.trim();
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }
}

/// A table of counts indexed by depth, as `(depth, leaves)` pairs.
const fn by_depth<const N: usize>(counts: [u64; N]) -> [(u32, u64); N] {
    let mut pairs = [(0, 0); N];
    let mut d = 0;
    while d < N {
        pairs[d] = (d as u32, counts[d]);
        d += 1;
    }
    pairs
}

const OTHELLO_PERFT: [(u32, u64); 12] = by_depth(prune_othello::perft::START_PERFT);
const SHOGI_PERFT: [(u32, u64); 7] = by_depth(prune_shogi::START_PERFT);

/// Every game prune knows.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "othello",
        aliases: &["reversi"],
        syntax: "othello",
        example: "othello",
        position: Some("64 squares a1..h8 of X, O, - and the side to move (an OBF line too)"),
        evals: &[
            EvalInfo {
                name: "pattern",
                about: "the patterns trained on real games (built in)",
            },
            EvalInfo {
                name: "hand",
                about: "the hand-made evaluation: mobility, corners, stability",
            },
        ],
        board: true,
        native_engine: Some(
            "the midgame search (NegaScout, its table, ProbCut) and the exact solver near the end",
        ),
        score_words: "discs: +0.47 discs ahead by the evaluation, or the exact final margin",
        sides: ["black", "white"],
        perft: Some(Perft {
            counts: &OTHELLO_PERFT,
            source: "Aart Bik's and Edax's perft tables (a pass is a ply)",
        }),
        suites: &["FFO endgame test positions #40-#79 (../shared/data/ffo)"],
    },
    GameInfo {
        name: "connect4",
        aliases: &["connect-four", "c4"],
        syntax: "connect4",
        example: "connect4",
        position: Some("the columns played from the empty board, 1-7, such as 4453"),
        evals: &[EvalInfo {
            name: "threat",
            about: "open threats and centre stones",
        }],
        board: true,
        native_engine: None,
        score_words: "Pons's scale: a win with the k-th stone of the winner is 22 - k",
        sides: ["X", "O"],
        perft: None,
        suites: &["Pascal Pons's test sets (../shared/data/connect4)"],
    },
    GameInfo {
        name: "shogi",
        aliases: &[],
        syntax: "shogi",
        example: "shogi",
        position: Some(
            "an SFEN such as lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1, \
             or startpos",
        ),
        evals: &[
            EvalInfo {
                name: "hand",
                about: "material, pieces in hand, king safety and danger, mobility",
            },
            EvalInfo {
                name: "material",
                about: "material and pieces in hand only",
            },
        ],
        board: true,
        native_engine: Some(
            "the shogi engine of prune usi (the selective search of the full preset)",
        ),
        score_words: "centipawns (a pawn is 100), or mate",
        sides: ["black", "white"],
        perft: Some(Perft {
            counts: &SHOGI_PERFT,
            source: "the published shogi perft counts (checked against YaneuraOu's go perft)",
        }),
        suites: &["Shogi Zuko, Shogi Musou and two solvers' mate problems (../shared/data/tsume)"],
    },
    GameInfo {
        name: "tictactoe",
        aliases: &["tic-tac-toe", "noughts-and-crosses"],
        syntax: "tictactoe",
        example: "tictactoe",
        position: Some("nine cells such as XO./.X./..."),
        evals: &[EvalInfo {
            name: "lines",
            about: "lines still open for each side",
        }],
        board: true,
        native_engine: None,
        score_words: "win, draw or loss; else open lines",
        sides: ["X", "O"],
        perft: Some(Perft {
            counts: &[
                (0, 1),
                (1, 9),
                (2, 72),
                (3, 504),
                (4, 3_024),
                (5, 15_120),
                (9, 255_168),
            ],
            source: "255,168 games in all (the well-known count of tic-tac-toe games); no game \
                     ends before ply 5, so the first plies are 9 x 8 x 7 x ...",
        }),
        suites: &[],
    },
    GameInfo {
        name: "uniform",
        aliases: &[],
        syntax: "uniform:width=W,depth=D[,order=perfect|worst|random|P%,seed=S]",
        example: "uniform:width=2,depth=3",
        position: None,
        evals: &[EvalInfo {
            name: "noisy",
            about: "the leaf values with noise that shrinks with depth",
        }],
        board: false,
        native_engine: None,
        score_words: "leaf values",
        sides: ["first", "second"],
        perft: None,
        suites: &[],
    },
    GameInfo {
        name: "random",
        aliases: &[],
        syntax: "random:seed=S[,width=W,depth=D,range=R,states=N]",
        example: "random:seed=1",
        position: None,
        evals: &[EvalInfo {
            name: "random",
            about: "the node's own random value",
        }],
        board: false,
        native_engine: None,
        score_words: "leaf values",
        sides: ["first", "second"],
        perft: None,
        suites: &[],
    },
];

/// The games that have a board (the page's and the pictures' games), by name.
pub fn board_games() -> impl Iterator<Item = &'static GameInfo> {
    GAMES.iter().filter(|g| g.board)
}

/// A game named by a user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Othello on bitboards.
    Othello,
    /// Connect Four (7 × 6).
    Connect4,
    /// Shogi.
    Shogi,
    /// A game of `prune-games`: tic-tac-toe or a synthetic tree.
    Teaching(GameSpec),
}

/// Why a game, a position or an evaluation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game of that name.
    #[error("unknown game '{0}' (expected {all})", all = syntaxes())]
    Unknown(String),
    /// A known game with bad parameters.
    #[error(transparent)]
    Parameters(SpecError),
    /// A position that does not read.
    #[error("{0}")]
    Position(String),
    /// An evaluation the game does not have.
    #[error("{0}")]
    Eval(String),
    /// An option the game does not take.
    #[error("{option} is not an option of {game}: {why}")]
    Option {
        /// The option, such as `position`.
        option: &'static str,
        /// The game's name.
        game: &'static str,
        /// What to do instead.
        why: &'static str,
    },
}

/// The games' forms, for messages: `othello, connect4, ..., random:...`.
pub fn syntaxes() -> String {
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
        info(name).expect("every game is in the registry")
    }
}

/// The registry's entry of the game called `name` (or an alias, any case).
pub fn info(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.answers_to(name))
}

impl FromStr for GameChoice {
    type Err = GameError;

    fn from_str(text: &str) -> Result<Self, GameError> {
        let text = text.trim();
        let (name, parameters) = text.split_once(':').unwrap_or((text, ""));
        let plain = match info(name) {
            Some(g) if g.name == "othello" => Some(GameChoice::Othello),
            Some(g) if g.name == "connect4" => Some(GameChoice::Connect4),
            Some(g) if g.name == "shogi" => Some(GameChoice::Shogi),
            Some(g) if g.name == "tictactoe" => Some(GameChoice::Teaching(GameSpec::TicTacToe)),
            _ => None,
        };
        if let Some(choice) = plain {
            return match parameters.trim() {
                "" => Ok(choice),
                _ => Err(GameError::Parameters(SpecError::Invalid(format!(
                    "{} takes no parameters",
                    choice.info().name
                )))),
            };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_parses_from_its_example() {
        for info in GAMES {
            let choice: GameChoice = info.example.parse().unwrap();
            assert_eq!(choice.info(), info, "{}", info.example);
            assert!(info.example.starts_with(info.name), "{}", info.example);
        }
    }

    #[test]
    fn aliases_and_any_case_name_the_same_game() {
        assert_eq!("Reversi".parse(), Ok(GameChoice::Othello));
        assert_eq!("C4".parse(), Ok(GameChoice::Connect4));
        assert_eq!(
            "Tic-Tac-Toe".parse(),
            Ok(GameChoice::Teaching(GameSpec::TicTacToe))
        );
        let err = "connect4:width=8".parse::<GameChoice>().unwrap_err();
        assert!(
            err.to_string().contains("connect4 takes no parameters"),
            "{err}"
        );
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
    fn bad_parameters_of_a_known_game_are_not_an_unknown_game() {
        let err = "uniform:width=0,depth=2".parse::<GameChoice>().unwrap_err();
        assert!(matches!(err, GameError::Parameters(_)), "{err:?}");
        assert!(err.to_string().contains("out of range"), "{err}");
    }

    #[test]
    fn evaluations_are_found_by_name_and_unknown_ones_listed() {
        let shogi = info("shogi").unwrap();
        assert_eq!(shogi.eval("Material").unwrap().name, "material");
        let err = shogi.eval("nnue").unwrap_err();
        assert!(err.contains("hand, material"), "{err}");
        for g in GAMES {
            assert!(!g.evals.is_empty(), "{} has no evaluation", g.name);
        }
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<String> = GAMES
            .iter()
            .flat_map(|g| std::iter::once(g.name).chain(g.aliases.iter().copied()))
            .map(str::to_ascii_lowercase)
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
