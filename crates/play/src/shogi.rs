//! Shogi's player ([`ShogiPlayer`]): the engine of `prune usi` under the play layer's budget,
//! with the game's history for the repetition rule.

use std::time::Instant;

use prune_shogi::engine::{Engine, EngineOptions, EvalKind, Limits, MATE_BOUND};
use prune_shogi::{Move, Position};

use crate::agents::AgentSpec;
use crate::{Agent, AgentError, Budget, GameRecord, Thought};

/// The shogi engine as a player: a preset of its own (`fast` is `full`), its evaluation by
/// name, its threads (Lazy SMP).
pub struct ShogiPlayer {
    name: String,
    engine: Engine,
}

impl ShogiPlayer {
    /// The player `spec` names: one of [`EngineOptions::PRESETS`] or `fast`.
    pub fn new(spec: &AgentSpec) -> Result<ShogiPlayer, String> {
        let preset = if spec.is_fast() {
            "full"
        } else {
            spec.preset.as_str()
        };
        let mut options = EngineOptions::preset(&preset.to_ascii_lowercase()).ok_or_else(|| {
            format!(
                "a shogi player is one of {}, fast or mcts, got '{}'",
                EngineOptions::PRESETS.join(", "),
                spec.preset
            )
        })?;
        if let Some(name) = spec.eval.as_deref().map(str::trim) {
            options.eval = EvalKind::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
                format!(
                    "unknown evaluation '{name}' of shogi (expected {})",
                    EvalKind::NAMES.join(", ")
                )
            })?;
        }
        options.threads = spec.parallel.threads.max(1);
        Ok(ShogiPlayer {
            name: spec.name_with_eval(&preset.to_ascii_lowercase(), EvalKind::default().name()),
            engine: Engine::new(options),
        })
    }
}

impl Agent<Position> for ShogiPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    /// The budget's time is a hard limit; no new iteration starts after half of it.
    fn choose(
        &mut self,
        game: &GameRecord<Position>,
        budget: &Budget,
    ) -> Result<Thought<Move>, AgentError> {
        let start = Instant::now();
        let positions = game.positions();
        let history: Vec<(u64, bool)> = positions[..positions.len() - 1]
            .iter()
            .map(|p| (p.key(), p.in_check()))
            .collect();
        let limits = Limits {
            depth: budget.depth,
            nodes: budget.nodes,
            hard_time: budget.time,
            soft_time: budget.time.map(|t| t / 2),
        };
        let r = self
            .engine
            .search(game.current(), &history, limits, &mut |_| {});
        let mv = r
            .best
            .ok_or_else(|| AgentError("asked for a move in a finished game".into()))?;
        Ok(Thought {
            mv,
            eval: f64::from(r.score),
            exact: r.score.abs() >= MATE_BOUND,
            depth: r.depth,
            pv: if r.pv.first() == Some(&mv) {
                r.pv
            } else {
                vec![mv]
            },
            nodes: r.nodes,
            time: start.elapsed(),
        })
    }
}
