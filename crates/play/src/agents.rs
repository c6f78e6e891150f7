//! The agents every game has: any preset of the generic search ([`SearchAgent`]) and Monte
//! Carlo tree search ([`MctsAgent`]), each with the game's evaluation; and the spec a door
//! gives to have one made ([`AgentSpec`], read by [`crate::Playable::agent`]).

use std::any::Any;
use std::time::Instant;

use prune_othello::midgame::Selectivity;
use prune_registry::{GameVisitor, RegisteredGame, Setup};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, MctsResult};
use prune_search::{Algorithm, Engine, Evaluator, Game, Parallel, Preset, Score};
use prune_search::{SearchLimits, SearchResult};

use crate::player::MCTS_DEFAULT_PLAYOUTS;
use crate::{Agent, AgentError, Budget, GameRecord, Thought, FAST, MCTS};

/// What a door asks of one player, the same for every game: the game's own engine (`fast`),
/// Monte Carlo tree search (`mcts`) or a preset of the generic search, with its evaluation,
/// threads and options. [`crate::Playable::agent`] makes the player, or says why it cannot.
#[derive(Clone, Debug)]
pub struct AgentSpec {
    /// `fast`, `mcts`, or a preset's name (a shogi engine preset for shogi).
    pub preset: String,
    /// The generic search's algorithm.
    pub algorithm: Algorithm,
    /// The evaluation by the registry's name (`None`: the game's default).
    pub eval: Option<String>,
    /// Forward pruning by ProbCut (Othello's players only; `None`: the player's default,
    /// [`crate::DEFAULT_SELECTIVITY`] for Othello's fast search, else off).
    pub selectivity: Option<Selectivity>,
    /// Threads and scheme.
    pub parallel: Parallel,
    /// Monte Carlo tree search's configuration (threads taken from `parallel`).
    pub mcts: MctsConfig,
    /// MCTS's playouts per move (`None`: the budget's nodes or time, else
    /// [`MCTS_DEFAULT_PLAYOUTS`]).
    pub mcts_playouts: Option<u64>,
}

impl AgentSpec {
    /// The spec of `preset` with NegaScout, the default evaluation, on one thread.
    pub fn new(preset: &str) -> AgentSpec {
        AgentSpec {
            preset: preset.trim().to_string(),
            algorithm: Algorithm::NegaScout,
            eval: None,
            selectivity: None,
            parallel: Parallel::SEQUENTIAL,
            mcts: MctsConfig::default(),
            mcts_playouts: None,
        }
    }

    /// Whether the spec asks for the game's own engine (`fast`).
    pub fn is_fast(&self) -> bool {
        self.preset.eq_ignore_ascii_case(FAST)
    }

    /// Whether the spec asks for Monte Carlo tree search.
    pub fn is_mcts(&self) -> bool {
        self.preset.eq_ignore_ascii_case(MCTS)
    }

    /// The player's name: the preset's, with a non-default evaluation in brackets.
    pub fn name_with_eval(&self, name: &str, default_eval: &str) -> String {
        match self.eval.as_deref().map(str::trim) {
            Some(e) if !e.is_empty() && !e.eq_ignore_ascii_case(default_eval) => {
                format!("{name} ({e})")
            }
            _ => name.to_string(),
        }
    }

    /// The refusal of a selectivity by a game without ProbCut players.
    pub(crate) fn refuse_selectivity<G: RegisteredGame>(&self) -> Result<(), String> {
        match self.selectivity {
            None | Some(Selectivity::Off) => Ok(()),
            _ => Err(format!(
                "a selectivity is for Othello's players (ProbCut), not {}'s",
                G::NAME
            )),
        }
    }
}

/// The generic agent `spec` names for game `G`, with the evaluation its name asks for: MCTS
/// for `mcts`, else the generic search's preset. The registry's visitor hands the evaluation
/// over as a type; the agent comes back boxed for `G`.
pub fn generic_agent<G: RegisteredGame>(
    start: G,
    spec: &AgentSpec,
) -> Result<Box<dyn Agent<G>>, String> {
    spec.refuse_selectivity::<G>()?;
    let setup = Setup {
        eval: spec.eval.as_deref(),
        ..Setup::default()
    };
    let made = start
        .visit(&setup, Build { spec })
        .map_err(|e| e.to_string())??;
    // The visitor's game type is `G` itself (it visited `start`), so this always succeeds.
    made.downcast::<Box<dyn Agent<G>>>()
        .map(|agent| *agent)
        .map_err(|_| "the registry handed over another game".to_string())
}

/// Builds the agent once the evaluation is a type.
struct Build<'a> {
    spec: &'a AgentSpec,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Box<dyn Any>, String>;

    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        _game: G,
        eval: E,
    ) -> Self::Output {
        let spec = self.spec;
        let agent: Box<dyn Agent<G>> = if spec.is_mcts() {
            Box::new(MctsAgent::new(spec, eval)?)
        } else {
            Box::new(SearchAgent::new(spec, eval)?)
        };
        Ok(Box::new(agent))
    }
}

/// The expected line of a search that chose `mv`: its principal variation when that starts
/// with `mv`, else `mv` alone.
pub(crate) fn line_from<M: PartialEq>(mv: M, pv: Vec<M>) -> Vec<M> {
    if pv.first() == Some(&mv) {
        pv
    } else {
        vec![mv]
    }
}

/// A score as a number in the game's unit: a proven result's margin, else the evaluation.
pub(crate) fn score_value(score: Score) -> f64 {
    match score.margin() {
        Some(m) => f64::from(m),
        None => f64::from(score.raw()),
    }
}

/// Any preset of the generic search as a player: iterative deepening to the budget's depth,
/// nodes or time (the game's default depth when the budget has none).
pub struct SearchAgent<G: Game, E> {
    name: String,
    engine: Engine<G>,
    eval: E,
}

impl<G: RegisteredGame, E: Evaluator<G>> SearchAgent<G, E> {
    /// The player of `spec`'s preset and algorithm, with `eval`.
    pub fn new(spec: &AgentSpec, eval: E) -> Result<Self, String> {
        let preset = Preset::find(&spec.preset).map_err(|e| format!("{e}, {FAST} or {MCTS}"))?;
        let mut config = preset
            .config(spec.algorithm)
            .map_err(|e| format!("{}: {e}", preset.name))?;
        config.iterative_deepening = true;
        let engine = Engine::with_parallel(config, spec.parallel)
            .map_err(|e| format!("{}: {e}", preset.name))?;
        let default_eval = prune_registry::info(G::NAME).map_or("", |i| i.evals[0].name);
        Ok(SearchAgent {
            name: spec.name_with_eval(preset.name, default_eval),
            engine,
            eval,
        })
    }
}

impl<G: RegisteredGame, E: Evaluator<G>> Agent<G> for SearchAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(
        &mut self,
        game: &GameRecord<G>,
        budget: &Budget,
    ) -> Result<Thought<G::Move>, AgentError> {
        let start = Instant::now();
        let position = game.current();
        let limits = SearchLimits {
            depth: budget.depth.or_else(|| {
                (budget.time.is_none() && budget.nodes.is_none()).then(|| position.default_depth())
            }),
            nodes: budget.nodes,
            time: budget.time,
        };
        let r: SearchResult<G::Move> = self
            .engine
            .search(position, &self.eval, &limits)
            .map_err(|e| AgentError(format!("{}: {e}", self.name)))?;
        let mv = match r.best_move {
            Some(mv) => mv,
            None => first_move(position)?,
        };
        Ok(Thought {
            mv,
            eval: score_value(r.score),
            exact: r.exhausted || r.score.is_decisive(),
            depth: r.depth,
            pv: crate::agents::line_from(mv, r.pv),
            nodes: r.stats.total.nodes,
            time: start.elapsed(),
        })
    }
}

/// The first legal move, for an engine that found none to prefer.
fn first_move<G: Game>(position: &G) -> Result<G::Move, AgentError> {
    position
        .legal_moves()
        .first()
        .copied()
        .ok_or_else(|| AgentError("asked for a move in a finished game".into()))
}

/// Monte Carlo tree search as a player: the spec's playouts, else the budget's nodes or time,
/// else [`MCTS_DEFAULT_PLAYOUTS`].
pub struct MctsAgent<G: Game, E> {
    mcts: Mcts<G>,
    eval: E,
    playouts: Option<u64>,
}

impl<G: RegisteredGame, E: Evaluator<G>> MctsAgent<G, E> {
    /// The player of `spec`'s MCTS configuration (its threads), with `eval` for cut-off
    /// playouts.
    pub fn new(spec: &AgentSpec, eval: E) -> Result<Self, String> {
        let config = MctsConfig {
            threads: spec.parallel.threads,
            ..spec.mcts
        };
        Ok(MctsAgent {
            mcts: Mcts::new(config).map_err(|e| format!("{MCTS}: {e}"))?,
            eval,
            playouts: spec.mcts_playouts,
        })
    }
}

impl<G: RegisteredGame, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn name(&self) -> String {
        MCTS.into()
    }

    fn new_game(&mut self) {
        self.mcts.clear();
    }

    fn choose(
        &mut self,
        game: &GameRecord<G>,
        budget: &Budget,
    ) -> Result<Thought<G::Move>, AgentError> {
        let start = Instant::now();
        let limits = MctsLimits {
            playouts: self.playouts.or(budget.nodes).or(match budget.time {
                Some(_) => None,
                None => Some(MCTS_DEFAULT_PLAYOUTS),
            }),
            time: budget.time,
        };
        let position = game.current();
        let r = self.mcts.search(position, &self.eval, &limits, None);
        let fallback = first_move(position)?;
        Ok(mcts_thought(&r, self.eval.win_scale(), fallback, start))
    }
}

/// An MCTS search's move: its value is the win rate read back into the evaluation's unit
/// through `win_scale` (see [`Evaluator::win_scale`]), its depth the longest path walked, its
/// nodes the playouts.
pub(crate) fn mcts_thought<M: Copy + PartialEq>(
    r: &MctsResult<M>,
    win_scale: f64,
    fallback: M,
    start: Instant,
) -> Thought<M> {
    let p = r.value.clamp(1e-9, 1.0 - 1e-9);
    let value = win_scale / 100.0 * (p / (1.0 - p)).ln();
    let mv = r.best_move.unwrap_or(fallback);
    Thought {
        mv,
        eval: value,
        exact: false,
        depth: r.max_depth,
        pv: crate::agents::line_from(mv, r.pv.clone()),
        nodes: r.playouts,
        time: start.elapsed(),
    }
}
