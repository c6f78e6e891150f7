//! Best-first proof-number search: the tree kept whole in memory (bounded by a node limit), the
//! most-proving leaf found from the root, expanded, and the numbers updated back up its path.

use super::{add, terminal, Goal, Number, ProofResult, ProofTree, Verdict, INFINITE, TREE_LIMIT};
use crate::Game;

/// A node of the tree.
struct Node<G: Game> {
    game: G,
    /// The move that reached it (none at the root).
    mv: Option<G::Move>,
    parent: Option<usize>,
    /// Its children's indices, once expanded.
    children: Vec<usize>,
    expanded: bool,
    /// Whether the attacker is to move (an OR node).
    attacker: bool,
    pn: Number,
    dn: Number,
}

/// Proves or disproves `goal` for the side to move at `root` by best-first PN search, keeping
/// at most `max_nodes` nodes (the search stops, [`Verdict::Unknown`], when the next expansion
/// would pass it).
pub fn pn_search<G: Game>(root: &G, goal: Goal, max_nodes: usize) -> ProofResult<G::Move> {
    let mut tree = vec![leaf(root.clone(), None, None, true, goal)];
    let mut expanded = 0;
    let mut nodes = 1u64;
    while tree[0].pn != 0 && tree[0].dn != 0 {
        // The most-proving node: down through the child that sets the number that matters.
        let mut n = 0;
        while tree[n].expanded {
            let pick = |c: &usize| {
                if tree[n].attacker {
                    tree[*c].pn
                } else {
                    tree[*c].dn
                }
            };
            n = *tree[n]
                .children
                .iter()
                .min_by_key(|c| pick(c))
                .expect("an expanded node that is not settled has children");
        }
        let moves = tree[n].game.legal_moves();
        if tree.len() + moves.len() > max_nodes {
            break;
        }
        let attacker = !tree[n].attacker;
        for mv in moves {
            let child = tree[n].game.play(mv);
            let index = tree.len();
            tree.push(leaf(child, Some(mv), Some(n), attacker, goal));
            tree[n].children.push(index);
            nodes += 1;
        }
        tree[n].expanded = true;
        expanded += 1;
        // The numbers up the path, as far as they change.
        let mut at = Some(n);
        while let Some(i) = at {
            let (pn, dn) = numbers(&tree, i);
            if tree[i].expanded && (pn, dn) == (tree[i].pn, tree[i].dn) && i != n {
                break;
            }
            tree[i].pn = pn;
            tree[i].dn = dn;
            at = tree[i].parent;
        }
    }
    let root_node = &tree[0];
    let verdict = match (root_node.pn, root_node.dn) {
        (0, _) => Verdict::Proved,
        (_, 0) => Verdict::Disproved,
        _ => Verdict::Unknown,
    };
    let best_move = (verdict == Verdict::Proved)
        .then(|| {
            root_node
                .children
                .iter()
                .find(|&&c| tree[c].pn == 0)
                .and_then(|&c| tree[c].mv)
        })
        .flatten();
    let (proof_size, proof_tree) = match verdict {
        Verdict::Unknown => (None, None),
        settled => {
            let mut seen = std::collections::HashSet::new();
            let mut kept = 0;
            match walk(&tree, 0, settled == Verdict::Proved, &mut seen, &mut kept) {
                Some(t) => (Some(seen.len() as u64), (kept <= TREE_LIMIT).then_some(t)),
                None => (None, None),
            }
        }
    };
    ProofResult {
        verdict,
        best_move,
        pn: root_node.pn,
        dn: root_node.dn,
        expanded,
        nodes,
        stored: tree.len(),
        proof_size,
        tree: proof_tree,
    }
}

/// Walks the proof (`proof`) or disproof tree below node `i`, adding its positions to `seen`
/// and counting the tree's in `kept` (past [`TREE_LIMIT`] the subtrees are no longer kept);
/// `None` if it does not hold (a leaf that is not finished, or a settled number with no child
/// that settles it).
fn walk<G: Game>(
    tree: &[Node<G>],
    i: usize,
    proof: bool,
    seen: &mut std::collections::HashSet<(u64, bool)>,
    kept: &mut usize,
) -> Option<ProofTree<G::Move>> {
    let node = &tree[i];
    let settled = |n: &Node<G>| if proof { n.pn == 0 } else { n.dn == 0 };
    *kept += 1;
    if !seen.insert((node.game.hash(), node.attacker)) {
        return Some(ProofTree::again());
    }
    if !node.expanded {
        return (node.game.outcome().is_some() && settled(node)).then(ProofTree::leaf);
    }
    let mut children = Vec::new();
    let shown: Vec<usize> = if node.attacker == proof {
        vec![*node.children.iter().find(|&&c| settled(&tree[c]))?]
    } else {
        node.children.clone()
    };
    for c in shown {
        if !settled(&tree[c]) {
            return None;
        }
        let sub = walk(tree, c, proof, seen, kept)?;
        if *kept <= TREE_LIMIT {
            children.push((tree[c].mv.expect("a child has its move"), sub));
        }
    }
    Some(ProofTree {
        children,
        again: false,
    })
}

/// A new leaf: its numbers from its outcome, or 1 and 1.
fn leaf<G: Game>(
    game: G,
    mv: Option<G::Move>,
    parent: Option<usize>,
    attacker: bool,
    goal: Goal,
) -> Node<G> {
    let (pn, dn) = match game.outcome() {
        Some(score) => terminal(score, attacker, goal),
        None => (1, 1),
    };
    Node {
        game,
        mv,
        parent,
        children: Vec::new(),
        expanded: false,
        attacker,
        pn,
        dn,
    }
}

/// Node `i`'s numbers from its children (a leaf keeps its own).
fn numbers<G: Game>(tree: &[Node<G>], i: usize) -> (Number, Number) {
    let node = &tree[i];
    if !node.expanded {
        return (node.pn, node.dn);
    }
    let (mut min, mut sum) = (INFINITE, 0);
    for &c in &node.children {
        let (pn, dn) = (tree[c].pn, tree[c].dn);
        if node.attacker {
            min = min.min(pn);
            sum = add(sum, dn);
        } else {
            min = min.min(dn);
            sum = add(sum, pn);
        }
    }
    if node.attacker {
        (min, sum)
    } else {
        (sum, min)
    }
}
