//! df-pn: the depth-first form of proof-number search (Nagai, 2002). A node is searched until
//! its proof number reaches a threshold or its disproof number another; the numbers of the
//! positions met are kept in a table, so that a node left and come back to starts from them.
//! The child's thresholds use the 1+ε trick (Pawlewicz and Lew, 2007): the best child is
//! searched until its number passes the second best's times 1+ε, not just the second best's
//! plus one, which saves re-expansions.

use std::collections::HashMap;

use super::{add, terminal, Goal, Number, ProofResult, ProofTree, Verdict, INFINITE, TREE_LIMIT};
use crate::{Evaluator, Game};

/// How df-pn searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfpnConfig {
    /// The ε of the 1+ε trick (0: the plain thresholds of Nagai's df-pn).
    pub epsilon: f64,
    /// The most positions visited before the search gives up ([`Verdict::Unknown`]).
    pub max_nodes: u64,
    /// The most table entries: past it the table is cleared of its unsettled entries (proved
    /// and disproved positions stay).
    pub max_entries: usize,
}

impl Default for DfpnConfig {
    fn default() -> Self {
        DfpnConfig {
            epsilon: 0.25,
            max_nodes: 10_000_000,
            max_entries: 4_000_000,
        }
    }
}

/// A search in progress.
struct Dfpn<'a, G: Game> {
    goal: Goal,
    config: &'a DfpnConfig,
    /// Position → (proof number, disproof number) for the side to move there.
    table: HashMap<(u64, bool), (Number, Number)>,
    nodes: u64,
    expanded: u64,
    /// Set when the node limit is passed: every frame returns at once.
    out_of_nodes: bool,
    /// A new position's numbers (df-pn+), for the side to move there being the attacker or
    /// not; `None`: 1 and 1.
    initial: Option<&'a Initial<'a, G>>,
}

/// A new position's numbers, for the side to move there being the attacker or not.
type Initial<'a, G> = dyn Fn(&G, bool) -> (Number, Number) + 'a;

/// Proves or disproves `goal` for the side to move at `root` by df-pn.
pub fn dfpn<G: Game>(root: &G, goal: Goal, config: &DfpnConfig) -> ProofResult<G::Move> {
    run(root, goal, config, None)
}

/// df-pn+: as [`dfpn`], a new position's numbers drawn from `eval` instead of 1 and 1 (Nagai's
/// df-pn+ heuristic initial numbers): a position the evaluation finds good for the attacker
/// starts with a small proof number and a larger disproof number, and the other way round,
/// from 1 up to 1 + [`GUIDE_STEPS`] by steps of a quarter of the evaluation's
/// [`Evaluator::win_scale`]. The verdicts are the same; the nodes differ.
pub fn dfpn_guided<G: Game, E: Evaluator<G>>(
    root: &G,
    goal: Goal,
    eval: &E,
    config: &DfpnConfig,
) -> ProofResult<G::Move> {
    let step = (eval.win_scale() / 4.0).max(1.0);
    let initial = |game: &G, attacker: bool| {
        let v = f64::from(eval.evaluate(game).raw());
        let for_attacker = if attacker { v } else { -v };
        let k = (for_attacker / step).clamp(-GUIDE_STEPS, GUIDE_STEPS);
        (1 + (-k).max(0.0) as Number, 1 + k.max(0.0) as Number)
    };
    run(root, goal, config, Some(&initial))
}

/// The most a guided position's number grows above 1.
pub const GUIDE_STEPS: f64 = 4.0;

/// A df-pn search of `root`, guided by `initial` if given.
fn run<G: Game>(
    root: &G,
    goal: Goal,
    config: &DfpnConfig,
    initial: Option<&Initial<'_, G>>,
) -> ProofResult<G::Move> {
    let mut search = Dfpn {
        goal,
        config,
        table: HashMap::new(),
        nodes: 1,
        expanded: 0,
        out_of_nodes: false,
        initial,
    };
    let (pn, dn) = match root.outcome() {
        Some(score) => terminal(score, true, goal),
        None => search.mid(root, true, INFINITE, INFINITE),
    };
    let verdict = match (pn, dn) {
        (0, _) => Verdict::Proved,
        (_, 0) => Verdict::Disproved,
        _ => Verdict::Unknown,
    };
    let best_move = if verdict == Verdict::Proved {
        root.legal_moves().into_iter().find(|&m| {
            let child = root.play(m);
            search.numbers(&child, false).0 == 0
        })
    } else {
        None
    };
    let (proof_size, tree) = match verdict {
        Verdict::Unknown => (None, None),
        settled => {
            let mut seen = std::collections::HashSet::new();
            let mut kept = 0;
            match search.walk(root, true, settled == Verdict::Proved, &mut seen, &mut kept) {
                Some(tree) => (
                    Some(seen.len() as u64),
                    (kept <= TREE_LIMIT).then_some(tree),
                ),
                None => (None, None),
            }
        }
    };
    ProofResult {
        verdict,
        best_move,
        pn,
        dn,
        expanded: search.expanded,
        nodes: search.nodes,
        stored: search.table.len(),
        proof_size,
        tree,
    }
}

impl<G: Game> Dfpn<'_, G> {
    /// Walks the proof (`proof`) or disproof tree below `game` through the table, adding its
    /// positions to `seen` and counting the tree's in `kept` (past [`TREE_LIMIT`] the subtrees
    /// are no longer kept); `None` if a position it needs is not settled there (the tree does
    /// not hold).
    fn walk(
        &self,
        game: &G,
        attacker: bool,
        proof: bool,
        seen: &mut std::collections::HashSet<(u64, bool)>,
        kept: &mut usize,
    ) -> Option<ProofTree<G::Move>> {
        let settled = |(pn, dn): (Number, Number)| if proof { pn == 0 } else { dn == 0 };
        if !seen.insert((game.hash(), attacker)) {
            *kept += 1;
            return Some(ProofTree::again());
        }
        *kept += 1;
        if let Some(score) = game.outcome() {
            return settled(terminal(score, attacker, self.goal)).then(ProofTree::leaf);
        }
        // The side that must show something (the attacker for a proof, the defender for a
        // disproof) needs one settled child; the other side, all of them.
        let mut children = Vec::new();
        let mut keep = |kept: &usize, mv: G::Move, tree: ProofTree<G::Move>| {
            if *kept <= TREE_LIMIT {
                children.push((mv, tree));
            }
        };
        if attacker == proof {
            let (mv, child) = game
                .legal_moves()
                .into_iter()
                .map(|m| (m, game.play(m)))
                .find(|(_, c)| settled(self.numbers(c, !attacker)))?;
            let tree = self.walk(&child, !attacker, proof, seen, kept)?;
            keep(kept, mv, tree);
        } else {
            for mv in game.legal_moves() {
                let child = game.play(mv);
                if !settled(self.numbers(&child, !attacker)) {
                    return None;
                }
                let tree = self.walk(&child, !attacker, proof, seen, kept)?;
                keep(kept, mv, tree);
            }
        }
        Some(ProofTree {
            children,
            again: false,
        })
    }

    /// A position's numbers: its outcome's, the table's, or 1 and 1.
    fn numbers(&self, game: &G, attacker: bool) -> (Number, Number) {
        if let Some(score) = game.outcome() {
            return terminal(score, attacker, self.goal);
        }
        self.table
            .get(&(game.hash(), attacker))
            .copied()
            .unwrap_or((1, 1))
    }

    /// Keeps a position's numbers, making room first if the table is full.
    fn store(&mut self, game: &G, attacker: bool, numbers: (Number, Number)) {
        if self.table.len() >= self.config.max_entries {
            self.table.retain(|_, &mut (pn, dn)| pn == 0 || dn == 0);
        }
        self.table.insert((game.hash(), attacker), numbers);
    }

    /// Searches `game` (not finished; `attacker` to move or not) until its proof number
    /// reaches `th_pn` or its disproof number `th_dn`; returns its numbers.
    fn mid(&mut self, game: &G, attacker: bool, th_pn: Number, th_dn: Number) -> (Number, Number) {
        let moves = game.legal_moves();
        let children: Vec<G> = moves.iter().map(|&m| game.play(m)).collect();
        if let Some(initial) = self.initial {
            // A new child's guided numbers, kept so that the evaluation runs once.
            for child in &children {
                let key = (child.hash(), !attacker);
                if child.outcome().is_none() && !self.table.contains_key(&key) {
                    let numbers = initial(child, !attacker);
                    self.table.insert(key, numbers);
                }
            }
        }
        self.expanded += 1;
        self.nodes += children.len() as u64;
        if self.nodes > self.config.max_nodes {
            self.out_of_nodes = true;
        }
        loop {
            // The node's numbers from its children's, and the two best children.
            let (mut best, mut best_n, mut second_n) = (0, INFINITE, INFINITE);
            let mut best_other = 0;
            let mut sum = 0;
            for (i, child) in children.iter().enumerate() {
                let (cpn, cdn) = self.numbers(child, !attacker);
                // At an attacker's node the proof number is the least child's; at a
                // defender's the disproof number.
                let (n, other) = if attacker { (cpn, cdn) } else { (cdn, cpn) };
                sum = add(sum, other);
                if n < best_n {
                    second_n = best_n;
                    best_n = n;
                    best = i;
                    best_other = other;
                } else if n < second_n {
                    second_n = n;
                }
            }
            let (pn, dn) = if attacker {
                (best_n, sum)
            } else {
                (sum, best_n)
            };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.out_of_nodes {
                self.store(game, attacker, (pn, dn));
                return (pn, dn);
            }
            // The best child's thresholds: its own number up to the second best's times 1+ε
            // (plus one), the other number what the node can spend of its own threshold.
            let eased = ((second_n as f64) * (1.0 + self.config.epsilon)).ceil() as Number;
            let (th_n, th_other) = if attacker {
                (th_pn, th_dn)
            } else {
                (th_dn, th_pn)
            };
            let child_th_n = th_n.min(add(eased.max(second_n), 1)).min(INFINITE);
            let child_th_other = add(th_other.saturating_sub(sum), best_other);
            let (child_th_pn, child_th_dn) = if attacker {
                (child_th_n, child_th_other)
            } else {
                (child_th_other, child_th_n)
            };
            let child = &children[best];
            let numbers = self.mid(child, !attacker, child_th_pn, child_th_dn);
            self.store(child, !attacker, numbers);
        }
    }
}
