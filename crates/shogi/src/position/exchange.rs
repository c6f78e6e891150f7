//! Attacks on a square and exchanges on it: the attackers with x-rays, static exchange
//! evaluation ([`Position::see`]), whether a move checks ([`Position::gives_check`]) and
//! whether one mates at once ([`Position::mate_in_one`]).

use super::*;

impl Position {
    /// The pieces of `by` among `occupied` that attack `square` when only `occupied` stands on
    /// the board (the sliders see through squares left out of it: the x-rays of an exchange).
    pub(super) fn attackers(&self, square: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let kinds = &self.kinds;
        let rooks = kinds[Kind::Rook as usize] | kinds[Kind::Dragon as usize];
        let bishops = kinds[Kind::Bishop as usize] | kinds[Kind::Horse as usize];
        let all = self.steppers_to(square, by)
            | bitboard::rook_attacks(square, occupied) & rooks
            | bitboard::bishop_attacks(square, occupied) & bishops
            | bitboard::lance_attacks(by.flip(), square, occupied) & kinds[Kind::Lance as usize];
        all & self.colors[by.index()] & occupied
    }

    /// Static exchange evaluation of `mv` (legal here): the material the side to move gains,
    /// in centipawns of [`crate::value`], when both sides go on capturing on the move's target
    /// square with their least valuable piece as long as it pays (x-rays included; a king
    /// captures only when nothing can take it back). A promotion counts for the move itself,
    /// not for the recaptures. Quiet moves and drops score 0 or, if the piece is lost, less.
    pub fn see(&self, mv: Move) -> i32 {
        use crate::eval::value;
        /// Worth more than everything else together: the king ends an exchange.
        const KING: i32 = 100_000;
        let worth = |kind: Kind| {
            if kind == Kind::King {
                KING
            } else {
                value(kind)
            }
        };
        let (to, mut occupied, mut on_square, first_gain) = match mv {
            Move::Normal { from, to, promote } => {
                let piece = self.board[from.0 as usize].expect("a move starts from a piece");
                let kind = if promote {
                    piece.kind.promoted().unwrap_or(piece.kind)
                } else {
                    piece.kind
                };
                let captured = self.board[to.0 as usize].map_or(0, |q| value(q.kind));
                let promotion = worth(kind) - worth(piece.kind);
                (to, self.occupied() ^ bit(from), kind, captured + promotion)
            }
            Move::Drop { kind, to } => (to, self.occupied() | bit(to), kind, 0),
        };
        // gains[d]: what the side making capture d has gained when the exchange stops there.
        let mut gains = [0i32; 40];
        gains[0] = first_gain;
        let mut side = self.side.flip();
        let mut d = 0;
        loop {
            let attackers = self.attackers(to, side, occupied);
            if attackers == 0 || d + 1 >= gains.len() {
                break;
            }
            // The least valuable attacker.
            let (square, kind) = bitboard::squares(attackers)
                .map(|s| (s, self.board[s.0 as usize].expect("an attacker").kind))
                .min_by_key(|&(_, k)| worth(k))
                .expect("an attacker");
            d += 1;
            gains[d] = worth(on_square) - gains[d - 1];
            if on_square == Kind::King {
                break; // the king was taken: the last capture was not legal
            }
            if (-gains[d - 1]).max(gains[d]) < 0 {
                break; // neither side wants this capture: the result is fixed
            }
            occupied ^= bit(square);
            on_square = kind;
            side = side.flip();
        }
        while d > 0 {
            gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
            d -= 1;
        }
        gains[0]
    }

    /// Whether `mv` (legal here) checks the opponent's king: the moved or dropped piece
    /// attacks it from the target square, or the move uncovers a slider (then decided by
    /// playing it, as few moves start on the king's lines).
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let Some(king) = self.king(us.flip()) else {
            return false;
        };
        let occupied = self.occupied();
        let (to, from) = match mv {
            Move::Normal { from, to, .. } => (to, Some(from)),
            Move::Drop { to, .. } => (to, None),
        };
        let kind = self.placed(mv);
        let after = (occupied | bit(to)) & !from.map_or(0, bit);
        if bitboard::attacks(us, kind, to, after) & bit(king) != 0 {
            return true;
        }
        let Some(from) = from else {
            return false;
        };
        // A discovered check needs `from` on a line from the king.
        let lines =
            bitboard::rook_attacks(king, occupied) | bitboard::bishop_attacks(king, occupied);
        lines & bit(from) != 0 && self.play(mv).in_check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::zobrist::splitmix;

    /// `mate_in_one` finds a mate exactly when some legal move leaves the opponent without a
    /// legal move, along random games and in positions built to have (or lack) one.
    #[test]
    fn mate_in_one_agrees_with_trying_every_move() {
        let mated = |p: &Position, mv: Move| p.play(mv).legal_moves().is_empty();
        let fixed = [
            ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", Some("G*5b")),
            // P*1b would mate (the gold covers 2a and 2b, the knight 1b): uchifuzume, an
            // illegal move, and nothing else mates.
            ("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1", None),
            ("8k/6G2/9/7N1/9/9/9/9/4K4 b G 1", Some("G*1b")),
            (crate::START_SFEN, None),
        ];
        for (sfen, expected) in fixed {
            let p: Position = sfen.parse().unwrap();
            let found = p.mate_in_one();
            assert_eq!(found.map(|m| m.to_string()).as_deref(), expected, "{sfen}");
        }
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut found = 0;
        for game in 0..60 {
            let mut p = Position::start();
            for _ in 0..(40 + game * 2) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let expected = moves.iter().any(|&mv| mated(&p, mv));
                let m = p.mate_in_one();
                assert_eq!(m.is_some(), expected, "{p}");
                if let Some(mv) = m {
                    assert!(mated(&p, mv) && p.play(mv).in_check(), "{p} {mv}");
                    found += 1;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                p = p.play(moves[(rng % moves.len() as u64) as usize]);
            }
        }
        assert!(found > 0, "random games reach some mates in one");
    }

    /// Asserts that in `p` the checks generated are exactly the legal moves after which the
    /// opponent is in check, in the order of the legal moves, and that `mate_in_one` finds a
    /// mate (one that mates) exactly when one of them leaves no legal reply (and
    /// `mate_in_one_or_checks` otherwise counts those checks, and notes those answered by
    /// drops only where asked); returns (the checks, whether one mates, the checks answered
    /// by drops only when none mates).
    fn assert_checks_and_mate_in_one(p: &Position) -> (usize, bool, usize) {
        let expected: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|&mv| p.play(mv).in_check())
            .collect();
        let mut got = Vec::new();
        p.generate_checks(&mut got);
        assert_eq!(got, expected, "{p}");
        // The moves onto each square: those of the legal moves (not drops) that land there,
        // in their order.
        let legal = p.legal_moves();

        for square in (0..81).map(Square) {
            let onto: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|mv| matches!(mv, Move::Normal { to, .. } if *to == square))
                .collect();
            let mut got = Vec::new();
            p.generate_moves_onto(square, &mut got);
            assert_eq!(got, onto, "{p}: onto {square}");
        }
        let mates = expected
            .iter()
            .any(|&mv| p.play(mv).legal_moves().is_empty());
        let mut by_drops = 0;
        let found = p.mate_in_one();
        assert_eq!(found.is_some(), mates, "{p}");
        if let Some(mv) = found {
            assert!(p.play(mv).legal_moves().is_empty(), "{p}: {mv}");
        }
        // Without a mate, the same test counts the checks. (With one, `mate_in_one` is this
        // test's move: checked above.)
        if !mates {
            assert_eq!(p.mate_in_one_or_checks(), Err(expected.len()), "{p}");
            // And the checks the opponent answers by drops only, in their order.
            let answered_by_drops: Vec<Move> = expected
                .iter()
                .copied()
                .filter(|&mv| {
                    let replies = p.play(mv).legal_moves();
                    !replies.is_empty() && replies.iter().all(|r| matches!(r, Move::Drop { .. }))
                })
                .collect();
            let mut noted = Vec::new();
            assert_eq!(
                p.mate_in_one_or_checks_answered_by_drops(&mut noted),
                Err(expected.len()),
                "{p}"
            );
            assert_eq!(noted, answered_by_drops, "{p}");
            by_drops = noted.len();
        }
        (got.len(), mates, by_drops)
    }

    /// Whether `generate_drops_only` gives the legal moves exactly when all are drops (and
    /// says so); whether they are.
    fn assert_drops_only(p: &Position) -> bool {
        let legal = p.legal_moves();
        let only_drops = legal.iter().all(|mv| matches!(mv, Move::Drop { .. }));
        let mut drops = Vec::new();
        assert_eq!(p.generate_drops_only(&mut drops), only_drops, "{p}");
        if only_drops {
            assert_eq!(drops, legal, "{p}");
        }
        only_drops && !legal.is_empty()
    }

    /// The same at every attacker's position along the Edo tsume collections' source lines
    /// (`../shared/data/tsume/`: full hands, no attacker's king); the 193 lines that end in
    /// checkmate end with a mate in one. At every position, the drops-only generation too
    /// (the defender's positions with drops for its only replies counted), and at the
    /// attacker's without a mate in one the checks the defender answers by drops only.
    #[test]
    fn checks_and_mates_in_one_agree_with_playing_every_move_along_the_edo_lines() {
        let dir =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tsume");
        let (mut positions, mut mates, mut only_drops, mut by_drops) = (0, 0, 0, 0);
        for name in ["zukou.tsv", "musou.tsv"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            for line in text.lines() {
                let fields: Vec<&str> = line.split('\t').collect();
                let mut p: Position = fields[1].parse().unwrap();
                for (ply, text) in fields[3].split(' ').enumerate() {
                    if ply % 2 == 0 {
                        let (_, mate, answered_by_drops) = assert_checks_and_mate_in_one(&p);
                        mates += usize::from(mate);
                        by_drops += answered_by_drops;
                        positions += 1;
                    }
                    only_drops += usize::from(assert_drops_only(&p));
                    p = p.play(p.parse_move(text).unwrap());
                }
            }
        }
        assert_eq!(positions, 4_126);
        assert!(mates >= 193, "{mates}");
        assert_eq!(only_drops, 17);
        assert_eq!(by_drops, 64, "checks answered by drops only");
    }

    /// `generate_checks` gives exactly the legal moves after which the opponent is in check,
    /// in positions with discovered checks of every slider (rook, bishop, lance behind a
    /// piece of ours) and along pseudo-random games from those and from a tactical middle
    /// game; `mate_in_one` agrees with trying every check there too.
    #[test]
    fn generate_checks_agrees_with_playing_every_move() {
        let starts = [
            // A rook behind a silver on the king's file; a bishop behind a gold on its
            // diagonal; a lance behind a knight; pieces in hand to drop.
            "4k4/9/9/4S4/9/9/4R4/9/K8 b GSN2P 1",
            "8k/9/9/9/4G4/9/2B6/9/K8 b RL 1",
            "4k4/9/9/4N4/9/9/9/4L4/K8 b SP 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut checks = 0;
        for sfen in starts {
            let mut p: Position = sfen.parse().unwrap();
            for _ in 0..60 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                checks += assert_checks_and_mate_in_one(&p).0;
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                p = p.play(moves[(rng % moves.len() as u64) as usize]);
            }
        }
        assert!(checks > 100, "the games offer checks ({checks})");
    }

    /// `gives_check` agrees with playing the move and looking, for every legal move along
    /// pseudo-random games from the start.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut state = 7u64;
        let mut checks = 0;
        for _ in 0..20 {
            let mut p = Position::start();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let expected = p.play(mv).in_check();
                    assert_eq!(p.gives_check(mv), expected, "{p:?} {mv}");
                    let info = p.check_info();
                    let fast = info.as_ref().is_some_and(|c| c.gives_check(mv));
                    assert_eq!(fast, expected, "check_info: {p:?} {mv}");
                    checks += usize::from(expected);
                }
                p = p.play(moves[splitmix(&mut state) as usize % moves.len()]);
            }
        }
        assert!(checks > 100, "only {checks} checking moves seen");
    }

    /// Exchanges worked out by hand (piece values of [`crate::value`]).
    #[test]
    fn static_exchange_evaluation() {
        let cases = [
            // An undefended pawn: won.
            ("4k4/9/9/4p4/4P4/9/9/9/4K4 b - 1", "5e5d", 100),
            // A pawn defended by a gold, taken by the rook: the rook is lost for it.
            ("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1", "5h5d", 100 - 1000),
            // The lance behind the rook takes the gold back through the rook's square (x-ray).
            (
                "4k4/9/4g4/4p4/9/9/9/4R4/4L3K b - 1",
                "5h5d",
                100 - 1000 + 600,
            ),
            // The same pawn taken by the lance first, the rook behind it: the gold taking the
            // lance would lose itself to the rook, so it does not, and the pawn is won.
            ("4k4/9/4g4/4p4/9/9/9/4L4/4R3K b - 1", "5h5d", 100),
            // A silver dropped where a pawn takes it; a quiet move to a safe square.
            ("4k4/9/4p4/9/9/9/9/9/4K4 b S 1", "S*5d", -500),
            ("4k4/9/4p4/9/9/9/9/9/4K4 b S 1", "S*1e", 0),
            // A pawn taking and promoting on an undefended square: the pawn and the promotion.
            ("4k4/9/2p6/2P6/9/9/9/9/4K4 b - 1", "7d7c+", 100 + 550 - 100),
            // A defended piece taken by the king: not legal to take back, so the king keeps it.
            ("9/9/9/9/9/9/4g4/4K4/9 b - 1", "5h5g", 600),
        ];
        for (sfen, usi, expected) in cases {
            let p: Position = sfen.parse().unwrap();
            let mv = p.parse_move(usi).unwrap();
            assert_eq!(p.see(mv), expected, "{sfen} {usi}");
        }
    }
}
