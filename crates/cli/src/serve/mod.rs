//! `prune serve`: the page and its JSON API from one binary, on loopback by default.
//!
//! The page's assets and the lab's reports are built into the binary: no request reads or
//! writes a file. Searches run on threads of their own, at most `--max-searches` at once,
//! each bounded by the server's limits on depth, time, nodes, table size and threads; their
//! progress streams to the page as server-sent events.

pub(crate) mod board;
mod lab;
mod search;

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use prune_lab::tree::{render, Passes, Picture, TreeFormat};
use prune_search::{Engine, Evaluator, SearchLimits, TreeRecorder, PRESETS};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::CliError;
use board::View;
use prune_registry::GameVisitor;
use prune_registry::RegisteredGame;
use search::{generic_config, with_game, ApiConfig, Job, SearchRequest};

/// Options of `prune serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default, loopback, lets only this machine in; another
    /// address lets the network in, with no authentication.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The deepest search a request may ask for.
    #[arg(long, value_name = "PLIES", default_value_t = 40)]
    pub max_depth: u32,
    /// The longest search (every search stops by then).
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub max_time_ms: u64,
    /// The most nodes of a search (every search stops by then).
    #[arg(long, value_name = "N", default_value_t = 2_000_000_000)]
    pub max_nodes: u64,
    /// The largest transposition table a request may ask for, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub max_tt_mb: usize,
    /// The most threads of one search [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub max_threads: Option<usize>,
    /// Searches running at once; another request gets 429 until one ends.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub max_searches: usize,
    /// The most nodes of an MCTS tree.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub max_mcts_nodes: usize,
}

/// The limits every request is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// See [`ServeArgs::max_depth`].
    pub max_depth: u32,
    /// See [`ServeArgs::max_time_ms`].
    pub max_time_ms: u64,
    /// See [`ServeArgs::max_nodes`].
    pub max_nodes: u64,
    /// See [`ServeArgs::max_tt_mb`].
    pub max_tt_mb: usize,
    /// See [`ServeArgs::max_threads`].
    pub max_threads: usize,
    /// See [`ServeArgs::max_searches`].
    pub max_searches: usize,
    /// See [`ServeArgs::max_mcts_nodes`].
    pub max_mcts_nodes: usize,
}

/// The deepest tree the page draws, and the most shapes.
const MAX_TREE_DEPTH: u32 = 8;
/// See [`MAX_TREE_DEPTH`].
const MAX_TREE_SHAPES: usize = 4_000;
/// Finished searches kept for late readers.
const KEPT_JOBS: usize = 64;

/// What the handlers share.
struct AppState {
    limits: ServerLimits,
    jobs: Mutex<BTreeMap<u64, Arc<Job>>>,
    next_id: AtomicU64,
    running: Arc<AtomicUsize>,
}

/// An error answer: a status and `{"error": message}`.
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<CliError> for ApiError {
    fn from(e: CliError) -> Self {
        match e {
            CliError::Usage(m) => ApiError(StatusCode::BAD_REQUEST, m),
            CliError::Failure(m) => ApiError(StatusCode::INTERNAL_SERVER_ERROR, m),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        ApiError(e.status(), e.body_text())
    }
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// Runs `prune serve` until interrupted.
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let limits = ServerLimits {
        max_depth: args.max_depth.max(1),
        max_time_ms: args.max_time_ms.max(1),
        max_nodes: args.max_nodes.max(1),
        max_tt_mb: args.max_tt_mb,
        max_threads: args.max_threads.unwrap_or(cores).max(1),
        max_searches: args.max_searches.max(1),
        max_mcts_nodes: args.max_mcts_nodes.clamp(1, u32::MAX as usize),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async move {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
            CliError::Usage(format!("--bind {} --port {}: {e}", args.bind, args.port))
        })?;
        let bound = listener
            .local_addr()
            .map_err(|e| CliError::Failure(format!("the server's address: {e}")))?;
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: listening on {} lets other machines in, with no authentication",
                args.bind
            );
        }
        println!("prune serve: listening on http://{bound}/ (Ctrl-C stops it)");
        use std::io::Write;
        std::io::stdout().flush().ok();
        axum::serve(listener, router(limits))
            .with_graceful_shutdown(async {
                tokio::signal::ctrl_c().await.ok();
            })
            .await
            .map_err(|e| CliError::Failure(format!("the server stopped: {e}")))
    })
}

/// The routes.
fn router(limits: ServerLimits) -> Router {
    let state = Arc::new(AppState {
        limits,
        jobs: Mutex::new(BTreeMap::new()),
        next_id: AtomicU64::new(1),
        running: Arc::new(AtomicUsize::new(0)),
    });
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route("/js/{file}", get(script))
        .route("/style.css", get(|| async { asset("text/css", STYLE_CSS) }))
        .route("/api/games", get(games))
        .route("/api/options", get(options))
        .route("/api/status", get(status))
        .route("/api/position", post(position))
        .route("/api/play", post(play))
        .route("/api/search", post(start_search))
        .route("/api/search/{id}", get(search_status))
        .route("/api/search/{id}/events", get(search_events))
        .route("/api/search/{id}/stop", post(stop_search))
        .route("/api/tree", post(tree))
        .route("/lab", get(|| async { Redirect::permanent("/lab/") }))
        .route("/lab/", get(|| async { Html(lab::index()) }))
        .route("/lab/{name}", get(|Path(name): Path<String>| async move {
            Redirect::permanent(&format!("/lab/{name}/"))
        }))
        .route("/lab/{name}/", get(lab_report))
        .route("/lab/{name}/{file}", get(lab_file))
        .fallback(not_found)
        .with_state(state)
}

const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's JavaScript modules by file name (`/js/app.js` starts the page and imports the
/// others).
const SCRIPTS: [(&str, &str); 9] = [
    ("app.js", include_str!("assets/js/app.js")),
    ("util.js", include_str!("assets/js/util.js")),
    ("state.js", include_str!("assets/js/state.js")),
    ("board.js", include_str!("assets/js/board.js")),
    ("play.js", include_str!("assets/js/play.js")),
    ("search.js", include_str!("assets/js/search.js")),
    ("analysis.js", include_str!("assets/js/analysis.js")),
    ("tree.js", include_str!("assets/js/tree.js")),
    ("controls.js", include_str!("assets/js/controls.js")),
];
const STYLE_CSS: &str = include_str!("assets/style.css");

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// One of the page's modules ([`SCRIPTS`]), or not found.
async fn script(Path(file): Path<String>, uri: Uri) -> Response {
    match SCRIPTS.iter().find(|(name, _)| *name == file) {
        Some((_, body)) => asset("text/javascript", body),
        None => not_found(uri).await,
    }
}

async fn not_found(uri: Uri) -> Response {
    let message = format!("no such page or API: {}", uri.path());
    if uri.path().starts_with("/api/") {
        ApiError(StatusCode::NOT_FOUND, message).into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            Html(format!(
                "<h1>Not found</h1><p>{}</p>",
                lab::escape(&message)
            )),
        )
            .into_response()
    }
}

async fn games() -> Json<Value> {
    let games: Vec<Value> = prune_registry::board_games()
        .map(|info| {
            let evals: Vec<&str> = info.evals.iter().map(|e| e.name).collect();
            json!({
                "name": info.name,
                "position_help": info.position,
                "evals": evals,
                "score_words": info.score_words,
                "native_engine": info.native_engine,
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

async fn options(State(state): State<Arc<AppState>>) -> Json<Value> {
    let l = state.limits;
    // The alpha-beta family, then the proof-number searches (win, draw or loss).
    let algorithms: Vec<&str> = <prune_search::Algorithm as prune_search::Named>::ALL
        .iter()
        .map(|a| prune_search::Named::name(*a))
        .chain(prune_search::proof::ProofAlgorithm::ALL.map(|p| p.name()))
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|p| json!({ "name": p.name, "summary": p.summary }))
        .collect();
    Json(json!({
        "engines": ["fast", "generic", "mcts"],
        "algorithms": algorithms,
        "presets": presets,
        "limits": {
            "max_depth": l.max_depth,
            "max_time_ms": l.max_time_ms,
            "max_nodes": l.max_nodes,
            "max_tt_mb": l.max_tt_mb,
            "max_threads": l.max_threads,
            "max_searches": l.max_searches,
        },
    }))
}

async fn status(State(state): State<Arc<AppState>>) -> Json<Value> {
    let kept = state.jobs.lock().expect("no panic holding the jobs").len();
    Json(json!({
        "running": state.running.load(Ordering::SeqCst),
        "max_searches": state.limits.max_searches,
        "kept": kept,
    }))
}

/// `POST /api/position`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    game: String,
    #[serde(default)]
    position: Option<String>,
}

/// `POST /api/play`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    game: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(rename = "move")]
    mv: String,
}

fn page_view(game: &str, position: Option<&str>, mv: Option<&str>) -> Result<View, ApiError> {
    board::page_view(game, position, mv).map_err(bad_request)
}

async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<View>, ApiError> {
    let Json(r) = body?;
    page_view(&r.game, r.position.as_deref(), None).map(Json)
}

async fn play(body: Result<Json<PlayRequest>, JsonRejection>) -> Result<Json<View>, ApiError> {
    let Json(r) = body?;
    page_view(&r.game, r.position.as_deref(), Some(&r.mv)).map(Json)
}

async fn start_search(
    State(state): State<Arc<AppState>>,
    body: Result<Json<SearchRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(request) = body?;
    let limits = state.limits;
    let prepared = tokio::task::spawn_blocking(move || search::prepare(request, &limits))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    // Claim a slot, or refuse.
    let running = &state.running;
    let claimed = running
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < state.limits.max_searches).then_some(n + 1)
        })
        .is_ok();
    if !claimed {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{} searches are running, the server's --max-searches: wait for one to end or \
                 stop one",
                state.limits.max_searches
            ),
        ));
    }
    let id = state.next_id.fetch_add(1, Ordering::SeqCst);
    let job = Job::new();
    {
        let mut jobs = state.jobs.lock().expect("no panic holding the jobs");
        jobs.insert(id, job.clone());
        while jobs.len() > KEPT_JOBS {
            let oldest_done = jobs.iter().find(|(_, j)| j.is_done()).map(|(k, _)| *k);
            match oldest_done {
                Some(k) => jobs.remove(&k),
                None => break,
            };
        }
    }
    let slot = running.clone();
    std::thread::Builder::new()
        .name(format!("prune-serve-search-{id}"))
        .spawn(move || {
            search::run(&prepared, &job);
            slot.fetch_sub(1, Ordering::SeqCst);
        })
        .map_err(|e| {
            running.fetch_sub(1, Ordering::SeqCst);
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot start a search: {e}"),
            )
        })?;
    Ok((StatusCode::ACCEPTED, Json(json!({ "id": id.to_string() }))))
}

fn find_job(state: &AppState, id: &str) -> Result<Arc<Job>, ApiError> {
    let n: u64 = id
        .parse()
        .map_err(|_| bad_request(format!("search id '{id}' is not a number")))?;
    state
        .jobs
        .lock()
        .expect("no panic holding the jobs")
        .get(&n)
        .cloned()
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no search {id}")))
}

async fn search_status(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let job = find_job(&state, &id)?;
    let (events, done) = job.read(0);
    Ok(Json(json!({ "id": id, "done": done, "events": events })))
}

async fn stop_search(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let job = find_job(&state, &id)?;
    job.stop.store(true, Ordering::SeqCst);
    Ok(Json(json!({ "stopped": true })))
}

async fn search_events(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let job = find_job(&state, &id)?;
    let rx = job.subscribe();
    let stream =
        futures_util::stream::unfold((job, rx, 0usize), |(job, mut rx, next)| async move {
            loop {
                let (events, done) = job.read(next);
                if let Some(event) = events.into_iter().next() {
                    let e = Event::default().data(event.to_string());
                    return Some((Ok(e), (job, rx, next + 1)));
                }
                if done {
                    return None;
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))))
}

/// `POST /api/tree`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeRequest {
    game: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    eval: Option<String>,
    #[serde(default)]
    config: ApiConfig,
    depth: u32,
}

/// Draws the tree one search visits.
struct DrawTree {
    config: prune_search::SearchConfig,
    depth: u32,
}

impl GameVisitor for DrawTree {
    type Output = Result<Value, String>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        let eval = &eval;
        if game.outcome().is_some() {
            return Err("the game is over: no tree to draw".into());
        }
        let limits = SearchLimits {
            depth: Some(self.depth),
            nodes: Some(MAX_TREE_SHAPES as u64 * 4),
            time: Some(Duration::from_secs(10)),
        };
        let mut engine = Engine::<G>::new(self.config).map_err(|e| format!("config: {e}"))?;
        let mut recorder = TreeRecorder::new();
        let r = engine
            .search_traced(&game, eval, &limits, &mut recorder)
            .map_err(|e| e.to_string())?;
        if r.interrupted {
            return Err(format!(
                "the search visited more than {} nodes: far too many to draw; search less deep",
                MAX_TREE_SHAPES * 4
            ));
        }
        let best = r.best_move.map_or("none".to_string(), |m| m.to_string());
        let title = format!(
            "{} · {} · depth {}: value {}, best move {best}",
            self.config.algorithm,
            G::NAME,
            self.depth,
            r.score
        );
        let picture = Picture::new(title, &recorder.into_tree(), &r.pv, Passes::Last);
        if picture.shapes() > MAX_TREE_SHAPES {
            return Err(format!(
                "the picture would have {} shapes, more than {MAX_TREE_SHAPES}: search less deep",
                picture.shapes()
            ));
        }
        Ok(json!({
            "svg": render(std::slice::from_ref(&picture), TreeFormat::Svg),
            "nodes": r.stats.total.nodes,
            "summary": picture.summary(),
        }))
    }
}

async fn tree(
    State(state): State<Arc<AppState>>,
    body: Result<Json<TreeRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(r) = body?;
    let limits = state.limits;
    let drawn = tokio::task::spawn_blocking(move || draw_tree(r, &limits, MAX_TREE_DEPTH))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(Json(drawn))
}

/// Checks a tree request (its depth at most `max_depth`) and draws the tree.
fn draw_tree(r: TreeRequest, limits: &ServerLimits, max_depth: u32) -> Result<Value, ApiError> {
    if r.depth == 0 || r.depth > max_depth {
        return Err(bad_request(format!(
            "depth: {} is not 1 to {max_depth} (a tree to draw)",
            r.depth
        )));
    }
    let game = r.game.trim().to_ascii_lowercase();
    let config = generic_config(&r.config, false, limits, &game)?;
    let task = DrawTree {
        config,
        depth: r.depth,
    };
    with_game(&game, r.position.as_deref(), r.eval.as_deref(), task)
        .and_then(|x| x)
        .map_err(bad_request)
}

/// The limits `prune serve` runs with by default (the fuzz targets check requests against
/// them), with `threads` threads at most.
fn default_limits(threads: usize) -> ServerLimits {
    ServerLimits {
        max_depth: 40,
        max_time_ms: 60_000,
        max_nodes: 2_000_000_000,
        max_tt_mb: 256,
        max_threads: threads,
        max_searches: 2,
        max_mcts_nodes: 2_000_000,
    }
}

/// The message of an error answer.
fn message(e: ApiError) -> String {
    e.1
}

/// Reads `body` as the JSON body of `POST /api/{endpoint}` (`search`, `position`, `play` or
/// `tree`) and handles it as `prune serve` does, short of running a search (a tree is drawn
/// only up to depth 2, with tables of 16 MiB at most): the view of `position` and `play`,
/// `None` for the others, or the error message the server would answer with.
pub fn fuzz_request(endpoint: &str, body: &[u8]) -> Result<Option<View>, String> {
    let limits = ServerLimits {
        max_tt_mb: 16,
        ..default_limits(4)
    };
    let json = |e: serde_json::Error| format!("the body: {e}");
    match endpoint {
        "search" => {
            let r: SearchRequest = serde_json::from_slice(body).map_err(json)?;
            search::prepare(r, &limits).map_err(|e| message(e.into()))?;
            Ok(None)
        }
        "position" => {
            let r: PositionRequest = serde_json::from_slice(body).map_err(json)?;
            page_view(&r.game, r.position.as_deref(), None)
                .map(Some)
                .map_err(message)
        }
        "play" => {
            let r: PlayRequest = serde_json::from_slice(body).map_err(json)?;
            page_view(&r.game, r.position.as_deref(), Some(&r.mv))
                .map(Some)
                .map_err(message)
        }
        "tree" => {
            let r: TreeRequest = serde_json::from_slice(body).map_err(json)?;
            draw_tree(r, &limits, 2).map(|_| None).map_err(message)
        }
        other => Err(format!("no endpoint {other}")),
    }
}

async fn lab_report(Path(name): Path<String>) -> Response {
    match lab::report_page(&name) {
        Some(html) => Html(html).into_response(),
        None => not_found(format!("/lab/{name}/").parse().unwrap_or_default()).await,
    }
}

async fn lab_file(Path((name, file)): Path<(String, String)>) -> Response {
    match lab::file(&name, &file) {
        Some((content_type, bytes)) => {
            ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
        }
        None => not_found(format!("/lab/{name}/{file}").parse().unwrap_or_default()).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_and_plays_by_name() {
        assert!(page_view("chess", None, None).is_err());
        let v = page_view("connect4", Some("4"), Some("4")).unwrap();
        assert_eq!(v.position, "44");
    }
}
