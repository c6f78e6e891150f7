//! `prune tree`: draw the tree a search visited, with its windows, values, cutoffs and
//! pruned moves (SVG, Graphviz DOT or text).

use std::path::PathBuf;

use clap::Args;
use prune_lab::tree::{render, Passes, Picture, TreeFormat};
use prune_othello::StaticOrdering;
use prune_search::TreeRecorder;
use prune_search::{Algorithm, Engine, Evaluator, FailMode, Game, SearchConfig, SearchLimits};

use crate::config_args::ConfigArgs;
use crate::games::{run_on_game, GameChoice, GameOptions, GameVisitor};
use crate::CliError;
use prune_registry::RegisteredGame;
use prune_registry::TreeDepth;

/// The depth of a tree of a game too deep to draw to its end (Othello) when none is given.
const OPEN_GAME_DEPTH: u32 = 2;

/// A traced search stops after this many nodes: far more than any readable picture, few
/// enough to keep in memory.
const TRACE_NODE_LIMIT: u64 = 2_000_000;

/// Options of `prune tree`.
#[derive(Args, Debug)]
pub struct TreeArgs {
    /// The game: `uniform:width=W,depth=D,order=perfect|worst|random|NN%,seed=S` (the textbook
    /// example is `uniform:width=3,depth=3`), `tictactoe`, `connect4`, `othello` or
    /// `random:seed=S[,width=W,depth=D]`.
    #[arg(long, short)]
    pub game: String,
    /// A position to start from (tic-tac-toe: nine cells such as `XO./.X./...`; Connect Four:
    /// the columns played, 1-7, such as `4453`; Othello: 64 squares a1..h8 of `X`, `O`, `-`
    /// and the side to move).
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Search this many plies [default: the whole uniform or random tree, the rest of the
    /// tic-tac-toe or Connect Four game (give a depth for an early Connect Four position), 2
    /// plies of Othello].
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// Draw one search per algorithm named, one picture above the other (e.g.
    /// `alphabeta,minimax`), instead of `--algorithm`'s.
    #[arg(long, value_name = "A,B,...", conflicts_with = "algorithm")]
    pub compare: Option<String>,
    /// svg, dot (Graphviz) or text [default: from --out's extension, else text].
    #[arg(long, short)]
    pub format: Option<String>,
    /// Write the picture to this file instead of standard output.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Draw every pass over the root (`all`: iterations, aspiration re-searches, MTD(f)
    /// passes) or only the `last`.
    #[arg(long, value_name = "all|last", default_value = "all")]
    pub passes: String,
    /// Refuse to draw more shapes (visited nodes and pruned moves, over all pictures) than
    /// this: beyond a few hundred a picture is no longer readable.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub max_nodes: usize,
    /// Othello's evaluation: pattern, hand or a weights file written by `prune train`
    /// [default: pattern].
    #[arg(long, value_name = "EVAL")]
    pub eval: Option<String>,
    /// The algorithm and its enhancements.
    #[command(flatten)]
    pub config_args: ConfigArgs,
}

impl TreeArgs {
    fn format(&self) -> Result<TreeFormat, CliError> {
        if let Some(text) = &self.format {
            return text
                .parse()
                .map_err(|e| CliError::Usage(format!("--format: {e}")));
        }
        let extension = self
            .out
            .as_ref()
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str());
        match extension {
            None => Ok(TreeFormat::Text),
            Some(e) => e.parse().map_err(|_| {
                CliError::Usage(format!(
                    "--out: cannot tell the format from '.{e}'; give --format svg, dot or text"
                ))
            }),
        }
    }

    fn passes(&self) -> Result<Passes, CliError> {
        self.passes
            .parse()
            .map_err(|e| CliError::Usage(format!("--passes: {e}")))
    }

    /// The configurations to draw, each with its name.
    fn configs(&self) -> Result<Vec<(String, SearchConfig)>, CliError> {
        let names: Vec<Option<String>> = match &self.compare {
            Some(list) => {
                let names: Vec<Option<String>> = list
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(|n| Some(n.to_string()))
                    .collect();
                if names.len() < 2 {
                    return Err(CliError::Usage(format!(
                        "--compare: name at least two algorithms, such as alphabeta,minimax \
                         (got '{list}')"
                    )));
                }
                names
            }
            None => vec![self.config_args.algorithm.clone()],
        };
        let mut configs = Vec::new();
        for name in names {
            let mut args = self.config_args.clone();
            if name.is_some() {
                args.algorithm.clone_from(&name);
            }
            let config = args
                .build(Algorithm::AlphaBeta(FailMode::Soft), false)
                .map_err(|e| match (e, &name) {
                    (CliError::Usage(msg), Some(n)) => CliError::Usage(format!("{n}: {msg}")),
                    (e, _) => e,
                })?;
            configs.push((config.algorithm.to_string(), config));
        }
        Ok(configs)
    }
}

/// Runs `prune tree`.
pub fn run(args: &TreeArgs) -> Result<(), CliError> {
    if args.depth == Some(0) {
        return Err(CliError::Usage("--depth must be at least 1".into()));
    }
    let choice: GameChoice = args.game.parse()?;
    let options = GameOptions {
        position: args.position.as_deref(),
        eval: args.eval.as_deref(),
        othello_ordering: StaticOrdering::Mobility,
    };
    run_on_game(choice, &options, TreeCommand(args))
}

/// `prune tree` once the game is set up.
struct TreeCommand<'a>(&'a TreeArgs);

impl GameVisitor for TreeCommand<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        let (game, eval) = (&game, &eval);
        let natural_depth = match game.tree_depth() {
            TreeDepth::Ends(plies) => plies,
            TreeDepth::Open => OPEN_GAME_DEPTH,
        };
        draw(self.0, game, eval, natural_depth)
    }
}

/// The error for a picture of more shapes than `--max-nodes`; `counts` says whose.
fn too_many(args: &TreeArgs, counts: &str) -> CliError {
    let last = if args.passes.eq_ignore_ascii_case("last") {
        ""
    } else {
        " draw only the last pass (--passes last),"
    };
    CliError::Usage(format!(
        "the picture would have more shapes than --max-nodes {} ({counts}): search less \
         deep,{last} or raise --max-nodes",
        args.max_nodes
    ))
}

/// Searches `game` with each configuration, traced, and draws the trees.
fn draw<G: Game, E: Evaluator<G>>(
    args: &TreeArgs,
    game: &G,
    eval: &E,
    natural_depth: u32,
) -> Result<(), CliError> {
    let format = args.format()?;
    let passes = args.passes()?;
    let configs = args.configs()?;
    let depth = args.depth.unwrap_or(natural_depth);
    let preset = args.config_args.preset.as_deref().unwrap_or("plain");
    let mut pictures: Vec<Picture> = Vec::new();
    let mut drawn_so_far = 0;
    for (name, config) in &configs {
        // Drawing every pass draws every node: a search that visits more nodes than are left
        // to draw can stop there.
        let budget = match passes {
            Passes::All => {
                (args.max_nodes.saturating_sub(drawn_so_far) as u64 + 1).min(TRACE_NODE_LIMIT)
            }
            Passes::Last => TRACE_NODE_LIMIT,
        };
        let limits = SearchLimits {
            depth: Some(depth),
            nodes: Some(budget),
            time: None,
        };
        let mut engine = Engine::<G>::new(*config)
            .map_err(|e| CliError::Usage(format!("configuration: {e}")))?;
        let mut recorder = TreeRecorder::new();
        let result = engine
            .search_traced(game, eval, &limits, &mut recorder)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        if result.interrupted && budget < TRACE_NODE_LIMIT {
            let mut counts: Vec<String> = pictures
                .iter()
                .zip(&configs)
                .map(|(p, (name, _))| format!("{name} {} shapes", p.shapes()))
                .collect();
            counts.push(format!("{name} more than {} nodes", budget - 1));
            return Err(too_many(args, &counts.join(", ")));
        }
        if result.interrupted {
            return Err(CliError::Usage(format!(
                "{name} visited more than {TRACE_NODE_LIMIT} nodes at depth {depth}: far too \
                 many to draw; search less deep"
            )));
        }
        let best = result
            .best_move
            .map_or_else(|| "none".to_string(), |m| m.to_string());
        let title = format!(
            "{name} (preset {preset}) · {} · depth {depth}: value {}, best move {best}",
            args.game.trim(),
            result.score
        );
        let tree = recorder.into_tree();
        let picture = Picture::new(title, &tree, &result.pv, passes);
        drawn_so_far += picture.shapes();
        pictures.push(picture);
    }
    let shapes: usize = pictures.iter().map(Picture::shapes).sum();
    if shapes > args.max_nodes {
        let counts: Vec<String> = pictures
            .iter()
            .zip(&configs)
            .map(|(p, (name, _))| {
                format!(
                    "{name} {} shapes: {} nodes, {} pruned",
                    p.shapes(),
                    p.visited(),
                    p.pruned
                )
            })
            .collect();
        return Err(too_many(args, &counts.join(", ")));
    }
    let drawn = render(&pictures, format);
    match &args.out {
        Some(path) => {
            std::fs::write(path, drawn)
                .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", path.display())))?;
            for picture in &pictures {
                eprintln!("{}: {}", picture.title, picture.summary());
            }
            eprintln!("wrote {}", path.display());
        }
        None => print!("{drawn}"),
    }
    Ok(())
}
