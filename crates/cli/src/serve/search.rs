//! Searches started by the page: a request ([`SearchRequest`]) checked against the server's
//! limits and turned into a plan, run on a thread of its own, its progress kept as a list of
//! events ([`Job`]) that any number of event streams read, and a stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prune_othello::midgame::Selectivity;
use prune_othello::StaticOrdering;
use prune_registry::{
    with_game as with_registered, GameChoice, GameError, GameVisitor, NativeEngine, NativeLimits,
    NativeReport, RegisteredGame, Setup, TreeDepth,
};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Playout};
use prune_search::{
    Algorithm, ConfigError, Engine, Evaluator, FailMode, Iteration, KillerIndex, Parallel,
    ParallelKind, ProbCut, Score, SearchConfig, SearchLimits,
};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::watch;

use super::ServerLimits;
use crate::config_args::ConfigArgs;
use crate::report::{result_json, SearchEngine};
use crate::CliError;

/// How often an MCTS search reports, with its tree kept between reports.
const MCTS_SLICE: Duration = Duration::from_millis(100);

/// A search asked for by the page (`POST /api/search`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// A game of the page (the registry's games with a board): `othello`, `connect4`, `shogi`
    /// or `tictactoe`.
    pub game: String,
    /// The position's text form (the start if absent).
    #[serde(default)]
    pub position: Option<String>,
    /// `fast` (the game's own engine: Othello's search, the shogi engine), `generic` or `mcts`.
    #[serde(default)]
    pub engine: Option<String>,
    /// The evaluation by the registry's name (Othello `pattern` or `hand`, shogi `hand` or
    /// `material`).
    #[serde(default)]
    pub eval: Option<String>,
    /// The configuration, by the command line's names.
    #[serde(default)]
    pub config: ApiConfig,
    /// The limits.
    #[serde(default)]
    pub limits: ApiLimits,
    /// Threads (1 by default).
    #[serde(default)]
    pub threads: Option<usize>,
    /// Score every legal move instead of searching the position once.
    #[serde(default)]
    pub analyze: bool,
}

/// The search configuration by the command line's names (`--killers 2` is `"killers": 2`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ApiConfig {
    pub preset: Option<String>,
    pub algorithm: Option<String>,
    pub iterative: Option<bool>,
    pub aspiration: Option<i32>,
    pub tt_mb: Option<usize>,
    pub static_ordering: Option<bool>,
    pub killers: Option<usize>,
    pub killer_index: Option<String>,
    pub staged_killers: Option<bool>,
    pub history: Option<bool>,
    pub refutation: Option<bool>,
    pub shallow_order: Option<u32>,
    pub shallow_depth: Option<u32>,
    pub selectivity: Option<f64>,
    pub playouts: Option<u64>,
    pub exploration: Option<f64>,
    pub playout_cutoff: Option<u32>,
    pub transpositions: Option<bool>,
}

/// The limits of a search.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiLimits {
    /// Plies.
    pub depth: Option<u32>,
    /// Milliseconds.
    pub time_ms: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
}

/// A running or finished search: its events so far.
pub struct Job {
    /// The events, and whether the last one has come (kept together, so that a reader never
    /// sees the job finished without its last event).
    state: Mutex<(Vec<Value>, bool)>,
    /// The number of events, for the streams that wait for more.
    count: watch::Sender<usize>,
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
}

impl Job {
    /// A job with no events yet.
    pub fn new() -> Arc<Job> {
        Arc::new(Job {
            state: Mutex::new((Vec::new(), false)),
            count: watch::Sender::new(0),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    fn add(&self, event: Value, last: bool) {
        let mut state = self.state.lock().expect("no panic holding the events");
        state.0.push(event);
        state.1 |= last;
        let n = state.0.len();
        drop(state);
        self.count.send_replace(n);
    }

    fn push(&self, event: Value) {
        self.add(event, false);
    }

    /// Ends the job with `event` (a `done` or `error`).
    pub fn finish(&self, event: Value) {
        self.add(event, true);
    }

    /// The events from `from` on, and whether the job is finished.
    pub fn read(&self, from: usize) -> (Vec<Value>, bool) {
        let state = self.state.lock().expect("no panic holding the events");
        let events = state
            .0
            .get(from..)
            .map(<[Value]>::to_vec)
            .unwrap_or_default();
        (events, state.1)
    }

    /// Whether the last event has come.
    pub fn is_done(&self) -> bool {
        self.state.lock().expect("no panic holding the events").1
    }

    /// A receiver told of each new event.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.count.subscribe()
    }
}

/// Which search runs.
#[derive(Clone, Debug)]
enum Plan {
    Generic(SearchConfig),
    Fast(Selectivity),
    Mcts(MctsConfig, Option<u64>),
}

/// A checked request, ready to run.
#[derive(Clone, Debug)]
pub struct Prepared {
    request: SearchRequest,
    plan: Plan,
    limits: SearchLimits,
    parallel: Parallel,
}

fn bad(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// Checks `request` against the server's `max` and the game's rules, and plans it.
pub fn prepare(request: SearchRequest, max: &ServerLimits) -> Result<Prepared, CliError> {
    let game = super::board::page_game(&request.game)
        .map_err(bad)?
        .info()
        .name
        .to_string();
    // The position must read (the search reads it again on its thread).
    with_game(
        &game,
        request.position.as_deref(),
        request.eval.as_deref(),
        Check,
    )
    .map_err(bad)??;
    let l = request.limits;
    if let Some(d) = l.depth {
        if d == 0 || d > max.max_depth {
            return Err(bad(format!(
                "limits.depth: {d} is not 1 to {} (the server's --max-depth)",
                max.max_depth
            )));
        }
    }
    if let Some(t) = l.time_ms {
        if t == 0 || t > max.max_time_ms {
            return Err(bad(format!(
                "limits.time_ms: {t} is not 1 to {} (the server's --max-time-ms)",
                max.max_time_ms
            )));
        }
    }
    if let Some(n) = l.nodes {
        if n == 0 || n > max.max_nodes {
            return Err(bad(format!(
                "limits.nodes: {n} is not 1 to {} (the server's --max-nodes)",
                max.max_nodes
            )));
        }
    }
    let threads = request.threads.unwrap_or(1);
    if threads == 0 || threads > max.max_threads {
        return Err(bad(format!(
            "threads: {threads} is not 1 to {} (the server's --max-threads)",
            max.max_threads
        )));
    }
    let parallel =
        Parallel::new(threads, ParallelKind::Ybwc).map_err(|e| bad(format!("threads: {e}")))?;
    let c = &request.config;
    let mcts = request
        .engine
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("mcts"))
        || c.algorithm
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case("mcts"));
    let generic_options = [
        c.preset.is_some(),
        c.algorithm.is_some(),
        c.iterative.is_some(),
        c.aspiration.is_some(),
        c.static_ordering.is_some(),
        c.killers.is_some(),
        c.killer_index.is_some(),
        c.staged_killers.is_some(),
        c.history.is_some(),
        c.refutation.is_some(),
        c.shallow_order.is_some(),
        c.shallow_depth.is_some(),
    ]
    .contains(&true);
    let mcts_options = [
        c.playouts.is_some(),
        c.exploration.is_some(),
        c.playout_cutoff.is_some(),
        c.transpositions.is_some(),
    ]
    .contains(&true);
    if mcts_options && !mcts {
        return Err(bad(
            "config: playouts, exploration, playout_cutoff and transpositions are options of \
             engine mcts",
        ));
    }
    let own_engine = prune_registry::info(&game).is_some_and(|g| g.native_engine.is_some());
    let engine = match request.engine.as_deref().map(str::trim) {
        _ if mcts => "mcts",
        Some(e) if e.eq_ignore_ascii_case("fast") => "fast",
        Some(e) if e.eq_ignore_ascii_case("generic") => "generic",
        Some(e) if !e.is_empty() => {
            return Err(bad(format!(
                "engine: unknown engine '{e}' (expected fast, generic or mcts)"
            )))
        }
        _ if own_engine && !generic_options => "fast",
        _ => "generic",
    };
    if engine == "fast" && !own_engine {
        return Err(bad(format!(
            "engine: {game} has no engine of its own (fast: othello and shogi have one); use \
             generic or mcts"
        )));
    }
    let tt = c.tt_mb.unwrap_or(0);
    if tt > max.max_tt_mb {
        return Err(bad(format!(
            "config.tt_mb: {tt} is more than the server's --max-tt-mb {}",
            max.max_tt_mb
        )));
    }
    let plan = match engine {
        "mcts" => {
            // Any generic option but the algorithm (which is `mcts`) is refused.
            let alpha_beta = c.preset.is_some()
                || c.algorithm
                    .as_deref()
                    .is_some_and(|a| !a.trim().eq_ignore_ascii_case("mcts"))
                || (c.iterative.is_some()
                    || c.aspiration.is_some()
                    || c.static_ordering.is_some()
                    || c.killers.is_some()
                    || c.killer_index.is_some()
                    || c.staged_killers.is_some()
                    || c.history.is_some()
                    || c.refutation.is_some()
                    || c.shallow_order.is_some()
                    || c.shallow_depth.is_some());
            if alpha_beta || c.selectivity.is_some() || c.tt_mb.is_some() {
                return Err(bad("config: engine mcts takes playouts, exploration, playout_cutoff and transpositions only"));
            }
            let config = MctsConfig {
                exploration: c.exploration.unwrap_or(MctsConfig::default().exploration),
                playout: c
                    .playout_cutoff
                    .map_or(Playout::Random, |plies| Playout::Cutoff { plies }),
                transpositions: c.transpositions.unwrap_or(false),
                threads,
                max_nodes: max.max_mcts_nodes,
                ..MctsConfig::default()
            };
            config.validate().map_err(|e| bad(format!("config: {e}")))?;
            if c.playouts == Some(0) {
                return Err(bad("config.playouts must be at least 1"));
            }
            Plan::Mcts(config, c.playouts)
        }
        "fast" => {
            if generic_options {
                return Err(bad(
                    "engine fast: preset, algorithm and the switches configure the generic \
                     search; drop engine fast",
                ));
            }
            if c.selectivity.is_some() && game != "othello" {
                return Err(bad("config.selectivity: only othello has a ProbCut fit"));
            }
            Plan::Fast(match c.selectivity {
                Some(t) => Selectivity::Sigma(t),
                None => Selectivity::Off,
            })
        }
        _ => {
            let limited = l.time_ms.is_some() || l.nodes.is_some();
            let config = generic_config(c, limited, max, &game)?;
            Plan::Generic(config)
        }
    };
    if let Plan::Fast(Selectivity::Sigma(t)) = plan {
        if !(0.1..=10.0).contains(&t) {
            return Err(bad(format!("config.selectivity: {t} is not 0.1 to 10")));
        }
    }
    // Every search is bounded: the server's time and node caps apply to all.
    let limits = SearchLimits {
        depth: l.depth,
        nodes: Some(l.nodes.unwrap_or(max.max_nodes)),
        time: Some(Duration::from_millis(l.time_ms.unwrap_or(max.max_time_ms))),
    };
    Ok(Prepared {
        request: SearchRequest { game, ..request },
        plan,
        limits,
        parallel,
    })
}

/// The generic search's configuration of `c` (iterative deepening also when `limited`),
/// checked against the server's table limit.
pub fn generic_config(
    c: &ApiConfig,
    limited: bool,
    max: &ServerLimits,
    game: &str,
) -> Result<SearchConfig, CliError> {
    let killer_index = match &c.killer_index {
        Some(text) => Some(
            text.parse::<KillerIndex>()
                .map_err(|e| bad(format!("config.killer_index: {e}")))?,
        ),
        None => None,
    };
    let args = ConfigArgs {
        preset: c.preset.clone(),
        algorithm: c.algorithm.clone(),
        iterative: c.iterative.unwrap_or(false),
        aspiration: c.aspiration,
        tt_mb: c.tt_mb,
        static_ordering: c.static_ordering.unwrap_or(false),
        killers: c.killers,
        killer_index,
        staged_killers: c.staged_killers.unwrap_or(false),
        history: c.history.unwrap_or(false),
        refutation: c.refutation.unwrap_or(false),
        shallow_order: c.shallow_order,
        shallow_depth: c.shallow_depth,
    };
    let mut config = args
        .build(Algorithm::AlphaBeta(FailMode::Soft), limited)
        .map_err(|e| match e {
            CliError::Usage(m) | CliError::Failure(m) => bad(format!("config: {m}")),
        })?;
    if config
        .transposition_table
        .is_some_and(|t| t.size_mib > max.max_tt_mb)
    {
        return Err(bad(format!(
            "config: the preset's table is more than the server's --max-tt-mb {}",
            max.max_tt_mb
        )));
    }
    if let Some(t) = c.selectivity {
        if game != "othello" {
            return Err(bad("config.selectivity: only othello has a ProbCut fit"));
        }
        config.probcut = Some(ProbCut {
            margin_tenths: (t * 10.0).round() as u32,
        });
        config
            .validate()
            .map_err(|e| bad(format!("config.selectivity: {e}")))?;
    }
    Ok(config)
}

/// Runs `prepared` to the end (on the caller's thread), telling `job` of its progress.
pub fn run(prepared: &Prepared, job: &Job) {
    let r = &prepared.request;
    let outcome = with_game(
        &r.game,
        r.position.as_deref(),
        r.eval.as_deref(),
        Runner { prepared, job },
    );
    match outcome {
        Ok(Ok(result)) => job.finish(json!({"type": "done", "result": result})),
        Ok(Err(e)) | Err(e) => job.finish(json!({"type": "error", "error": e})),
    }
}

/// Work on one game of the page, whichever it is.
pub trait GameTask {
    /// What it gives.
    type Output;
    /// Runs on `game` with `eval`.
    fn run<G: RegisteredGame, E: Evaluator<G>>(self, game: G, eval: &E) -> Self::Output;
}

/// A [`GameTask`] as the registry's visitor.
struct Visit<T>(T);

impl<T: GameTask> GameVisitor for Visit<T> {
    type Output = T::Output;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
        _: TreeDepth,
    ) -> T::Output {
        self.0.run(game, &eval)
    }
}

/// Reads the position `text` of `game` (a game of the page) and runs `task` on it with the
/// evaluation called `eval` (the game's default if `None`), all through the registry.
pub fn with_game<T: GameTask>(
    game: &str,
    text: Option<&str>,
    eval: Option<&str>,
    task: T,
) -> Result<T::Output, String> {
    let choice = super::board::page_game(game)?;
    if choice == GameChoice::Othello {
        // The page takes the built-in evaluations only, never a file of the server's.
        if let Some(other) = eval
            .map(str::trim)
            .filter(|e| !matches!(*e, "pattern" | "hand"))
        {
            return Err(format!(
                "eval: unknown evaluation '{other}' of othello (expected pattern, hand)"
            ));
        }
    }
    let setup = Setup {
        position: text,
        eval,
        othello_ordering: StaticOrdering::Mobility,
    };
    with_registered(choice, &setup, Visit(task)).map_err(|e| match e {
        GameError::Position(m) => format!("position: {m}"),
        GameError::Eval(m) => format!("eval: {m}"),
        e => format!("game: {e}"),
    })
}

/// Reads the position only.
struct Check;

impl GameTask for Check {
    type Output = Result<(), CliError>;
    fn run<G: RegisteredGame, E: Evaluator<G>>(self, _: G, _: &E) -> Self::Output {
        Ok(())
    }
}

/// The game's own engine (`engine: "fast"`: Othello's midgame search and exact solver, the
/// shogi engine), through the registry (`None`: the game has none).
fn fast<G: RegisteredGame>(
    game: &G,
    selectivity: Selectivity,
    prepared: &Prepared,
    job: &Job,
    report: bool,
    slots: &mut Slots,
) -> Option<Result<Value, String>> {
    // The server's node and time caps are guards, not the request's limits: with no depth
    // asked, the game's default depth ends the search, as in the generic search.
    let limits = NativeLimits {
        depth: prepared.limits.depth.or(Some(game.default_depth())),
        nodes: prepared.limits.nodes,
        time: prepared.limits.time,
        threads: prepared.parallel.threads,
        eval: prepared.request.eval.clone(),
        selectivity: match selectivity {
            Selectivity::Sigma(t) => Some(t),
            Selectivity::Off => None,
        },
    };
    let start = Instant::now();
    let name = |m: &G::Move| game.move_name(*m);
    let mut observe = |it: &NativeReport<G::Move>| {
        if report {
            job.push(json!({
                "type": "iteration",
                "depth": it.depth,
                "score": it.score,
                "score_text": it.score_text,
                "best_move": it.pv.first().map(name),
                "pv": it.pv.iter().map(name).collect::<Vec<_>>(),
                "nodes": it.nodes,
                "time_ms": it.elapsed.as_secs_f64() * 1e3,
                "nps": nps(it.nodes, it.elapsed),
            }));
        }
    };
    if slots.native.is_none() {
        slots.native = Some(Box::new(G::native_engine()?));
    }
    let engine = slots
        .native
        .as_mut()
        .and_then(|e| e.downcast_mut::<Box<dyn NativeEngine<G>>>())?;
    let r = match engine.search(game, &limits, &job.stop, &mut observe) {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let elapsed = start.elapsed();
    Some(Ok(json!({
        "game": G::NAME,
        "engine": "fast",
        "algorithm": r.engine,
        "limits": {
            "depth": limits.depth,
            "nodes": limits.nodes,
            "time_ms": limits.time.map(|t| t.as_secs_f64() * 1e3),
        },
        "score": r.last.score,
        "score_text": r.last.score_text,
        "best_move": r.best.as_ref().map(name),
        "pv": r.last.pv.iter().map(name).collect::<Vec<_>>(),
        "depth": r.last.depth,
        "exhausted": r.exact,
        "interrupted": job.stop.load(Ordering::Relaxed)
            || limits.time.is_some_and(|t| elapsed >= t)
            || limits.nodes.is_some_and(|n| r.last.nodes >= n),
        "stats": {
            "nodes": r.last.nodes,
            "time_ms": elapsed.as_secs_f64() * 1e3,
            "nodes_per_second": nps(r.last.nodes, elapsed),
        },
    })))
}

/// Nodes per second.
fn nps(nodes: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        nodes as f64 / secs
    } else {
        0.0
    }
}

/// The engines of one request, made on first use and kept for the searches after it (an
/// analysis searches every child with the same ones, tables and all).
#[derive(Default)]
pub struct Slots {
    /// The generic engine (an `Engine<G>` of the request's game).
    generic: Option<Box<dyn std::any::Any + Send>>,
    /// The game's own engine (a `Box<dyn NativeEngine<G>>`).
    native: Option<Box<dyn std::any::Any + Send>>,
}

/// An iteration as an event, its score in the game's words.
fn iteration_event<G: RegisteredGame>(it: &Iteration<G::Move>, start: Instant) -> Value {
    let secs = start.elapsed().as_secs_f64();
    let nodes = it.row.counters.nodes;
    json!({
        "type": "iteration",
        "depth": it.depth,
        "score": it.score,
        "score_text": G::score_text(it.score),
        "best_move": it.best_move.as_ref().map(ToString::to_string),
        "pv": it.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "nodes": nodes,
        "time_ms": secs * 1e3,
        "nps": if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
    })
}

/// Runs a prepared search on the game it is given.
struct Runner<'a> {
    prepared: &'a Prepared,
    job: &'a Job,
}

impl GameTask for Runner<'_> {
    type Output = Result<Value, String>;

    fn run<G: RegisteredGame, E: Evaluator<G>>(self, game: G, eval: &E) -> Self::Output {
        if self.prepared.request.analyze {
            analyze(&game, eval, self.prepared, self.job)
        } else {
            search_once(
                &game,
                eval,
                self.prepared,
                self.job,
                true,
                &mut Slots::default(),
            )
        }
    }
}

/// One search of `game` by the plan; an Othello position small enough is solved exactly.
fn search_once<G: RegisteredGame, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    prepared: &Prepared,
    job: &Job,
    report: bool,
    slots: &mut Slots,
) -> Result<Value, String> {
    let push = |event: Value| {
        if report {
            job.push(event);
        }
    };
    if game.outcome().is_some() {
        return Err("the game is over: nothing to search".into());
    }
    let name = G::NAME;
    match &prepared.plan {
        Plan::Fast(selectivity) => {
            if let Some((score, best)) = game.exact(&job.stop) {
                return Ok(exact_json(game, score, best));
            }
            fast(game, *selectivity, prepared, job, report, slots)
                .unwrap_or_else(|| Err("no engine of its own for this game".into()))
        }
        Plan::Generic(config) => {
            if slots.generic.is_none() {
                let mut engine = Engine::<G>::with_parallel(*config, prepared.parallel)
                    .map_err(|e| format!("config: {e}"))?;
                engine.set_stop(Some(job.stop.clone()));
                slots.generic = Some(Box::new(engine));
            }
            let engine = slots
                .generic
                .as_mut()
                .and_then(|e| e.downcast_mut::<Engine<G>>())
                .ok_or("the engine of another game")?;
            let limits = SearchLimits {
                depth: prepared.limits.depth.or(Some(game.default_depth())),
                ..prepared.limits
            };
            let start = Instant::now();
            let mut observe = |it: &Iteration<G::Move>| push(iteration_event::<G>(it, start));
            let r = engine
                .search_observed(game, eval, &limits, &mut observe)
                .map_err(|e| e.to_string())?;
            let mut json = result_json(name, &SearchEngine::Generic(config), &limits, &r);
            json["score_text"] = json!(G::score_text(r.score));
            Ok(json)
        }
        Plan::Mcts(config, playouts) => {
            let mut mcts = Mcts::new(*config).map_err(|e: ConfigError| e.to_string())?;
            let start = Instant::now();
            let deadline = start + prepared.limits.time.unwrap_or(MCTS_SLICE);
            let mut done = 0;
            let mut result;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let limits = MctsLimits {
                    playouts: playouts.map(|p| p - done),
                    time: Some(left.min(MCTS_SLICE)),
                };
                result = mcts.search(game, eval, &limits, Some(&job.stop));
                done += result.playouts;
                let secs = start.elapsed().as_secs_f64();
                push(json!({
                    "type": "iteration",
                    "depth": result.max_depth,
                    "score_text": format!("{:.3}", result.value),
                    "best_move": result.best_move.as_ref().map(ToString::to_string),
                    "pv": result.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "nodes": done,
                    "time_ms": secs * 1e3,
                    "nps": if secs > 0.0 { done as f64 / secs } else { 0.0 },
                }));
                let finished = result.proof.is_some()
                    || playouts.is_some_and(|p| done >= p)
                    || Instant::now() >= deadline
                    || job.stop.load(Ordering::Relaxed);
                if finished {
                    break;
                }
            }
            result.playouts = done;
            let limits = MctsLimits {
                playouts: *playouts,
                time: prepared.limits.time,
            };
            Ok(crate::mcts_args::result_json(
                name,
                config,
                &limits,
                &result,
                start.elapsed(),
            ))
        }
    }
}

/// An exact solve's result, in the shape of a search's.
fn exact_json<G: RegisteredGame>(game: &G, score: Score, best: Option<G::Move>) -> Value {
    json!({
        "game": G::NAME,
        "engine": "exact",
        "score": score,
        "score_text": G::score_text(score),
        "best_move": best.map(|m| game.move_name(m)),
        "pv": best.map(|m| vec![game.move_name(m)]).unwrap_or_default(),
        "exhausted": true,
    })
}

/// Every legal move of `game` scored: each child searched one ply less deep (or solved
/// exactly when small enough), reported as it finishes.
fn analyze<G: RegisteredGame, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    prepared: &Prepared,
    job: &Job,
) -> Result<Value, String> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return Err("the game is over: nothing to analyse".into());
    }
    let start = Instant::now();
    let per_move = prepared
        .limits
        .time
        .map(|t| t / moves.len() as u32)
        .map(|t| t.max(Duration::from_millis(1)));
    let depth = prepared.limits.depth.unwrap_or(game.default_depth());
    let mut scored: Vec<Value> = Vec::new();
    let mut best: Option<(Score, String)> = None;
    let mut slots = Slots::default();
    for &mv in &moves {
        if job.stop.load(Ordering::Relaxed) {
            break;
        }
        let child = game.play(mv);
        let name = game.move_name(mv);
        let (score, pv, nodes, child_depth, exact) = match child.outcome() {
            Some(s) => (-s, Vec::new(), 0, 0, true),
            None => match child.exact(&job.stop) {
                Some((s, reply)) => (
                    -s,
                    reply.map(|r| vec![child.move_name(r)]).unwrap_or_default(),
                    0,
                    0,
                    true,
                ),
                None => {
                    let child_prepared = Prepared {
                        limits: SearchLimits {
                            depth: Some(depth.saturating_sub(1).max(1)),
                            nodes: prepared.limits.nodes,
                            time: per_move,
                        },
                        request: SearchRequest {
                            analyze: false,
                            ..prepared.request.clone()
                        },
                        ..prepared.clone()
                    };
                    let r = search_once(&child, eval, &child_prepared, job, false, &mut slots)?;
                    // A search's score, or MCTS's win rate (for the child's side to move)
                    // as a heuristic score in thousandths, or its proof.
                    let s: Score = match (r.get("score"), r["proof"].as_str(), r["value"].as_f64())
                    {
                        (Some(score), _, _) => {
                            serde_json::from_value(score.clone()).unwrap_or(Score::DRAW)
                        }
                        (None, Some("win"), _) => Score::WIN,
                        (None, Some("loss"), _) => Score::LOSS,
                        (None, Some(_), _) => Score::DRAW,
                        (None, None, Some(v)) => {
                            Score::heuristic(((v - 0.5) * 1000.0).round() as i32)
                        }
                        (None, None, None) => Score::DRAW,
                    };
                    let pv: Vec<String> = r["pv"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|m| m.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default();
                    let nodes = r["stats"]["nodes"]
                        .as_u64()
                        .or_else(|| r["stats"]["playouts"].as_u64())
                        .unwrap_or(0);
                    let d = r["depth"]
                        .as_u64()
                        .or_else(|| r["stats"]["max_depth"].as_u64())
                        .unwrap_or(0) as u32;
                    let exhausted =
                        r["exhausted"].as_bool().unwrap_or(false) || r["proof"].is_string();
                    (-s, pv, nodes, d + 1, exhausted)
                }
            },
        };
        let mut line = vec![name.clone()];
        line.extend(pv);
        let event = json!({
            "type": "move",
            "move": name,
            "score": score,
            "score_text": G::score_text(score),
            "depth": child_depth,
            "pv": line,
            "nodes": nodes,
            "exact": exact,
        });
        job.push(event.clone());
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, name));
        }
        scored.push(event);
    }
    scored.sort_by(|a, b| {
        let s =
            |v: &Value| serde_json::from_value::<Score>(v["score"].clone()).unwrap_or(Score::DRAW);
        s(b).cmp(&s(a))
    });
    let nodes: u64 = scored.iter().filter_map(|m| m["nodes"].as_u64()).sum();
    let best_line = scored.first().map(|m| m["pv"].clone()).unwrap_or(json!([]));
    Ok(json!({
        "game": G::NAME,
        "analysis": true,
        "pv": best_line,
        "moves": scored,
        "best_move": best.as_ref().map(|(_, m)| m.clone()),
        "score_text": best.as_ref().map(|(s, _)| G::score_text(*s)),
        "stopped": job.stop.load(Ordering::Relaxed),
        "stats": { "nodes": nodes, "time_ms": start.elapsed().as_secs_f64() * 1e3 },
    }))
}
