//! A game's own engine, where it has one beside the generic search: Othello's midgame search
//! (and its exact solver near the end), the shogi engine of `prune usi`. The doors ask for it
//! by [`RegisteredGame::native_search`] with [`NativeLimits`] and get [`NativeReport`]s, the
//! same shape for every game, scores in the game's own words.
//!
//! [`RegisteredGame::native_search`]: crate::RegisteredGame::native_search

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune_othello::midgame::{MidgameSearch, Selectivity};
use prune_othello::Position as Othello;
use prune_search::{Score, SearchLimits};
use prune_shogi::engine::{Engine, EngineOptions, EvalKind, Limits, MATE, MATE_BOUND};
use prune_shogi::Position as Shogi;

use crate::registered::RegisteredGame;
use crate::OPEN_GAME_DEPTH;

/// The table of a game's own engine, in MiB.
pub const NATIVE_TT_MIB: usize = 64;

/// What a game's own engine is asked.
#[derive(Clone, Debug, Default)]
pub struct NativeLimits {
    /// The deepest iteration (the game's default depth when nothing else limits it).
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Time.
    pub time: Option<Duration>,
    /// Threads (at least one).
    pub threads: usize,
    /// The evaluation by the registry's name (the game's default if `None`).
    pub eval: Option<String>,
    /// Othello's ProbCut selectivity, in deviations (`None`: no forward pruning).
    pub selectivity: Option<f64>,
}

impl NativeLimits {
    /// The deepest iteration: the limit's, or the game's default when neither nodes nor time
    /// limit the search.
    fn depth(&self, default: u32) -> Option<u32> {
        match self.depth {
            Some(d) => Some(d),
            None if self.nodes.is_none() && self.time.is_none() => Some(default),
            None => None,
        }
    }
}

/// One finished iteration of a game's own engine, or its result.
#[derive(Clone, Debug, PartialEq)]
pub struct NativeReport<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// Its score for the side to move.
    pub score: Score,
    /// The score in the game's words (a shogi mate says how many moves away it is).
    pub score_text: String,
    /// The principal variation, its best move first.
    pub pv: Vec<M>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// What a game's own engine found.
#[derive(Clone, Debug, PartialEq)]
pub struct NativeResult<M> {
    /// The engine, in words.
    pub engine: String,
    /// The move to play (`None`: no legal move).
    pub best: Option<M>,
    /// The last finished iteration.
    pub last: NativeReport<M>,
    /// Whether the score is the game-theoretic value (an exact solve, or a mate found).
    pub exact: bool,
}

/// A game's own engine, kept from one search to the next with its table (an analysis searches
/// every child with the same one): the seed of the play layer's agents.
pub trait NativeEngine<G: prune_search::Game>: Send {
    /// Searches `game` within `limits` (its evaluation, threads and selectivity applied for
    /// this search), `observe` told of each finished iteration, stopped when `stop` is raised.
    fn search(
        &mut self,
        game: &G,
        limits: &NativeLimits,
        stop: &Arc<AtomicBool>,
        observe: &mut dyn FnMut(&NativeReport<G::Move>),
    ) -> Result<NativeResult<G::Move>, String>;
}

/// Othello's own engine: the exact solver near the end, else the midgame search (NegaScout,
/// iterative deepening, its table, ProbCut at the selectivity asked). The table is made on
/// the first midgame search.
#[derive(Default)]
pub(crate) struct OthelloEngine {
    search: Option<MidgameSearch>,
}

impl NativeEngine<Othello> for OthelloEngine {
    fn search(
        &mut self,
        game: &Othello,
        limits: &NativeLimits,
        stop: &Arc<AtomicBool>,
        observe: &mut dyn FnMut(&NativeReport<prune_othello::Move>),
    ) -> Result<NativeResult<prune_othello::Move>, String> {
        let started = Instant::now();
        if let Some((score, best)) = game.exact(stop) {
            let last = NativeReport {
                depth: game.empty_count(),
                score,
                score_text: Othello::score_text(score),
                pv: best.into_iter().collect(),
                nodes: 0,
                elapsed: started.elapsed(),
            };
            return Ok(NativeResult {
                engine: "exact solver".into(),
                best,
                last,
                exact: true,
            });
        }
        if self.search.is_none() {
            self.search = Some(
                MidgameSearch::new(NATIVE_TT_MIB)
                    .map_err(|e| format!("the search's table: {e}"))?,
            );
        }
        let search = self.search.as_mut().expect("made above");
        search.set_eval(
            crate::othello_eval(limits.eval.as_deref().unwrap_or("pattern"))
                .map_err(|e| e.to_string())?,
        );
        search.set_threads(limits.threads.max(1));
        search.set_selectivity(match limits.selectivity {
            Some(t) => Selectivity::Sigma(t),
            None => Selectivity::Off,
        });
        let search_limits = SearchLimits {
            depth: limits.depth(OPEN_GAME_DEPTH),
            nodes: limits.nodes,
            time: limits.time,
        };
        let report = |depth, score, pv: &[prune_othello::Move], nodes| NativeReport {
            depth,
            score,
            score_text: Othello::score_text(score),
            pv: pv.to_vec(),
            nodes,
            elapsed: started.elapsed(),
        };
        let mut each = |it: &prune_search::Iteration<prune_othello::Move>| {
            observe(&report(it.depth, it.score, &it.pv, it.row.counters.nodes));
        };
        let r = search.search_observed(game, &search_limits, Some(stop), &mut each);
        Ok(NativeResult {
            engine: "midgame search (NegaScout, table, ProbCut when selective)".into(),
            best: r.best_move,
            last: report(r.depth, r.score, &r.pv, r.stats.total.nodes),
            exact: r.exhausted,
        })
    }
}

/// A shogi engine score as a [`Score`] and its words: centipawns, or a mate `n` plies away.
fn shogi_score(score: i32) -> (Score, String) {
    let plies = |n: i32| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    if score >= MATE_BOUND {
        (Score::WIN, format!("win: mate in {}", plies(MATE - score)))
    } else if score <= -MATE {
        (Score::LOSS, "loss: mated".to_string())
    } else if score <= -MATE_BOUND {
        (
            Score::LOSS,
            format!("loss: mated in {}", plies(MATE + score)),
        )
    } else {
        let s = Score::heuristic(score);
        (s, Shogi::score_text(s))
    }
}

/// Shogi's own engine: the engine of `prune usi` (the `full` preset: the selective search, the
/// hand-made evaluation unless `material` is asked), with no game history before the position.
/// Its table and heuristics are made on the first search and kept.
#[derive(Default)]
pub(crate) struct ShogiEngine {
    engine: Option<Engine>,
}

impl NativeEngine<Shogi> for ShogiEngine {
    fn search(
        &mut self,
        game: &Shogi,
        limits: &NativeLimits,
        stop: &Arc<AtomicBool>,
        observe: &mut dyn FnMut(&NativeReport<prune_shogi::Move>),
    ) -> Result<NativeResult<prune_shogi::Move>, String> {
        // The registry's names, any case (as the generic search takes them).
        let eval = match limits
            .eval
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            None => EvalKind::HandMade,
            Some(name) => {
                let info = crate::info(Shogi::NAME).expect("shogi is in the catalogue");
                let canonical = info.eval(name)?.name;
                EvalKind::from_name(canonical)
                    .ok_or_else(|| format!("the shogi engine has no evaluation '{canonical}'"))?
            }
        };
        let options = EngineOptions {
            hash_mb: NATIVE_TT_MIB,
            threads: limits.threads.max(1),
            eval,
            ..EngineOptions::default()
        };
        options.validate()?;
        let engine = self.engine.get_or_insert_with(|| {
            Engine::new(EngineOptions {
                hash_mb: 0,
                ..options.clone()
            })
        });
        engine
            .set_options(options)
            .map_err(|e| format!("the engine's table: {e}"))?;
        engine.set_stop_flag(stop.clone());
        let engine_limits = Limits {
            depth: limits.depth(OPEN_GAME_DEPTH),
            nodes: limits.nodes,
            hard_time: limits.time,
            soft_time: limits.time.map(|t| t.mul_f64(0.6)),
        };
        let report = |depth, score: i32, pv: &[prune_shogi::Move], nodes, elapsed| {
            let (score, score_text) = shogi_score(score);
            NativeReport {
                depth,
                score,
                score_text,
                pv: pv.to_vec(),
                nodes,
                elapsed,
            }
        };
        let mut each = |it: &prune_shogi::engine::Iteration| {
            observe(&report(it.depth, it.score, &it.pv, it.nodes, it.elapsed));
        };
        let r = engine.search(game, &[], engine_limits, &mut each);
        Ok(NativeResult {
            engine: "shogi engine (prune usi's selective search)".into(),
            best: r.best,
            last: report(r.depth, r.score, &r.pv, r.nodes, r.elapsed),
            exact: r.score.abs() >= MATE_BOUND,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogi_mates_read_as_mates_and_centipawns_as_centipawns() {
        assert_eq!(
            shogi_score(MATE - 3),
            (Score::WIN, "win: mate in 3 plies".into())
        );
        assert_eq!(
            shogi_score(-(MATE - 2)),
            (Score::LOSS, "loss: mated in 2 plies".into())
        );
        assert_eq!(shogi_score(-35).1, "-35 cp");
        assert_eq!(
            shogi_score(-MATE).1,
            "loss: mated",
            "the root itself is mated"
        );
    }
}
