//! Hand-made evaluations of shogi positions (neither is a trained network):
//! - [`MaterialEval`]: material on the board and in hand;
//! - [`HandMadeEval`]: material, plus king safety — the king's defenders, the attackers near
//!   it, its rank, the opponent's pieces in hand against a bare king, and the attacks on the
//!   squares around it, counted piece by piece and weighed more than in proportion — and the
//!   mobility of the long-range pieces. The playing engine ([`crate::engine`]) uses it.

use prune_search::{Evaluator, Score};

use crate::bitboard::{attacks, squares, Bitboard};
use crate::position::{Color, Kind, Move, Position, Square};

/// The value of a piece of `kind` on the board, in hundredths of a pawn.
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Lance => 300,
        Kind::Knight => 400,
        Kind::Silver => 500,
        Kind::Gold => 600,
        Kind::Bishop => 850,
        Kind::Rook => 1000,
        Kind::King => 0,
        Kind::ProPawn => 550,
        Kind::ProLance => 550,
        Kind::ProKnight => 550,
        Kind::ProSilver => 580,
        Kind::Horse => 1100,
        Kind::Dragon => 1300,
    }
}

/// Material for the side to move: pieces on the board, and pieces in hand worth a tenth more
/// (they can be dropped anywhere). Captures are tried first, the most valuable victim first.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialEval;

impl MaterialEval {
    /// The value of `p` for its side to move, in centipawns.
    pub fn value(&self, p: &Position) -> i32 {
        let us = p.side_to_move();
        let mut total = 0;
        for s in squares(p.occupied()) {
            if let Some(piece) = p.piece(s) {
                let v = value(piece.kind);
                total += if piece.color == us { v } else { -v };
            }
        }
        for color in [Color::Black, Color::White] {
            let sign = if color == us { 1 } else { -1 };
            for &kind in &Kind::HAND {
                total += sign * i32::from(p.in_hand(color, kind)) * value(kind) * 11 / 10;
            }
        }
        total
    }
}

impl Evaluator<Position> for MaterialEval {
    fn evaluate(&self, p: &Position) -> Score {
        Score::heuristic(self.value(p))
    }

    fn order_moves(&self, p: &Position, moves: &mut [Move]) {
        moves.sort_by_key(|&m| match m {
            Move::Normal { to, .. } => -p.piece(to).map_or(0, |q| value(q.kind)),
            Move::Drop { .. } => 0,
        });
    }
}

/// Material and king safety, in hundredths of a pawn for the side to move (see the module).
#[derive(Clone, Copy, Debug, Default)]
pub struct HandMadeEval;

/// The Chebyshev distance (king steps) between every two squares, by index.
const DISTANCE: [[u8; 81]; 81] = {
    let mut table = [[0; 81]; 81];
    let mut a: usize = 0;
    while a < 81 {
        let mut b: usize = 0;
        while b < 81 {
            let files = (a / 9).abs_diff(b / 9);
            let ranks = (a % 9).abs_diff(b % 9);
            table[a][b] = if files > ranks { files } else { ranks } as u8;
            b += 1;
        }
        a += 1;
    }
    table
};

/// How far `square` is from `color`'s own back rank (0 on it, 8 on the far one).
fn advance(color: Color, square: Square) -> u8 {
    match color {
        Color::Black => 8 - square.rank(),
        Color::White => square.rank(),
    }
}

/// King danger's linear part: centipawns per attack unit on the squares next to the enemy king.
const DANGER_UNIT: i32 = 10;
/// King danger grows as the square of the attack units, divided by this.
const DANGER_SQUARE: i32 = 2;
/// Per square a rook, bishop, lance, dragon or horse can move to.
const MOBILITY: i32 = 2;

/// Whether `kind` moves along lines (its mobility counts).
fn is_slider(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Rook | Kind::Bishop | Kind::Dragon | Kind::Horse | Kind::Lance
    )
}

/// `RINGS[d][s]`: the squares exactly `d` king steps from `s` (`d` from 0 to 3).
static RINGS: [[Bitboard; 81]; 4] = {
    let mut rings = [[0; 81]; 4];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let d = DISTANCE[a][b] as usize;
            if d <= 3 {
                rings[d][a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    rings
};

/// The kinds that guard their king (gold and the pieces that move as gold, and silver).
const DEFENDERS: [Kind; 6] = [
    Kind::Gold,
    Kind::Silver,
    Kind::ProPawn,
    Kind::ProLance,
    Kind::ProKnight,
    Kind::ProSilver,
];

/// The kinds whose mobility counts.
const SLIDERS: [Kind; 5] = [
    Kind::Rook,
    Kind::Bishop,
    Kind::Dragon,
    Kind::Horse,
    Kind::Lance,
];

/// The squares of the pieces of any of `kinds`, both sides'.
fn kinds_squares(p: &Position, kinds: &[Kind]) -> Bitboard {
    kinds.iter().fold(0, |b, &k| b | p.kind_squares(k))
}

/// The number of squares in `b`.
#[inline]
fn count(b: Bitboard) -> i32 {
    b.count_ones() as i32
}

/// The terms of the pieces in hand and of king danger for `color`, given each side's king
/// defenders (two a piece next to the king, one two steps away), its attack units on the
/// squares next to the enemy king and the mobility of its long-range pieces.
fn in_hand_and_danger(
    p: &Position,
    color: Color,
    defenders: [i32; 2],
    units: [i32; 2],
    mobility: [i32; 2],
) -> i32 {
    let mut total = 0;
    for owner in [Color::Black, Color::White] {
        let sign = if owner == color { 1 } else { -1 };
        let mut in_hand = 0;
        for &kind in &Kind::HAND {
            let n = i32::from(p.in_hand(owner, kind));
            total += sign * n * value(kind) * 11 / 10;
            if kind != Kind::Pawn {
                in_hand += n;
            }
        }
        // Pieces in hand are worth more against a king with few defenders.
        let exposed = (4 - defenders[owner.flip() as usize]).max(0);
        total += sign * 6 * in_hand * exposed;
        let u = units[owner as usize] + in_hand;
        total +=
            sign * (DANGER_UNIT * u + u * u / DANGER_SQUARE + MOBILITY * mobility[owner as usize]);
    }
    total
}

impl HandMadeEval {
    /// The value of `p` for `color` (positive: good for `color`), material included.
    ///
    /// King danger: each attack of a piece on a square next to the enemy king is two units,
    /// each piece in hand other than a pawn one (it can be dropped there); a side's units `u`
    /// are worth `DANGER_UNIT · u + u² / DANGER_SQUARE`. Tuned by matches against
    /// YaneuraOu-material at equal nodes (docs/shogi.md): the square term, the mobility and
    /// their weights each helped there; counting the defender's own attacks on those squares
    /// against the attacker, and pieces in hand worth less or more than 1.1 times a piece on
    /// the board, did not.
    ///
    /// Computed by sets of squares: the pieces of a kind near a king are counted at once, and
    /// only the long-range pieces and the pieces near the enemy king have their attacks
    /// worked out.
    pub fn value_for(&self, p: &Position, color: Color) -> i32 {
        let kings = [p.king(Color::Black), p.king(Color::White)];
        let occupied = p.occupied();
        let defender_kinds = kinds_squares(p, &DEFENDERS);
        let slider_kinds = kinds_squares(p, &SLIDERS);
        let by_bonus = [
            (kinds_squares(p, &[Kind::Dragon, Kind::Horse]), 45),
            (defender_kinds, 25),
            (kinds_squares(p, &[Kind::Rook, Kind::Bishop]), 15),
            (
                kinds_squares(p, &[Kind::Pawn, Kind::Lance, Kind::Knight]),
                10,
            ),
        ];
        // The squares next to each king (the step set of a king is the same for both colours).
        let zones = kings.map(|k| k.map_or(0, |k| RINGS[1][k.0 as usize]));
        let mut sides = [0i32; 2];
        let mut defenders = [0i32; 2];
        let mut units = [0i32; 2];
        let mut mobility = [0i32; 2];
        for owner in [Color::Black, Color::White] {
            let o = owner as usize;
            let mine = p.pieces_of(owner);
            let mut v = 0;
            for &kind in &Kind::ALL {
                v += value(kind) * count(mine & p.kind_squares(kind));
            }
            if let Some(k) = kings[o] {
                let near = count(mine & defender_kinds & RINGS[1][k.0 as usize]);
                let close = count(mine & defender_kinds & RINGS[2][k.0 as usize]);
                v += 40 * near + 20 * close;
                defenders[o] = 2 * near + close;
                v += match advance(owner, k) {
                    0 => 20,
                    1 => 10,
                    2 => 0,
                    r => -25 * i32::from(r - 2),
                };
            }
            let mut reaching = mine & slider_kinds;
            if let Some(k) = kings[owner.flip() as usize] {
                let k = k.0 as usize;
                let within_two = RINGS[1][k] | RINGS[2][k];
                for (kinds, bonus) in by_bonus {
                    v += bonus * count(mine & kinds & within_two);
                }
                // A piece that only steps reaches two squares away at most (a knight): from
                // further than three from the enemy king it attacks nothing next to it.
                reaching |= mine & !p.kind_squares(Kind::King) & (within_two | RINGS[3][k]);
            }
            let zone = zones[owner.flip() as usize];
            for s in squares(reaching) {
                let kind = p.piece(s).expect("a piece on its square").kind;
                let reach = attacks(owner, kind, s, occupied);
                units[o] += 2 * count(reach & zone);
                if is_slider(kind) {
                    mobility[o] += count(reach & !mine);
                }
            }
            sides[o] = v;
        }
        let total = sides[color as usize] - sides[color.flip() as usize];
        total + in_hand_and_danger(p, color, defenders, units, mobility)
    }

    /// The value of `p` for its side to move.
    pub fn value(&self, p: &Position) -> i32 {
        self.value_for(p, p.side_to_move())
    }
}

impl Evaluator<Position> for HandMadeEval {
    fn evaluate(&self, p: &Position) -> Score {
        Score::heuristic(self.value(p))
    }

    fn order_moves(&self, p: &Position, moves: &mut [Move]) {
        MaterialEval.order_moves(p, moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Piece;

    /// The Chebyshev distance between two squares (king steps).
    #[inline]
    fn distance(a: Square, b: Square) -> u8 {
        DISTANCE[a.0 as usize][b.0 as usize]
    }

    fn is_defender(kind: Kind) -> bool {
        matches!(
            kind,
            Kind::Gold
                | Kind::Silver
                | Kind::ProPawn
                | Kind::ProLance
                | Kind::ProKnight
                | Kind::ProSilver
        )
    }

    /// The bonus of a piece of `kind` standing within two king steps of the enemy king.
    fn attack_bonus(kind: Kind) -> i32 {
        match kind {
            Kind::Dragon | Kind::Horse => 45,
            Kind::Gold | Kind::Silver | Kind::ProPawn | Kind::ProLance | Kind::ProKnight => 25,
            Kind::ProSilver => 25,
            Kind::Rook | Kind::Bishop => 15,
            Kind::Pawn | Kind::Lance | Kind::Knight => 10,
            Kind::King => 0,
        }
    }

    /// The evaluation as it was first written, piece by piece: the reference of the test.
    fn reference_value_for(p: &Position, color: Color) -> i32 {
        let mut total = 0;
        let kings = [p.king(Color::Black), p.king(Color::White)];
        let mut defenders = [0i32; 2];
        let occupied = p.occupied();
        // The squares next to each king (the step set of a king is the same for both colours).
        let zones = kings.map(|k| {
            k.map_or(0, |k| {
                crate::bitboard::step_attacks(Color::Black, Kind::King, k)
            })
        });
        let own = [p.pieces_of(Color::Black), p.pieces_of(Color::White)];
        let mut units = [0i32; 2];
        let mut mobility = [0i32; 2];
        for s in squares(occupied) {
            let Some(Piece { color: owner, kind }) = p.piece(s) else {
                continue;
            };
            let sign = if owner == color { 1 } else { -1 };
            let mut v = value(kind);
            let own_king = kings[owner as usize];
            let enemy_king = kings[owner.flip() as usize];
            if kind != Kind::King {
                if let Some(k) = own_king {
                    if is_defender(kind) {
                        match distance(s, k) {
                            1 => {
                                v += 40;
                                defenders[owner as usize] += 2;
                            }
                            2 => {
                                v += 20;
                                defenders[owner as usize] += 1;
                            }
                            _ => {}
                        }
                    }
                }
                if let Some(k) = enemy_king {
                    if distance(s, k) <= 2 {
                        v += attack_bonus(kind);
                    }
                }
                // A piece that only steps reaches two squares away at most (a knight): from
                // further than three from the enemy king it attacks nothing next to it.
                let slider = is_slider(kind);
                if slider || enemy_king.is_some_and(|k| distance(s, k) <= 3) {
                    let reach = attacks(owner, kind, s, occupied);
                    units[owner as usize] +=
                        2 * (reach & zones[owner.flip() as usize]).count_ones() as i32;
                    if slider {
                        mobility[owner as usize] +=
                            (reach & !own[owner as usize]).count_ones() as i32;
                    }
                }
            } else {
                v += match advance(owner, s) {
                    0 => 20,
                    1 => 10,
                    2 => 0,
                    r => -25 * i32::from(r - 2),
                };
            }
            total += sign * v;
        }
        total + in_hand_and_danger(p, color, defenders, units, mobility)
    }

    /// The SFEN of `sfen`'s position turned half round with the colours swapped: the same
    /// position for the other side.
    fn mirrored(sfen: &str) -> String {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let rows: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|row| {
                // Tokens of one square (a piece with its `+`) or a run of empty squares,
                // reversed as wholes.
                let mut tokens: Vec<String> = Vec::new();
                let mut plus = false;
                for c in row.chars() {
                    if c == '+' {
                        plus = true;
                    } else if c.is_ascii_digit() {
                        tokens.push(c.to_string());
                    } else {
                        let piece = swap(c);
                        tokens.push(if plus {
                            format!("+{piece}")
                        } else {
                            piece.to_string()
                        });
                        plus = false;
                    }
                }
                tokens.reverse();
                tokens.concat()
            })
            .collect();
        let side = if fields[1] == "b" { "w" } else { "b" };
        let hands: String = if fields[2] == "-" {
            "-".into()
        } else {
            fields[2].chars().map(swap).collect()
        };
        format!("{} {side} {hands} 1", rows.join("/"))
    }

    /// Positions of real middle games and attacks (the engine tests' and the docs' examples).
    const POSITIONS: [&str; 4] = [
        "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 11",
        "lnsgkgsnl/7b1/prpp1pppp/4p4/9/P7P/1pPP1PPP1/2GSGS1R1/LNB1K2NL b Pp 19",
    ];

    #[test]
    fn the_value_is_the_same_for_either_colour_and_sign_flips_with_the_side() {
        for sfen in POSITIONS {
            let p: Position = sfen.parse().unwrap();
            let q: Position = mirrored(sfen).parse().unwrap();
            assert_eq!(HandMadeEval.value(&p), HandMadeEval.value(&q), "{sfen}");
            assert_eq!(
                HandMadeEval.value_for(&p, Color::Black),
                -HandMadeEval.value_for(&p, Color::White),
                "{sfen}"
            );
            assert_eq!(MaterialEval.value(&p), MaterialEval.value(&q), "{sfen}");
        }
    }

    /// The evaluation by sets of squares gives exactly the piece-by-piece reference's values,
    /// for both colours, along random games (promotions, captures and drops among them).
    #[test]
    fn the_evaluation_by_sets_equals_the_piece_by_piece_reference() {
        use prune_search::rng::{Rng, SplitMix64};
        let mut rng = SplitMix64::new(17);
        let mut checked = 0;
        for _ in 0..60 {
            let mut p: Position = crate::START_SFEN.parse().unwrap();
            for _ in 0..160 {
                for color in [Color::Black, Color::White] {
                    assert_eq!(
                        HandMadeEval.value_for(&p, color),
                        reference_value_for(&p, color),
                        "{p}"
                    );
                    checked += 1;
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn king_danger_grows_faster_than_the_attackers() {
        // White's king on 5a, Black's on 5i, and three golds of Black's: one, two or all three
        // on the third rank in front of White's king (each attacks squares next to it), the
        // others in hand. Each step moves one gold from the hand to the board, so the material
        // changes by the same amount each time; what the attack adds must grow.
        let value = |third_rank: &str, hand: &str| {
            let sfen = format!("4k4/9/{third_rank}/9/9/9/9/9/4K4 b {hand} 1");
            HandMadeEval.value(&sfen.parse::<Position>().unwrap())
        };
        let one = value("4G4", "2G");
        let two = value("4GG3", "G");
        let three = value("3GGG3", "-");
        assert!(three - two > two - one, "{one} {two} {three}");
    }
}
