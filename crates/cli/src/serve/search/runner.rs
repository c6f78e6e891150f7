//! Runs a prepared search on its thread, on whichever game it asks for: the game's own engine,
//! the generic search or MCTS, once or over every legal move (an analysis).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use prune_othello::midgame::Selectivity;
use prune_registry::{GameVisitor, NativeEngine, NativeLimits, NativeReport, RegisteredGame};
use prune_search::mcts::{Mcts, MctsLimits};
use prune_search::proof::Wdl;
use prune_search::{ConfigError, Engine, Evaluator, Iteration, Score, SearchLimits};
use serde_json::{json, Value};

use super::request::{Plan, Prepared, SearchRequest};
use super::{with_game, Job};
use crate::report::{native_json, per_second, result_json, SearchEngine};

/// How often an MCTS search reports, with its tree kept between reports.
const MCTS_SLICE: Duration = Duration::from_millis(100);

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
                "nps": per_second(it.nodes, it.elapsed),
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
    let stopped = job.stop.load(Ordering::Relaxed);
    Some(Ok(native_json(game, &limits, &r, start.elapsed(), stopped)))
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

impl GameVisitor for Runner<'_> {
    type Output = Result<Value, String>;

    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        if self.prepared.request.analyze {
            analyze(&game, &eval, self.prepared, self.job)
        } else {
            search_once(
                &game,
                &eval,
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
            let text = G::score_text(r.score);
            Ok(result_json(
                name,
                &SearchEngine::Generic(config),
                &limits,
                &r,
                &text,
            ))
        }
        Plan::Proof(algorithm, max_nodes) => {
            let start = Instant::now();
            let (r, proofs) = algorithm.solve(game, eval, *max_nodes);
            let secs = start.elapsed().as_secs_f64();
            let result = r
                .wdl
                .map_or("unknown (the node limit came first)", Wdl::name);
            let best = r.best_move.map(|m| game.move_name(m));
            let proofs: Vec<Value> = proofs
                .iter()
                .map(|(goal, p)| {
                    json!({
                        "goal": goal.name(),
                        "verdict": p.verdict.name(),
                        "nodes": p.nodes,
                        "stored": p.stored,
                        "proof_size": p.proof_size,
                    })
                })
                .collect();
            Ok(json!({
                "game": name,
                "engine": "generic",
                "algorithm": algorithm.name(),
                "score_text": result,
                "proof": r.wdl.map(|_| result),
                "best_move": best,
                "pv": best.into_iter().collect::<Vec<_>>(),
                "exhausted": r.wdl.is_some(),
                "limits": { "nodes": max_nodes },
                "stats": {
                    "nodes": r.nodes,
                    "time_ms": secs * 1e3,
                    "nodes_per_second": if secs > 0.0 { r.nodes as f64 / secs } else { 0.0 },
                    "proofs": proofs,
                },
            }))
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
