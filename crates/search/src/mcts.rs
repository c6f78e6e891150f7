//! Monte Carlo tree search for any [`Game`]: UCT (UCB1 selection), random or evaluation
//! cut-off playouts, the MCTS-Solver backup that proves wins, draws and losses (so that small
//! endgames are solved exactly, as alpha-beta solves them), an optional transposition-aware
//! tree, tree reuse between moves, and two parallel schemes. One thread is deterministic for a
//! seed.
//!
//! **An iteration** walks from the root by UCB1 — `Q + C·√(ln N / n)`, with `Q` an edge's mean
//! reward for the player who chose it, `n` its visits and `N` its parent's — adds the node of
//! one untried move (drawn at random), plays the game out from it ([`Playout`]) and adds the
//! result (1 a win, ½ a draw, 0 a loss, or the evaluation's win probability) to every edge of
//! the path, for the player who chose it.
//!
//! **MCTS-Solver** (Winands, Björnsson and Saito, 2008): a finished game's node is proven; a
//! node with a child proven lost for the child's side to move is proven won; a node whose moves
//! are all expanded and proven is proven at the best of them (a draw if one is a draw, else
//! lost). A proven child is not selected again (its value is known; proving its parent needs
//! the others), a proven node is scored by its proof instead of a playout, and a proven root
//! ends the search. Scores are reduced to win, draw or loss by their sign: MCTS-Solver proves
//! the result, not a margin.
//!
//! **Transpositions** ([`MctsConfig::transpositions`]): positions reached by different move
//! orders share one node, found by [`Game::hash`]. The statistics that UCB1 reads live on the
//! edges (each parent keeps its own count and sum for each move) and a playout is backed up
//! along the path it took only — the "UCT1" choice of Childs, Brodeur and Kocsis (2008) — while
//! the node's visit count is the sum over all paths through it and its proof is shared by every
//! parent. A position's hash is its identity here (64 bits; a collision would merge two
//! positions). A path that comes back to a node already on it (a cycle, which the games of this
//! project cannot make) ends there with a playout.
//!
//! **Tree reuse**: [`Mcts::search`] looks for the new position in the last search's tree, at
//! the root or up to two plies below it (one's own move and the reply), and keeps that subtree.
//!
//! **Parallel search** ([`MctsParallel`]): *tree* parallelism shares one tree under a lock held
//! for selection, expansion and backup only (the playouts run unlocked), with a *virtual loss*:
//! an edge's visit is counted when a thread walks through it and its reward when the playout
//! returns, so that threads walking down meanwhile see it as a loss and spread out. *Root*
//! parallelism grows one tree per thread from different seeds and adds their root statistics
//! up at the end. With one thread both are the sequential search.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::rng::{mix, Rng, XorShift64};
use crate::{ConfigError, Evaluator, Game, Score};

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
    pub fn reward(self) -> f64 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.5,
            Proof::Loss => 0.0,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Proof::Win => "win",
            Proof::Draw => "draw",
            Proof::Loss => "loss",
        }
    }
}

/// How a playout scores the position it starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly random moves to the end of the game; the reward is the result.
    #[default]
    Random,
    /// At most `plies` random moves (0: none), then the evaluation, read as a win probability
    /// `1 / (1 + e^(−v / s))` with `s` the evaluator's [`Evaluator::win_scale`]; a game that
    /// ends first is scored by its result.
    Cutoff {
        /// Random moves before the evaluation.
        plies: u32,
    },
}

/// How several threads share a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MctsParallel {
    /// One tree under a lock, with virtual loss (the default).
    #[default]
    Tree,
    /// One tree per thread, root statistics added up at the end.
    Root,
}

impl crate::Named for MctsParallel {
    const KIND: &'static str = "MCTS parallel scheme";
    const ALL: &'static [Self] = &[MctsParallel::Tree, MctsParallel::Root];

    /// `tree` or `root`.
    fn name(self) -> &'static str {
        match self {
            MctsParallel::Tree => "tree",
            MctsParallel::Root => "root",
        }
    }
}

crate::named!(MctsParallel);

/// How MCTS searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCB1's exploration constant `C` (√2 by default).
    pub exploration: f64,
    /// The seed of the random draws (expansion order and playouts).
    pub seed: u64,
    /// The most plies of a playout before it is scored a draw (a guard for games that might
    /// not end; Othello, Connect Four and tic-tac-toe always do).
    pub max_playout_plies: u32,
    /// How a new node is scored.
    pub playout: Playout,
    /// MCTS-Solver: proofs backed up through the tree (off: plain UCT, which still scores a
    /// finished game by its result but proves nothing above it and selects every child).
    pub solver: bool,
    /// Whether positions reached by different move orders share a node.
    pub transpositions: bool,
    /// Threads (1: the sequential, deterministic search).
    pub threads: usize,
    /// How the threads share the work.
    pub parallel: MctsParallel,
    /// The most nodes a tree holds (a memory bound); once full, iterations go on without
    /// adding nodes, playing out from the leaves of the tree.
    pub max_nodes: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            seed: 1,
            max_playout_plies: 1_000,
            playout: Playout::Random,
            solver: true,
            transpositions: false,
            threads: 1,
            parallel: MctsParallel::Tree,
            max_nodes: 4_000_000,
        }
    }
}

impl MctsConfig {
    /// The most threads a search takes.
    pub const MAX_THREADS: usize = 1024;

    /// Checks the values are in range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(ConfigError::Invalid(format!(
                "the exploration constant must be a finite number at least 0, got {}",
                self.exploration
            )));
        }
        if !(1..=Self::MAX_THREADS).contains(&self.threads) {
            return Err(ConfigError::Invalid(format!(
                "threads must be 1 to {}, got {}",
                Self::MAX_THREADS,
                self.threads
            )));
        }
        if self.max_nodes == 0 || self.max_nodes > u32::MAX as usize {
            return Err(ConfigError::Invalid(format!(
                "the tree's node limit must be 1 to {}, got {}",
                u32::MAX,
                self.max_nodes
            )));
        }
        Ok(())
    }
}

/// When a search stops (besides a proven root and the caller's stop flag). With neither
/// limit set, only those two stop it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MctsLimits {
    /// The most iterations (playouts) of this search, over all threads.
    pub playouts: Option<u64>,
    /// The most wall-clock time.
    pub time: Option<Duration>,
}

impl MctsLimits {
    /// A playout budget.
    pub fn playouts(playouts: u64) -> Self {
        MctsLimits {
            playouts: Some(playouts),
            time: None,
        }
    }

    /// A time budget.
    pub fn time(time: Duration) -> Self {
        MctsLimits {
            playouts: None,
            time: Some(time),
        }
    }
}

/// A root move's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// How often it was chosen (0: never expanded).
    pub visits: u64,
    /// Its mean reward for the root's side to move (0 to 1; ½ when never visited).
    pub value: f64,
    /// What was proved about it, for the root's side to move.
    pub proof: Option<Proof>,
}

/// What a search found and did.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play: the most visited winning (or drawing) one if the root is proven, else
    /// the most visited of those not proven, or a proven draw if that one is expected to do worse
    /// (`None` only for a finished game).
    pub best_move: Option<M>,
    /// The root's mean reward for its side to move (0 to 1), or the proof's.
    pub value: f64,
    /// What was proved about the root, if anything.
    pub proof: Option<Proof>,
    /// The most visited line from the root (a proven line where there is one), starting with
    /// `best_move`.
    pub pv: Vec<M>,
    /// Iterations of this search (each a selection, an expansion, a playout and a backup).
    pub playouts: u64,
    /// Nodes in the tree (in all trees, with root parallelism).
    pub tree_size: usize,
    /// Nodes kept from the last search (tree reuse).
    pub reused_nodes: usize,
    /// The longest path from the root walked by this search, in plies.
    pub max_depth: u32,
    /// Proven nodes in the tree.
    pub proven_nodes: u64,
    /// Every root move: the expanded ones in the order they were expanded, then the others.
    pub root_moves: Vec<RootMove<M>>,
}

/// An edge of the tree: a move and the statistics of the player who chooses it.
struct Edge<M> {
    mv: M,
    child: u32,
    visits: u64,
    /// The sum of the rewards, for the player who chose the move.
    reward: f64,
}

/// A node of the tree: one position.
struct Node<G: Game> {
    game: G,
    hash: u64,
    edges: Vec<Edge<G::Move>>,
    /// Moves not expanded yet.
    untried: Vec<G::Move>,
    /// Walks through this node, over all paths.
    visits: u64,
    /// What is proved, for this node's side to move.
    proof: Option<Proof>,
}

impl<G: Game> Node<G> {
    fn new(game: G) -> Node<G> {
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
enum Leaf<G> {
    /// A proven node: its reward is known.
    Known(f64),
    /// A position to play out.
    Open(G),
}

/// One tree (the root is node 0).
struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    /// Node by hash, when transpositions are on.
    index: Option<HashMap<u64, u32>>,
    /// Iterations completed by this search.
    playouts: u64,
    max_depth: u32,
    reused: usize,
}

impl<G: Game> Tree<G> {
    fn new(game: &G, transpositions: bool) -> Tree<G> {
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

    fn root(&self) -> &Node<G> {
        &self.nodes[0]
    }

    /// Makes `game` the root: the node of the same position at most two plies below the root
    /// with everything under it if there is one (the rest is dropped), else a new tree.
    fn reroot(&mut self, game: &G, transpositions: bool) {
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
    fn descend(
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
    fn backup(&mut self, path: &[(u32, u32)], reward: f64, solver: bool) {
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
fn playout<G: Game, E: Evaluator<G>>(
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
struct NoEval;

impl<G: Game> Evaluator<G> for NoEval {
    fn evaluate(&self, _: &G) -> Score {
        Score::DRAW
    }
}

/// Monte Carlo tree search: a configuration and the trees kept between searches.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    /// One tree, or one per thread with root parallelism (`None`: no search yet).
    trees: Vec<Mutex<Tree<G>>>,
    /// One generator per thread.
    rngs: Vec<XorShift64>,
}

impl<G: Game> Mcts<G> {
    /// A searcher with `config` (checked).
    pub fn new(config: MctsConfig) -> Result<Mcts<G>, ConfigError> {
        config.validate()?;
        let mut mcts = Mcts {
            config,
            trees: Vec::new(),
            rngs: Vec::new(),
        };
        mcts.clear();
        Ok(mcts)
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Forgets the trees and restarts the random draws from the seed (a new game).
    pub fn clear(&mut self) {
        self.trees.clear();
        self.rngs = (0..self.config.threads as u64)
            .map(|i| {
                XorShift64::new(if i == 0 {
                    self.config.seed
                } else {
                    mix(self.config.seed, i)
                })
            })
            .collect();
    }

    /// Searches `game` within `limits` (or until `stop` is set, or the root is proven),
    /// starting from what the last search left of its tree under `game` (tree reuse).
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &MctsLimits,
        stop: Option<&AtomicBool>,
    ) -> MctsResult<G::Move> {
        let start = Instant::now();
        let config = self.config;
        let trees = match config.parallel {
            MctsParallel::Tree => 1,
            MctsParallel::Root => config.threads,
        };
        if self.trees.len() == trees {
            for tree in &mut self.trees {
                let tree = tree.get_mut().expect("no thread panicked with the lock");
                tree.reroot(game, config.transpositions);
            }
        } else {
            self.trees = (0..trees)
                .map(|_| Mutex::new(Tree::new(game, config.transpositions)))
                .collect();
        }
        let control = Control {
            started: AtomicU64::new(0),
            limit: limits.playouts.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            stop,
            proven: AtomicBool::new(false),
        };
        let trees = &self.trees;
        let control = &control;
        if config.threads == 1 {
            work(&trees[0], &mut self.rngs[0], eval, &config, control);
        } else {
            std::thread::scope(|scope| {
                for (i, rng) in self.rngs.iter_mut().enumerate() {
                    let tree = &trees[i % trees.len()];
                    scope.spawn(move || work(tree, rng, eval, &config, control));
                }
            });
        }
        let trees: Vec<&Tree<G>> = self
            .trees
            .iter_mut()
            .map(|t| &*t.get_mut().expect("no thread panicked with the lock"))
            .collect();
        result(&trees, config.solver)
    }
}

/// When the workers stop.
struct Control<'a> {
    started: AtomicU64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// A tree's root is proven (with root parallelism, any tree's).
    proven: AtomicBool,
}

impl Control<'_> {
    /// Whether to start another iteration (and, if so, counts it).
    fn go_on(&self) -> bool {
        if self.proven.load(Ordering::Relaxed)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return false;
        }
        self.started.fetch_add(1, Ordering::Relaxed) < self.limit
    }
}

/// One thread's iterations on `tree`.
fn work<G: Game, E: Evaluator<G>>(
    tree: &Mutex<Tree<G>>,
    rng: &mut XorShift64,
    eval: &E,
    config: &MctsConfig,
    control: &Control,
) {
    let mut path = Vec::new();
    let mut moves = Vec::new();
    while control.go_on() {
        let leaf = {
            let mut t = tree.lock().expect("no thread panicked with the lock");
            if t.root().proof.is_some() {
                control.proven.store(true, Ordering::Relaxed);
                break;
            }
            t.descend(rng, config, &mut path)
        };
        let reward = match leaf {
            Leaf::Known(reward) => reward,
            Leaf::Open(game) => playout(&game, eval, rng, config, &mut moves),
        };
        let mut t = tree.lock().expect("no thread panicked with the lock");
        t.backup(&path, reward, config.solver);
        if t.root().proof.is_some() {
            control.proven.store(true, Ordering::Relaxed);
        }
    }
}

/// Monte Carlo tree search of `game` with random playouts, for `playouts` iterations (fewer if
/// the root gets proven), on a fresh tree. Deterministic for a `config.seed` on one thread.
pub fn mcts<G: Game>(game: &G, config: &MctsConfig, playouts: u64) -> MctsResult<G::Move> {
    let config = MctsConfig {
        playout: Playout::Random,
        ..*config
    };
    let mut search = Mcts::new(config).expect("a valid configuration");
    search.search(game, &NoEval, &MctsLimits::playouts(playouts), None)
}

/// The result of one tree or more (root parallelism: statistics added up by move).
fn result<G: Game>(trees: &[&Tree<G>], solver: bool) -> MctsResult<G::Move> {
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
