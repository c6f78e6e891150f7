//! A tidy-tree layout of our own, enough for the few hundred nodes a readable picture has:
//! the leaves of a pass side by side in search order, each parent centred over its first and
//! last child, one row per ply. Subtrees occupy disjoint ranges of columns, so nothing
//! overlaps; a pruned move takes a narrower column than a visited node.

use super::{PassTree, ShapeKind};

/// The width, in columns, of a visited leaf.
const VISITED_WIDTH: f64 = 1.0;

/// The width, in columns, of a pruned move.
const PRUNED_WIDTH: f64 = 0.6;

/// Where each shape of a pass goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Each shape's horizontal centre, in columns from the left edge.
    pub x: Vec<f64>,
    /// Each shape's row (its ply).
    pub row: Vec<usize>,
    /// The width of the whole tree, in columns.
    pub width: f64,
    /// How many rows it has.
    pub rows: usize,
}

/// Lays out `tree`.
pub fn layout(tree: &PassTree) -> Layout {
    let n = tree.shapes.len();
    let mut out = Layout {
        x: vec![0.0; n],
        row: vec![0; n],
        width: 0.0,
        rows: 0,
    };
    if n > 0 {
        place(tree, 0, 0, &mut out);
    }
    out.rows = out.row.iter().max().map_or(0, |r| r + 1);
    out
}

/// Places the subtree of `index` at `row`, its leaves from column `out.width` on.
fn place(tree: &PassTree, index: usize, row: usize, out: &mut Layout) {
    let shape = &tree.shapes[index];
    out.row[index] = row;
    if shape.children.is_empty() {
        let width = match shape.kind {
            ShapeKind::Visited(_) => VISITED_WIDTH,
            ShapeKind::Pruned => PRUNED_WIDTH,
        };
        out.x[index] = out.width + width / 2.0;
        out.width += width;
        return;
    }
    for &c in &shape.children {
        place(tree, c, row + 1, out);
    }
    let first = out.x[shape.children[0]];
    let last = out.x[*shape.children.last().expect("has children")];
    out.x[index] = (first + last) / 2.0;
}
