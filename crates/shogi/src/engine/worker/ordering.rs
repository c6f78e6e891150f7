//! Move order for the search: the killer moves and history a thread keeps
//! ([`Heuristics`]), the keys the staged picker sorts by (hash move, captures by MVV-LVA and
//! static exchange, killers, quiet moves by history and continuation history), the lazy
//! selection that puts the next move in place ([`pick`]), and the rewards and maluses a
//! cutoff hands out ([`Worker::reward_quiet`]).

use super::super::{Stage, MAX_PLY};
use super::eval_cache::EvalCache;
use super::Worker;
use crate::eval::value;
use crate::position::{Move, Position, Square};

/// What a thread learns about move order and keeps from one search to the next.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Heuristics {
    killers: Vec<Vec<Move>>,
    /// By piece index (kind and color) or drop, and target square.
    history: Vec<i32>,
    /// Continuation history: by the move one or two plies before (the piece it left on its
    /// square: [`CONT`] indices) and this move (the same), the cutoffs this move made after
    /// that one.
    continuation: Vec<i32>,
    /// Static evaluations already computed (kept from one search to the next).
    pub(in crate::engine) evals: EvalCache,
}

/// Moves as the continuation history tells them apart: the piece's kind after the move (a
/// drop's kind) and the target square; the colour follows from the ply.
const CONT: usize = 14 * 81;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: vec![Vec::new(); MAX_PLY],
            history: vec![0; 2 * 28 * 81],
            continuation: vec![0; CONT * CONT],
            evals: EvalCache::default(),
        }
    }
}

impl Heuristics {
    /// Before a search: no killers (they belonged to other plies of another root), history
    /// aged (halved: the last move's search, two plies earlier in the same game, still knows
    /// much about this one's quiet moves).
    pub(in crate::engine) fn new_search(&mut self) {
        self.killers.iter_mut().for_each(Vec::clear);
        for h in &mut self.history {
            *h /= 2;
        }
        for h in &mut self.continuation {
            *h /= 8;
        }
    }
}

/// A move with its place in the picker's order, packed in one word so that ordering is a
/// comparison of integers: from the high bits down, the stage, the key within the stage
/// (higher first), the move's index in generation order (so that equal keys keep it, and
/// no two moves compare equal), and a flag for a capture whose static exchange is not yet
/// known (it is worked out when the capture is about to be picked: [`pick`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Keyed {
    order: u64,
    /// The move.
    pub(super) mv: Move,
}

/// Where the fields lie in [`Keyed::order`].
const STAGE_SHIFT: u32 = 43;
const KEY_SHIFT: u32 = 11;
const INDEX_SHIFT: u32 = 1;
const UNCHECKED: u64 = 1;

impl Keyed {
    /// `mv`, the `index`-th move generated, in `stage` with `key`.
    pub(super) fn new(mv: Move, stage: Stage, key: i32, index: usize) -> Keyed {
        // The key's order reversed (a higher key first), as an unsigned number.
        let key_bits = u64::from(!((key as u32) ^ 0x8000_0000));
        let index = (index as u64).min((1 << (KEY_SHIFT - INDEX_SHIFT)) - 1);
        Keyed {
            order: (stage as u64) << STAGE_SHIFT | key_bits << KEY_SHIFT | index << INDEX_SHIFT,
            mv,
        }
    }

    /// A capture keyed by MVV-LVA among the good captures until its static exchange says
    /// whether it belongs there or with the bad ones.
    fn unchecked_capture(mv: Move, key: i32, index: usize) -> Keyed {
        let mut k = Keyed::new(mv, Stage::GoodCapture, key, index);
        k.order |= UNCHECKED;
        k
    }

    /// The move's stage.
    pub(super) fn stage(self) -> Stage {
        Stage::ALL[(self.order >> STAGE_SHIFT) as usize]
    }

    /// The move's key within its stage.
    pub(super) fn key(self) -> i32 {
        (!((self.order >> KEY_SHIFT) as u32) ^ 0x8000_0000) as i32
    }

    /// Settles an unchecked capture by its static exchange: good, or moved to the bad
    /// captures (same key, same index). Whether it stays where it is.
    fn settle(&mut self, p: &Position) -> bool {
        if self.order & UNCHECKED == 0 {
            return true;
        }
        self.order &= !UNCHECKED;
        if good_capture(p, self.mv) {
            return true;
        }
        let below = self.order & ((1 << STAGE_SHIFT) - 1);
        self.order = (Stage::BadCapture as u64) << STAGE_SHIFT | below;
        false
    }
}

/// The most a history entry holds (either sign).
const HISTORY_MAX: i32 = 16_384;

/// A history entry moved by `bonus` (a malus when negative) with "gravity": the nearer the
/// entry is to [`HISTORY_MAX`] in the bonus's direction, the less it moves, so entries stay in
/// range and old results fade as new ones come.
pub(super) fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// The history bonus of a move that cut off at `depth` (and the malus of those tried
/// before it).
pub(super) fn history_bonus(depth: i32) -> i32 {
    (300 * depth - 250).clamp(50, 1_500)
}

/// How a move is kept in the history table: the moving piece (or the dropped kind) and the
/// target square.
pub(super) fn history_index(p: &Position, mv: Move) -> usize {
    match mv {
        Move::Normal { from, to, .. } => {
            let piece = p.piece(from).expect("a move starts from a piece");
            (piece.color as usize * 14 + piece.kind as usize) * 81 + to.0 as usize
        }
        Move::Drop { kind, to } => {
            (28 + p.side_to_move() as usize * 14 + kind as usize) * 81 + to.0 as usize
        }
    }
}

/// How a move is kept in the continuation history: the kind it leaves on the target square
/// (promoted if it promotes), and that square.
pub(super) fn cont_index(p: &Position, mv: Move) -> usize {
    let to = match mv {
        Move::Normal { to, .. } | Move::Drop { to, .. } => to,
    };
    p.placed(mv) as usize * 81 + to.0 as usize
}

/// Puts the move to search `i`-th in place, as a sort by the picker's order would (the
/// earlier stage first, then the higher key, then the earlier generated): the first few by
/// selection (most nodes cut off after one or two moves), the rest by one sort when the
/// search gets that far. A capture's static exchange is worked out only when it would be
/// picked (or before that sort): a bad one goes to the bad captures and the selection goes on.
pub(super) fn pick(p: &Position, moves: &mut [Keyed], i: usize) {
    const SELECTED: usize = 3;
    if i < SELECTED {
        loop {
            let mut best = i;
            for j in i + 1..moves.len() {
                if moves[j].order < moves[best].order {
                    best = j;
                }
            }
            if moves[best].settle(p) {
                // A rotation, not a swap: the others keep their places (which only the
                // generation index would tell apart anyway).
                moves[i..=best].rotate_right(1);
                return;
            }
        }
    } else if i == SELECTED {
        for k in &mut moves[i..] {
            k.settle(p);
        }
        moves[i..].sort_unstable_by_key(|k| k.order);
    }
}

/// The square a move goes to.
pub(super) fn target(mv: Move) -> Square {
    match mv {
        Move::Normal { to, .. } | Move::Drop { to, .. } => to,
    }
}

pub(super) fn mvv_lva(p: &Position, mv: Move) -> i32 {
    let victim = p.captured(mv).map_or(0, |q| value(q.kind));
    let attacker = match mv {
        Move::Normal { from, .. } => p.piece(from).map_or(0, |q| value(q.kind)),
        Move::Drop { .. } => 0,
    };
    victim * 16 - attacker / 16
}

/// Whether a capture keeps its material: its static exchange evaluation
/// ([`Position::see`]) loses nothing.
pub(super) fn good_capture(p: &Position, mv: Move) -> bool {
    p.see(mv) >= 0
}

impl Worker<'_> {
    /// The moves of `p` with their stages and keys, unordered: [`pick`] orders them as the
    /// search goes.
    pub(super) fn ordered(
        &self,
        p: &Position,
        moves: &[Move],
        hash: Option<Move>,
        ply: usize,
        keyed: &mut Vec<Keyed>,
    ) {
        keyed.clear();
        keyed.extend(moves.iter().enumerate().map(|(index, &mv)| {
            if Some(mv) == hash {
                return Keyed::new(mv, Stage::HashMove, 0, index);
            }
            let capture = p.captured(mv).is_some();
            if !self.shared.options.staged {
                return if capture {
                    Keyed::new(mv, Stage::GoodCapture, mvv_lva(p, mv), index)
                } else {
                    Keyed::new(mv, Stage::Quiet, 0, index)
                };
            }
            if capture {
                return Keyed::unchecked_capture(mv, mvv_lva(p, mv), index);
            }
            if let Some(slot) = self.heur.killers[ply].iter().position(|&k| k == mv) {
                return Keyed::new(mv, Stage::Killer, -(slot as i32), index);
            }
            let mut h = if self.shared.options.history {
                self.heur.history[history_index(p, mv)]
            } else {
                0
            };
            if self.shared.options.continuation {
                let here = cont_index(p, mv);
                for before in self.before(ply).into_iter().flatten() {
                    h += self.heur.continuation[before * CONT + here];
                }
            }
            Keyed::new(mv, Stage::Quiet, h, index)
        }));
    }

    /// A quiet move `mv` cut off at `depth`: it becomes the ply's first killer, and its
    /// history (and continuation history) gains what those of the quiet moves tried before it
    /// (`tried`) lose.
    pub(super) fn reward_quiet(
        &mut self,
        p: &Position,
        mv: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        if !self.shared.options.staged {
            return;
        }
        let slots = self.shared.options.killers;
        if slots > 0 {
            let k = &mut self.heur.killers[ply];
            if let Some(i) = k.iter().position(|&m| m == mv) {
                k.remove(i);
            }
            k.insert(0, mv);
            k.truncate(slots);
        }
        let bonus = history_bonus(depth);
        let before = self.before(ply);
        for (m, b) in std::iter::once((mv, bonus)).chain(tried.iter().map(|&m| (m, -bonus))) {
            if self.shared.options.history {
                gravity(&mut self.heur.history[history_index(p, m)], b);
            }
            if self.shared.options.continuation {
                let here = cont_index(p, m);
                for prev in before.into_iter().flatten() {
                    gravity(&mut self.heur.continuation[prev * CONT + here], b);
                }
            }
        }
    }

    /// The continuation indices of the moves one and two plies before `ply` (those played).
    pub(super) fn before(&self, ply: usize) -> [Option<usize>; 2] {
        [1, 2].map(|back| ply.checked_sub(back).and_then(|i| self.moved[i]))
    }
}
