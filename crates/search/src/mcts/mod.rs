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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::rng::{mix, XorShift64};
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
mod tree;

use tree::{playout, result, Leaf, NoEval, Tree};

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
