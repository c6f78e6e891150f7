//! [`Engine`]: a configured search that keeps its transposition table between searches, and
//! [`search`], the one-call entry point.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::algo::iterative::iterate;
use crate::searcher::{Searcher, SplitContext};
use crate::{Bound, TranspositionTable, Window};
use crate::{ConfigError, Evaluator, Game, Iteration, NoObserver, Score, SearchConfig, Selective};
use crate::{Parallel, ParallelKind, SearchLimits, SearchObserver, SearchStats, SearchTracer};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResult<M> {
    /// The root value (of the last completed iteration), from the side to move's view.
    pub score: Score,
    /// A move that reaches `score` (`None` only when the root position is terminal).
    pub best_move: Option<M>,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// What `score` says about the true value: [`Bound::Exact`] unless the search was given a
    /// narrower [`Window`] than the full one and the value fell outside it.
    pub bound: Bound,
    /// The depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Whether the whole game tree below the root was searched (no leaf was cut off by
    /// depth), so that `score` is the game-theoretic value.
    pub exhausted: bool,
    /// Whether a node or time limit interrupted the search.
    pub interrupted: bool,
    /// One entry per completed iteration.
    pub iterations: Vec<Iteration<M>>,
    /// Counters, per depth and in total.
    pub stats: SearchStats,
}

/// Why a search could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The configuration is invalid.
    Config(ConfigError),
    /// The limits do not suit the configuration.
    Limits(String),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Config(e) => write!(f, "invalid configuration: {e}"),
            SearchError::Limits(msg) => write!(f, "invalid limits: {msg}"),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<ConfigError> for SearchError {
    fn from(e: ConfigError) -> Self {
        SearchError::Config(e)
    }
}

/// A validated search configuration with its memory (the transposition table), reused from
/// one search to the next (as a game goes on).
#[derive(Clone, Debug)]
pub struct Engine<G: Game> {
    config: SearchConfig,
    tt: Option<TranspositionTable<G::Move>>,
    parallel: Parallel,
    /// The threads that split searches run on (YBWC and PV splitting with several threads).
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Set by another thread to stop a search (as a limit stops it).
    stop: Option<Arc<AtomicBool>>,
}

impl<G: Game> Engine<G> {
    /// An engine for `config`, which must pass [`SearchConfig::validate`].
    pub fn new(config: SearchConfig) -> Result<Self, ConfigError> {
        Self::with_parallel(config, Parallel::SEQUENTIAL)
    }

    /// An engine searching with `parallel.threads` threads:
    ///
    /// * [`ParallelKind::Ybwc`] and [`ParallelKind::PvSplit`] split the nodes of alpha-beta
    ///   and NegaScout (and so of aspiration windows and MTD(f), which drive them) after their
    ///   eldest move (PV splitting: only nodes on the leftmost line), on a pool of
    ///   `parallel.threads` threads; minimax, negamax and Scout search on one thread.
    /// * [`ParallelKind::LazySmp`]: helper threads search the same root (every other one a ply
    ///   deeper) and share the transposition table, and the main thread's result is the
    ///   answer. It shares only the table, so a configuration without one searches on one
    ///   thread.
    ///
    /// With several threads a node limit counts every thread's nodes, to within about a
    /// thousand nodes per thread.
    pub fn with_parallel(config: SearchConfig, parallel: Parallel) -> Result<Self, ConfigError> {
        config.validate()?;
        if config.selective.any()
            && parallel.is_parallel()
            && matches!(parallel.kind, ParallelKind::Ybwc | ParallelKind::PvSplit)
        {
            return Err(ConfigError::Incoherent(format!(
                "the selective search is not in the split searches' brothers ({}): use Lazy \
                 SMP or one thread",
                parallel.kind
            )));
        }
        let pool = match parallel.kind {
            ParallelKind::Ybwc | ParallelKind::PvSplit if parallel.is_parallel() => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(parallel.threads)
                    .thread_name(|i| format!("prune-search-{i}"))
                    .build()
                    .map_err(|e| {
                        ConfigError::Invalid(format!(
                            "cannot start {} search threads: {e}",
                            parallel.threads
                        ))
                    })?,
            )),
            _ => None,
        };
        Ok(Engine {
            config,
            tt: config
                .transposition_table
                .map(|t| TranspositionTable::new(t.size_mib))
                .transpose()?,
            parallel,
            pool,
            stop: None,
        })
    }

    /// Searches stop, as at a time or node limit, once another thread sets `stop` (checked
    /// every 1,024 nodes); `None`: only the limits stop them.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// The threads and scheme.
    pub fn parallel(&self) -> Parallel {
        self.parallel
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Forgets what earlier searches stored (for a new game).
    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
    }

    /// Searches `game` within `limits`, reporting each iteration to `observer`.
    ///
    /// A fixed-depth search (no iterative deepening) needs a depth; node and time limits
    /// interrupt it like any other, leaving at least a legal move.
    pub fn search_observed<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
        observer: &mut dyn SearchObserver<G::Move>,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        self.run(game, eval, limits, Window::FULL, observer)
    }

    /// Searches `game` within `limits` with the root window `window`: the result's score is
    /// exact if it lies inside the window, and otherwise a bound on the true value (its
    /// [`SearchResult::bound`]). Alpha-beta and NegaScout (and aspiration windows, which stay
    /// inside it) search the window; minimax, negamax, Scout and MTD(f) have no root window
    /// and find the exact value whatever it is, which is as good an answer.
    pub fn search_window<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
        window: Window,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        self.run(game, eval, limits, window, &mut NoObserver)
    }

    /// The search behind [`Engine::search_observed`] and [`Engine::search_window`].
    fn run<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
        window: Window,
        observer: &mut dyn SearchObserver<G::Move>,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        let start = self.begin(game, limits)?;
        let tt = self.tt.as_ref();
        let config = self.config;
        let stop = self.stop.clone();
        let stop = stop.as_deref();
        // YBWC and PV splitting: one searcher whose nodes share their moves out on the pool.
        let split = self
            .pool
            .as_ref()
            .map(|pool| SplitContext::new(pool, self.parallel.kind == ParallelKind::PvSplit));
        let helpers = match (tt, self.parallel.kind) {
            (Some(_), ParallelKind::LazySmp) => self.parallel.threads - 1,
            _ => 0,
        };
        if helpers == 0 {
            let mut searcher = Searcher::new(eval, tt, &config, limits, start);
            if let Some(split) = &split {
                searcher = searcher.with_split(split);
            }
            if let Some(stop) = stop {
                searcher = searcher.with_halt(stop);
            }
            return Ok(iterate(
                &mut searcher,
                game,
                &config,
                limits,
                window,
                observer,
                start,
            ));
        }
        let done = AtomicBool::new(false);
        Ok(std::thread::scope(|scope| {
            let handles: Vec<_> = (1..=helpers)
                .map(|k| {
                    let done = &done;
                    scope.spawn(move || {
                        let mut mine = *limits;
                        if k % 2 == 1 {
                            mine.depth = mine.depth.map(|d| (d + 1).min(SearchLimits::MAX_DEPTH));
                        }
                        let mut s = Searcher::new(eval, tt, &config, &mine, start).with_halt(done);
                        iterate(&mut s, game, &config, &mine, window, &mut NoObserver, start).stats
                    })
                })
                .collect();
            let mut searcher = Searcher::new(eval, tt, &config, limits, start);
            if let Some(stop) = stop {
                searcher = searcher.with_halt(stop);
            }
            let mut result = iterate(
                &mut searcher,
                game,
                &config,
                limits,
                window,
                observer,
                start,
            );
            done.store(true, Relaxed);
            // The totals count every thread's nodes (the per-depth rows are the main thread's).
            for handle in handles {
                let stats = handle.join().expect("a Lazy SMP helper panicked");
                result.stats.total += stats.total;
            }
            result
        }))
    }

    /// Searches `game` within `limits` on one thread (whatever [`Engine::parallel`] says),
    /// telling `tracer` of every node entered and left, in order (see [`crate::TreeRecorder`]).
    pub fn search_traced<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
        tracer: &mut (dyn SearchTracer<G::Move> + Send),
    ) -> Result<SearchResult<G::Move>, SearchError> {
        let start = self.begin(game, limits)?;
        let config = self.config;
        let mut searcher =
            Searcher::new(eval, self.tt.as_ref(), &config, limits, start).with_tracer(tracer);
        Ok(iterate(
            &mut searcher,
            game,
            &config,
            limits,
            Window::FULL,
            &mut NoObserver,
            start,
        ))
    }

    /// Starts a search of `game` within `limits`: refuses limits it cannot run with and a
    /// selective search the game refuses, tells the table a new search begins, and returns the
    /// start time.
    fn begin(&mut self, game: &G, limits: &SearchLimits) -> Result<Instant, SearchError> {
        refused_by(game, &self.config.selective)?;
        if limits.depth.is_none() && !self.config.iterative_deepening {
            return Err(SearchError::Limits(
                "a fixed-depth search needs a depth; use iterative deepening with a node or \
                 time limit"
                    .into(),
            ));
        }
        if limits.depth == Some(0) {
            return Err(SearchError::Limits("the depth must be at least 1".into()));
        }
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        Ok(Instant::now())
    }

    /// Searches `game` within `limits`.
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        self.search_observed(game, eval, limits, &mut NoObserver)
    }
}

/// The selective search's demands on the game, checked at the root `game` (unless it is
/// over): null moves ([`Game::null_move`]) for null-move pruning, a static exchange
/// evaluation ([`Game::see`]) for static-exchange pruning.
fn refused_by<G: Game>(game: &G, selective: &Selective) -> Result<(), SearchError> {
    if game.outcome().is_some() {
        return Ok(());
    }
    let name = std::any::type_name::<G>();
    if selective.null_move.is_some() && game.null_move().is_none() {
        return Err(SearchError::Config(ConfigError::Incoherent(format!(
            "null-move pruning needs null moves, and the game ({name}) forbids them \
             (Game::null_move is None)"
        ))));
    }
    if selective.see_pruning
        && game
            .legal_moves()
            .first()
            .and_then(|&m| game.see(m))
            .is_none()
    {
        return Err(SearchError::Config(ConfigError::Incoherent(format!(
            "static-exchange pruning needs the game's static exchange evaluation, and the game \
             ({name}) has none (Game::see is None)"
        ))));
    }
    Ok(())
}

/// Searches `game` once with `config` within `limits` (a fresh [`Engine`]).
pub fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &SearchLimits,
) -> Result<SearchResult<G::Move>, SearchError> {
    Engine::new(*config)?.search(game, eval, limits)
}
