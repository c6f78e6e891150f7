//! The pictures as an indented outline for terminals.

use std::fmt::Write;

use super::{notes, PassTree, Picture, Shape, ShapeKind};
use prune_search::NodeEnd;

/// Writes `pictures` one after the other.
pub fn render(pictures: &[Picture]) -> String {
    let mut out = String::new();
    for (k, picture) in pictures.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}", picture.title);
        let _ = writeln!(out, "{}", picture.summary());
        for pass in &picture.passes {
            if picture.total_passes > 1 {
                let _ = writeln!(out, "\n{}", pass.title);
            }
            write_shape(&mut out, pass, 0, "", "");
        }
    }
    out.push_str(
        "\nMAX: the root player to move; values and windows (α, β) from MAX's view; \
         ≥/≤: a bound;\n*: principal variation; <cut: the move that caused its parent's \
         cutoff; ✕: pruned.\n",
    );
    out
}

/// Writes shape `index` after `lead` (its branch) and its subtree with `indent` before.
fn write_shape(out: &mut String, pass: &PassTree, index: usize, lead: &str, indent: &str) {
    let shape = &pass.shapes[index];
    let _ = writeln!(out, "{lead}{}", line(shape));
    let count = shape.children.len();
    for (k, &c) in shape.children.iter().enumerate() {
        let last = k + 1 == count;
        let (branch, more) = if last {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        write_shape(
            out,
            pass,
            c,
            &format!("{indent}{branch}"),
            &format!("{indent}{more}"),
        );
    }
}

/// One shape's line: `e6: MIN ≤-2 (+1, +inf) α cutoff: ...`.
fn line(shape: &Shape) -> String {
    let mut text = match &shape.mv {
        Some(mv) => format!("{mv}: "),
        None => String::new(),
    };
    let v = match &shape.kind {
        ShapeKind::Pruned => {
            text.push_str("✕ pruned");
            return text;
        }
        ShapeKind::Visited(v) => v,
    };
    let _ = write!(
        text,
        "{} {}",
        if shape.max { "MAX" } else { "MIN" },
        v.value.label()
    );
    if shape.pv {
        text.push('*');
    }
    if let Some((alpha, beta)) = v.window {
        let _ = write!(text, "  ({alpha}, {beta})");
    }
    match v.end {
        NodeEnd::Terminal => text.push_str("  end"),
        NodeEnd::Horizon => text.push_str("  leaf"),
        NodeEnd::Table | NodeEnd::Searched => {}
    }
    for note in notes(v) {
        let _ = write!(text, "  {note}");
    }
    if shape.caused_cutoff {
        text.push_str("  <cut");
    }
    if let Some(cutoff) = &v.cutoff {
        let _ = write!(text, "  {cutoff}");
    }
    text
}
