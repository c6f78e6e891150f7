//! Proof-number search over any [`Game`]: best-first PN search (Allis, van der Meulen and van
//! den Herik, "Proof-number search", Artificial Intelligence 66, 1994) and its depth-first form
//! df-pn (Nagai, 2002) with a transposition table and the 1+ε trick of Pawlewicz and Lew.
//!
//! A search proves or disproves a [`Goal`] of the side to move at the root (the attacker): that
//! it wins, or that it does at least draw. At the attacker's nodes (OR) one child must be proved,
//! at the defender's (AND) every child. A node's proof number is how many leaves at least must
//! still be proved to prove it, its disproof number how many must be disproved to disprove it;
//! both searches expand where proving or disproving is cheapest. Win, draw or loss comes from
//! two searches ([`solve_wdl`]): a win, else at least a draw.
//!
//! Positions are proved as positions: the game's [`Game::hash`] keys the table, so a game whose
//! result depends on the path to a position (repetition rules) needs the graph-history
//! handling this module does not have yet. Every proof here is checked against plain minimax
//! by the tests (random trees, tic-tac-toe).

mod best_first;
mod depth_first;

pub use best_first::pn_search;
pub use depth_first::{dfpn, dfpn_guided, DfpnConfig, GUIDE_STEPS};

use crate::{Evaluator, Game, Score};

/// The proof-number searches by name, one door for every front end (`prune search
/// --algorithm`, the page, Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProofAlgorithm {
    /// Best-first PN search ([`pn_search`]; the tree in memory, at most the node limit).
    Pns,
    /// df-pn ([`dfpn`]; depth-first, with a table).
    Dfpn,
    /// df-pn+ ([`dfpn_guided`]): df-pn with new positions' numbers from the evaluation.
    DfpnGuided,
}

impl ProofAlgorithm {
    /// Every one, in the order of their names in help texts.
    pub const ALL: [ProofAlgorithm; 3] = [
        ProofAlgorithm::Pns,
        ProofAlgorithm::Dfpn,
        ProofAlgorithm::DfpnGuided,
    ];

    /// The one `name` names (`pns`, `dfpn`, `dfpn+`; also `pn`, `df-pn`, `df-pn+`; any case),
    /// if any.
    pub fn named(name: &str) -> Option<ProofAlgorithm> {
        match name.trim().to_ascii_lowercase().as_str() {
            "pns" | "pn" => Some(ProofAlgorithm::Pns),
            "dfpn" | "df-pn" => Some(ProofAlgorithm::Dfpn),
            "dfpn+" | "df-pn+" => Some(ProofAlgorithm::DfpnGuided),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            ProofAlgorithm::Pns => "pns",
            ProofAlgorithm::Dfpn => "dfpn",
            ProofAlgorithm::DfpnGuided => "dfpn+",
        }
    }

    /// Proves or disproves `goal` at `root`, visiting (df-pn) or keeping (PN) at most
    /// `max_nodes` nodes; `eval` guides df-pn+ only.
    pub fn prove<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        goal: Goal,
        eval: &E,
        max_nodes: u64,
    ) -> ProofResult<G::Move> {
        let config = DfpnConfig {
            max_nodes,
            ..DfpnConfig::default()
        };
        match self {
            ProofAlgorithm::Pns => {
                pn_search(root, goal, usize::try_from(max_nodes).unwrap_or(usize::MAX))
            }
            ProofAlgorithm::Dfpn => dfpn(root, goal, &config),
            ProofAlgorithm::DfpnGuided => dfpn_guided(root, goal, eval, &config),
        }
    }

    /// Win, draw or loss of `root` by [`solve_wdl`] with this search, each proof within
    /// `max_nodes`; with every proof it ran, in order.
    #[allow(clippy::type_complexity)]
    pub fn solve<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        max_nodes: u64,
    ) -> (WdlResult<G::Move>, Vec<(Goal, ProofResult<G::Move>)>) {
        let mut proofs = Vec::new();
        let result = solve_wdl(root, &mut |g: &G, goal: Goal| {
            let r = self.prove(g, goal, eval, max_nodes);
            proofs.push((goal, r.clone()));
            r
        });
        (result, proofs)
    }
}

impl std::fmt::Display for ProofAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A proof or disproof number; [`INFINITE`] means proved (as a disproof number) or disproved
/// (as a proof number).
pub type Number = u64;

/// The infinite proof or disproof number (sums stop there).
pub const INFINITE: Number = u64::MAX / 4;

/// What the side to move at the root sets out to prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// It wins.
    Win,
    /// It does at least draw.
    AtLeastDraw,
}

impl Goal {
    /// Its name in reports: `win` or `at least a draw`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::AtLeastDraw => "at least a draw",
        }
    }

    /// Whether a finished game's `score` for the attacker meets the goal.
    fn met_by(self, attacker_score: Score) -> bool {
        match self {
            Goal::Win => attacker_score > Score::DRAW,
            Goal::AtLeastDraw => attacker_score >= Score::DRAW,
        }
    }
}

/// A search's verdict on its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The goal holds: proved.
    Proved,
    /// The goal fails: disproved.
    Disproved,
    /// The limits stopped the search first.
    Unknown,
}

impl Verdict {
    /// Its name in reports: `proved`, `disproved` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Disproved => "disproved",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The result of a proof-number search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofResult<M> {
    /// What was found.
    pub verdict: Verdict,
    /// A move that proves the goal (when proved at a root with moves).
    pub best_move: Option<M>,
    /// The root's proof and disproof numbers at the end.
    pub pn: Number,
    /// See `pn`.
    pub dn: Number,
    /// Nodes expanded (their children generated).
    pub expanded: u64,
    /// Positions visited (children evaluated, the root included).
    pub nodes: u64,
    /// Positions kept: the tree's nodes (PN) or the table's entries (df-pn).
    pub stored: usize,
    /// The distinct positions of the proof (or disproof) tree, walked and checked from the
    /// root down to finished positions: at the side that must show something one settled
    /// child, at the other every child (`None` while unsettled).
    pub proof_size: Option<u64>,
    /// That tree itself, to walk or print, when it has at most [`TREE_LIMIT`] positions
    /// (`None` while unsettled, or when larger: it is then only counted).
    pub tree: Option<ProofTree<M>>,
}

/// The most positions a [`ProofTree`] keeps; a larger proof is counted
/// ([`ProofResult::proof_size`]) but not kept.
pub const TREE_LIMIT: usize = 100_000;

/// A proof or disproof tree as a search settled it: from each position the moves that show
/// the result (one where the side that must show something moves: the attacker for a proof,
/// the defender for a disproof; every legal move where the other side does), down to finished
/// games. A position met a second time in the walk is a leaf marked `again` (its tree is
/// the first one's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofTree<M> {
    /// The moves from this position, each with the tree after it (none at a finished game).
    pub children: Vec<(M, ProofTree<M>)>,
    /// Whether the position came earlier in the walk.
    pub again: bool,
}

impl<M> ProofTree<M> {
    /// A leaf: a finished game.
    pub(crate) fn leaf() -> Self {
        ProofTree {
            children: Vec::new(),
            again: false,
        }
    }

    /// A position met before.
    pub(crate) fn again() -> Self {
        ProofTree {
            children: Vec::new(),
            again: true,
        }
    }

    /// Its positions, the `again` leaves included.
    pub fn len(&self) -> usize {
        1 + self.children.iter().map(|(_, t)| t.len()).sum::<usize>()
    }

    /// Whether it is a single position (a finished game, or one met before).
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// Its longest line, in plies.
    pub fn depth(&self) -> usize {
        self.children
            .iter()
            .map(|(_, t)| 1 + t.depth())
            .max()
            .unwrap_or(0)
    }
}

impl<M: std::fmt::Display> ProofTree<M> {
    /// The tree as text, a move per line indented two spaces a ply, at most `max_plies` deep
    /// (a cut subtree ends in `...` with its size).
    pub fn render(&self, max_plies: usize) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0, max_plies);
        out
    }

    fn render_into(&self, out: &mut String, ply: usize, max_plies: usize) {
        for (mv, tree) in &self.children {
            let indent = "  ".repeat(ply);
            let note = if tree.again {
                " (again: as above)"
            } else if tree.children.is_empty() {
                " (game over)"
            } else {
                ""
            };
            out.push_str(&format!("{indent}{mv}{note}\n"));
            if !tree.children.is_empty() {
                if ply + 1 < max_plies {
                    tree.render_into(out, ply + 1, max_plies);
                } else {
                    out.push_str(&format!("{indent}  ... ({} positions)\n", tree.len() - 1));
                }
            }
        }
    }
}

/// Win, draw or loss for the side to move, as two proof searches settle it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wdl {
    /// Its name in reports: `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }

    /// The result a finished game's score gives its side to move.
    pub fn of(score: Score) -> Wdl {
        match score.cmp(&Score::DRAW) {
            std::cmp::Ordering::Greater => Wdl::Win,
            std::cmp::Ordering::Equal => Wdl::Draw,
            std::cmp::Ordering::Less => Wdl::Loss,
        }
    }
}

/// The result of [`solve_wdl`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WdlResult<M> {
    /// Win, draw or loss (`None`: the limits stopped a search first).
    pub wdl: Option<Wdl>,
    /// A move that keeps the result (a winning move, or a drawing one for a draw).
    pub best_move: Option<M>,
    /// Nodes visited by both searches.
    pub nodes: u64,
}

/// The search a [`solve_wdl`] runs: `search(root, goal)`.
pub trait ProofSearch<G: Game> {
    /// Proves or disproves `goal` at `root`.
    fn prove(&mut self, root: &G, goal: Goal) -> ProofResult<G::Move>;
}

impl<G: Game, F: FnMut(&G, Goal) -> ProofResult<G::Move>> ProofSearch<G> for F {
    fn prove(&mut self, root: &G, goal: Goal) -> ProofResult<G::Move> {
        self(root, goal)
    }
}

/// Win, draw or loss of `root` by two proof searches: the win, and if it is disproved, at least
/// the draw (MCTS-Solver and the alpha-beta WDL window settle it the same way).
pub fn solve_wdl<G: Game>(root: &G, search: &mut impl ProofSearch<G>) -> WdlResult<G::Move> {
    if let Some(score) = root.outcome() {
        return WdlResult {
            wdl: Some(Wdl::of(score)),
            best_move: None,
            nodes: 1,
        };
    }
    let win = search.prove(root, Goal::Win);
    let mut nodes = win.nodes;
    let (wdl, best_move) = match win.verdict {
        Verdict::Proved => (Some(Wdl::Win), win.best_move),
        Verdict::Unknown => (None, None),
        Verdict::Disproved => {
            let draw = search.prove(root, Goal::AtLeastDraw);
            nodes += draw.nodes;
            match draw.verdict {
                Verdict::Proved => (Some(Wdl::Draw), draw.best_move),
                Verdict::Disproved => (Some(Wdl::Loss), None),
                Verdict::Unknown => (None, None),
            }
        }
    };
    WdlResult {
        wdl,
        best_move,
        nodes,
    }
}

/// The proof and disproof numbers of a finished position, `attacker` whether the attacker is
/// to move there.
fn terminal(score: Score, attacker: bool, goal: Goal) -> (Number, Number) {
    let attacker_score = if attacker { score } else { -score };
    if goal.met_by(attacker_score) {
        (0, INFINITE)
    } else {
        (INFINITE, 0)
    }
}

/// `a + b`, stopping at [`INFINITE`].
fn add(a: Number, b: Number) -> Number {
    a.saturating_add(b).min(INFINITE)
}
