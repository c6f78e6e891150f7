//! How a position looks, for any door that draws it: [`BoardView`] (cells from the top row,
//! pieces with their owner and label, the hands of games that have them) and [`MoveView`]
//! (what a legal move touches, so a page can play it by clicks), and an SVG picture of a view.

use serde::Serialize;

/// A side: the first player (X; Black in Othello and shogi) or the second (O; White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Side {
    /// Moves first.
    #[serde(rename = "X")]
    First,
    /// Moves second.
    #[serde(rename = "O")]
    Second,
}

impl Side {
    /// `X` or `O`.
    pub fn letter(self) -> char {
        match self {
            Side::First => 'X',
            Side::Second => 'O',
        }
    }
}

/// A piece or stone on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stone {
    /// Whose it is.
    pub owner: Side,
    /// What it is where stones differ (shogi's `P`, `+R`, `K`...); `None` for plain stones.
    pub label: Option<String>,
}

/// The pieces one side holds in hand (shogi).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hand {
    /// Whose hand.
    pub owner: Side,
    /// Each kind held and how many, as labels (`R`, `P`).
    pub pieces: Vec<(String, u8)>,
}

/// What a page or a picture needs to draw a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// How its cells are drawn: `discs` (Othello), `drops` (Connect Four), `marks`
    /// (tic-tac-toe) or `pieces` (shogi: labelled pieces, the second player's upside down).
    pub style: &'static str,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells, the top row first, each row from the left.
    pub cells: Vec<Vec<Option<Stone>>>,
    /// The side to move.
    pub to_move: Side,
    /// The hands (empty for games without them).
    pub hands: Vec<Hand>,
    /// The columns' names, from the left.
    pub files: Vec<String>,
    /// The rows' names, from the top.
    pub ranks: Vec<String>,
}

impl BoardView {
    /// The rows as text, one character a cell: `X`, `O` or `-`.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| c.as_ref().map_or('-', |s| s.owner.letter()))
                    .collect()
            })
            .collect()
    }
}

/// What a legal move touches, for playing it by clicks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The move's name, as the doors take it.
    #[serde(rename = "move")]
    pub name: String,
    /// The cell a piece leaves (row, column from the top left), for moves of a piece.
    pub from: Option<(usize, usize)>,
    /// The cell the move marks or a piece reaches (`None` for a pass).
    pub to: Option<(usize, usize)>,
    /// The kind dropped from the hand (shogi), as its label.
    pub drop: Option<String>,
    /// Whether the piece promotes.
    pub promotes: bool,
}

impl MoveView {
    /// A move that marks one cell.
    pub fn at(name: String, row: usize, col: usize) -> MoveView {
        MoveView {
            name,
            from: None,
            to: Some((row, col)),
            drop: None,
            promotes: false,
        }
    }
}

/// An SVG picture of `view`.
pub fn svg(view: &BoardView) -> String {
    let cell = 40;
    let hand_rows = if view.hands.is_empty() { 0 } else { 1 };
    let (w, h) = (view.width * cell, (view.height + 2 * hand_rows) * cell);
    let top = hand_rows * cell;
    let (bg, line, x_fill, o_fill) = match view.style {
        "discs" => ("#1f7a3a", "#0d4020", "#111", "#f4f4f4"),
        "drops" => ("#1d4fa8", "#1d4fa8", "#d62828", "#f2c80f"),
        "pieces" => ("#e8c27a", "#6b4a1a", "#111", "#111"),
        _ => ("#ffffff", "#333", "#1d4fa8", "#d62828"),
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\"><rect width=\"100%\" height=\"100%\" fill=\"{bg}\"/>"
    );
    for (r, row) in view.cells.iter().enumerate() {
        for (c, stone) in row.iter().enumerate() {
            let (x, y) = (c * cell, top + r * cell);
            let (cx, cy) = (x + cell / 2, y + cell / 2);
            if view.style != "drops" {
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"none\" \
                     stroke=\"{line}\"/>"
                ));
            }
            let fill = |side: Side| if side == Side::First { x_fill } else { o_fill };
            match (view.style, stone) {
                ("drops", None) => s.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"#ffffff\"/>"
                )),
                (_, None) => {}
                ("marks", Some(st)) => s.push_str(&format!(
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"30\" text-anchor=\"middle\" \
                     fill=\"{}\">{}</text>",
                    cy + 10,
                    fill(st.owner),
                    st.owner.letter()
                )),
                ("pieces", Some(st)) => s.push_str(&piece_svg(
                    st.label.as_deref().unwrap_or("?"),
                    st.owner,
                    cx,
                    cy,
                )),
                (_, Some(st)) => s.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"{}\"/>",
                    fill(st.owner)
                )),
            }
        }
    }
    for hand in &view.hands {
        // The second player's hand above the board, the first player's below.
        let y = match hand.owner {
            Side::Second => cell / 2,
            Side::First => top + view.height * cell + cell / 2,
        };
        let text: Vec<String> = hand
            .pieces
            .iter()
            .map(|(label, n)| {
                if *n > 1 {
                    format!("{label}{n}")
                } else {
                    label.clone()
                }
            })
            .collect();
        let who = if hand.owner == Side::First {
            "☗"
        } else {
            "☖"
        };
        s.push_str(&format!(
            "<text x=\"6\" y=\"{}\" font-size=\"18\" fill=\"#111\">{who} {}</text>",
            y + 6,
            if text.is_empty() {
                "-".into()
            } else {
                text.join(" ")
            }
        ));
    }
    s.push_str("</svg>");
    s
}

/// A shogi piece: a pentagon pointing at the opponent, its label upright for the first player
/// and upside down for the second.
fn piece_svg(label: &str, owner: Side, cx: usize, cy: usize) -> String {
    let turn = if owner == Side::First { 0 } else { 180 };
    let colour = if label.starts_with('+') {
        "#b00000"
    } else {
        "#111"
    };
    format!(
        "<g transform=\"rotate({turn} {cx} {cy})\"><polygon points=\"{},{} {},{} {},{} {},{} {},{}\" \
         fill=\"#f7e3b5\" stroke=\"#6b4a1a\"/><text x=\"{cx}\" y=\"{}\" font-size=\"15\" \
         text-anchor=\"middle\" fill=\"{colour}\">{label}</text></g>",
        cx,
        cy - 17,
        cx + 13,
        cy - 9,
        cx + 15,
        cy + 16,
        cx - 15,
        cy + 16,
        cx - 13,
        cy - 9,
        cy + 7
    )
}
