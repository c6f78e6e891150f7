//! The tree of [`super::Mcts`]: nodes and edges, selection, expansion, backup with the
//! solver's proofs, re-rooting for tree reuse, playouts, and the result read off the trees.

use std::collections::HashMap;

use super::{MctsConfig, MctsResult, Playout, Proof, RootMove};
use crate::rng::{Rng, XorShift64};
use crate::{Evaluator, Game, Score};

struct Edge<M> {
    mv: M,
    child: u32,
    visits: u64,
    /// The sum of the rewards, for the player who chose the move.
    reward: f64,
}

/// A node of the tree: one position.
pub(super) struct Node<G: Game> {
    game: G,
    hash: u64,
    edges: Vec<Edge<G::Move>>,
    /// Moves not expanded yet.
    untried: Vec<G::Move>,
    /// Walks through this node, over all paths.
    visits: u64,
    /// What is proved, for this node's side to move.
    pub(super) proof: Option<Proof>,
}

impl<G: Game> Node<G> {
    pub(super) fn new(game: G) -> Node<G> {
        let proof = game.outcome().map(Proof::of);
        let untried = if proof.is_some() {
            Vec::new()
        } else {
            game.legal_moves()
        };
        Node {
            hash: game.hash(),
            game,
            edges: Vec::new(),
            untried,
            visits: 0,
            proof,
        }
    }
}

/// Where an iteration's walk down ended.
pub(super) enum Leaf<G> {
    /// A proven node: its reward is known.
    Known(f64),
    /// A position to play out.
    Open(G),
}

/// One tree (the root is node 0).
pub(super) struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    /// Node by hash, when transpositions are on.
    index: Option<HashMap<u64, u32>>,
    /// Iterations completed by this search.
    playouts: u64,
    max_depth: u32,
    reused: usize,
}

impl<G: Game> Tree<G> {
    pub(super) fn new(game: &G, transpositions: bool) -> Tree<G> {
        let mut tree = Tree {
            nodes: Vec::new(),
            index: transpositions.then(HashMap::new),
            playouts: 0,
            max_depth: 0,
            reused: 0,
        };
        tree.add(game.clone());
        tree
    }

    fn add(&mut self, game: G) -> u32 {
        let id = self.nodes.len() as u32;
        let node = Node::new(game);
        if let Some(index) = &mut self.index {
            index.insert(node.hash, id);
        }
        self.nodes.push(node);
        id
    }

    pub(super) fn root(&self) -> &Node<G> {
        &self.nodes[0]
    }

    /// Makes `game` the root: the node of the same position at most two plies below the root
    /// with everything under it if there is one (the rest is dropped), else a new tree.
    pub(super) fn reroot(&mut self, game: &G, transpositions: bool) {
        self.playouts = 0;
        self.max_depth = 0;
        let hash = game.hash();
        let found = std::iter::once(0)
            .chain(self.nodes[0].edges.iter().map(|e| e.child))
            .chain(
                self.nodes[0]
                    .edges
                    .iter()
                    .flat_map(|e| self.nodes[e.child as usize].edges.iter().map(|e2| e2.child)),
            )
            .find(|&k| self.nodes[k as usize].hash == hash);
        let Some(keep) = found.filter(|_| self.index.is_some() == transpositions) else {
            *self = Tree::new(game, transpositions);
            return;
        };
        // Renumber what `keep` reaches, breadth first, and drop the rest.
        let mut map = vec![u32::MAX; self.nodes.len()];
        let mut order = vec![keep];
        map[keep as usize] = 0;
        let mut i = 0;
        while i < order.len() {
            for e in &self.nodes[order[i] as usize].edges {
                if map[e.child as usize] == u32::MAX {
                    map[e.child as usize] = order.len() as u32;
                    order.push(e.child);
                }
            }
            i += 1;
        }
        let mut old: Vec<Option<Node<G>>> = std::mem::take(&mut self.nodes)
            .into_iter()
            .map(Some)
            .collect();
        self.nodes = order
            .iter()
            .map(|&k| {
                let mut node = old[k as usize].take().expect("each node is kept once");
                for e in &mut node.edges {
                    e.child = map[e.child as usize];
                }
                node
            })
            .collect();
        if let Some(index) = &mut self.index {
            index.clear();
            index.extend(
                self.nodes
                    .iter()
                    .enumerate()
                    .map(|(k, n)| (n.hash, k as u32)),
            );
        }
        self.reused = self.nodes.len();
    }

    /// Selection and expansion: walks down from the root, counting each visit on the way (the
    /// virtual loss: the reward comes with the backup), and records the path as (node, edge).
    pub(super) fn descend(
        &mut self,
        rng: &mut XorShift64,
        config: &MctsConfig,
        path: &mut Vec<(u32, u32)>,
    ) -> Leaf<G> {
        path.clear();
        let mut at = 0u32;
        loop {
            let full = self.nodes.len() >= config.max_nodes;
            self.nodes[at as usize].visits += 1;
            if config.solver && self.nodes[at as usize].proof.is_none() {
                self.nodes[at as usize].proof = prove(&self.nodes, at);
            }
            let node = &self.nodes[at as usize];
            if let Some(proof) = node.proof {
                self.max_depth = self.max_depth.max(path.len() as u32);
                return Leaf::Known(proof.reward());
            }
            let (edge, expanded) = if !node.untried.is_empty() && !full {
                let i = rng.below(node.untried.len() as u64) as usize;
                (self.expand(at, i), true)
            } else if node.edges.is_empty() {
                // A full tree: play out from here.
                self.max_depth = self.max_depth.max(path.len() as u32);
                return Leaf::Open(node.game.clone());
            } else {
                (select(&self.nodes, at, config), false)
            };
            let e = &mut self.nodes[at as usize].edges[edge as usize];
            e.visits += 1;
            let child = e.child;
            path.push((at, edge));
            let cycle = path.iter().any(|&(n, _)| n == child);
            let new = self.nodes[child as usize].visits == 0;
            if cycle || (expanded && new) {
                let node = &mut self.nodes[child as usize];
                node.visits += 1;
                self.max_depth = self.max_depth.max(path.len() as u32);
                return match node.proof {
                    Some(proof) => Leaf::Known(proof.reward()),
                    None => Leaf::Open(node.game.clone()),
                };
            }
            at = child;
        }
    }

    /// Expands `at`'s untried move number `i`: a new node, or with transpositions the node the
    /// position already has. Returns the edge's index.
    fn expand(&mut self, at: u32, i: usize) -> u32 {
        let mv = self.nodes[at as usize].untried.swap_remove(i);
        let game = self.nodes[at as usize].game.play(mv);
        let existing = self
            .index
            .as_ref()
            .and_then(|index| index.get(&game.hash()).copied());
        let child = match existing {
            Some(k) => k,
            None => self.add(game),
        };
        let edges = &mut self.nodes[at as usize].edges;
        edges.push(Edge {
            mv,
            child,
            visits: 0,
            reward: 0.0,
        });
        edges.len() as u32 - 1
    }

    /// Backup: `reward` is for the side to move at the end of `path`; each edge gets its
    /// chooser's reward, and the nodes of the path are proven where their children allow.
    pub(super) fn backup(&mut self, path: &[(u32, u32)], reward: f64, solver: bool) {
        let mut child_reward = reward;
        for &(node, edge) in path.iter().rev() {
            let mover_reward = 1.0 - child_reward;
            self.nodes[node as usize].edges[edge as usize].reward += mover_reward;
            if solver && self.nodes[node as usize].proof.is_none() {
                self.nodes[node as usize].proof = prove(&self.nodes, node);
            }
            child_reward = mover_reward;
        }
        self.playouts += 1;
    }
}

/// The edge of `at` to walk, with the solver: a proven win for `at`'s side if there is one,
/// else the best by UCB1 among the children not proven yet (a proven child's value is known:
/// visiting it again teaches nothing, and proving `at` needs the others); all of them if every
/// one is proven (which happens only in a full tree, where `at` keeps untried moves). Without
/// the solver: the best by UCB1.
fn select<G: Game>(nodes: &[Node<G>], at: u32, config: &MctsConfig) -> u32 {
    let node = &nodes[at as usize];
    let proof = |e: &Edge<G::Move>| nodes[e.child as usize].proof.filter(|_| config.solver);
    if let Some(win) = node
        .edges
        .iter()
        .position(|e| proof(e) == Some(Proof::Loss))
    {
        return win as u32;
    }
    let c = config.exploration;
    let log_n = (node.visits.max(1) as f64).ln();
    let score = |e: &Edge<G::Move>| {
        let visits = e.visits.max(1) as f64;
        e.reward / visits + c * (log_n / visits).sqrt()
    };
    let best = |open: bool| {
        node.edges
            .iter()
            .enumerate()
            .filter(|(_, e)| !open || proof(e).is_none())
            .max_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)))
            .map(|(i, _)| i as u32)
    };
    best(true)
        .or_else(|| best(false))
        .expect("a node being walked through has an edge")
}

/// What the children prove about `node`, if anything.
fn prove<G: Game>(nodes: &[Node<G>], node: u32) -> Option<Proof> {
    let n = &nodes[node as usize];
    let proofs = n.edges.iter().map(|e| nodes[e.child as usize].proof);
    // A child lost for its side to move is a winning move.
    if proofs.clone().any(|p| p == Some(Proof::Loss)) {
        return Some(Proof::Win);
    }
    if !n.untried.is_empty() || n.edges.is_empty() {
        return None;
    }
    let mut best = Proof::Loss;
    for p in proofs {
        match p? {
            Proof::Draw => best = Proof::Draw,
            Proof::Win => {}
            Proof::Loss => unreachable!("handled above"),
        }
    }
    Some(best)
}

/// A playout from `game`: the reward of its side to move.
pub(super) fn playout<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    rng: &mut XorShift64,
    config: &MctsConfig,
    moves: &mut Vec<G::Move>,
) -> f64 {
    let random_plies = match config.playout {
        Playout::Random => config.max_playout_plies,
        Playout::Cutoff { plies } => plies.min(config.max_playout_plies),
    };
    let mut position = game.clone();
    let mut flipped = false;
    let reward = 'walk: {
        for _ in 0..random_plies {
            if let Some(score) = position.outcome() {
                break 'walk Proof::of(score).reward();
            }
            moves.clear();
            position.generate_moves(moves);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            position = position.play(mv);
            flipped = !flipped;
        }
        match (position.outcome(), config.playout) {
            (Some(score), _) => Proof::of(score).reward(),
            (None, Playout::Random) => 0.5,
            (None, Playout::Cutoff { .. }) => win_probability(eval.evaluate(&position), eval),
        }
    };
    if flipped {
        1.0 - reward
    } else {
        reward
    }
}

/// An evaluation as the side to move's chance of winning.
fn win_probability<G: Game, E: Evaluator<G>>(score: Score, eval: &E) -> f64 {
    if score.is_decisive() {
        return Proof::of(score).reward();
    }
    let scale = eval.win_scale().max(f64::MIN_POSITIVE);
    1.0 / (1.0 + (-f64::from(score.raw()) / scale).exp())
}

/// An evaluator for random playouts, which never evaluate.
pub(super) struct NoEval;

impl<G: Game> Evaluator<G> for NoEval {
    fn evaluate(&self, _: &G) -> Score {
        Score::DRAW
    }
}

/// The result of one tree or more (root parallelism: statistics added up by move).
pub(super) fn result<G: Game>(trees: &[&Tree<G>], solver: bool) -> MctsResult<G::Move> {
    let mut root_moves: Vec<RootMove<G::Move>> = Vec::new();
    let mut rewards: Vec<f64> = Vec::new();
    for tree in trees {
        let root = tree.root();
        let moves = root
            .edges
            .iter()
            .map(|e| (e.mv, e.visits, e.reward, tree.nodes[e.child as usize].proof))
            .chain(root.untried.iter().map(|&mv| (mv, 0, 0.0, None)));
        for (mv, visits, reward, proof) in moves {
            let i = match root_moves.iter().position(|m| m.mv == mv) {
                Some(i) => i,
                None => {
                    root_moves.push(RootMove {
                        mv,
                        visits: 0,
                        value: 0.5,
                        proof: None,
                    });
                    rewards.push(0.0);
                    root_moves.len() - 1
                }
            };
            root_moves[i].visits += visits;
            rewards[i] += reward;
            root_moves[i].proof = root_moves[i].proof.or(proof.map(Proof::flip));
        }
    }
    for (m, reward) in root_moves.iter_mut().zip(&rewards) {
        m.value = match m.proof {
            Some(p) => p.reward(),
            None if m.visits > 0 => reward / m.visits as f64,
            None => 0.5,
        };
    }
    // Moves expanded in every tree first, by the first tree's order; then the rest.
    root_moves.sort_by_key(|m| m.visits == 0);
    let proof = trees.iter().find_map(|t| t.root().proof);
    let best = best_move(&root_moves, proof, solver);
    let visits: u64 = root_moves.iter().map(|m| m.visits).sum();
    let value = match proof {
        Some(p) => p.reward(),
        None if visits > 0 => rewards.iter().sum::<f64>() / visits as f64,
        None => 0.5,
    };
    // The principal variation: the first tree's line of best moves.
    let mut pv: Vec<G::Move> = best.into_iter().collect();
    if let (Some(first), Some(mv)) = (trees.first(), best) {
        let mut at = first
            .root()
            .edges
            .iter()
            .find(|e| e.mv == mv)
            .map(|e| e.child);
        while let Some(k) = at.filter(|_| pv.len() < 64) {
            let node = &first.nodes[k as usize];
            let moves: Vec<RootMove<G::Move>> = node
                .edges
                .iter()
                .map(|e| {
                    let proof = first.nodes[e.child as usize].proof.map(Proof::flip);
                    RootMove {
                        mv: e.mv,
                        visits: e.visits,
                        value: proof.map_or(e.reward / e.visits.max(1) as f64, Proof::reward),
                        proof,
                    }
                })
                .collect();
            let Some(next) = best_move(&moves, node.proof, solver) else {
                break;
            };
            pv.push(next);
            at = node.edges.iter().find(|e| e.mv == next).map(|e| e.child);
        }
    }
    MctsResult {
        best_move: best,
        value,
        proof,
        pv,
        playouts: trees.iter().map(|t| t.playouts).sum(),
        tree_size: trees.iter().map(|t| t.nodes.len()).sum(),
        reused_nodes: trees.iter().map(|t| t.reused).sum(),
        max_depth: trees.iter().map(|t| t.max_depth).max().unwrap_or(0),
        proven_nodes: trees
            .iter()
            .map(|t| t.nodes.iter().filter(|n| n.proof.is_some()).count() as u64)
            .sum(),
        root_moves,
    }
}

/// The move to play among `moves` of a node with `proof`, with the solver: the most visited
/// proven win or draw that matches the proof; else the most visited move not proven, or a proven draw if
/// that one is expected to do worse than a draw; else the most visited. Without the solver
/// (plain UCT): the most visited.
fn best_move<M: Copy>(moves: &[RootMove<M>], proof: Option<Proof>, solver: bool) -> Option<M> {
    let most_visited = || {
        moves
            .iter()
            .filter(|m| m.visits > 0)
            .max_by_key(|m| m.visits)
            .map(|m| m.mv)
    };
    if !solver {
        return most_visited();
    }
    let proven = |p: Proof| {
        moves
            .iter()
            .filter(|m| m.proof == Some(p))
            .max_by_key(|m| m.visits)
    };
    let draw = proven(Proof::Draw);
    let best = match proof {
        Some(Proof::Win) => proven(Proof::Win),
        Some(Proof::Draw) => draw,
        _ => {
            let open = moves
                .iter()
                .filter(|m| m.proof.is_none() && m.visits > 0)
                .max_by_key(|m| m.visits);
            match (open, draw) {
                (Some(m), Some(d)) if m.value < 0.5 => Some(d),
                (Some(m), _) => Some(m),
                (None, d) => d,
            }
        }
    };
    best.map(|m| m.mv).or_else(most_visited)
}
