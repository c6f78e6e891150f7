//! Pictures of the tree a search visited: [`Picture::new`] turns a traced search
//! ([`SearchTree`]) into labelled shapes, and [`render`] draws pictures as SVG (laid out by a
//! tidy-tree layout of our own, [`layout`]), as Graphviz DOT or as indented text.
//!
//! Values and windows are shown as the textbooks show them, from the root player's point of
//! view: MAX nodes (the root player to move) as boxes, MIN nodes as ellipses. A value outside
//! its node's window is only a bound and is drawn as one (`≥ 5`, `≤ 3`). Moves that a cutoff
//! left unsearched hang from their node as crossed grey stubs; the child whose value caused
//! the cutoff is marked; the principal variation of the last pass is drawn thick.

mod dot;
mod layout;
mod svg;
mod text;

use std::fmt::Display;

use prune_search::{Named, NodeEnd, Score, SearchTree, TracedNode};

pub use layout::{layout, Layout};

/// The output formats of [`render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeFormat {
    /// Scalable vector graphics, laid out here.
    Svg,
    /// Graphviz DOT, laid out by Graphviz.
    Dot,
    /// An indented outline for terminals.
    Text,
}

impl Named for TreeFormat {
    const KIND: &'static str = "format";
    const ALL: &'static [Self] = &[TreeFormat::Svg, TreeFormat::Dot, TreeFormat::Text];

    fn name(self) -> &'static str {
        match self {
            TreeFormat::Svg => "svg",
            TreeFormat::Dot => "dot",
            TreeFormat::Text => "text",
        }
    }

    fn aliases(self) -> &'static [&'static str] {
        match self {
            TreeFormat::Dot => &["gv"],
            TreeFormat::Text => &["txt"],
            TreeFormat::Svg => &[],
        }
    }
}

impl Named for Passes {
    const KIND: &'static str = "passes";
    const ALL: &'static [Self] = &[Passes::All, Passes::Last];

    fn name(self) -> &'static str {
        match self {
            Passes::All => "all",
            Passes::Last => "last",
        }
    }
}

prune_search::named!(TreeFormat, Passes);

/// Draws `pictures` (one per search, one above the other) in `format`.
pub fn render(pictures: &[Picture], format: TreeFormat) -> String {
    match format {
        TreeFormat::Svg => svg::render(pictures),
        TreeFormat::Dot => dot::render(pictures),
        TreeFormat::Text => text::render(pictures),
    }
}

/// Which passes over the root to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// Every pass: each iteration of iterative deepening, each aspiration re-search, each
    /// MTD(f) pass.
    All,
    /// The last pass only (the one that gave the result).
    Last,
}

/// How a drawn node's value reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The value from the root player's point of view.
    pub score: Score,
    /// Whether it is exact, or only a bound (the search failed low or high on its window).
    pub bound: ValueBound,
}

/// What a drawn value means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueBound {
    /// The node's value.
    Exact,
    /// The node's value is at least this.
    Lower,
    /// The node's value is at most this.
    Upper,
}

impl Value {
    /// The value as drawn: `+3`, `≥ +3` or `≤ +3`.
    pub fn label(&self) -> String {
        match self.bound {
            ValueBound::Exact => self.score.to_string(),
            ValueBound::Lower => format!("≥{}", self.score),
            ValueBound::Upper => format!("≤{}", self.score),
        }
    }
}

/// A node the search visited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visited {
    /// Its value.
    pub value: Value,
    /// Its window `(alpha, beta)` from the root player's point of view, if it had one.
    pub window: Option<(Score, Score)>,
    /// How it got its value.
    pub end: NodeEnd,
    /// 0 for a first search of its move, 1 for a re-search, ...
    pub repeat: u32,
    /// Whether it belongs to a shallow search ordering its parent's moves.
    pub ordering: bool,
    /// Plies left below it.
    pub depth: u32,
    /// If a cutoff left some of its moves unsearched: how, e.g. `β cutoff: +5 ≥ β = +3`.
    pub cutoff: Option<String>,
}

/// A shape of a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    /// A node the search visited.
    Visited(Visited),
    /// A move a cutoff left unsearched.
    Pruned,
}

/// One shape of a [`PassTree`], with its edge from its parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The move on the edge from its parent (none at the root).
    pub mv: Option<String>,
    /// Visited or pruned.
    pub kind: ShapeKind,
    /// Whether the root player is to move here.
    pub max: bool,
    /// Its children, in search order, the pruned moves last.
    pub children: Vec<usize>,
    /// Whether it lies on the principal variation drawn.
    pub pv: bool,
    /// Whether its value ended its parent's search (a cutoff).
    pub caused_cutoff: bool,
}

impl Shape {
    /// The visited node, if it is one.
    pub fn visited(&self) -> Option<&Visited> {
        match &self.kind {
            ShapeKind::Visited(v) => Some(v),
            ShapeKind::Pruned => None,
        }
    }
}

/// The tree of one pass over the root; `shapes[0]` is the root, parents come before children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassTree {
    /// What the pass was, e.g. `depth 3, window (-inf, +inf)`.
    pub title: String,
    /// Its shapes.
    pub shapes: Vec<Shape>,
}

/// One search drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// What was searched, e.g. `alphabeta · uniform:width=3,depth=3 · depth 3`.
    pub title: String,
    /// The drawn passes.
    pub passes: Vec<PassTree>,
    /// Nodes the search visited in all (drawn or not).
    pub nodes: usize,
    /// Leaves it evaluated or found terminal, in all.
    pub leaves: usize,
    /// Moves cut off unsearched, in all.
    pub pruned: usize,
    /// The passes it made over the root.
    pub total_passes: usize,
}

impl Picture {
    /// The picture of `tree` titled `title`, drawing `passes` and marking `pv` (the search's
    /// principal variation) in the last pass.
    pub fn new<M: Copy + PartialEq + Display>(
        title: impl Into<String>,
        tree: &SearchTree<M>,
        pv: &[M],
        passes: Passes,
    ) -> Picture {
        let first = match passes {
            Passes::All => 0,
            Passes::Last => tree.roots.len().saturating_sub(1),
        };
        let last = tree.roots.len().saturating_sub(1);
        let on_pv = tree.follow(last, pv);
        let drawn = (first..tree.roots.len())
            .map(|pass| {
                let root = &tree.nodes[tree.roots[pass]];
                let (alpha, beta) = root.max_window();
                let mut title = format!(
                    "pass {} of {}: depth {}, window ({alpha}, {beta})",
                    pass + 1,
                    tree.roots.len(),
                    root.entered.depth
                );
                // A pass to the same depth as the one before searches again with another
                // window: an aspiration re-search or the next MTD(f) pass.
                let again = pass
                    .checked_sub(1)
                    .is_some_and(|q| tree.nodes[tree.roots[q]].entered.depth == root.entered.depth);
                if again {
                    title.push_str(", a re-search");
                }
                let mut shapes = Vec::new();
                let pv = if pass == last { &on_pv[..] } else { &[] };
                add_node(tree, tree.roots[pass], pv, &mut shapes);
                PassTree { title, shapes }
            })
            .collect();
        Picture {
            title: title.into(),
            passes: drawn,
            nodes: tree.len(),
            leaves: tree.leaves(),
            pruned: tree.pruned(),
            total_passes: tree.roots.len(),
        }
    }

    /// The shapes drawn (visited nodes and pruned moves).
    pub fn shapes(&self) -> usize {
        self.passes.iter().map(|p| p.shapes.len()).sum()
    }

    /// The visited nodes drawn.
    pub fn visited(&self) -> usize {
        self.passes
            .iter()
            .flat_map(|p| &p.shapes)
            .filter(|s| s.visited().is_some())
            .count()
    }

    /// A line saying what the search did: nodes, leaves, pruned moves, passes.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} nodes, {} leaves, {} {} pruned",
            self.nodes,
            self.leaves,
            self.pruned,
            if self.pruned == 1 { "move" } else { "moves" }
        );
        if self.total_passes > 1 {
            text.push_str(&format!(", {} passes", self.total_passes));
            if self.passes.len() < self.total_passes {
                text.push_str(" (the last drawn)");
            }
        }
        text
    }
}

/// Appends the shape of node `index` and (below it) of its subtree and pruned moves to
/// `shapes`; `pv` lists the nodes on the principal variation. Returns the shape's index.
fn add_node<M: Copy + PartialEq + Display>(
    tree: &SearchTree<M>,
    index: usize,
    pv: &[usize],
    shapes: &mut Vec<Shape>,
) -> usize {
    let node = &tree.nodes[index];
    let me = shapes.len();
    shapes.push(Shape {
        mv: node.entered.mv.map(|m| m.to_string()),
        kind: ShapeKind::Visited(visited(node)),
        max: node.is_max(),
        children: Vec::new(),
        pv: pv.contains(&index),
        caused_cutoff: false,
    });
    let mut children = Vec::new();
    for &c in &node.children {
        children.push(add_node(tree, c, pv, shapes));
    }
    if node.cut_off() {
        // The last child of its own search ended it.
        let cause = node
            .children
            .iter()
            .rposition(|&c| tree.is_searched_child(index, &tree.nodes[c].entered));
        if let Some(k) = cause {
            shapes[children[k]].caused_cutoff = true;
        }
    }
    for mv in &node.pruned {
        children.push(shapes.len());
        shapes.push(Shape {
            mv: Some(mv.to_string()),
            kind: ShapeKind::Pruned,
            max: !node.is_max(),
            children: Vec::new(),
            pv: false,
            caused_cutoff: false,
        });
    }
    shapes[me].children = children;
    me
}

/// The drawn facts of a visited node.
fn visited<M>(node: &TracedNode<M>) -> Visited {
    let (alpha, beta) = node.max_window();
    let score = node.max_value();
    let bound = if node.end == NodeEnd::Terminal || node.end == NodeEnd::Horizon {
        ValueBound::Exact
    } else if score <= alpha && alpha > -Score::INFINITY {
        ValueBound::Upper
    } else if score >= beta && beta < Score::INFINITY {
        ValueBound::Lower
    } else {
        ValueBound::Exact
    };
    let windowed = alpha > -Score::INFINITY || beta < Score::INFINITY;
    let cutoff = node.cut_off().then(|| {
        if node.is_max() {
            format!("β cutoff: {score} ≥ β = {beta}")
        } else {
            format!("α cutoff: {score} ≤ α = {alpha}")
        }
    });
    Visited {
        value: Value { score, bound },
        window: windowed.then_some((alpha, beta)),
        end: node.end,
        repeat: node.repeat,
        ordering: node.entered.ordering,
        depth: node.entered.depth,
        cutoff,
    }
}

/// Escapes `&`, `<`, `>` and quotes for XML and DOT labels.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A short note on how a visited node ended, for labels: `TT`, `re-search`, `ordering`.
fn notes(v: &Visited) -> Vec<&'static str> {
    let mut notes = Vec::new();
    if v.end == NodeEnd::Table {
        notes.push("table");
    }
    if v.repeat > 0 {
        notes.push("re-search");
    }
    if v.ordering {
        notes.push("ordering");
    }
    notes
}

#[cfg(test)]
mod tests;
