//! Random trees of varying width and depth, for differential tests: every node draws its
//! number of children (0 makes it a leaf) and, at the leaves, a value that is sometimes a
//! heuristic number and sometimes a proven win, loss or draw. Values come from a small range so
//! that ties between moves are common. With `states` set, the children at each ply are drawn
//! from that many positions, so different paths meet (transpositions) and the tree is a DAG.

use prune_search::{Evaluator, Game, Score};
use serde::{Deserialize, Serialize};

use crate::mix::{draw, mix};

/// The parameters of a family of random trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RandomTree {
    /// Seed of the shape and the values.
    pub seed: u64,
    /// The most children a node can have (at least 1).
    pub max_width: u32,
    /// The deepest a leaf can be.
    pub max_depth: u32,
    /// Leaf values lie in `-value_range..=value_range`.
    pub value_range: i32,
    /// If set, the number of distinct positions per ply (transpositions).
    pub states: Option<u64>,
}

impl RandomTree {
    /// Trees with the given seed and the default shape (width up to 4, depth up to 6).
    pub fn new(seed: u64) -> Self {
        RandomTree {
            seed,
            max_width: 4,
            max_depth: 6,
            value_range: 8,
            states: None,
        }
    }

    /// The root: always an interior node.
    pub fn root(&self) -> RandomNode {
        RandomNode {
            tree: *self,
            ply: 0,
            id: mix(self.seed, 0xA11),
        }
    }
}

/// A node of a [`RandomTree`]; the move is the child's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandomNode {
    tree: RandomTree,
    ply: u32,
    id: u64,
}

impl RandomNode {
    /// The most plies from this node to the end of the tree.
    pub fn plies_left(&self) -> u32 {
        self.tree.max_depth.saturating_sub(self.ply)
    }

    fn width(&self) -> u32 {
        if self.ply >= self.tree.max_depth {
            return 0;
        }
        let w = (mix(self.id, 0x31D) % (u64::from(self.tree.max_width) + 1)) as u32;
        if self.ply == 0 {
            w.max(1)
        } else {
            w
        }
    }
}

impl Game for RandomNode {
    type Move = u32;

    fn generate_moves(&self, moves: &mut Vec<u32>) {
        moves.extend(0..self.width());
    }

    fn play(&self, i: u32) -> Self {
        let mut id = mix(self.id, u64::from(i));
        if let Some(states) = self.tree.states {
            id = mix(self.tree.seed ^ u64::from(self.ply + 1), id % states.max(1));
        }
        RandomNode {
            tree: self.tree,
            ply: self.ply + 1,
            id,
        }
    }

    fn outcome(&self) -> Option<Score> {
        if self.width() > 0 {
            return None;
        }
        let r = self.tree.value_range;
        let value = draw(mix(self.id, 0x7A1), -r, r);
        // One leaf in four is a proven result (a margin, possibly a draw).
        Some(if mix(self.id, 0xDEC).is_multiple_of(4) {
            Score::exact(value)
        } else {
            Score::heuristic(value)
        })
    }

    fn hash(&self) -> u64 {
        mix(self.id, u64::from(self.ply))
    }

    fn is_legal(&self, i: u32) -> bool {
        i < self.width()
    }
}

/// A seeded heuristic for interior random-tree nodes, in the leaves' range.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomEval;

impl Evaluator<RandomNode> for RandomEval {
    fn evaluate(&self, n: &RandomNode) -> Score {
        let r = n.tree.value_range;
        Score::heuristic(draw(mix(n.id, 0xE1), -r, r))
    }

    /// A seeded shuffle: "static knowledge" that is right as often as it is wrong, to check
    /// that reordering never changes a search's value.
    fn order_moves(&self, n: &RandomNode, moves: &mut [u32]) {
        moves.sort_by_key(|&m| mix(n.id ^ 0x0D, u64::from(m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_vary_and_transpositions_meet() {
        let sizes: Vec<u64> = (0..20)
            .map(|s| prune_search::perft(&RandomTree::new(s).root(), 6))
            .collect();
        assert!(sizes.iter().any(|&n| n != sizes[0]), "{sizes:?}");
        let tree = RandomTree {
            states: Some(3),
            max_width: 4,
            ..RandomTree::new(5)
        };
        let mut hashes = std::collections::HashSet::new();
        let root = tree.root();
        for a in root.legal_moves() {
            let child = root.play(a);
            for b in child.legal_moves() {
                hashes.insert(child.play(b).hash());
            }
        }
        assert!(hashes.len() <= 3, "{}", hashes.len());
    }
}
