//! Monte Carlo tree search for any [`Game`]: UCT (UCB1 selection), random playouts and the
//! MCTS-Solver backup that proves wins, draws and losses, so that small endgames are solved
//! exactly, as alpha-beta solves them. One thread, deterministic for a seed.
//!
//! Each iteration walks from the root by UCB1 (`Q + C·√(ln N / n)`, `Q` the child's mean
//! reward for the player who chose it), adds one untried move's node, plays the game out at
//! random to its end, and adds the result (1 a win, ½ a draw, 0 a loss) to every node of the
//! path, for the player who moved into it. MCTS-Solver (Winands, Björnsson and Saito, 2008):
//! a finished game's node is proven; a node with a child proven lost for the child's side to
//! move is proven won; a node whose children are all expanded and proven is proven at the best
//! of them (a draw if one is a draw, else lost). A proven child is not selected again (its
//! value is known; the proof of its parent needs the others), and a proven root ends the
//! search.
//!
//! Scores are reduced to win, draw or loss by their sign: MCTS-Solver proves the result, not
//! a margin.

use crate::rng::{Rng, XorShift64};
use crate::{Game, Score};

/// What MCTS-Solver proved about a node, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses against best play.
    Loss,
}

impl Proof {
    /// The proof for the other side.
    pub fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Draw => Proof::Draw,
            Proof::Loss => Proof::Win,
        }
    }

    /// The proof a game's final score gives its side to move.
    pub fn of(score: Score) -> Proof {
        match score.cmp(&Score::DRAW) {
            std::cmp::Ordering::Greater => Proof::Win,
            std::cmp::Ordering::Equal => Proof::Draw,
            std::cmp::Ordering::Less => Proof::Loss,
        }
    }

    /// The reward of the side to move: 1, ½ or 0.
    fn reward(self) -> f64 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.5,
            Proof::Loss => 0.0,
        }
    }
}

/// How MCTS searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCB1's exploration constant `C` (√2 by default).
    pub exploration: f64,
    /// The seed of the playouts' random moves.
    pub seed: u64,
    /// The most plies of a playout before it is scored a draw (a guard for games that might
    /// not end; Othello, Connect Four and tic-tac-toe always do).
    pub max_playout_plies: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            seed: 1,
            max_playout_plies: 1_000,
        }
    }
}

/// A root move's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// How often it was chosen.
    pub visits: u64,
    /// Its mean reward for the root's side to move (0 to 1).
    pub value: f64,
    /// What was proved about it, for the root's side to move.
    pub proof: Option<Proof>,
}

/// What a search found and did.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play: the winning (or drawing) one if the root is proven, else the most
    /// visited of those not proven, or a proven draw if that one is expected to do worse
    /// (`None` only for a finished game).
    pub best_move: Option<M>,
    /// The root's mean reward for its side to move (0 to 1), or the proof's.
    pub value: f64,
    /// What was proved about the root, if anything.
    pub proof: Option<Proof>,
    /// Iterations run (each a selection, an expansion, a playout and a backup).
    pub playouts: u64,
    /// Nodes in the tree.
    pub tree_size: usize,
    /// The deepest node of the tree, in plies from the root.
    pub max_depth: u32,
    /// Nodes proven.
    pub proven_nodes: u64,
    /// Every root move, in the order the game generates them.
    pub root_moves: Vec<RootMove<M>>,
}

/// A node of the tree.
struct Node<G: Game> {
    game: G,
    /// The move that led here (none at the root).
    mv: Option<G::Move>,
    parent: usize,
    children: Vec<usize>,
    /// Moves not expanded yet.
    untried: Vec<G::Move>,
    visits: u64,
    /// The sum of the rewards of the player who moved into this node.
    reward: f64,
    /// What is proved, for this node's side to move.
    proof: Option<Proof>,
    depth: u32,
}

/// Monte Carlo tree search of `game` for `playouts` iterations (fewer if the root gets
/// proven). Deterministic for a `config.seed`.
pub fn mcts<G: Game>(game: &G, config: &MctsConfig, playouts: u64) -> MctsResult<G::Move> {
    let mut rng = XorShift64::new(config.seed.max(1));
    let mut tree: Vec<Node<G>> = vec![new_node(game.clone(), None, 0, 0)];
    let mut proven_nodes = u64::from(tree[0].proof.is_some());
    let mut done = 0;
    let mut max_depth = 0;
    while done < playouts && tree[0].proof.is_none() {
        done += 1;
        // Selection: down while every move is expanded.
        let mut at = 0;
        while tree[at].untried.is_empty() && tree[at].proof.is_none() {
            at = select(&tree, at, config.exploration);
        }
        // Expansion.
        if tree[at].proof.is_none() {
            let i = rng.below(tree[at].untried.len() as u64) as usize;
            let mv = tree[at].untried.swap_remove(i);
            let child = new_node(tree[at].game.play(mv), Some(mv), at, tree[at].depth + 1);
            max_depth = max_depth.max(child.depth);
            proven_nodes += u64::from(child.proof.is_some());
            tree.push(child);
            let id = tree.len() - 1;
            tree[at].children.push(id);
            at = id;
        }
        // Playout: the reward of the side to move at `at`.
        let reward = match tree[at].proof {
            Some(proof) => proof.reward(),
            None => playout(&tree[at].game, &mut rng, config.max_playout_plies),
        };
        // Backup, with the solver's proofs.
        let mut node = at;
        let mut mover_reward = 1.0 - reward;
        loop {
            tree[node].visits += 1;
            tree[node].reward += mover_reward;
            if tree[node].proof.is_none() {
                if let Some(proof) = prove(&tree, node) {
                    tree[node].proof = Some(proof);
                    proven_nodes += 1;
                }
            }
            if node == 0 {
                break;
            }
            node = tree[node].parent;
            mover_reward = 1.0 - mover_reward;
        }
    }
    result(&tree, done, max_depth, proven_nodes)
}

fn new_node<G: Game>(game: G, mv: Option<G::Move>, parent: usize, depth: u32) -> Node<G> {
    let proof = game.outcome().map(Proof::of);
    let untried = if proof.is_some() {
        Vec::new()
    } else {
        game.legal_moves()
    };
    Node {
        game,
        mv,
        parent,
        children: Vec::new(),
        untried,
        visits: 0,
        reward: 0.0,
        proof,
        depth,
    }
}

/// The child of `at` to descend to: a proven win for `at`'s side if there is one, else the
/// best by UCB1 among the children not proven yet (a proven child's value is known: visiting
/// it again teaches nothing, and proving `at` needs the others). While `at` is unproven it has
/// an unproven child (else [`prove`] would have proved it).
fn select<G: Game>(tree: &[Node<G>], at: usize, c: f64) -> usize {
    let children = &tree[at].children;
    if let Some(&win) = children
        .iter()
        .find(|&&k| tree[k].proof == Some(Proof::Loss))
    {
        return win;
    }
    let log_n = (tree[at].visits.max(1) as f64).ln();
    let score = |k: usize| {
        let n = &tree[k];
        let visits = n.visits.max(1) as f64;
        n.reward / visits + c * (log_n / visits).sqrt()
    };
    let open = children
        .iter()
        .copied()
        .filter(|&k| tree[k].proof.is_none());
    let pick = open.max_by(|&a, &b| score(a).total_cmp(&score(b)));
    pick.or_else(|| {
        children
            .iter()
            .copied()
            .max_by(|&a, &b| score(a).total_cmp(&score(b)))
    })
    .expect("a node being selected through has children")
}

/// What the children prove about `node`, if anything.
fn prove<G: Game>(tree: &[Node<G>], node: usize) -> Option<Proof> {
    let n = &tree[node];
    let children = n.children.iter().map(|&k| tree[k].proof);
    // A child lost for its side to move is a winning move.
    if children.clone().any(|p| p == Some(Proof::Loss)) {
        return Some(Proof::Win);
    }
    if !n.untried.is_empty() || n.children.is_empty() {
        return None;
    }
    let mut best = Proof::Loss;
    for p in children {
        match p? {
            Proof::Draw => best = Proof::Draw,
            Proof::Win => {}
            Proof::Loss => unreachable!("handled above"),
        }
    }
    Some(best)
}

/// A random game from `game` to its end: the reward of `game`'s side to move.
fn playout<G: Game>(game: &G, rng: &mut XorShift64, max_plies: u32) -> f64 {
    let mut position = game.clone();
    let mut moves = Vec::new();
    let mut flipped = false;
    for _ in 0..max_plies {
        if let Some(score) = position.outcome() {
            let reward = Proof::of(score).reward();
            return if flipped { 1.0 - reward } else { reward };
        }
        moves.clear();
        position.generate_moves(&mut moves);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        position = position.play(mv);
        flipped = !flipped;
    }
    0.5
}

fn result<G: Game>(
    tree: &[Node<G>],
    playouts: u64,
    max_depth: u32,
    proven_nodes: u64,
) -> MctsResult<G::Move> {
    let root = &tree[0];
    let root_moves: Vec<RootMove<G::Move>> = root
        .children
        .iter()
        .map(|&k| {
            let n = &tree[k];
            RootMove {
                mv: n.mv.expect("a child has a move"),
                visits: n.visits,
                value: if n.visits == 0 {
                    0.5
                } else {
                    n.reward / n.visits as f64
                },
                proof: n.proof.map(Proof::flip),
            }
        })
        .collect();
    let draw = root_moves.iter().find(|m| m.proof == Some(Proof::Draw));
    let best = match root.proof {
        Some(Proof::Win) => root_moves.iter().find(|m| m.proof == Some(Proof::Win)),
        Some(Proof::Draw) => draw,
        _ => {
            // The most visited move not proven lost; a proven draw instead if that move is
            // expected to do worse than a draw.
            let open = root_moves
                .iter()
                .filter(|m| m.proof.is_none())
                .max_by_key(|m| m.visits);
            match (open, draw) {
                (Some(m), Some(d)) if m.value < 0.5 => Some(d),
                (Some(m), _) => Some(m),
                (None, d) => d.or_else(|| root_moves.iter().max_by_key(|m| m.visits)),
            }
        }
    };
    let value = match root.proof {
        Some(p) => p.reward(),
        None if root.visits > 0 => 1.0 - root.reward / root.visits as f64,
        None => 0.5,
    };
    MctsResult {
        best_move: best.map(|m| m.mv),
        value,
        proof: root.proof,
        playouts,
        tree_size: tree.len(),
        max_depth,
        proven_nodes,
        root_moves,
    }
}
