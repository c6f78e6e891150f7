//! Move order for the search: the killer moves and history a thread keeps
//! ([`Heuristics`]), the keys the staged picker sorts by (hash move, captures by MVV-LVA and
//! static exchange, killers, quiet moves by history and continuation history), the
//! [`Picker`] that generates and hands out a node's moves stage by stage, and the rewards and
//! maluses a cutoff hands out ([`Worker::reward_quiet`]).

use super::super::{EngineOptions, Stage, MAX_PLY};
use super::eval_cache::EvalCache;
use super::Worker;
use crate::eval::value;
use crate::position::{CheckInfo, Move, Position, Square};

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
/// known (it is worked out when the capture is about to be picked: [`Picker`]).
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

/// What keys a node's moves: the thread's heuristics and options, the node's ply and the
/// continuation indices of the two moves before it.
pub(super) struct Keys<'a> {
    pub(super) heur: &'a Heuristics,
    pub(super) options: &'a EngineOptions,
    pub(super) ply: usize,
    pub(super) before: [Option<usize>; 2],
}

impl Keys<'_> {
    /// A quiet move's key: its history and continuation history, where the options use them.
    fn quiet(&self, p: &Position, mv: Move) -> i32 {
        let mut h = if self.options.history {
            self.heur.history[history_index(p, mv)]
        } else {
            0
        };
        if self.options.continuation {
            let here = cont_index(p, mv);
            for before in self.before.into_iter().flatten() {
                h += self.heur.continuation[before * CONT + here];
            }
        }
        h
    }

    /// A move of the plain order: captures by MVV-LVA, then the rest as generated.
    fn plain(&self, p: &Position, mv: Move, index: usize) -> Keyed {
        if p.captured(mv).is_some() {
            Keyed::new(mv, Stage::GoodCapture, mvv_lva(p, mv), index)
        } else {
            Keyed::new(mv, Stage::Quiet, 0, index)
        }
    }

    /// The ply's killer moves, the first slot first.
    fn killers(&self) -> &[Move] {
        &self.heur.killers[self.ply]
    }
}

impl Worker<'_> {
    /// What keys the moves of the node at `ply`, the moves before it being `before`
    /// ([`Worker::before`], worked out once a node).
    pub(super) fn keys(&self, ply: usize, before: [Option<usize>; 2]) -> Keys<'_> {
        Keys {
            heur: self.heur,
            options: self.shared.options,
            ply,
            before,
        }
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

/// Where a [`Picker`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The table's move, if it is legal (nothing generated yet).
    Hash,
    /// The captures (or in the plain order every move) to generate.
    Generate,
    /// The captures, generated and keyed by MVV-LVA; the static exchange of each is worked out
    /// when it is about to be picked.
    Captures,
    /// The killer moves, each tested for legality.
    Killers,
    /// The quiet moves, generated and keyed by history when the search gets here.
    Quiets,
    /// The captures whose exchange loses.
    BadCaptures,
    /// The plain order: every move generated at once after the table's move.
    Plain,
    /// Nothing more.
    Done,
}

/// How many quiet moves are picked by selection before the rest are sorted at once.
const SELECTED: usize = 3;

/// A node's moves, one at a time in the staged picker's order, each stage generated or
/// keyed only when the search reaches it: the table's move needs no generation, a cutoff by a
/// capture or a killer saves generating and keying the quiet moves (most nodes cut off that
/// way). The order is exactly the one a sort of every move by [`Keyed`] would give (a test
/// says so), but for the history changing as the earlier moves are searched.
#[derive(Debug)]
pub(super) struct Picker {
    phase: Phase,
    hash: Option<Move>,
    excluded: Option<Move>,
    /// The generator's output.
    moves: Vec<Move>,
    /// The moves of the phase under way, `keyed[..next]` already picked.
    keyed: Vec<Keyed>,
    next: usize,
    /// The captures found bad on the way.
    bad: Vec<Keyed>,
    /// The next killer slot to look at.
    killer: usize,
    /// Moves handed out so far.
    picked: usize,
    /// Whether the quiet moves left were cut down to those that check.
    quiets_skipped: bool,
}

impl Default for Picker {
    fn default() -> Self {
        Picker {
            phase: Phase::Done,
            hash: None,
            excluded: None,
            moves: Vec::new(),
            keyed: Vec::new(),
            next: 0,
            bad: Vec::new(),
            killer: 0,
            picked: 0,
            quiets_skipped: false,
        }
    }
}

impl Picker {
    /// Starts on a node: `hash` is the table's move (legal or not), `excluded` a move never to
    /// hand out (the singular extension's search of the other moves).
    pub(super) fn start(&mut self, hash: Option<Move>, excluded: Option<Move>) {
        self.phase = Phase::Hash;
        self.hash = hash.filter(|&h| Some(h) != excluded);
        self.excluded = excluded;
        self.keyed.clear();
        self.next = 0;
        self.bad.clear();
        self.killer = 0;
        self.picked = 0;
        self.quiets_skipped = false;
    }

    /// Drops the quiet moves not yet handed out that do not check: the search prunes them
    /// all once it prunes one (move-count pruning and futility only grow stricter along the
    /// order), so they need neither sorting nor handing out. Only among the quiet moves;
    /// `checks` is the node's [`CheckInfo`] (`None`: no move checks).
    pub(super) fn skip_quiets(&mut self, checks: Option<&CheckInfo>) {
        if !matches!(self.phase, Phase::Quiets | Phase::Plain) || self.quiets_skipped {
            return;
        }
        self.quiets_skipped = true;
        let mut kept = self.next;
        for j in self.next..self.keyed.len() {
            let k = self.keyed[j];
            if checks.is_some_and(|c| c.gives_check(k.mv)) {
                self.keyed[kept] = k;
                kept += 1;
            }
        }
        self.keyed.truncate(kept);
    }

    /// The moves handed out so far.
    pub(super) fn picked(&self) -> usize {
        self.picked
    }

    /// Whether `mv` was handed out by an earlier phase or is left out.
    fn skipped(&self, mv: Move) -> bool {
        Some(mv) == self.hash || Some(mv) == self.excluded
    }

    /// The `phase`'s moves from the generator's output, keyed.
    fn key_moves(&mut self, keys: &Keys, p: &Position, phase: Phase) {
        self.keyed.clear();
        self.next = 0;
        let moves = std::mem::take(&mut self.moves);
        for (index, &mv) in moves.iter().enumerate() {
            if self.skipped(mv) {
                continue;
            }
            let keyed = match phase {
                Phase::Captures => Keyed::unchecked_capture(mv, mvv_lva(p, mv), index),
                Phase::Quiets => {
                    if keys.killers().contains(&mv) {
                        continue; // handed out as a killer
                    }
                    Keyed::new(mv, Stage::Quiet, keys.quiet(p, mv), index)
                }
                _ => keys.plain(p, mv, index),
            };
            self.keyed.push(keyed);
        }
        self.moves = moves;
    }

    /// The next move with its stage and key, or `None` when every move was handed out.
    pub(super) fn next(&mut self, keys: &Keys, p: &Position) -> Option<Keyed> {
        let k = self.next_move(keys, p)?;
        self.picked += 1;
        Some(k)
    }

    fn next_move(&mut self, keys: &Keys, p: &Position) -> Option<Keyed> {
        loop {
            match self.phase {
                Phase::Hash => {
                    self.phase = Phase::Generate;
                    if let Some(h) = self.hash {
                        if p.is_legal(h) {
                            return Some(Keyed::new(h, Stage::HashMove, 0, 0));
                        }
                        self.hash = None;
                    }
                }
                Phase::Generate => {
                    self.moves.clear();
                    if keys.options.staged {
                        p.legal_captures(&mut self.moves);
                        self.key_moves(keys, p, Phase::Captures);
                        self.phase = Phase::Captures;
                    } else {
                        p.generate_legal(&mut self.moves);
                        self.key_moves(keys, p, Phase::Plain);
                        self.phase = Phase::Plain;
                    }
                }
                Phase::Captures => {
                    while self.next < self.keyed.len() {
                        let best = self.next + position_of_least(&self.keyed[self.next..]);
                        if self.keyed[best].settle(p) {
                            self.keyed.swap(self.next, best);
                            self.next += 1;
                            return Some(self.keyed[self.next - 1]);
                        }
                        let bad = self.keyed.swap_remove(best);
                        self.bad.push(bad);
                    }
                    self.phase = Phase::Killers;
                }
                Phase::Killers => {
                    let killers = keys.killers();
                    while let Some(&k) = killers.get(self.killer) {
                        let slot = self.killer;
                        self.killer += 1;
                        if !self.skipped(k)
                            && !killers[..slot].contains(&k)
                            && p.captured(k).is_none()
                            && p.is_legal(k)
                        {
                            return Some(Keyed::new(k, Stage::Killer, -(slot as i32), 0));
                        }
                    }
                    self.moves.clear();
                    p.legal_quiets(&mut self.moves);
                    self.key_moves(keys, p, Phase::Quiets);
                    self.phase = Phase::Quiets;
                }
                Phase::Quiets | Phase::Plain => {
                    if self.next < SELECTED {
                        if self.next < self.keyed.len() {
                            let best = self.next + position_of_least(&self.keyed[self.next..]);
                            self.keyed.swap(self.next, best);
                        }
                    } else if self.next == SELECTED {
                        self.keyed[SELECTED..].sort_unstable_by_key(|k| k.order);
                    }
                    if let Some(&k) = self.keyed.get(self.next) {
                        self.next += 1;
                        return Some(k);
                    }
                    if self.phase == Phase::Plain {
                        self.phase = Phase::Done;
                        continue;
                    }
                    self.bad.sort_unstable_by_key(|k| k.order);
                    std::mem::swap(&mut self.keyed, &mut self.bad);
                    self.next = 0;
                    self.phase = Phase::BadCaptures;
                }
                Phase::BadCaptures => {
                    if let Some(&k) = self.keyed.get(self.next) {
                        self.next += 1;
                        return Some(k);
                    }
                    self.phase = Phase::Done;
                }
                Phase::Done => return None,
            }
        }
    }
}

/// Where the least [`Keyed`] of a non-empty slice lies.
fn position_of_least(keyed: &[Keyed]) -> usize {
    let mut best = 0;
    for (j, k) in keyed.iter().enumerate().skip(1) {
        if k.order < keyed[best].order {
            best = j;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (SplitMix64).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Every legal move keyed at once (each capture's exchange worked out first) and sorted:
    /// the order the staged picker must give.
    fn sorted(keys: &Keys, p: &Position, hash: Option<Move>, excluded: Option<Move>) -> Vec<Keyed> {
        let mut keyed: Vec<Keyed> = p
            .legal_moves()
            .into_iter()
            .enumerate()
            .filter(|&(_, mv)| Some(mv) != excluded)
            .map(|(index, mv)| {
                if Some(mv) == hash {
                    Keyed::new(mv, Stage::HashMove, 0, index)
                } else if !keys.options.staged {
                    keys.plain(p, mv, index)
                } else if p.captured(mv).is_some() {
                    let stage = if good_capture(p, mv) {
                        Stage::GoodCapture
                    } else {
                        Stage::BadCapture
                    };
                    Keyed::new(mv, stage, mvv_lva(p, mv), index)
                } else if let Some(slot) = keys.killers().iter().position(|&k| k == mv) {
                    Keyed::new(mv, Stage::Killer, -(slot as i32), index)
                } else {
                    Keyed::new(mv, Stage::Quiet, keys.quiet(p, mv), index)
                }
            })
            .collect();
        keyed.sort_by_key(|k| k.order);
        keyed
    }

    /// Along random games, with random killers (legal or not here, captures or not), history
    /// and table moves (legal or not), the picker hands out every legal move once, in the
    /// sorted order, in the staged and in the plain order; after [`Picker::skip_quiets`], the
    /// same less the quiet moves that do not check.
    #[test]
    fn the_picker_gives_the_order_of_a_full_sort() {
        let mut rng = Rng(49);
        let mut options = EngineOptions {
            continuation: true,
            ..EngineOptions::default()
        };
        let mut heur = Heuristics::default();
        for h in heur.history.iter_mut().chain(heur.continuation.iter_mut()) {
            *h = rng.below(2_001) as i32 - 1_000;
        }
        let mut picker = Picker::default();
        let (mut nodes, mut tried_bad, mut killed, mut skips) = (0, 0, 0, 0);
        for _game in 0..8 {
            let mut p = Position::start();
            let mut previous = p.legal_moves();
            for _ply in 0..150 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Killers and the table's move from this position or the one before.
                let any = |rng: &mut Rng| {
                    let from = if rng.below(2) == 0 { &moves } else { &previous };
                    from[rng.below(from.len())]
                };
                heur.killers[3] = (0..rng.below(4)).map(|_| any(&mut rng)).collect();
                let hash = (rng.below(4) > 0).then(|| any(&mut rng));
                let excluded = (rng.below(8) == 0).then(|| any(&mut rng));
                for staged in [true, false] {
                    options.staged = staged;
                    let keys = Keys {
                        heur: &heur,
                        options: &options,
                        ply: 3,
                        before: [Some(rng.below(CONT)), None],
                    };
                    picker.start(hash, excluded);
                    let expected = sorted(&keys, &p, hash, excluded);
                    // Now and then the search prunes a quiet move (the `skip`-th move handed
                    // out): the quiet moves after it that do not check are dropped.
                    let skip = (rng.below(2) == 0).then(|| rng.below(expected.len() + 1));
                    let checks = p.check_info();
                    let checks = |mv| checks.as_ref().is_some_and(|c| c.gives_check(mv));
                    let mut got = Vec::new();
                    let mut skipped_at = None;
                    while let Some(k) = picker.next(&keys, &p) {
                        tried_bad += usize::from(k.stage() == Stage::BadCapture);
                        killed += usize::from(k.stage() == Stage::Killer);
                        got.push(k.mv);
                        if Some(got.len()) == skip && k.stage() == Stage::Quiet {
                            picker.skip_quiets(p.check_info().as_ref());
                            skipped_at = Some(got.len());
                        }
                    }
                    assert_eq!(picker.picked(), got.len());
                    let expected: Vec<Move> = expected
                        .iter()
                        .enumerate()
                        .filter(|&(i, k)| {
                            skipped_at.is_none_or(|at| i < at)
                                || k.stage() != Stage::Quiet
                                || checks(k.mv)
                        })
                        .map(|(_, k)| k.mv)
                        .collect();
                    skips += usize::from(skipped_at.is_some());
                    assert_eq!(got, expected, "{p} staged {staged} skip {skipped_at:?}");
                    nodes += 1;
                }
                previous = moves.clone();
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(
            nodes > 1_000 && tried_bad > 100 && killed > 100 && skips > 100,
            "{nodes} {tried_bad} {killed} {skips}"
        );
    }
}
