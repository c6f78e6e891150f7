//! The rules of a game ([`Game`]) and the engine's knowledge about it ([`Evaluator`]),
//! kept apart so that one game can be searched with many evaluations.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::{MoveBits, Score};

/// A two-player, zero-sum game of perfect information, seen from the side to move.
///
/// Contract every implementation keeps (the algorithms rely on it):
///
/// * every move, a pass included, hands the turn to the opponent, so scores can be negated
///   from one ply to the next (negamax);
/// * where the rules let a player pass (Othello), [`Game::generate_moves`] yields the pass as
///   the only move when the side to move has no other move and the game is not over;
/// * a position is terminal exactly when [`Game::outcome`] is `Some`, and then it has no moves;
///   a position that is not terminal has at least one move;
/// * [`Game::hash`] depends on the position only (not on the path to it), and equal positions
///   have equal hashes, so a transposition table may key on it.
pub trait Game: Clone + Send + Sync {
    /// A move, or a pass where the rules have one.
    /// It has a 32-bit form ([`MoveBits`]) so that a table shared between threads can store it.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + MoveBits + 'static;

    /// Appends the legal moves of the side to move to `moves` (which the caller has cleared).
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, which must be legal here (copy-make).
    fn play(&self, mv: Self::Move) -> Self;

    /// The final result from the side to move's point of view if the game is over.
    fn outcome(&self) -> Option<Score>;

    /// A 64-bit hash of the position (side to move included).
    fn hash(&self) -> u64;

    /// Whether `mv` is a pass. The default says no move is.
    fn is_pass(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Whether `mv` is "tactical": a move the staged move picker tries before the killers and
    /// never records as one (captures in chess; corners in Othello). The default says none is.
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// The position after the side to move passes, for null-move pruning
    /// ([`NullMove`](crate::NullMove)): the same position with the opponent to move (and a
    /// different [`Game::hash`]). `None` (the default): the game forbids null moves, and a
    /// search configured with them is refused. A game that allows them returns `Some` in every
    /// position that is not terminal (the search asks [`Game::in_check`] first, and never
    /// passes in check).
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// Whether the side to move is in check (its king attacked): the selective search never
    /// prunes or reduces there nor passes, and the check extension searches a move that gives
    /// check one ply deeper. The default says never.
    fn in_check(&self) -> bool {
        false
    }

    /// The static exchange evaluation of `mv`: the material the side to move wins (positive)
    /// or loses (negative) by the exchange of captures `mv` starts on its target square, in
    /// the game's own units of material; for static-exchange pruning
    /// ([`Selective::see_pruning`](crate::Selective::see_pruning)), which reads only its sign.
    /// `None` (the default): the game has none; a game has it for every move or for none.
    fn see(&self, mv: Self::Move) -> Option<i32> {
        let _ = mv;
        None
    }

    /// How many distinct values [`Game::move_index`] takes (0 when the game has no index).
    const MOVE_INDICES: usize = 0;

    /// A small index for `mv`, below [`Game::MOVE_INDICES`], for tables indexed by move (the
    /// history heuristic). Games without one (the default) get a hash map instead.
    fn move_index(mv: Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }

    /// The legal moves as a new vector (a convenience for callers off the hot path).
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Whether `mv` is legal in this position.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }
}

/// A static evaluation: how good a non-terminal position is for the side to move.
///
/// Values must be heuristic scores ([`Score::heuristic`]); proven results come only from
/// [`Game::outcome`].
pub trait Evaluator<G: Game>: Send + Sync {
    /// The heuristic value of `game` for the side to move.
    fn evaluate(&self, game: &G) -> Score;

    /// Sorts `moves` (the legal moves of `game`) most promising first, from static knowledge
    /// of the game. Used when the configuration asks for static ordering
    /// ([`SearchConfig::static_ordering`](crate::SearchConfig::static_ordering)); the default
    /// leaves the generator's order.
    fn order_moves(&self, game: &G, moves: &mut [G::Move]) {
        let _ = (game, moves);
    }

    /// Multi-ProbCut's fitted relation between a search of `game` `depth` plies deep and a
    /// shallower one, measured for this evaluation (see [`ProbCutFit`]); `None` (the default):
    /// no forward pruning at this node, whatever
    /// [`SearchConfig::probcut`](crate::SearchConfig::probcut) asks.
    fn probcut(&self, game: &G, depth: u32) -> Option<ProbCutFit> {
        let _ = (game, depth);
        None
    }

    /// The evaluation's scale as a chance of winning: a value `v` means the side to move wins
    /// with a probability of about `1 / (1 + e^(−v / scale))` (so `scale` is the value of a
    /// 73% chance). Monte Carlo tree search reads evaluations this way when its playouts are
    /// cut off ([`crate::mcts::Playout::Cutoff`]). The default, 100, suits values in hundredths
    /// of a unit of score.
    fn win_scale(&self) -> f64 {
        100.0
    }
}

/// What ProbCut knows of a node: a search `shallow` plies deep predicts the deep one as
/// `a · v_shallow + b`, with an error of standard deviation `sigma` (all in the evaluation's
/// units). Fitted by measurement (for Othello, by `prune lab probcut`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutFit {
    /// The shallow search's depth (less than the node's).
    pub shallow: u32,
    /// The slope.
    pub a: f64,
    /// The intercept.
    pub b: f64,
    /// The deviation of the error.
    pub sigma: f64,
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    fn evaluate(&self, game: &G) -> Score {
        (**self).evaluate(game)
    }

    fn order_moves(&self, game: &G, moves: &mut [G::Move]) {
        (**self).order_moves(game, moves)
    }

    fn probcut(&self, game: &G, depth: u32) -> Option<ProbCutFit> {
        (**self).probcut(game, depth)
    }

    fn win_scale(&self) -> f64 {
        (**self).win_scale()
    }
}

/// Counts the leaves of the game tree `depth` plies deep (a pass is a ply; a game that ends
/// earlier counts as one leaf). The standard check of a move generator against published counts.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    fn walk<G: Game>(game: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
        if depth == 0 || game.outcome().is_some() {
            return 1;
        }
        let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
        moves.clear();
        game.generate_moves(moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for &mv in moves.iter() {
            total += walk(&game.play(mv), depth - 1, rest);
        }
        total
    }
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    walk(game, depth, &mut buffers)
}
