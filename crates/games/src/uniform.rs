//! Uniform synthetic trees: every interior node has `width` children and every leaf lies at
//! `depth`, with values drawn from a seed and the best child placed where the ordering says.
//!
//! The tree is generated top-down and lazily, so that any node can be produced without
//! building the rest and trees of millions of leaves cost nothing to store.
//!
//! * [`ChildOrder::Perfect`] and [`ChildOrder::Random`]: from each node's own negamax value. A
//!   node of value `v` gives its best child the value `-v` (so the best move reaches exactly
//!   `v`) and every other child a value `-v + d` with `d >= 1` (strictly worse for the side to
//!   move); the best child comes first (perfect), at a random place (random), or first with a
//!   given probability and else at a random place ([`ChildOrder::BestFirst`]). A leaf's value
//!   is its node value. This draws the same kind of tree as "random leaves, then sort the
//!   children".
//! * [`ChildOrder::Worst`]: from nested intervals. A node owns an interval of values (from its
//!   side to move's view) and splits it into `width` disjoint parts, giving the lowest to its
//!   first child and the highest to its last: every subtree is entirely better, for the side to
//!   move, than every subtree before it. Then no bound inherited from any ancestor ever cuts
//!   anything off, and alpha-beta must evaluate all `w^d` leaves. This needs `w^d` distinct
//!   values, so it holds for trees of up to about 450,000 leaves; larger worst-ordered trees
//!   share values between leaves and may allow a few cutoffs.

use std::fmt;
use std::str::FromStr;

use crate::SpecError;

use prune_search::{Evaluator, Game, Score};
use serde::{Deserialize, Serialize};

use crate::mix::{draw, mix};

/// Where the best child stands among its siblings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChildOrder {
    /// Best child first.
    Perfect,
    /// Children from worst to best.
    Worst,
    /// Best child anywhere.
    Random,
    /// Best child first with probability `percent`% (at most 100), else anywhere: ordering
    /// between perfect (100) and random (0), written `75%`.
    BestFirst(u8),
}

impl FromStr for ChildOrder {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s {
            "perfect" | "best" => Ok(ChildOrder::Perfect),
            "worst" => Ok(ChildOrder::Worst),
            "random" => Ok(ChildOrder::Random),
            _ => match s.strip_suffix('%').map(str::parse::<u8>) {
                Some(Ok(p)) if p <= 100 => Ok(ChildOrder::BestFirst(p)),
                _ => Err(SpecError::Invalid(format!(
                    "unknown order '{s}' (expected perfect, worst, random or a percentage \
                     such as 75%: how often the best child comes first)"
                ))),
            },
        }
    }
}

impl fmt::Display for ChildOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChildOrder::Perfect => f.write_str("perfect"),
            ChildOrder::Worst => f.write_str("worst"),
            ChildOrder::Random => f.write_str("random"),
            ChildOrder::BestFirst(p) => write!(f, "{p}%"),
        }
    }
}

/// The shape of a uniform tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UniformTree {
    /// Children per interior node (at least 1).
    pub width: u32,
    /// Depth of every leaf.
    pub depth: u32,
    /// Where the best child stands.
    pub order: ChildOrder,
    /// Seed of the values.
    pub seed: u64,
}

/// The largest step between sibling values.
const STEP: i32 = 8;

/// The width of the interval a worst-ordered tree's root spreads over.
const WORST_SPAN: i64 = 1_800_000;

impl UniformTree {
    /// The root of the tree.
    pub fn root(&self) -> UniformNode {
        let leaves = (u64::from(self.width).saturating_pow(self.depth)).max(1);
        let span = (leaves.saturating_mul(4)).min(WORST_SPAN as u64) as i32;
        UniformNode {
            tree: *self,
            ply: 0,
            id: mix(self.seed, 0x5eed),
            value: match self.order {
                ChildOrder::Worst => -span / 2,
                _ => draw(mix(self.seed, 1), -50, 50),
            },
            span,
        }
    }

    /// The Knuth–Moore minimal tree's number of leaves, `w^ceil(d/2) + w^floor(d/2) - 1`:
    /// what alpha-beta evaluates on a perfectly ordered tree.
    pub fn minimal_leaves(&self) -> u64 {
        let w = u64::from(self.width);
        w.pow(self.depth.div_ceil(2)) + w.pow(self.depth / 2) - 1
    }

    /// Every leaf: `w^d`.
    pub fn all_leaves(&self) -> u64 {
        u64::from(self.width).pow(self.depth)
    }
}

/// A node of a [`UniformTree`]; the move is the child's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UniformNode {
    tree: UniformTree,
    ply: u32,
    id: u64,
    /// Perfect and random orders: the negamax value of this node for its side to move.
    /// Worst order: the low end of this node's interval of values.
    value: i32,
    /// Worst order: the width of this node's interval.
    span: i32,
}

impl UniformNode {
    /// Plies from this node to the leaves.
    pub fn plies_left(&self) -> u32 {
        self.tree.depth - self.ply
    }

    /// The exact negamax value of this node (known from the construction, without search).
    pub fn true_value(&self) -> Score {
        match self.tree.order {
            ChildOrder::Worst => {
                // The last child is always the best: follow it down and undo the negations.
                let mut node = *self;
                let mut sign = 1;
                while node.ply < self.tree.depth {
                    node = node.play(self.tree.width - 1);
                    sign = -sign;
                }
                Score::heuristic(sign * node.leaf_value())
            }
            _ => Score::heuristic(self.value),
        }
    }

    fn leaf_value(&self) -> i32 {
        match self.tree.order {
            ChildOrder::Worst => self.value + draw(mix(self.id, 0x1EAF), 0, self.span.max(1) - 1),
            _ => self.value,
        }
    }

    /// The middle of what this node can be worth: what an evaluation tries to estimate.
    fn estimate(&self) -> i32 {
        match self.tree.order {
            ChildOrder::Worst => self.value + self.span / 2,
            _ => self.value,
        }
    }

    /// The distance from the root.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    fn best_index(&self) -> u32 {
        let w = self.tree.width;
        match self.tree.order {
            ChildOrder::Perfect => 0,
            ChildOrder::Worst => w - 1,
            ChildOrder::Random => (mix(self.id, 0xB35) % u64::from(w)) as u32,
            ChildOrder::BestFirst(p) => {
                if draw(mix(self.id, 0xF125), 0, 99) < i32::from(p) {
                    0
                } else {
                    (mix(self.id, 0xB35) % u64::from(w)) as u32
                }
            }
        }
    }

    /// How much worse than the best child child `i` is for the side to move (0 for the best).
    fn penalty(&self, i: u32) -> i32 {
        if i == self.best_index() {
            0
        } else {
            draw(mix(self.id, u64::from(i) + 17), 1, STEP)
        }
    }
}

impl Game for UniformNode {
    type Move = u32;

    fn generate_moves(&self, moves: &mut Vec<u32>) {
        if self.ply < self.tree.depth {
            moves.extend(0..self.tree.width);
        }
    }

    fn play(&self, i: u32) -> Self {
        let (value, span) = match self.tree.order {
            ChildOrder::Worst => {
                // Child i owns part i of this node's interval (from this node's view), which
                // is the negated interval from the child's view.
                let part = (self.span / self.tree.width as i32).max(1);
                let low = self.value + i as i32 * part;
                (-(low + part - 1), part)
            }
            _ => (-self.value + self.penalty(i), 0),
        };
        UniformNode {
            tree: self.tree,
            ply: self.ply + 1,
            id: mix(self.id, u64::from(i)),
            value,
            span,
        }
    }

    fn outcome(&self) -> Option<Score> {
        (self.ply >= self.tree.depth).then(|| Score::heuristic(self.leaf_value()))
    }

    fn hash(&self) -> u64 {
        self.id
    }

    fn is_legal(&self, i: u32) -> bool {
        self.ply < self.tree.depth && i < self.tree.width
    }
}

/// An evaluation of interior nodes of synthetic trees: the node's true value blurred by
/// seeded noise of up to `±noise`, as a real evaluation is an imperfect estimate.
#[derive(Clone, Copy, Debug)]
pub struct NoisyEval {
    /// The largest error.
    pub noise: i32,
}

impl Default for NoisyEval {
    fn default() -> Self {
        NoisyEval { noise: 2 * STEP }
    }
}

impl Evaluator<UniformNode> for NoisyEval {
    fn evaluate(&self, node: &UniformNode) -> Score {
        Score::heuristic(node.estimate() + draw(mix(node.id, 0xE7A1), -self.noise, self.noise))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain negamax over the generated tree.
    fn negamax(n: &UniformNode) -> i32 {
        match n.outcome() {
            Some(s) => s.raw(),
            None => n
                .legal_moves()
                .iter()
                .map(|&m| -negamax(&n.play(m)))
                .max()
                .unwrap(),
        }
    }

    #[test]
    fn node_values_are_the_negamax_values() {
        for order in [
            ChildOrder::Perfect,
            ChildOrder::Worst,
            ChildOrder::Random,
            ChildOrder::BestFirst(60),
        ] {
            for seed in 0..20 {
                let tree = UniformTree {
                    width: 3,
                    depth: 4,
                    order,
                    seed,
                };
                let root = tree.root();
                assert_eq!(
                    negamax(&root),
                    root.true_value().raw(),
                    "{order} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn the_order_places_the_best_child() {
        let tree = |order| UniformTree {
            width: 4,
            depth: 3,
            order,
            seed: 9,
        };
        let child_values = |t: UniformTree| -> Vec<i32> {
            let r = t.root();
            (0..4).map(|i| -negamax(&r.play(i))).collect()
        };
        let perfect = child_values(tree(ChildOrder::Perfect));
        assert!(perfect[1..].iter().all(|&v| v < perfect[0]), "{perfect:?}");
        let worst = child_values(tree(ChildOrder::Worst));
        assert!(worst.windows(2).all(|p| p[0] < p[1]), "{worst:?}");
        assert_eq!(child_values(tree(ChildOrder::BestFirst(100))), perfect);
    }

    /// How often the best child of a node comes first, over many nodes.
    fn best_first_share(order: ChildOrder) -> f64 {
        let tree = UniformTree {
            width: 5,
            depth: 6,
            order,
            seed: 3,
        };
        let mut first = 0;
        let mut nodes = 0;
        let mut node = tree.root();
        for step in 0..2000u32 {
            first += u32::from(node.best_index() == 0);
            nodes += 1;
            node = if node.ply + 1 < tree.depth {
                node.play(step % 5)
            } else {
                tree.root().play(step % 5).play((step / 5) % 5)
            };
        }
        f64::from(first) / f64::from(nodes)
    }

    #[test]
    fn best_first_percentages_order_between_perfect_and_random() {
        assert_eq!(best_first_share(ChildOrder::Perfect), 1.0);
        assert_eq!(best_first_share(ChildOrder::BestFirst(100)), 1.0);
        // 75% first, plus a fifth of the other 25% placed first at random: about 80%.
        let p75 = best_first_share(ChildOrder::BestFirst(75));
        assert!((0.74..0.86).contains(&p75), "{p75}");
        // 0%: the best child's place is uniform over 5 places.
        let p0 = best_first_share(ChildOrder::BestFirst(0));
        assert!((0.14..0.26).contains(&p0), "{p0}");
        assert_eq!("75%".parse::<ChildOrder>(), Ok(ChildOrder::BestFirst(75)));
        assert_eq!(ChildOrder::BestFirst(75).to_string(), "75%");
        assert!("101%".parse::<ChildOrder>().is_err());
    }

    #[test]
    fn knuth_moore_counts() {
        let t = |width, depth| UniformTree {
            width,
            depth,
            order: ChildOrder::Perfect,
            seed: 0,
        };
        assert_eq!(t(2, 10).minimal_leaves(), 63);
        assert_eq!(t(7, 8).minimal_leaves(), 4_801);
        assert_eq!(t(10, 6).minimal_leaves(), 1_999);
        assert_eq!(t(3, 3).all_leaves(), 27);
    }
}
