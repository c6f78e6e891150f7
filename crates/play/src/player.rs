//! [`Agent`]: anything that chooses moves in a game; [`EnginePlayer`]: prune's own engine, with
//! time management.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune_othello::endgame::EndgameSolver;
use prune_othello::midgame::{MidgameSearch, ProbCutParams, Selectivity};
use prune_othello::{Move, Ordered, OthelloEval, Position, StaticOrdering};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits};
use prune_search::{Algorithm, ConfigError, Engine, Evaluator, Game, Parallel, Preset, Score};
use prune_search::{ProbCut, SearchConfig, SearchLimits, SearchResult};

use prune_registry::RegisteredGame;

use crate::agents::mcts_thought;
use crate::{Budget, GameRecord};

/// What an agent decided, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought<M = Move> {
    /// The move to play.
    pub mv: M,
    /// The value of the position for the side to move in the game's own unit (Othello: discs,
    /// exact when `exact`; shogi: centipawns; others: the evaluation's scale).
    pub eval: f64,
    /// Whether `eval` is the game-theoretic value (an exact solve, a proven result).
    pub exact: bool,
    /// The depth searched (for an exact solve, the empties).
    pub depth: u32,
    /// The expected line, starting with `mv`.
    pub pv: Vec<M>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Why an agent could not give a move (an external engine that died or answered nonsense).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentError(pub String);

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AgentError {}

/// A player that chooses moves in game `G`: prune's engines (any preset of the generic search,
/// a game's own engine, MCTS) or an external program.
pub trait Agent<G: RegisteredGame = Position> {
    /// The name shown in results.
    fn name(&self) -> String;

    /// A new game begins (forget what was learnt about the last one).
    fn new_game(&mut self) {}

    /// The move to play at the end of `game` within `budget`. The game is not over.
    fn choose(
        &mut self,
        game: &GameRecord<G>,
        budget: &Budget,
    ) -> Result<Thought<G::Move>, AgentError>;
}

/// The name of the fast midgame search among the presets of [`PlayerOptions::preset`].
pub const FAST: &str = "fast";

/// The name of Monte Carlo tree search among the presets of [`PlayerOptions::preset`].
pub const MCTS: &str = "mcts";

/// The fast search's forward pruning when a player does not say: the level that played
/// strongest at 100 ms per move in `prune lab probcut` (docs/lab/probcut).
pub const DEFAULT_SELECTIVITY: Selectivity = Selectivity::Sigma(2.0);

/// The playouts of an MCTS move that has no time limit (a fixed-depth budget).
pub const MCTS_DEFAULT_PLAYOUTS: u64 = 20_000;

/// The fast midgame search's table, in MiB (as the `full` preset's).
const FAST_TT_MIB: usize = 64;

/// Which midgame search a player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidgameEngine {
    /// Othello's own fast search ([`MidgameSearch`]).
    Fast,
    /// The generic search of `prune-search` with [`PlayerOptions::config`].
    Generic,
    /// Monte Carlo tree search ([`PlayerOptions::mcts`]; threads from
    /// [`PlayerOptions::parallel`], cut-off playouts scored by [`PlayerOptions::eval`]).
    Mcts,
}

/// How the engine player searches.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerOptions {
    /// The name shown in results.
    pub name: String,
    /// The midgame search.
    pub engine: MidgameEngine,
    /// The generic midgame search's configuration (iterative deepening is turned on when a
    /// move has a time limit); unused by the fast search.
    pub config: SearchConfig,
    /// Threads and scheme of the midgame search and the endgame solver.
    pub parallel: Parallel,
    /// Whether to switch to an exact endgame solve when the budget allows it.
    pub endgame: bool,
    /// The endgame solver's table, in MiB.
    pub solve_tt_mib: usize,
    /// The evaluation of the midgame search (and of the solver's move-ordering pass).
    pub eval: OthelloEval,
    /// The fast midgame search's forward pruning (ProbCut; by default off).
    pub selectivity: Selectivity,
    /// ProbCut's parameters (`None`: the built-in ones).
    pub probcut: Option<Arc<ProbCutParams>>,
    /// Monte Carlo tree search's configuration (its `threads` are taken from `parallel`).
    pub mcts: MctsConfig,
    /// Monte Carlo tree search's playouts per move (`None`: as many as the move's time
    /// allows, or [`MCTS_DEFAULT_PLAYOUTS`] without a time).
    pub mcts_playouts: Option<u64>,
}

impl PlayerOptions {
    /// The options of the preset `name` with `algorithm`, on one thread, with endgame solving:
    /// [`FAST`] (`fast`) is Othello's fast midgame search (NegaScout; `algorithm` is not used),
    /// [`MCTS`] (`mcts`) Monte Carlo tree search with the default [`MctsConfig`] (random
    /// playouts, MCTS-Solver), any other name a preset of the generic search (see
    /// [`prune_search::PRESETS`]).
    pub fn preset(name: &str, algorithm: Algorithm) -> Result<PlayerOptions, ConfigError> {
        let engine = if name.trim().eq_ignore_ascii_case(FAST) {
            MidgameEngine::Fast
        } else if name.trim().eq_ignore_ascii_case(MCTS) {
            MidgameEngine::Mcts
        } else {
            MidgameEngine::Generic
        };
        // The fast search and MCTS keep the `full` preset's configuration, unused, so that the
        // options stay valid if the engine is switched.
        let (preset, algorithm) = if engine == MidgameEngine::Generic {
            let preset = Preset::find(name).map_err(|e| match e {
                ConfigError::Invalid(text) => {
                    ConfigError::Invalid(format!("{text}, or {FAST} or {MCTS}"))
                }
                e => e,
            })?;
            (preset, algorithm)
        } else {
            (Preset::find("full")?, Algorithm::NegaScout)
        };
        Ok(PlayerOptions {
            name: match engine {
                MidgameEngine::Fast => FAST,
                MidgameEngine::Mcts => MCTS,
                MidgameEngine::Generic => preset.name,
            }
            .to_string(),
            engine,
            config: preset.config(algorithm)?,
            parallel: Parallel::SEQUENTIAL,
            endgame: true,
            solve_tt_mib: 16,
            eval: OthelloEval::default(),
            selectivity: Selectivity::Off,
            probcut: None,
            mcts: MctsConfig::default(),
            mcts_playouts: None,
        })
    }
}

impl PlayerOptions {
    /// These options with Multi-ProbCut at `selectivity` (named in the player's name unless
    /// off): the fast search's, or the generic search's (`SearchConfig::probcut`, which cuts
    /// where the evaluation has a fit: the built-in trained weights); an error if the generic
    /// search's algorithm cannot prune forward.
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Result<Self, ConfigError> {
        let Selectivity::Sigma(t) = selectivity else {
            return Ok(self);
        };
        if self.engine == MidgameEngine::Mcts {
            return Err(ConfigError::Incoherent(
                "Monte Carlo tree search does not prune forward: drop the selectivity".into(),
            ));
        }
        if self.engine == MidgameEngine::Generic {
            self.config.probcut = Some(ProbCut {
                margin_tenths: (t * 10.0).round() as u32,
            });
            self.config.validate()?;
        }
        self.selectivity = selectivity;
        self.name = format!("{} (selectivity {selectivity})", self.name);
        Ok(self)
    }
}

/// The exact solve of this many empties takes about [`SOLVE_BASE`] on one thread here (the fast
/// solver: FFO #40, 20 empties, 1.1 s).
const SOLVE_BASE_EMPTIES: u32 = 20;
/// See [`SOLVE_BASE_EMPTIES`].
const SOLVE_BASE: Duration = Duration::from_millis(1200);
/// Each further empty square multiplies the time of an exact solve by about this much.
const SOLVE_GROWTH: f64 = 2.3;

/// The expected time of an exact solve of `empties` empties (a rough model, on the safe side).
pub fn expected_solve_time(empties: u32) -> Duration {
    let exponent = f64::from(empties) - f64::from(SOLVE_BASE_EMPTIES);
    SOLVE_BASE.mul_f64(SOLVE_GROWTH.powf(exponent).min(1e9))
}

/// The midgame search of a player.
enum Midgame {
    Fast(Box<MidgameSearch>),
    Generic(Box<Engine<Position>>),
    Mcts(Box<Mcts<Position>>),
}

/// prune's engine as a player: iterative deepening within the move's time, and an exact solve
/// of the endgame when the empties allow it.
pub struct EnginePlayer {
    options: PlayerOptions,
    midgame: Midgame,
    solver: EndgameSolver,
    eval: Ordered<OthelloEval>,
}

impl EnginePlayer {
    /// An engine player with `options`.
    pub fn new(mut options: PlayerOptions) -> Result<EnginePlayer, ConfigError> {
        options.config.validate()?;
        let mut solver = EndgameSolver::with_parallel(options.solve_tt_mib, options.parallel)?;
        solver.set_eval(options.eval.clone());
        // A move with a time limit needs iterative deepening; a depth-limited one is the same
        // search either way, so turn it on once.
        options.config.iterative_deepening = true;
        let midgame = match options.engine {
            MidgameEngine::Fast => {
                let mut search = MidgameSearch::new(FAST_TT_MIB).map_err(ConfigError::Memory)?;
                search.set_eval(options.eval.clone());
                search.set_threads(options.parallel.threads);
                if let Some(params) = &options.probcut {
                    search.set_probcut_params(params.clone());
                }
                search.set_selectivity(options.selectivity);
                Midgame::Fast(Box::new(search))
            }
            MidgameEngine::Generic => Midgame::Generic(Box::new(Engine::with_parallel(
                options.config,
                options.parallel,
            )?)),
            MidgameEngine::Mcts => Midgame::Mcts(Box::new(Mcts::new(MctsConfig {
                threads: options.parallel.threads,
                ..options.mcts
            })?)),
        };
        let eval = Ordered {
            eval: options.eval.clone(),
            ordering: StaticOrdering::default(),
        };
        Ok(EnginePlayer {
            options,
            midgame,
            solver,
            eval,
        })
    }

    /// The options.
    pub fn options(&self) -> &PlayerOptions {
        &self.options
    }

    /// The move for `position` (which must not be over) within `budget`.
    pub fn think(&mut self, position: &Position, budget: &Budget) -> Thought {
        let start = Instant::now();
        let moves = position.legal_moves();
        assert!(
            !moves.is_empty(),
            "think() needs a position that is not over"
        );
        if moves.len() == 1 {
            return Thought {
                mv: moves[0],
                eval: to_discs(self.eval_of(position)),
                exact: false,
                depth: 0,
                pv: vec![moves[0]],
                nodes: 0,
                time: start.elapsed(),
            };
        }
        let empties = position.empty_count();
        if self.options.endgame && self.may_solve(empties, budget) {
            if let Some(thought) = self.solve(position, budget.solve_time, start) {
                return thought;
            }
        }
        let time = budget.time.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(2))
        });
        let limits = SearchLimits {
            depth: budget
                .depth
                .or(if time.is_none() && budget.nodes.is_none() {
                    Some(8)
                } else {
                    None
                }),
            nodes: budget.nodes,
            time,
        };
        let r: SearchResult<Move> = match &mut self.midgame {
            Midgame::Fast(search) => search.search(position, &limits),
            Midgame::Generic(engine) => engine
                .search(position, &self.eval, &limits)
                .expect("the limits always have a depth or a time"),
            Midgame::Mcts(search) => {
                let limits = MctsLimits {
                    playouts: self.options.mcts_playouts.or(budget.nodes).or(match time {
                        Some(_) => None,
                        None => Some(MCTS_DEFAULT_PLAYOUTS),
                    }),
                    time,
                };
                let r = search.search(position, &self.eval, &limits, None);
                let mut thought = mcts_thought(&r, self.eval.win_scale(), moves[0], start);
                thought.eval = thought.eval.clamp(-64.0, 64.0);
                return thought;
            }
        };
        let mv = r.best_move.unwrap_or(moves[0]);
        Thought {
            mv,
            eval: to_discs(r.score),
            exact: r.exhausted,
            depth: r.depth,
            pv: crate::agents::line_from(mv, r.pv),
            nodes: r.stats.total.nodes,
            time: start.elapsed(),
        }
    }

    fn eval_of(&self, position: &Position) -> Score {
        self.eval.evaluate(position)
    }

    /// Whether an exact solve of `empties` empties fits `budget`.
    fn may_solve(&self, empties: u32, budget: &Budget) -> bool {
        match (budget.solve_empties, budget.solve_time) {
            (Some(max), _) => empties <= max,
            (None, Some(t)) => expected_solve_time(empties) * 2 <= t,
            (None, None) => false,
        }
    }

    /// An exact solve, given up after `limit` (then `None`).
    fn solve(
        &mut self,
        position: &Position,
        limit: Option<Duration>,
        start: Instant,
    ) -> Option<Thought> {
        let stop = AtomicBool::new(false);
        let (done, wait) = mpsc::channel::<()>();
        let r = std::thread::scope(|scope| {
            if let Some(limit) = limit {
                let stop = &stop;
                scope.spawn(move || {
                    if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                        stop.store(true, Relaxed);
                    }
                });
            }
            let r = self.solver.solve_until(position.board(), -64, 64, &stop);
            drop(done);
            r
        })?;
        let mv = r.best_move?;
        Some(Thought {
            mv,
            eval: f64::from(r.score),
            exact: true,
            depth: position.empty_count(),
            pv: vec![mv],
            nodes: r.counters.nodes,
            time: start.elapsed(),
        })
    }
}

/// A score in discs.
fn to_discs(score: Score) -> f64 {
    match score.margin() {
        Some(m) => f64::from(m),
        None => f64::from(score.raw()) / 100.0,
    }
}

impl Agent for EnginePlayer {
    fn name(&self) -> String {
        self.options.name.clone()
    }

    fn new_game(&mut self) {
        match &mut self.midgame {
            Midgame::Fast(search) => search.clear(),
            Midgame::Generic(engine) => engine.clear(),
            Midgame::Mcts(search) => search.clear(),
        }
        self.solver.clear();
    }

    fn choose(&mut self, game: &GameRecord, budget: &Budget) -> Result<Thought, AgentError> {
        Ok(self.think(game.current(), budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(preset: &str) -> EnginePlayer {
        EnginePlayer::new(PlayerOptions::preset(preset, Algorithm::NegaScout).unwrap()).unwrap()
    }

    #[test]
    fn the_solve_model_grows_with_the_empties() {
        assert!(expected_solve_time(10) < Duration::from_millis(1));
        assert!(expected_solve_time(20) > Duration::from_millis(500));
        assert!(expected_solve_time(60) > Duration::from_secs(3600));
    }

    #[test]
    fn a_short_endgame_is_solved_exactly() {
        // A game played with the first legal move each time, down to 12 empties and a
        // position with a choice.
        let mut game = GameRecord::default();
        while game.current().empty_count() > 12 || game.current().legal_moves().len() < 2 {
            let mv = game.current().legal_moves()[0];
            game.play(mv).unwrap();
        }
        let empties = game.current().empty_count();
        assert!((6..=12).contains(&empties), "{empties}");
        let mut p = player("plain");
        let t = p.think(game.current(), &Budget::time(Duration::from_secs(5)));
        assert!(t.exact, "{t:?}");
        assert_eq!(t.depth, empties);
        // The exact value agrees with the sequential solver.
        let mut solver = EndgameSolver::new(4);
        let r = solver.solve(game.current().board(), -64, 64);
        assert_eq!(t.eval, f64::from(r.score));
        assert!(game.current().is_legal(t.mv));
    }

    #[test]
    fn a_midgame_move_stops_in_time_and_is_legal() {
        let mut p = player("full");
        let t = p.think(&Position::START, &Budget::time(Duration::from_millis(100)));
        assert!(Position::START.is_legal(t.mv));
        assert!(!t.exact);
        assert!(t.depth >= 1);
        let d = p.think(&Position::START, &Budget::depth(3));
        assert_eq!(d.depth, 3);
    }

    #[test]
    fn the_fast_search_plays_the_full_presets_value_at_a_fixed_depth() {
        let mut fast = player(FAST);
        let mut full = player("full");
        let mut game = GameRecord::default();
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let a = fast.think(game.current(), &Budget::depth(6));
        let b = full.think(game.current(), &Budget::depth(6));
        assert_eq!((a.eval, a.depth), (b.eval, b.depth));
        assert!(game.current().is_legal(a.mv));
        let t = fast.think(game.current(), &Budget::time(Duration::from_millis(50)));
        assert!(game.current().is_legal(t.mv) && t.depth >= 1 && !t.exact);
    }

    #[test]
    fn an_mcts_player_moves_in_its_budget_and_proves_won_endgames() {
        let mut p = player(MCTS);
        assert_eq!(p.options().engine, MidgameEngine::Mcts);
        let t = p.think(&Position::START, &Budget::time(Duration::from_millis(50)));
        assert!(Position::START.is_legal(t.mv) && t.nodes > 0 && !t.exact);
        assert!(t.time < Duration::from_secs(1), "{t:?}");
        // Without a time, a fixed number of playouts.
        let d = p.think(&Position::START, &Budget::depth(4));
        assert_eq!(d.nodes, MCTS_DEFAULT_PLAYOUTS);
        // Without the exact solver, MCTS-Solver proves a short endgame: a proven win reads as
        // +64, a loss as -64, and the move keeps the result.
        let mut options = PlayerOptions::preset(MCTS, Algorithm::NegaScout).unwrap();
        options.endgame = false;
        options.mcts_playouts = Some(200_000);
        let mut p = EnginePlayer::new(options).unwrap();
        let mut game = GameRecord::default();
        while game.current().empty_count() > 9 || game.current().legal_moves().len() < 2 {
            let moves = game.current().legal_moves();
            game.play(moves[moves.len() / 2]).unwrap();
        }
        let exact = EndgameSolver::new(4)
            .solve(game.current().board(), -64, 64)
            .score;
        let t = p.think(game.current(), &Budget::depth(1));
        assert_eq!(t.eval, 64.0 * f64::from(exact.signum()), "{t:?}");
        let after = game.current().play_unchecked(t.mv);
        let reply = EndgameSolver::new(4).solve(after.board(), -64, 64).score;
        assert_eq!((-reply).signum(), exact.signum());
        assert!(PlayerOptions::preset(MCTS, Algorithm::NegaScout)
            .unwrap()
            .with_selectivity(Selectivity::Sigma(2.0))
            .is_err());
    }

    #[test]
    fn a_solve_that_cannot_finish_is_given_up() {
        let mut p = player("plain");
        let start = Instant::now();
        assert!(p
            .solve(&Position::START, Some(Duration::from_millis(20)), start)
            .is_none());
    }
}
