//! The pictures as SVG, written by hand: one band per picture (its title and summary), one
//! tree per pass under it, and a legend at the bottom.

use std::fmt::Write;

use super::layout::{layout, Layout};
use super::{escape, notes, PassTree, Picture, Shape, ShapeKind, ValueBound, Visited};
use prune_search::NodeEnd;

/// Pixels per layout column.
const COLUMN: f64 = 64.0;
/// Pixels per row (ply).
const ROW: f64 = 96.0;
/// The margin around everything.
const MARGIN: f64 = 20.0;
/// Half the width and height of a node's shape.
const HALF_W: f64 = 25.0;
const HALF_H: f64 = 13.0;
/// The height of a line of small text under a node.
const LINE: f64 = 10.0;
/// The height of a picture's title band and of a pass's title line.
const TITLE: f64 = 44.0;
const PASS_TITLE: f64 = 30.0;
/// The height of the legend.
const LEGEND: f64 = 70.0;

const PV_COLOUR: &str = "#1f5fbf";
const CUT_COLOUR: &str = "#d9480f";
const PRUNED_COLOUR: &str = "#9a9a9a";

/// Draws `pictures` one above the other.
pub fn render(pictures: &[Picture]) -> String {
    let mut body = String::new();
    let mut y = MARGIN;
    let mut width: f64 = 660.0;
    for picture in pictures {
        let _ = writeln!(
            body,
            r#"<text x="{MARGIN}" y="{:.1}" class="title">{}</text>"#,
            y + 16.0,
            escape(&picture.title)
        );
        let _ = writeln!(
            body,
            r#"<text x="{MARGIN}" y="{:.1}" class="summary">{}</text>"#,
            y + 34.0,
            escape(&picture.summary())
        );
        y += TITLE;
        for pass in &picture.passes {
            let placed = layout(pass);
            if picture.passes.len() > 1 || picture.total_passes > 1 {
                let _ = writeln!(
                    body,
                    r#"<text x="{MARGIN}" y="{:.1}" class="pass">{}</text>"#,
                    y + 18.0,
                    escape(&pass.title)
                );
                y += PASS_TITLE;
            }
            draw_pass(&mut body, pass, &placed, y + HALF_H + 4.0);
            width = width.max(placed.width * COLUMN + 2.0 * MARGIN);
            y += placed.rows as f64 * ROW;
        }
        y += 10.0;
    }
    draw_legend(&mut body, y);
    y += LEGEND;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{y:.0}" viewBox="0 0 {width:.0} {y:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    svg.push_str(STYLE);
    let _ = writeln!(
        svg,
        r#"<rect x="0" y="0" width="{width:.0}" height="{y:.0}" fill="white"/>"#
    );
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    svg
}

const STYLE: &str = r#"<style>
.title { font-size: 15px; font-weight: bold; }
.summary, .pass { font-size: 12px; fill: #444; }
.value { font-size: 12px; text-anchor: middle; dominant-baseline: central; }
.window, .note { font-size: 9px; text-anchor: middle; fill: #555; }
.note { font-style: italic; }
.cut { font-size: 9px; text-anchor: middle; fill: #d9480f; }
.move { font-size: 10px; fill: #222; }
.pruned { font-size: 10px; fill: #9a9a9a; text-anchor: middle; }
</style>
"#;

/// Draws one pass's tree with its root's centre at height `top`.
fn draw_pass(out: &mut String, pass: &PassTree, placed: &Layout, top: f64) {
    let at = |i: usize| {
        (
            MARGIN + placed.x[i] * COLUMN,
            top + placed.row[i] as f64 * ROW,
        )
    };
    // Edges first, so that the nodes cover their ends; they leave a node below the lines
    // written under it.
    for (i, shape) in pass.shapes.iter().enumerate() {
        let (px, py) = at(i);
        let below = shape.visited().map_or(0, annotations) as f64 * LINE;
        for &c in &shape.children {
            let (cx, cy) = at(c);
            draw_edge(
                out,
                &pass.shapes[c],
                (px, py + HALF_H + below),
                (cx, cy - HALF_H),
            );
        }
    }
    for (i, shape) in pass.shapes.iter().enumerate() {
        let (x, y) = at(i);
        match &shape.kind {
            ShapeKind::Visited(v) => draw_node(out, shape, v, x, y),
            ShapeKind::Pruned => draw_cross(out, x, y - HALF_H + 4.0),
        }
    }
}

/// Draws the edge to `child` from `from` to `to`, with its move.
fn draw_edge(out: &mut String, child: &Shape, from: (f64, f64), to: (f64, f64)) {
    let ordering = child.visited().is_some_and(|v| v.ordering);
    let (colour, width, dash) = if child.pv {
        (PV_COLOUR, 3.0, "")
    } else if child.caused_cutoff {
        (CUT_COLOUR, 2.0, "")
    } else if matches!(child.kind, ShapeKind::Pruned) {
        (PRUNED_COLOUR, 1.0, r#" stroke-dasharray="4 3""#)
    } else if ordering {
        (PRUNED_COLOUR, 1.0, r#" stroke-dasharray="1 3""#)
    } else {
        ("#333", 1.0, "")
    };
    let _ = writeln!(
        out,
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{width}"{dash}/>"#,
        from.0, from.1, to.0, to.1
    );
    if let Some(mv) = &child.mv {
        // The move, beside the edge a third of the way down (a pruned move's nearer its
        // cross, where the narrow stubs are apart).
        let pruned = matches!(child.kind, ShapeKind::Pruned);
        let t = if pruned { 0.7 } else { 0.35 };
        let (mx, my) = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        let class = if pruned { "pruned" } else { "move" };
        let anchor = if to.0 < from.0 - 1.0 { "end" } else { "start" };
        let dx = if anchor == "end" { -4.0 } else { 4.0 };
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" class="{class}" text-anchor="{anchor}">{}</text>"#,
            mx + dx,
            my,
            escape(mv)
        );
    }
}

/// Draws a visited node centred at `(x, y)`: a box for MAX, an ellipse for MIN, its value
/// inside; its window, notes and cutoff under it.
fn draw_node(out: &mut String, shape: &Shape, v: &Visited, x: f64, y: f64) {
    let fill = if v.ordering {
        "#f0f0f0"
    } else if v.end == NodeEnd::Table {
        "#fff3bf"
    } else if matches!(v.end, NodeEnd::Terminal | NodeEnd::Horizon) {
        "#e7f5ff"
    } else {
        "white"
    };
    let stroke = if shape.pv { PV_COLOUR } else { "#333" };
    let width = if shape.pv { 2.5 } else { 1.2 };
    let dash = if v.repeat > 0 {
        r#" stroke-dasharray="5 2""#
    } else {
        ""
    };
    let _ = writeln!(out, "<g><title>{}</title>", escape(&tooltip(shape, v)));
    if shape.max {
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>"#,
            x - HALF_W,
            y - HALF_H,
            2.0 * HALF_W,
            2.0 * HALF_H
        );
    } else {
        let _ = writeln!(
            out,
            r#"<ellipse cx="{x:.1}" cy="{y:.1}" rx="{HALF_W}" ry="{HALF_H}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>"#
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" class="value">{}</text>"#,
        escape(&v.value.label())
    );
    let mut below = y + HALF_H + LINE;
    if let Some((alpha, beta)) = v.window {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{below:.1}" class="window">({alpha}, {beta})</text>"#
        );
        below += LINE;
    }
    let notes = notes(v);
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{below:.1}" class="note">{}</text>"#,
            notes.join(", ")
        );
        below += LINE;
    }
    if v.cutoff.is_some() {
        let what = if shape.max { "β cutoff" } else { "α cutoff" };
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{below:.1}" class="cut">{what}</text>"#
        );
    }
    out.push_str("</g>\n");
}

/// How many lines of small text go under a visited node: its window, its notes, its cutoff.
fn annotations(v: &Visited) -> usize {
    usize::from(v.window.is_some())
        + usize::from(!notes(v).is_empty())
        + usize::from(v.cutoff.is_some())
}

/// What a node's tooltip says.
fn tooltip(shape: &Shape, v: &Visited) -> String {
    let mut text = format!(
        "{} node, value {}",
        if shape.max { "MAX" } else { "MIN" },
        v.value.label()
    );
    match v.value.bound {
        ValueBound::Exact => {}
        ValueBound::Lower => text.push_str(" (a lower bound: it failed high)"),
        ValueBound::Upper => text.push_str(" (an upper bound: it failed low)"),
    }
    if let Some((alpha, beta)) = v.window {
        let _ = write!(text, ", window ({alpha}, {beta})");
    }
    let _ = write!(text, ", {} plies left", v.depth);
    match v.end {
        NodeEnd::Terminal => text.push_str(", game over"),
        NodeEnd::Horizon => text.push_str(", evaluated at the horizon"),
        NodeEnd::Table => text.push_str(", settled by the transposition table"),
        NodeEnd::Searched => {}
    }
    for note in notes(v) {
        if note != "table" {
            let _ = write!(text, ", {note}");
        }
    }
    if let Some(cutoff) = &v.cutoff {
        let _ = write!(text, "; {cutoff}");
    }
    text
}

/// Draws a cross for a pruned move at `(x, y)`.
fn draw_cross(out: &mut String, x: f64, y: f64) {
    let r = 6.0;
    let _ = writeln!(
        out,
        r#"<g><title>pruned: never searched</title><path d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}" stroke="{CUT_COLOUR}" stroke-width="2"/></g>"#,
        x - r,
        y - r,
        x + r,
        y + r,
        x - r,
        y + r,
        x + r,
        y - r
    );
}

/// Draws the legend with its top at `y`.
fn draw_legend(out: &mut String, y: f64) {
    let x = MARGIN;
    let items = [
        "box: MAX (the root player to move); ellipse: MIN; value from MAX's view, ≥/≤ a bound",
        "(α, β): the window searched with; dashed outline: re-search; yellow: settled by the table",
        "thick blue: principal variation; orange: the move that caused a cutoff; ✕ dashed: pruned",
    ];
    for (k, item) in items.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{:.1}" class="summary">{}</text>"#,
            y + 16.0 + 18.0 * k as f64,
            escape(item)
        );
    }
}
