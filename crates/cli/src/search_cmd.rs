//! `prune search`: one search of one position with one configuration.

use std::time::Duration;

use clap::Args;
use prune_othello::midgame::{MidgameSearch, Selectivity};
use prune_othello::{Position, StaticOrdering};
use prune_search::mcts::{MctsConfig, MctsLimits};
use prune_search::{
    Algorithm, ConfigError, Engine, Evaluator, FailMode, Iteration, Named, ProbCut, SearchConfig,
    SearchLimits, SearchResult,
};

use crate::config_args::{ConfigArgs, ParallelArgs};
use crate::eval_arg::parse_eval;
use crate::games::{run_on_game, GameChoice, GameOptions, GameVisitor};
use crate::mcts_args::{is_mcts, MctsArgs, DEFAULT_SEARCH_PLAYOUTS};
use crate::positions::parse_position;
use crate::report::{print_result, result_json, SearchEngine};
use crate::CliError;
use prune_registry::TreeDepth;
// The depth searched in a game too deep to search to its end (Othello, shogi) when none is
// given is the registry's.
use prune_registry::{NativeLimits, RegisteredGame, OPEN_GAME_DEPTH};

/// The fast Othello search's table when `--tt` is not given, in MiB.
const FAST_TT_MIB: usize = 64;

/// Which search `prune search` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Othello's own midgame search.
    Fast,
    /// The library's search of any game.
    Generic,
}

impl Named for EngineKind {
    const KIND: &'static str = "engine";
    const ALL: &'static [Self] = &[EngineKind::Fast, EngineKind::Generic];

    fn name(self) -> &'static str {
        match self {
            EngineKind::Fast => "fast",
            EngineKind::Generic => "generic",
        }
    }
}

prune_search::named!(EngineKind);

/// Options of `prune search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The game: `tictactoe`, `connect4` (to the end of the game by default, so give --depth,
    /// --time-ms or --nodes early in a game; scores on the test sets' scale: `win+3` is Pons's
    /// 3, `loss-1` his -1), `othello` (searched with the evaluation of `--eval`, depth 6 by
    /// default), `uniform:width=W,depth=D,order=perfect|worst|random,seed=S` or
    /// `random:seed=S[,width=W,depth=D,range=R,states=N]`.
    #[arg(long, short)]
    pub game: String,
    /// A position of the game to start from (tic-tac-toe: nine cells such as `XO./.X./...`;
    /// Connect Four: the columns played from the empty board, 1-7, such as `4453`;
    /// Othello: 64 squares a1..h8 of `X`, `O`, `-` and the side to move, such as
    /// `---------------------------OX------XO--------------------------- X`).
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Search this many plies (the default is the game's own depth, if it has one).
    #[arg(long, short, conflicts_with_all = ["time_ms", "nodes"])]
    pub depth: Option<u32>,
    /// Stop after this many milliseconds (turns iterative deepening on).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Stop after this many nodes (turns iterative deepening on).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Othello's static move ordering (with `--static-ordering`): `square` (square values),
    /// `mobility` (fastest first: fewest replies first) or `eval` (the evaluation of the
    /// position after the move).
    #[arg(long, value_name = "square|mobility|eval", default_value = "mobility")]
    pub othello_ordering: String,
    /// The evaluation by the registry's names: Othello `pattern` (the built-in trained
    /// weights, the default), `hand` (the hand-made evaluation) or a weights file written by
    /// `prune train`; shogi `hand` (the default) or `material`; the other games have one each.
    #[arg(long, value_name = "EVAL")]
    pub eval: Option<String>,
    /// `fast`, the game's own engine where it has one (Othello: its midgame search, NegaScout
    /// with iterative deepening, a transposition table, evaluation and fastest-first ordering,
    /// incremental pattern evaluation; shogi: the engine of `prune usi`), or `generic`, the
    /// library's search configured by the options under "Search configuration" [default: fast
    /// for Othello and shogi when none of those is given (for Othello `--tt` only sizes the
    /// fast search's table, 64 MiB by default); generic otherwise, and for every other game].
    /// The JSON's `engine` says which ran.
    #[arg(long, value_parser = prune_search::parse_name::<EngineKind>)]
    pub engine: Option<EngineKind>,
    /// Othello's forward pruning: off (full width), or Multi-ProbCut with this margin in
    /// deviations of its fitted error, such as 1.0, 1.5, 2.0 or 2.6: fewer nodes, a small
    /// chance of a wrong cut (`prune lab probcut` measures the trade). The fast search and the
    /// generic one (alphabeta, negascout) both use the fit of the built-in weights
    /// [default: off].
    #[arg(long, value_name = "LEVEL")]
    pub selectivity: Option<Selectivity>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print each iteration as it completes (tables mode).
    #[arg(long, short)]
    pub verbose: bool,
    /// Proof-number search (`--algorithm pns|dfpn|dfpn+`): print the proof or disproof tree
    /// that settles the result, this many plies deep (the whole tree is checked; a deeper
    /// subtree is summed up by its size).
    #[arg(long, value_name = "PLIES")]
    pub proof_tree: Option<usize>,
    /// Threads and parallel scheme.
    #[command(flatten)]
    pub parallel_args: ParallelArgs,
    /// Monte Carlo tree search's options.
    #[command(flatten)]
    pub mcts_args: MctsArgs,
    // Last: the options after a flattened struct would go under its help heading.
    /// The algorithm and its enhancements.
    #[command(flatten)]
    pub config_args: ConfigArgs,
}

impl SearchArgs {
    /// The configuration: `--preset` and the switches, on alpha-beta by default; a time or
    /// node limit turns iterative deepening on.
    fn config(&self) -> Result<SearchConfig, CliError> {
        let limited = self.time_ms.is_some() || self.nodes.is_some();
        self.config_args
            .build(Algorithm::AlphaBeta(FailMode::Soft), limited)
    }

    fn limits(&self, natural_depth: Option<u32>) -> Result<SearchLimits, CliError> {
        let limits = SearchLimits {
            depth: self
                .depth
                .or(if self.time_ms.is_none() && self.nodes.is_none() {
                    natural_depth
                } else {
                    None
                }),
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
        };
        if limits.depth.is_none() && !limits.can_interrupt() {
            return Err(CliError::Usage(
                "this game has no natural depth: give --depth, --time-ms or --nodes".into(),
            ));
        }
        if limits.depth == Some(0) {
            return Err(CliError::Usage("--depth must be at least 1".into()));
        }
        Ok(limits)
    }
}

impl SearchArgs {
    /// The options that set the game up: `--position`, `--eval`, `--othello-ordering`.
    /// An error naming the first option given that `what` (a search outside the alpha-beta
    /// family) does not take: the configuration's (but `--algorithm`), `--depth`, `--engine`,
    /// `--selectivity`, `--verbose`, or one of `more`.
    pub(crate) fn refuse_beside(
        &self,
        what: &str,
        more: [Option<String>; 3],
    ) -> Result<(), CliError> {
        let common = [
            self.config_args
                .given()
                .into_iter()
                .find(|o| !o.starts_with("--algorithm")),
            self.depth.map(|_| "--depth".to_string()),
            self.engine.map(|_| "--engine".to_string()),
            self.selectivity.map(|_| "--selectivity".to_string()),
            self.verbose.then(|| "--verbose".to_string()),
        ];
        match common.into_iter().chain(more).flatten().next() {
            Some(option) => Err(CliError::Usage(format!(
                "{option}: not an option of {what}"
            ))),
            None => Ok(()),
        }
    }

    pub(crate) fn game_options(&self) -> Result<GameOptions<'_>, CliError> {
        let othello_ordering: StaticOrdering = self
            .othello_ordering
            .parse()
            .map_err(|e| CliError::Usage(format!("--othello-ordering: {e}")))?;
        Ok(GameOptions {
            position: self.position.as_deref(),
            eval: self.eval.as_deref(),
            othello_ordering,
        })
    }

    /// The search to run: the game's own engine (`fast`: Othello's midgame search, the shogi
    /// engine) where it has one, unless a search option or `--engine generic` asks for the
    /// generic one.
    fn engine(&self, choice: GameChoice) -> Result<EngineKind, CliError> {
        // Othello's own search has a table sized by --tt-mb; another game's engine has none,
        // so there --tt-mb asks for the generic search.
        let option = if choice == GameChoice::Othello {
            self.config_args.first_search_option()
        } else {
            self.config_args.given().into_iter().next()
        };
        let own = choice.info().native_engine.is_some();
        match (self.engine, own, option) {
            (Some(EngineKind::Fast), true, Some(option)) => Err(CliError::Usage(format!(
                "{option}: --preset, --algorithm and the switches configure the generic \
                 search; drop --engine fast"
            ))),
            (Some(EngineKind::Fast), true, None) => Ok(EngineKind::Fast),
            (Some(EngineKind::Fast), false, _) => Err(CliError::Usage(format!(
                "--engine fast: {choice} has no engine of its own (othello and shogi have one)"
            ))),
            (Some(EngineKind::Generic), _, _) => Ok(EngineKind::Generic),
            (None, true, None) => Ok(EngineKind::Fast),
            (None, _, _) => Ok(EngineKind::Generic),
        }
    }
}

/// Runs `prune search`.
pub fn run(args: &SearchArgs) -> Result<(), CliError> {
    let choice: GameChoice = args.game.parse()?;
    let mcts = is_mcts(args.config_args.algorithm.as_deref());
    args.mcts_args.refuse_unless(mcts)?;
    if mcts {
        return run_mcts(args, choice);
    }
    if let Some(kind) = args
        .config_args
        .algorithm
        .as_deref()
        .and_then(prune_search::proof::ProofAlgorithm::named)
    {
        return crate::proof_cmd::run(args, choice, kind);
    }
    if args.proof_tree.is_some() {
        return Err(CliError::Usage(
            "--proof-tree: an option of proof-number search (--algorithm pns, dfpn or dfpn+)"
                .into(),
        ));
    }
    if args.engine(choice)? == EngineKind::Fast {
        return match choice {
            GameChoice::Othello => run_fast(args),
            _ => run_native(args, choice),
        };
    }
    let mut config = args.config()?;
    if let Some(Selectivity::Sigma(t)) = args.selectivity {
        // The fits are measured for Othello's built-in trained weights.
        let fitted = choice == GameChoice::Othello
            && args.eval.as_deref().is_none_or(|e| e.trim() == "pattern");
        if !fitted {
            return Err(CliError::Usage(format!(
                "--selectivity {t:.1}: ProbCut needs a fit measured for the evaluation; only \
                 Othello's built-in trained weights have one (prune lab probcut)"
            )));
        }
        config.probcut = Some(ProbCut {
            margin_tenths: (t * 10.0).round() as u32,
        });
        config
            .validate()
            .map_err(|e| CliError::Usage(format!("--selectivity: {e}")))?;
    }
    let options = args.game_options()?;
    run_on_game(choice, &options, SearchCommand { args, config })
}

/// `prune search --engine fast` on a game other than Othello: the game's own engine through
/// the registry ([`RegisteredGame::native_search`]).
fn run_native(args: &SearchArgs, choice: GameChoice) -> Result<(), CliError> {
    if let Some(t) = args.selectivity {
        return Err(CliError::Usage(format!(
            "--selectivity {t}: only Othello's search has a ProbCut fit"
        )));
    }
    let limits = args.limits(Some(prune_registry::OPEN_GAME_DEPTH))?;
    let native = NativeLimits {
        depth: limits.depth,
        nodes: limits.nodes,
        time: limits.time,
        threads: args.parallel_args.build()?.threads,
        eval: args.eval.clone(),
        selectivity: None,
    };
    let options = args.game_options()?;
    run_on_game(choice, &options, NativeCommand { args, native })
}

/// Runs a game's own engine and prints what it found.
struct NativeCommand<'a> {
    args: &'a SearchArgs,
    native: NativeLimits,
}

impl GameVisitor for NativeCommand<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
    ) -> Self::Output {
        let game = &game;
        let verbose = self.args.verbose && !self.args.json;
        let name = |m: &G::Move| game.move_name(*m);
        let line = |pv: &[G::Move]| pv.iter().map(name).collect::<Vec<_>>().join(" ");
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut observe = |it: &prune_registry::NativeReport<G::Move>| {
            if verbose {
                println!(
                    "depth {:>2}  {:>16}  {:>12} nodes  {:>8.1} ms  {}",
                    it.depth,
                    it.score_text,
                    it.nodes,
                    it.elapsed.as_secs_f64() * 1e3,
                    line(&it.pv)
                );
            }
        };
        let started = std::time::Instant::now();
        let r = game
            .native_search(&self.native, &stop, &mut observe)
            .ok_or_else(|| CliError::Usage(format!("{}: no engine of its own", G::NAME)))?
            .map_err(CliError::Failure)?;
        let elapsed = started.elapsed();
        let nps = crate::report::per_second(r.last.nodes, elapsed);
        if self.args.json {
            let value = crate::report::native_json(game, &self.native, &r, elapsed, false);
            println!(
                "{}",
                serde_json::to_string_pretty(&value).expect("JSON of plain data")
            );
            return Ok(());
        }
        println!("{} ({})", G::NAME, r.engine);
        println!(
            "best move {}",
            r.best.as_ref().map_or("none".to_string(), name)
        );
        println!("score     {}", r.last.score_text);
        println!("depth     {}", r.last.depth);
        println!("pv        {}", line(&r.last.pv));
        println!(
            "nodes     {} in {:.3} s ({:.0} nodes/s)",
            r.last.nodes,
            elapsed.as_secs_f64(),
            nps
        );
        Ok(())
    }
}

/// `prune search --algorithm mcts`: Monte Carlo tree search of any game.
fn run_mcts(args: &SearchArgs, choice: GameChoice) -> Result<(), CliError> {
    args.refuse_beside(
        "Monte Carlo tree search (--algorithm mcts)",
        [
            args.nodes.map(|_| "--nodes (give --playouts)".to_string()),
            args.parallel_args
                .parallel
                .as_ref()
                .map(|_| "--parallel (give --mcts-parallel)".to_string()),
            None,
        ],
    )?;
    let threads = args.parallel_args.build()?.threads;
    let config = args.mcts_args.build(threads)?;
    let time = args.time_ms.map(Duration::from_millis);
    let limits = MctsLimits {
        playouts: args.mcts_args.playouts.or(match time {
            Some(_) => None,
            None => Some(DEFAULT_SEARCH_PLAYOUTS),
        }),
        time,
    };
    let options = args.game_options()?;
    let command = MctsCommand {
        args,
        config,
        limits,
    };
    run_on_game(choice, &options, command)
}

/// `prune search --algorithm mcts` once the game is set up.
struct MctsCommand<'a> {
    args: &'a SearchArgs,
    config: MctsConfig,
    limits: MctsLimits,
}

impl GameVisitor for MctsCommand<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        let (game, eval) = (&game, &eval);
        crate::mcts_args::search(
            &self.args.game,
            game,
            eval,
            self.config,
            self.limits,
            self.args.json,
        )
    }
}

/// `prune search` once the game is set up.
struct SearchCommand<'a> {
    args: &'a SearchArgs,
    config: SearchConfig,
}

impl GameVisitor for SearchCommand<'_> {
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
        run_game(self.args, game, eval, self.config, natural_depth)
    }
}

/// Searches `game` and prints the result.
pub fn run_game<G: RegisteredGame, E: Evaluator<G>>(
    args: &SearchArgs,
    game: &G,
    eval: &E,
    config: SearchConfig,
    natural_depth: u32,
) -> Result<(), CliError> {
    let limits = args.limits(Some(natural_depth))?;
    let parallel = args.parallel_args.build()?;
    let mut engine = Engine::<G>::with_parallel(config, parallel).map_err(|e| match e {
        ConfigError::Memory(e) => CliError::Usage(format!("--tt: {e}")),
        e => CliError::Usage(format!("configuration: {e}")),
    })?;
    let verbose = args.verbose && !args.json;
    let mut observe = |it: &Iteration<G::Move>| {
        if verbose {
            iteration_line(it);
        }
    };
    let result = engine
        .search_observed(game, eval, &limits, &mut observe)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let text = G::score_text(result.score);
    report(
        args,
        &SearchEngine::Generic(&config),
        &limits,
        &result,
        &text,
    );
    Ok(())
}

/// Prints `result` as asked (JSON or tables).
fn report<M: std::fmt::Display>(
    args: &SearchArgs,
    engine: &SearchEngine,
    limits: &SearchLimits,
    result: &SearchResult<M>,
    score_text: &str,
) {
    if args.json {
        let json = result_json(&args.game, engine, limits, result, score_text);
        println!(
            "{}",
            serde_json::to_string_pretty(&json).expect("JSON of plain data")
        );
    } else {
        print_result(&args.game, engine, limits, result, score_text);
    }
}

/// Prints each iteration on stderr if `--verbose` asks for it (tables mode).
fn iteration_line<M: std::fmt::Display>(it: &Iteration<M>) {
    let pv: Vec<String> = it.pv.iter().map(ToString::to_string).collect();
    eprintln!(
        "depth {:>3}  score {:>9}  nodes {:>12}  pv {}",
        it.depth,
        it.score.to_string(),
        it.row.counters.nodes,
        pv.join(" ")
    );
}

/// `prune search --game othello` with Othello's fast midgame search.
fn run_fast(args: &SearchArgs) -> Result<(), CliError> {
    let position = parse_position(args.position.as_deref(), Position::START)?;
    let eval = parse_eval("--eval", args.eval.as_deref().unwrap_or("pattern"))?;
    let limits = args.limits(Some(OPEN_GAME_DEPTH))?;
    let parallel = args.parallel_args.build()?;
    let tt_mib = args.config_args.tt_mb.unwrap_or(FAST_TT_MIB);
    crate::memory::check_table("--tt", tt_mib)?;
    let mut search =
        MidgameSearch::new(tt_mib).map_err(|e| CliError::Usage(format!("--tt: {e}")))?;
    search.set_eval(eval.clone());
    search.set_threads(parallel.threads);
    let selectivity = args.selectivity.unwrap_or_default();
    search.set_selectivity(selectivity);
    let verbose = args.verbose && !args.json;
    let mut observe = |it: &Iteration<prune_othello::Move>| {
        if verbose {
            iteration_line(it);
        }
    };
    let result = search.search_observed(&position, &limits, None, &mut observe);
    let mut enhancements = vec![
        "iterative".to_string(),
        format!("tt {tt_mib} MiB"),
        "table move, evaluation and fastest-first ordering".to_string(),
        format!("eval {}", eval.name()),
    ];
    if parallel.threads > 1 {
        enhancements.push(format!("lazy-smp {} threads", parallel.threads));
    }
    if let Selectivity::Sigma(t) = selectivity {
        enhancements.push(format!("probcut {t:.1} sigma"));
    }
    let engine = SearchEngine::Fast {
        algorithm: Algorithm::NegaScout.name(),
        enhancements: &enhancements,
    };
    let text = <Position as RegisteredGame>::score_text(result.score);
    report(args, &engine, &limits, &result, &text);
    Ok(())
}
