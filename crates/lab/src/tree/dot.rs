//! The pictures as Graphviz DOT: one cluster per pass, boxes for MAX and ellipses for MIN, the
//! window under the value, pruned moves as grey crosses on dashed edges.

use std::fmt::Write;

use super::{escape, notes, Picture, Shape, ShapeKind};

/// Writes `pictures` as one directed graph.
pub fn render(pictures: &[Picture]) -> String {
    let mut out = String::from(
        "digraph search {\n  node [fontname=\"Helvetica\", fontsize=11];\n  \
         edge [fontname=\"Helvetica\", fontsize=10, arrowhead=none];\n",
    );
    for (p, picture) in pictures.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{p} {{");
        let _ = writeln!(
            out,
            "    label=\"{}\\n{}\"; labelloc=t; style=invis;",
            escape(&picture.title),
            escape(&picture.summary())
        );
        for (k, pass) in picture.passes.iter().enumerate() {
            let _ = writeln!(out, "    subgraph cluster_{p}_{k} {{");
            let _ = writeln!(
                out,
                "      label=\"{}\"; style=dotted;",
                escape(&pass.title)
            );
            let id = |i: usize| format!("n{p}_{k}_{i}");
            for (i, shape) in pass.shapes.iter().enumerate() {
                let _ = writeln!(out, "      {} [{}];", id(i), node_attributes(shape));
            }
            for (i, shape) in pass.shapes.iter().enumerate() {
                for &c in &shape.children {
                    let _ = writeln!(
                        out,
                        "      {} -> {} [{}];",
                        id(i),
                        id(c),
                        edge_attributes(&pass.shapes[c])
                    );
                }
            }
            out.push_str("    }\n");
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn node_attributes(shape: &Shape) -> String {
    let v = match &shape.kind {
        ShapeKind::Pruned => {
            return "shape=plaintext, label=\"✕\", fontcolor=\"#d9480f\"".into();
        }
        ShapeKind::Visited(v) => v,
    };
    let mut label = v.value.label();
    if let Some((alpha, beta)) = v.window {
        let _ = write!(label, "\\n({alpha}, {beta})");
    }
    let notes = notes(v);
    if !notes.is_empty() {
        let _ = write!(label, "\\n{}", notes.join(", "));
    }
    if let Some(cutoff) = &v.cutoff {
        let _ = write!(label, "\\n{cutoff}");
    }
    let mut attributes = format!(
        "shape={}, label=\"{}\"",
        if shape.max { "box" } else { "ellipse" },
        escape(&label)
    );
    if shape.pv {
        attributes.push_str(", color=\"#1f5fbf\", penwidth=2.5");
    }
    if v.repeat > 0 {
        attributes.push_str(", style=dashed");
    }
    attributes
}

fn edge_attributes(child: &Shape) -> String {
    let mut attributes = format!(
        "label=\"{}\"",
        escape(child.mv.as_deref().unwrap_or_default())
    );
    if child.pv {
        attributes.push_str(", color=\"#1f5fbf\", penwidth=3");
    } else if child.caused_cutoff {
        attributes.push_str(", color=\"#d9480f\", penwidth=2");
    } else if matches!(child.kind, ShapeKind::Pruned) {
        attributes.push_str(", style=dashed, color=grey, fontcolor=grey");
    } else if child.visited().is_some_and(|v| v.ordering) {
        attributes.push_str(", style=dotted, color=grey");
    }
    attributes
}
