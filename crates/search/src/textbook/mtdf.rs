//! MTD(f) of Plaat, Schaeffer, Pijls and de Bruin: the value found by a sequence of
//! null-window alpha-beta searches with memory, each moving a lower or an upper bound on the
//! value, starting from a guess.

use std::collections::HashMap;

use super::{Found, Walk};
use crate::{Bound, Evaluator, Game, Score};

/// The depth of an entry whose search met no horizon: its bounds hold at every depth.
const EVERY_DEPTH: u32 = u32::MAX;

/// What the memory knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry<M> {
    /// The depth searched below the position ([`EVERY_DEPTH`] if the search reached the end
    /// of the game everywhere).
    depth: u32,
    /// The value (at that depth) is at least this...
    lower: Score,
    /// ...and at most this.
    upper: Score,
    /// The move that gave the last value stored, tried first next time.
    best_move: Option<M>,
}

/// The memory of [`mtdf`]: for each position (by [`Game::hash`]), bounds on its value at the
/// depth it was searched, and the best move found there.
///
/// A bound proved without meeting the horizon (every leaf below was the end of the game, or
/// a stored bound of that kind) holds at every depth, and is kept as such: the memory counts
/// the leaves cut off by the horizon to tell. A result of one depth does not replace one of a
/// greater depth (or of every depth); results of the same depth add up.
#[derive(Clone, Debug)]
pub struct Memory<M> {
    entries: HashMap<u64, Entry<M>>,
    /// How many leaves the horizon has cut off so far.
    horizon_leaves: u64,
}

impl<M> Default for Memory<M> {
    fn default() -> Self {
        Memory {
            entries: HashMap::new(),
            horizon_leaves: 0,
        }
    }
}

impl<M: Copy> Memory<M> {
    /// An empty memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The hashes of the positions it holds, in no particular order.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.keys().copied()
    }

    /// Notes a leaf cut off by the horizon.
    fn met_horizon(&mut self) {
        self.horizon_leaves += 1;
    }

    /// The mark to hand to [`Memory::store`] after searching a node: the horizon leaves so far.
    fn mark(&self) -> u64 {
        self.horizon_leaves
    }

    /// The value that the stored bounds of the position `hash` settle for a search `depth`
    /// deep with the window `(alpha, beta)`: a lower bound at or above `beta`, an upper bound
    /// at or below `alpha`, or bounds that meet. Such a value counts as a horizon leaf unless
    /// it holds at every depth.
    fn settled(&mut self, hash: u64, depth: u32, alpha: Score, beta: Score) -> Option<Score> {
        let e = self.entries.get(&hash).filter(|e| e.depth >= depth)?;
        let value = if e.lower >= beta {
            e.lower
        } else if e.upper <= alpha {
            e.upper
        } else if e.lower == e.upper {
            e.lower
        } else {
            return None;
        };
        if e.depth != EVERY_DEPTH {
            self.met_horizon();
        }
        Some(value)
    }

    /// The best move stored for the position `hash`, if any.
    fn best_move(&self, hash: u64) -> Option<M> {
        self.entries.get(&hash).and_then(|e| e.best_move)
    }

    /// Stores what a search `depth` deep with the window `(alpha, beta)` found: a fail-soft
    /// value at or below `alpha` is an upper bound, at or above `beta` a lower bound, and
    /// between them exact. Bounds of the same depth add up (both bounds of two null-window
    /// searches are kept); a deeper entry is kept over a shallower result. `mark` is
    /// [`Memory::mark`] from before the search: if no horizon leaf was met since, the result
    /// holds at every depth.
    fn store(&mut self, hash: u64, depth: u32, window: (Score, Score), found: Found<M>, mark: u64) {
        let depth = if self.horizon_leaves == mark {
            EVERY_DEPTH
        } else {
            depth
        };
        let (alpha, beta) = window;
        let value = found.value;
        let (lower, upper) = match Bound::classify(value, alpha, beta) {
            Bound::Upper => (-Score::INFINITY, value),
            Bound::Lower => (value, Score::INFINITY),
            Bound::Exact => (value, value),
        };
        let fresh = Entry {
            depth,
            lower,
            upper,
            best_move: found.best_move,
        };
        let entry = self.entries.entry(hash).or_insert(fresh);
        if entry.depth == depth {
            entry.lower = entry.lower.max(lower);
            entry.upper = entry.upper.min(upper);
            entry.best_move = found.best_move.or(entry.best_move);
        } else if entry.depth > depth {
            entry.best_move = entry.best_move.or(found.best_move);
        } else {
            *entry = fresh;
        }
    }
}

/// The value of `game` searched `depth` plies deep, found from the first guess `guess`
/// (usually the previous iteration's value, or the static evaluation), and a best move:
/// the root move of the last search that raised the lower bound.
///
/// Plaat, Schaeffer, Pijls and de Bruin (1996) showed that a search with the null window
/// `(beta - 1, beta)` is a test, like Pearl's, that answers "value >= beta?" with a bound:
/// failing high, it returns a lower bound; failing low, an upper bound. MTD(f) moves `beta`
/// to the last bound found until the two bounds meet. Each pass searches the tree again, so
/// the searches keep a memory of the bounds they proved ([`Memory`]): a later pass takes the
/// stored bounds where they settle a node, and tries the stored best move first elsewhere.
///
/// `memory` is normally empty. Kept from an earlier search of the same game (as iterative
/// deepening keeps it), it may hold bounds on the root proved for every depth, which settle
/// the root without a search: the value is still right, but the move returned may be `None`.
pub fn mtdf<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    guess: Score,
    memory: &mut Memory<G::Move>,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    let mut g = guess;
    let mut lower = -Score::INFINITY;
    let mut upper = Score::INFINITY;
    let mut best_move = None;
    while lower < upper {
        let beta = if g == lower { g.next() } else { g };
        let found = alpha_beta_with_memory(game, depth, beta.prev(), beta, memory, walk);
        g = found.value;
        if g < beta {
            upper = g;
        } else {
            lower = g;
            best_move = found.best_move;
        }
    }
    Found {
        value: g,
        best_move,
    }
}

/// Fail-soft alpha-beta ([`alpha_beta_soft`](super::alpha_beta_soft)) that first asks the
/// memory whether the node is settled, searches the stored best move first, and stores what
/// it found. (From an empty memory the root is never settled: its stored bounds are at most
/// those MTD(f) keeps, and its window always lies strictly between them.)
fn alpha_beta_with_memory<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    alpha: Score,
    beta: Score,
    memory: &mut Memory<G::Move>,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    walk.enter(depth, Some((alpha, beta)));
    if let Some(value) = game.outcome() {
        return Found::leaf(value);
    }
    if depth == 0 {
        memory.met_horizon();
        return Found::leaf(walk.evaluate(game));
    }
    let hash = game.hash();
    if let Some(value) = memory.settled(hash, depth, alpha, beta) {
        return Found::leaf(value);
    }
    let mark = memory.mark();
    // The move found best here before goes first; the others keep their order.
    let mut moves = game.legal_moves();
    if let Some(i) = moves
        .iter()
        .position(|&m| Some(m) == memory.best_move(hash))
    {
        moves[..=i].rotate_right(1);
    }
    let mut best = Found::leaf(-Score::INFINITY);
    let mut a = alpha;
    for mv in moves {
        let child = walk.play(game, mv);
        let v = -alpha_beta_with_memory(&child, depth - 1, -beta, -a, memory, walk).value;
        if v > best.value {
            best = Found {
                value: v,
                best_move: Some(mv),
            };
        }
        if v >= beta {
            break;
        }
        a = a.max(v);
    }
    memory.store(hash, depth, (alpha, beta), best, mark);
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: i32) -> Score {
        Score::heuristic(v)
    }

    fn found(value: Score, mv: u8) -> Found<u8> {
        Found {
            value,
            best_move: Some(mv),
        }
    }

    #[test]
    fn two_null_window_results_of_one_depth_add_up_to_both_bounds() {
        let mut memory = Memory::new();
        memory.met_horizon();
        memory.store(7, 3, (s(4), s(5)), found(s(6), 1), 0);
        memory.store(7, 3, (s(8), s(9)), found(s(8), 2), 0);
        let e = memory.entries[&7];
        assert_eq!(
            (e.depth, e.lower, e.upper, e.best_move),
            (3, s(6), s(8), Some(2))
        );
        assert_eq!(
            memory.settled(7, 3, s(8), s(9)),
            Some(s(8)),
            "fails low at once"
        );
        assert_eq!(memory.settled(7, 3, s(6), s(7)), None, "inside the bounds");
        assert_eq!(memory.settled(7, 4, s(8), s(9)), None, "too shallow");
    }

    #[test]
    fn a_result_that_met_no_horizon_holds_at_every_depth_and_stays() {
        let mut memory = Memory::new();
        memory.store(7, 2, (s(0), s(1)), found(s(3), 1), memory.mark());
        assert_eq!(memory.settled(7, 40, s(2), s(3)), Some(s(3)));
        // A later result that met the horizon does not replace it, but a move is kept.
        let mark = memory.mark();
        memory.met_horizon();
        memory.store(7, 2, (s(5), s(6)), found(s(5), 2), mark);
        let e = memory.entries[&7];
        assert_eq!(
            (e.depth, e.lower, e.upper, e.best_move),
            (EVERY_DEPTH, s(3), Score::INFINITY, Some(1))
        );
        // Settling by a bound of one depth counts as meeting the horizon; of every depth not.
        let before = memory.mark();
        assert!(memory.settled(7, 2, s(1), s(2)).is_some());
        assert_eq!(memory.mark(), before);
    }
}
