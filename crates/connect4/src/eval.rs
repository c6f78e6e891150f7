//! A heuristic evaluation for depth-limited searches of Connect Four.

use prune_search::{Evaluator, Score};

use crate::position::{column_mask, winning_cells, Column, Position, CENTRE_FIRST};

/// Counts threats: empty cells that would complete four for one side. Each of the side to
/// move's is worth [`ThreatEval::THREAT`], each of the opponent's as much against it, a stone
/// in the centre column [`ThreatEval::CENTRE`]. Orders moves centre first, then by the threats
/// they make (the solver's ordering).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatEval;

impl ThreatEval {
    /// The value of one threat.
    pub const THREAT: i32 = 10;
    /// The value of one stone in the centre column.
    pub const CENTRE: i32 = 3;
}

impl Evaluator<Position> for ThreatEval {
    fn evaluate(&self, p: &Position) -> Score {
        let mine = p.mover_threats().count_ones() as i32;
        let theirs = p.opponent_threats().count_ones() as i32;
        let centre = column_mask(3);
        let centre_stones =
            (p.mover() & centre).count_ones() as i32 - (p.opponent() & centre).count_ones() as i32;
        Score::heuristic(Self::THREAT * (mine - theirs) + Self::CENTRE * centre_stones)
    }

    fn order_moves(&self, p: &Position, moves: &mut [Column]) {
        let rank = |c: Column| {
            CENTRE_FIRST
                .iter()
                .position(|&x| x == c.index())
                .unwrap_or(7)
        };
        let threats = |c: Column| {
            let cell =
                (p.mask() + (1 << (7 * u32::from(c.index())))) & column_mask(u32::from(c.index()));
            (winning_cells(p.mover() | cell) & !(p.mask() | cell)).count_ones()
        };
        moves.sort_by_key(|&c| (std::cmp::Reverse(threats(c)), rank(c)));
    }

    /// One threat more than the opponent is about a 73% chance.
    fn win_scale(&self) -> f64 {
        f64::from(Self::THREAT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::Game;

    #[test]
    fn threats_count_for_the_side_that_has_them() {
        // X: 1, 2, 3 on the bottom row; O on 7, 6 and 7, no threat; X to move with one on 4.
        let p = Position::from_moves("172637").unwrap();
        assert!(ThreatEval.evaluate(&p) > Score::DRAW);
        let q = p.play(Column::new(6).unwrap());
        assert!(ThreatEval.evaluate(&q) < Score::DRAW);
    }

    #[test]
    fn ordering_puts_the_threat_making_and_central_moves_first() {
        let p = Position::START;
        let mut moves = p.legal_moves();
        ThreatEval.order_moves(&p, &mut moves);
        assert_eq!(moves[0], Column::new(3).unwrap());
        // X on 1 and 2: 3 and 4 each make a threat, 4 is nearer the centre, 5 makes none.
        let p = Position::from_moves("1727").unwrap();
        let mut moves = p.legal_moves();
        ThreatEval.order_moves(&p, &mut moves);
        let first: Vec<u8> = moves.iter().map(|c| c.number()).collect();
        assert_eq!(first[..3], [4, 3, 5]);
    }
}
