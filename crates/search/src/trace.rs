//! Tracing a search node by node: a [`SearchTracer`] is told of every node the search enters
//! and leaves, in order, and [`TreeRecorder`] builds from that the tree the search actually
//! visited ([`SearchTree`]), for pictures of what an algorithm searched and what it pruned.
//!
//! Tracing is off unless a search is started with
//! [`Engine::search_traced`](crate::Engine::search_traced); otherwise the only cost is one
//! `Option` check where a node is entered or left.

use crate::Score;

/// How a visited node got its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeEnd {
    /// The game is over here.
    Terminal,
    /// The depth ran out: the static evaluation.
    Horizon,
    /// The transposition table's bounds settled the node without a search.
    Table,
    /// Its moves were searched.
    Searched,
}

/// A node as the search enters it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entered<M> {
    /// Its distance from the root (0 at the root).
    pub ply: usize,
    /// The move that leads to it from its parent (`None` at the root).
    pub mv: Option<M>,
    /// The plies left to search below it.
    pub depth: u32,
    /// The window it is searched with, from its side to move's point of view: the lower edge.
    /// Minimax, negamax and Scout's EVAL search without a window, `(-inf, +inf)`; Scout's
    /// TEST of "value > v" is the null window `(v, v + 1)`, of "value >= v" `(v - 1, v)`.
    pub alpha: Score,
    /// The upper edge of the window.
    pub beta: Score,
    /// Whether it belongs to a shallow search that orders its parent's moves rather than to
    /// the search proper.
    pub ordering: bool,
}

/// Receives the nodes of a search as it walks the tree: every [`SearchTracer::enter`] is
/// matched by one [`SearchTracer::leave`], and the nodes entered in between are the
/// descendants of the node entered.
pub trait SearchTracer<M> {
    /// A node is entered.
    fn enter(&mut self, node: &Entered<M>);

    /// The node entered last and not yet left is left with `value` (from its side to move's
    /// point of view; outside the window it is only a bound, as in a fail-soft search). For
    /// a searched node, `legal` lists its legal moves (so that those never searched can be
    /// told); it is empty otherwise.
    fn leave(&mut self, value: Score, end: NodeEnd, legal: &[M]);
}

/// One node of a [`SearchTree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedNode<M> {
    /// How the search entered it.
    pub entered: Entered<M>,
    /// Its parent's index (`None` for the root of a pass).
    pub parent: Option<usize>,
    /// The value it returned (its side to move's view). A leaf's is its evaluation or final
    /// score as found: fail-hard alpha-beta then clamps it into the window for its parent.
    pub value: Score,
    /// How it got that value.
    pub end: NodeEnd,
    /// The nodes searched below it, in search order, the roots of shallow searches that
    /// ordered its moves included (see [`SearchTree::is_searched_child`]).
    pub children: Vec<usize>,
    /// Its legal moves that were never searched, in generation order: those a cutoff left (or,
    /// in a search stopped by a limit, those it never reached).
    pub pruned: Vec<M>,
    /// How many times the same move from the same parent was searched before this one in the
    /// search proper: 0 for a first search, 1 for a re-search (NegaScout's after a null window
    /// failed high, Scout's EVAL after its TEST), and so on.
    pub repeat: u32,
}

impl<M> TracedNode<M> {
    /// Whether the root player is to move here (plies 0, 2, ...: a MAX node).
    pub fn is_max(&self) -> bool {
        self.entered.ply.is_multiple_of(2)
    }

    /// The value from the root player's point of view.
    pub fn max_value(&self) -> Score {
        if self.is_max() {
            self.value
        } else {
            -self.value
        }
    }

    /// The window from the root player's point of view: `(alpha, beta)`.
    pub fn max_window(&self) -> (Score, Score) {
        let Entered { alpha, beta, .. } = self.entered;
        if self.is_max() {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        }
    }

    /// Whether its search stopped early because a child's value reached beta (its side to
    /// move's view), leaving moves unsearched. A node whose last move reaches beta fails high
    /// too (its value is a lower bound) but prunes nothing, and this says no.
    pub fn cut_off(&self) -> bool {
        !self.pruned.is_empty() && self.value >= self.entered.beta
    }

    /// Whether it is a leaf of the picture: nothing was searched below it.
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }
}

/// The tree a search visited: one root per pass over the root (iterations of iterative
/// deepening, aspiration re-searches, MTD(f)'s null-window passes), in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchTree<M> {
    /// Every node, parents before children.
    pub nodes: Vec<TracedNode<M>>,
    /// The root of each pass.
    pub roots: Vec<usize>,
}

impl<M> Default for SearchTree<M> {
    fn default() -> Self {
        SearchTree {
            nodes: Vec::new(),
            roots: Vec::new(),
        }
    }
}

impl<M: Copy + PartialEq> SearchTree<M> {
    /// How many nodes the search visited (the statistics' `nodes`).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node was visited.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The nodes evaluated or found terminal (the statistics' `leaves`).
    pub fn leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n.end, NodeEnd::Terminal | NodeEnd::Horizon))
            .count()
    }

    /// How many moves were never searched, over the whole tree (see [`TracedNode::pruned`]).
    pub fn pruned(&self) -> usize {
        self.nodes.iter().map(|n| n.pruned.len()).sum()
    }

    /// Whether `child`, entered below node `parent`, belongs to `parent`'s own search rather
    /// than to a shallow search ordering `parent`'s moves (the nodes of an ordering search
    /// are themselves searched without one).
    pub fn is_searched_child(&self, parent: usize, child: &Entered<M>) -> bool {
        child.ordering == self.nodes[parent].entered.ordering
    }

    /// How the children of `parent` that belong to its own search were entered, in order.
    pub fn searched_children(&self, parent: usize) -> impl Iterator<Item = &Entered<M>> + '_ {
        self.nodes[parent]
            .children
            .iter()
            .map(|&c| &self.nodes[c].entered)
            .filter(move |e| self.is_searched_child(parent, e))
    }

    /// The nodes of `line` from the root of `pass`: at each step the last child searched with
    /// that move (the re-search, when there was one), ordering searches aside. Stops where the
    /// tree has no such child.
    pub fn follow(&self, pass: usize, line: &[M]) -> Vec<usize> {
        let Some(&root) = self.roots.get(pass) else {
            return Vec::new();
        };
        let mut path = vec![root];
        let mut at = root;
        for &mv in line {
            let next = self.nodes[at].children.iter().rev().copied().find(|&c| {
                self.is_searched_child(at, &self.nodes[c].entered)
                    && self.nodes[c].entered.mv == Some(mv)
            });
            match next {
                Some(c) => {
                    path.push(c);
                    at = c;
                }
                None => break,
            }
        }
        path
    }
}

/// A [`SearchTracer`] that keeps every node: the [`SearchTree`] of the search.
#[derive(Clone, Debug)]
pub struct TreeRecorder<M> {
    tree: SearchTree<M>,
    /// The nodes entered and not yet left, outermost first.
    open: Vec<usize>,
}

impl<M> Default for TreeRecorder<M> {
    fn default() -> Self {
        TreeRecorder {
            tree: SearchTree::default(),
            open: Vec::new(),
        }
    }
}

impl<M: Copy + PartialEq> TreeRecorder<M> {
    /// An empty recorder.
    pub fn new() -> Self {
        Self::default()
    }

    /// The tree recorded so far. A node left open (a search that did not return normally)
    /// keeps the value [`Score::DRAW`].
    pub fn into_tree(self) -> SearchTree<M> {
        self.tree
    }
}

impl<M: Copy + PartialEq> SearchTracer<M> for TreeRecorder<M> {
    fn enter(&mut self, node: &Entered<M>) {
        let index = self.tree.nodes.len();
        let parent = self.open.last().copied();
        let repeat = match parent {
            Some(p) if self.tree.is_searched_child(p, node) => self
                .tree
                .searched_children(p)
                .filter(|e| e.mv == node.mv)
                .count() as u32,
            _ => 0,
        };
        match parent {
            Some(p) => self.tree.nodes[p].children.push(index),
            None => self.tree.roots.push(index),
        }
        self.tree.nodes.push(TracedNode {
            entered: *node,
            parent,
            value: Score::DRAW,
            end: NodeEnd::Searched,
            children: Vec::new(),
            pruned: Vec::new(),
            repeat,
        });
        self.open.push(index);
    }

    fn leave(&mut self, value: Score, end: NodeEnd, legal: &[M]) {
        let Some(index) = self.open.pop() else {
            return;
        };
        let searched: Vec<M> = self
            .tree
            .searched_children(index)
            .filter_map(|e| e.mv)
            .collect();
        let node = &mut self.tree.nodes[index];
        node.value = value;
        node.end = end;
        node.pruned = legal
            .iter()
            .copied()
            .filter(|m| !searched.contains(m))
            .collect();
    }
}
