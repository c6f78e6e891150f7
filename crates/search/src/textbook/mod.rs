//! The algorithms of the alpha-beta family as the papers state them, one file each, over the
//! [`Game`] and [`Evaluator`] traits alone: no move ordering, no table (but MTD(f)'s memory),
//! no limits, no statistics beyond a node count.
//!
//! The engine ([`crate::search`], [`crate::Engine`]) runs the same algorithms with every
//! enhancement a search needs in practice, hooked around each node. These forms are the
//! reference to read first, and a test (`tests/textbook.rs`) checks on thousands of trees that
//! the engine, with every enhancement off, visits the same nodes in the same order and returns
//! the same value.
//!
//! * [`minimax()`]: the two-function form, `max_value` and `min_value`;
//! * [`negamax()`]: one function, negating the children's values;
//! * [`alpha_beta()`] (fail-hard) and [`alpha_beta_soft()`] (fail-soft): Knuth and Moore's
//!   alpha-beta in negamax form;
//! * [`scout()`]: Pearl's EVAL and TEST;
//! * [`negascout()`]: Reinefeld's NegaScout;
//! * [`mtdf()`]: MTD(f) of Plaat et al., null-window alpha-beta with a [`Memory`].
//!
//! Every function searches `depth` plies deep: a position at depth 0 gets the evaluator's
//! value, a finished game its [`Game::outcome`]. Values are from the side to move's point of
//! view, except inside minimax, which works from the root player's.
//!
//! # Where the engine differs
//!
//! Only in MTD(f)'s memory, and only in what it forgets. Both keep, for each position, bounds
//! at the depth searched, and keep a bound proved from game ends alone as valid at every depth
//! (see [`Memory`]). But the engine's table has a fixed size, one entry per slot: where two
//! positions share a slot, it forgets bounds that [`Memory`], a hash map, keeps, and its
//! search parts from this one (the value stays the same). With a table large enough that no
//! stored position loses its slot, the two walk the same nodes.
//!
//! # Watching a search
//!
//! Each node begins with one call to [`Walk::enter`], and each child is reached through
//! [`Walk::play`]; a [`Walk`] counts the nodes and tells its visitor, if it has one, of each
//! node entered ([`Visit`]), in order:
//!
//! ```
//! use prune_search::textbook::{alpha_beta, Visit, Walk};
//! use prune_search::{Evaluator, Game, Score};
//!
//! /// Take 1 or 2 from a pile; whoever takes the last stone wins.
//! #[derive(Clone)]
//! struct Pile(u32);
//! impl Game for Pile {
//!     type Move = u32;
//!     fn generate_moves(&self, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&n| n <= self.0));
//!     }
//!     fn play(&self, n: u32) -> Pile { Pile(self.0 - n) }
//!     fn outcome(&self) -> Option<Score> { (self.0 == 0).then_some(Score::LOSS) }
//!     fn hash(&self) -> u64 { u64::from(self.0) }
//! }
//! struct Zero;
//! impl Evaluator<Pile> for Zero {
//!     fn evaluate(&self, _: &Pile) -> Score { Score::DRAW }
//! }
//!
//! let mut seen = Vec::new();
//! let mut record = |v: &Visit<u32>| seen.push((v.ply, v.mv));
//! let mut walk = Walk::new(&Zero).with_visitor(&mut record);
//! let found = alpha_beta(&Pile(4), 6, -Score::INFINITY, Score::INFINITY, &mut walk);
//! assert_eq!(found.value, Score::WIN);
//! assert_eq!(found.best_move, Some(1)); // leave a multiple of 3
//! let nodes = walk.nodes();
//! assert_eq!(seen.len() as u64, nodes);
//! assert_eq!(seen[..3], [(0, None), (1, Some(1)), (2, Some(1))]);
//! ```

mod alpha_beta;
mod minimax;
mod mtdf;
mod negamax;
mod negascout;
mod scout;

pub use alpha_beta::{alpha_beta, alpha_beta_soft};
pub use minimax::minimax;
pub use mtdf::{mtdf, Memory};
pub use negamax::negamax;
pub use negascout::negascout;
pub use scout::{scout, test, Inequality};

use crate::{Evaluator, Game, Score};

/// A node's value and the move that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<M> {
    /// The value, from the side to move's point of view (minimax: the root player's).
    pub value: Score,
    /// The move that reaches `value` (`None` at a leaf).
    pub best_move: Option<M>,
}

impl<M> Found<M> {
    /// A leaf's value: no move.
    pub fn leaf(value: Score) -> Self {
        Found {
            value,
            best_move: None,
        }
    }
}

/// A node as a textbook search enters it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit<M> {
    /// Its distance from the root of the search (0 at the root).
    pub ply: usize,
    /// The move that leads to it from its parent (`None` at the root).
    pub mv: Option<M>,
    /// The plies left to search below it.
    pub depth: u32,
    /// The window `(alpha, beta)` it is searched with, from its side to move's point of view;
    /// `None` for the algorithms that search without one (minimax, negamax, Scout's EVAL).
    /// Scout's TEST of "value > v" stands for the null window `(v, v + 1)`, of "value >= v"
    /// for `(v - 1, v)`.
    pub window: Option<(Score, Score)>,
}

/// A function told of each node a search enters.
pub type Visitor<'a, M> = dyn FnMut(&Visit<M>) + 'a;

/// What a search carries from node to node: the evaluator, the node count, and an optional
/// visitor told of every node entered.
pub struct Walk<'a, G: Game, E> {
    eval: &'a E,
    nodes: u64,
    visitor: Option<&'a mut Visitor<'a, G::Move>>,
    /// The move [`Walk::play`] made last, not yet reported by [`Walk::enter`].
    edge: Option<G::Move>,
    /// The depth of the root of the current search (each [`Walk::enter`] without an edge is
    /// a root).
    root_depth: u32,
}

impl<'a, G: Game, E: Evaluator<G>> Walk<'a, G, E> {
    /// A walk with `eval` at the horizon and no visitor.
    pub fn new(eval: &'a E) -> Self {
        Walk {
            eval,
            nodes: 0,
            visitor: None,
            edge: None,
            root_depth: 0,
        }
    }

    /// The same walk, telling `visitor` of every node entered, in order.
    pub fn with_visitor(mut self, visitor: &'a mut Visitor<'a, G::Move>) -> Self {
        self.visitor = Some(visitor);
        self
    }

    /// How many nodes were entered so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The static evaluation of `game` (a position at the horizon).
    pub fn evaluate(&self, game: &G) -> Score {
        self.eval.evaluate(game)
    }

    /// The child of `game` after `mv`; the next node entered is that child.
    pub fn play(&mut self, game: &G, mv: G::Move) -> G {
        self.edge = Some(mv);
        game.play(mv)
    }

    /// Enters a node with `depth` plies left, searched with `window` (if the algorithm has
    /// one): counts it and tells the visitor. A node not reached through [`Walk::play`] is the
    /// root of a new search.
    pub fn enter(&mut self, depth: u32, window: Option<(Score, Score)>) {
        self.nodes += 1;
        let mv = self.edge.take();
        if mv.is_none() {
            self.root_depth = depth;
        }
        if let Some(visitor) = self.visitor.as_mut() {
            visitor(&Visit {
                ply: (self.root_depth - depth) as usize,
                mv,
                depth,
                window,
            });
        }
    }
}
