//! Shogi's player ([`ShogiPlayer`]): the engine of `prune usi` under the play layer's budget,
//! with the game's history for the repetition rule.

use std::time::Instant;

use prune_shogi::engine::{Engine, EngineOptions, EvalKind, Limits, MATE_BOUND};
use prune_shogi::{Color, Move, Position};

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

    /// The budget's time is a hard limit; on a clock that keeps what a move saves, no new
    /// iteration starts after half of it (time per move and byoyomi are used to the end, as
    /// `prune usi` uses byoyomi).
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
            soft_time: budget
                .time
                .map(|t| if budget.time_carries { t / 2 } else { t }),
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
            pv: crate::agents::line_from(mv, r.pv),
            nodes: r.nodes,
            time: start.elapsed(),
        })
    }
}

/// The board as a shogi player reads it: file 9 on the left, rank a at the top, White's pieces
/// in lower case, promoted ones with `+`; the hands below and above.
pub fn board_text(p: &Position) -> String {
    let hand = |c: Color| {
        let held: Vec<String> = prune_shogi::Kind::HAND
            .iter()
            .rev()
            .filter_map(|&k| {
                let n = p.in_hand(c, k);
                let letter = k.letter();
                (n > 0).then(|| {
                    if n > 1 {
                        format!("{letter}{n}")
                    } else {
                        letter.to_string()
                    }
                })
            })
            .collect();
        if held.is_empty() {
            "-".to_string()
        } else {
            held.join(" ")
        }
    };
    let mut text = format!("white (gote) in hand: {}\n", hand(Color::White));
    text += "   9  8  7  6  5  4  3  2  1\n";
    for rank in 0..9u8 {
        text += "  ";
        for file in (1..=9u8).rev() {
            let square = prune_shogi::Square::new(file, rank).expect("on the board");
            let cell = match p.piece(square) {
                None => " . ".to_string(),
                Some(piece) => {
                    let base = piece.kind.unpromoted();
                    let letter = base.letter();
                    let letter = if piece.color == Color::White {
                        letter.to_ascii_lowercase()
                    } else {
                        letter
                    };
                    let mark = if base == piece.kind { ' ' } else { '+' };
                    format!("{mark}{letter} ")
                }
            };
            text += &cell;
        }
        text.push((b'a' + rank) as char);
        text.push('\n');
    }
    text += &format!("black (sente) in hand: {}\n", hand(Color::Black));
    text
}
