//! The position: the board, the hands, the side to move; move generation and legality.

use std::fmt;

mod checks;
mod exchange;
mod movegen;
pub use checks::CheckInfo;
mod zobrist;

use movegen::Gen;
pub(crate) use movegen::MoveList;
use zobrist::{hand_key, piece_key, ZOBRIST};

use prune_search::{Game, MoveBits, Score};

use crate::bitboard::{self, bit, squares, Bitboard, BOARD, RANKS};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Sente, who moves first, towards rank a (upper-case in SFEN).
    Black,
    /// Gote (lower-case in SFEN).
    White,
}

impl Color {
    /// The other side.
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A kind of piece, promoted kinds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Fuhyo.
    Pawn,
    /// Kyosha.
    Lance,
    /// Keima.
    Knight,
    /// Ginsho.
    Silver,
    /// Kinsho.
    Gold,
    /// Kakugyo.
    Bishop,
    /// Hisha.
    Rook,
    /// Gyoku/osho.
    King,
    /// Tokin.
    ProPawn,
    /// Promoted lance.
    ProLance,
    /// Promoted knight.
    ProKnight,
    /// Promoted silver.
    ProSilver,
    /// Ryuma: a promoted bishop.
    Horse,
    /// Ryuo: a promoted rook.
    Dragon,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 14] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
    ];

    /// The kinds a hand holds, in SFEN's order of hands (R, B, G, S, N, L, P reversed here to
    /// index order: P, L, N, S, G, B, R).
    pub const HAND: [Kind; 7] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
    ];

    /// The promoted kind, if this kind promotes.
    pub fn promoted(self) -> Option<Kind> {
        Some(match self {
            Kind::Pawn => Kind::ProPawn,
            Kind::Lance => Kind::ProLance,
            Kind::Knight => Kind::ProKnight,
            Kind::Silver => Kind::ProSilver,
            Kind::Bishop => Kind::Horse,
            Kind::Rook => Kind::Dragon,
            _ => return None,
        })
    }

    /// The kind a captured piece of this kind becomes in hand.
    pub fn unpromoted(self) -> Kind {
        match self {
            Kind::ProPawn => Kind::Pawn,
            Kind::ProLance => Kind::Lance,
            Kind::ProKnight => Kind::Knight,
            Kind::ProSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            k => k,
        }
    }

    /// The index in a hand (pawn 0 .. rook 6), for the kinds a hand holds.
    pub(crate) fn hand_index(self) -> Option<usize> {
        Kind::HAND.iter().position(|&k| k == self)
    }
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub kind: Kind,
}

/// A square, `file * 9 + rank` with file 0–8 for USI's 1–9 and rank 0–8 for a–i.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square of file 1–9 and rank 0–8 (a–i), if on the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        ((1..=9).contains(&file) && rank < 9).then(|| Square((file - 1) * 9 + rank))
    }

    /// File 1–9.
    pub fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank 0–8 (a–i).
    pub fn rank(self) -> u8 {
        self.0 % 9
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank()) as char)
    }
}

/// A move: a piece moved (and maybe promoted) or dropped from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from a square to another, promoting or not.
    Normal {
        /// Where from.
        from: Square,
        /// Where to.
        to: Square,
        /// Whether it promotes.
        promote: bool,
    },
    /// A piece from the hand is put on an empty square.
    Drop {
        /// The kind dropped (pawn to rook).
        kind: Kind,
        /// Where.
        to: Square,
    },
}

impl fmt::Display for Move {
    /// USI: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => {
                let letter = crate::notation::letter(kind);
                write!(f, "{letter}*{to}")
            }
        }
    }
}

impl MoveBits for Move {
    fn to_bits(self) -> u32 {
        match self {
            Move::Normal { from, to, promote } => {
                u32::from(from.0) | u32::from(to.0) << 7 | u32::from(promote) << 14
            }
            Move::Drop { kind, to } => {
                1 << 15 | u32::from(to.0) << 7 | kind.hand_index().unwrap_or(0) as u32
            }
        }
    }

    fn from_bits(bits: u32) -> Option<Self> {
        let to = Square(((bits >> 7) & 0x7f) as u8);
        if to.0 >= 81 || bits >> 16 != 0 {
            return None;
        }
        if bits & 1 << 15 != 0 {
            let kind = *Kind::HAND.get((bits & 0x7f) as usize)?;
            return Some(Move::Drop { kind, to });
        }
        let from = Square((bits & 0x7f) as u8);
        (from.0 < 81).then_some(Move::Normal {
            from,
            to,
            promote: bits & 1 << 14 != 0,
        })
    }
}

/// A shogi position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 81],
    /// Pieces in hand, by color and hand index (pawn .. rook).
    pub(crate) hands: [[u8; 7]; 2],
    pub(crate) side: Color,
    /// The move number of SFEN (1 at the start).
    pub(crate) ply: u32,
    /// Where each side's king stands (by [`Color`] index), if it has one.
    kings: [Option<Square>; 2],
    /// The squares of each side's pieces (by [`Color`] index).
    colors: [Bitboard; 2],
    /// The squares of each kind's pieces, both sides (by [`Kind::ALL`] index).
    kinds: [Bitboard; 14],
    /// The Zobrist key of the board, the hands and the side to move (not the move number).
    key: u64,
}

impl Position {
    /// A position from its parts; the king squares and the key are computed here.
    pub(crate) fn from_parts(
        board: [Option<Piece>; 81],
        hands: [[u8; 7]; 2],
        side: Color,
        ply: u32,
    ) -> Position {
        let mut kings = [None; 2];
        let mut colors = [0; 2];
        let mut kinds = [0; 14];
        let mut key = if side == Color::White {
            ZOBRIST.white
        } else {
            0
        };
        for (i, p) in board.iter().enumerate() {
            if let Some(p) = *p {
                let s = Square(i as u8);
                key ^= piece_key(p, s);
                colors[p.color.index()] |= bit(s);
                kinds[p.kind as usize] |= bit(s);
                if p.kind == Kind::King {
                    kings[p.color.index()] = Some(s);
                }
            }
        }
        for color in [Color::Black, Color::White] {
            for (i, &count) in hands[color.index()].iter().enumerate() {
                for n in 1..=count {
                    key ^= hand_key(color, i, n);
                }
            }
        }
        Position {
            board,
            hands,
            side,
            ply,
            kings,
            colors,
            kinds,
            key,
        }
    }

    /// This position with the piece on `from` moved to the empty `to` (promoted if asked),
    /// the same side to move, the hands as they are: the mate solver's takeback of a futile
    /// drop (two plies on, the move number too).
    pub(crate) fn with_piece_moved(&self, from: Square, to: Square, promote: bool) -> Position {
        let mut board = self.board;
        let mut piece = board[from.0 as usize].take().expect("a piece to move");
        if promote {
            piece.kind = piece.kind.promoted().unwrap_or(piece.kind);
        }
        board[to.0 as usize] = Some(piece);
        Position::from_parts(board, self.hands, self.side, self.ply + 2)
    }

    /// The Zobrist key: the board, the hands and the side to move (not the move number).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The piece on `square`.
    pub fn piece(&self, square: Square) -> Option<Piece> {
        self.board[square.0 as usize]
    }

    /// How many pieces of `kind` `color` holds in hand.
    pub fn in_hand(&self, color: Color, kind: Kind) -> u8 {
        kind.hand_index()
            .map_or(0, |i| self.hands[color.index()][i])
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// What `color` holds in hand, by hand index (pawn .. rook; see [`Kind::HAND`]).
    pub(crate) fn hand(&self, color: Color) -> [u8; 7] {
        self.hands[color.index()]
    }

    /// The move number of SFEN: 1 at the start, one more after each move.
    pub fn move_number(&self) -> u32 {
        self.ply
    }

    /// Where `color`'s king stands, if it has one.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind as usize]
    }

    /// The squares of the pieces of `kind`, both sides'.
    #[inline]
    pub(crate) fn kind_squares(&self, kind: Kind) -> Bitboard {
        self.kinds[kind as usize]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub(crate) fn pieces_of(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The pieces of either colour that would attack `square` by a single step if they were
    /// `by`'s (a piece of `by` on X steps to `square` exactly when a piece of the other colour
    /// on `square` would step to X: the step sets are symmetric left to right).
    #[inline]
    fn steppers_to(&self, square: Square, by: Color) -> Bitboard {
        let them = by.flip();
        let kinds = &self.kinds;
        let gold_like = kinds[Kind::Gold as usize]
            | kinds[Kind::ProPawn as usize]
            | kinds[Kind::ProLance as usize]
            | kinds[Kind::ProKnight as usize]
            | kinds[Kind::ProSilver as usize];
        bitboard::step_attacks(them, Kind::Pawn, square) & kinds[Kind::Pawn as usize]
            | bitboard::step_attacks(them, Kind::Knight, square) & kinds[Kind::Knight as usize]
            | bitboard::step_attacks(them, Kind::Silver, square) & kinds[Kind::Silver as usize]
            | bitboard::step_attacks(them, Kind::Gold, square) & gold_like
            | bitboard::step_attacks(them, Kind::King, square)
                & (kinds[Kind::King as usize]
                    | kinds[Kind::Horse as usize]
                    | kinds[Kind::Dragon as usize])
    }

    /// Whether `square` is attacked by a piece of `by` (the steps first, then each slider
    /// only if `by` has one on its lines: cheaper than listing the attackers when the answer
    /// is yes).
    pub fn attacked(&self, square: Square, by: Color) -> bool {
        self.attacked_over(square, by, self.occupied())
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king(self.side)
            .is_some_and(|k| self.attacked(k, self.side.flip()))
    }

    /// The ranks where `color` may promote (its last three).
    fn zone(color: Color) -> Bitboard {
        match color {
            Color::Black => RANKS[0] | RANKS[1] | RANKS[2],
            Color::White => RANKS[6] | RANKS[7] | RANKS[8],
        }
    }

    /// The squares where a piece of `kind` of `color` could move again (else it must promote
    /// on the way there, or may not be dropped there).
    fn alive(kind: Kind, color: Color) -> Bitboard {
        let (last, second) = match color {
            Color::Black => (RANKS[0], RANKS[1]),
            Color::White => (RANKS[8], RANKS[7]),
        };
        match kind {
            Kind::Pawn | Kind::Lance => BOARD & !last,
            Kind::Knight => BOARD & !last & !second,
            _ => BOARD,
        }
    }

    /// Every move by the rules of movement and dropping (only captures with `captures_only`),
    /// before the king's safety and uchifuzume are checked.
    pub(crate) fn pseudo_moves(&self, moves: &mut Vec<Move>, captures_only: bool) {
        let us = self.side;
        let ours = self.colors[us.index()];
        let occupied = self.occupied();
        let targets = if captures_only {
            self.colors[us.flip().index()]
        } else {
            BOARD & !ours
        };
        let zone = Self::zone(us);
        for from in squares(ours) {
            let kind = self.board[from.0 as usize]
                .expect("a piece on its bit")
                .kind;
            let reach = bitboard::attacks(us, kind, from, occupied) & targets;
            if reach == 0 {
                continue;
            }
            let promotable = match kind.promoted() {
                None => 0,
                Some(_) if bit(from) & zone != 0 => reach,
                Some(_) => reach & zone,
            };
            movegen::push_moves(moves, from, promotable, reach & Self::alive(kind, us));
        }
        // Drops.
        let hand = self.hands[us.index()];
        if captures_only || hand.iter().all(|&n| n == 0) {
            return;
        }
        let empty = BOARD & !occupied;
        for (i, &kind) in Kind::HAND.iter().enumerate() {
            if hand[i] == 0 {
                continue;
            }
            let mut to = empty & Self::alive(kind, us);
            if kind == Kind::Pawn {
                // Nifu: no second unpromoted pawn on a file.
                to &= !movegen::files_of(self.pieces(us, Kind::Pawn));
            }
            moves.extend(squares(to).map(|to| Move::Drop { kind, to }));
        }
    }

    /// The position after `mv`, which must be pseudo-legal here.
    pub fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        let us = self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let mut p = next.board[from.0 as usize]
                    .take()
                    .expect("a move starts from a piece");
                next.key ^= piece_key(p, from);
                next.colors[us.index()] ^= bit(from);
                next.kinds[p.kind as usize] ^= bit(from);
                if let Some(captured) = next.board[to.0 as usize] {
                    next.key ^= piece_key(captured, to);
                    next.colors[captured.color.index()] ^= bit(to);
                    next.kinds[captured.kind as usize] ^= bit(to);
                    if let Some(i) = captured.kind.unpromoted().hand_index() {
                        let n = &mut next.hands[us.index()][i];
                        *n += 1;
                        next.key ^= hand_key(us, i, *n);
                    }
                }
                if promote {
                    p.kind = p.kind.promoted().unwrap_or(p.kind);
                }
                if p.kind == Kind::King {
                    next.kings[us.index()] = Some(to);
                }
                next.key ^= piece_key(p, to);
                next.colors[us.index()] |= bit(to);
                next.kinds[p.kind as usize] |= bit(to);
                next.board[to.0 as usize] = Some(p);
            }
            Move::Drop { kind, to } => {
                let i = kind.hand_index().expect("a droppable kind");
                let n = &mut next.hands[us.index()][i];
                next.key ^= hand_key(us, i, *n);
                *n -= 1;
                let p = Piece { color: us, kind };
                next.key ^= piece_key(p, to);
                next.colors[us.index()] |= bit(to);
                next.kinds[kind as usize] |= bit(to);
                next.board[to.0 as usize] = Some(p);
            }
        }
        next.key ^= ZOBRIST.white;
        next.side = us.flip();
        next.ply = next.ply.saturating_add(1);
        next
    }

    /// The position with the other side to move and nothing else changed: the "null move"
    /// of null-move pruning (not a move of shogi; only for a side not in check).
    pub fn null_move(&self) -> Position {
        let mut next = self.clone();
        next.key ^= ZOBRIST.white;
        next.side = self.side.flip();
        next.ply = next.ply.saturating_add(1);
        next
    }

    /// Whether the side that just moved left its own king attacked.
    pub(crate) fn leaves_mover_in_check(&self) -> bool {
        !self.mover_king_safe()
    }

    /// Whether the side that just moved left its own king safe.
    fn mover_king_safe(&self) -> bool {
        let mover = self.side.flip();
        self.king(mover)
            .is_none_or(|k| !self.attacked(k, self.side))
    }

    /// Whether a pawn drop mates (uchifuzume): the drop checks and the opponent has no legal
    /// reply.
    #[cfg(test)]
    fn drop_mates(&self, after: &Position) -> bool {
        after.in_check() && !after.has_reply()
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.generate_legal(&mut moves);
        moves
    }

    /// The legal captures (with and without promotion), appended to `moves`.
    pub fn legal_captures(&self, moves: &mut Vec<Move>) {
        self.generate(moves, Gen::Captures, true);
    }

    /// The legal moves that capture nothing (drops included), appended to `moves` in the
    /// order [`Position::generate_legal`] has them: with [`Position::legal_captures`], every
    /// legal move once.
    pub fn legal_quiets(&self, moves: &mut Vec<Move>) {
        self.generate(moves, Gen::Quiets, true);
    }

    /// Whether `mv` is legal here (uchifuzume included), whatever its origin: a move from a
    /// hash table or from another position may name an empty square, another side's piece or
    /// a piece not in hand, and is then not legal. As quick as generating that one move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut only = movegen::Only { mv, found: false };
        self.generate(&mut only, Gen::All, true);
        only.found
    }

    /// Keeps in `moves[start..]` only the moves that are legal here (the others are
    /// pseudo-legal moves of this position), by playing each and looking at the king and for
    /// uchifuzume: the slow way the tests check the generator against.
    #[cfg(test)]
    fn keep_by_playing(&self, moves: &mut Vec<Move>, start: usize) {
        let mut kept = start;
        for i in start..moves.len() {
            let mv = moves[i];
            let after = self.play(mv);
            let legal = after.mover_king_safe()
                && !(matches!(
                    mv,
                    Move::Drop {
                        kind: Kind::Pawn,
                        ..
                    }
                ) && self.drop_mates(&after));
            if legal {
                moves[kept] = mv;
                kept += 1;
            }
        }
        moves.truncate(kept);
    }

    /// The kind of piece `mv` (pseudo-legal here) leaves on its target square: the moved
    /// piece's, promoted if the move promotes, or the dropped kind.
    #[inline]
    pub fn placed(&self, mv: Move) -> Kind {
        match mv {
            Move::Normal { from, promote, .. } => {
                let kind = self.board[from.0 as usize]
                    .expect("a move starts from a piece")
                    .kind;
                if promote {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                }
            }
            Move::Drop { kind, .. } => kind,
        }
    }

    /// The piece `mv` captures, if any.
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        match mv {
            Move::Normal { to, .. } => self.board[to.0 as usize],
            Move::Drop { .. } => None,
        }
    }

    /// The legal moves, appended to `moves`.
    pub fn generate_legal(&self, moves: &mut Vec<Move>) {
        self.generate(moves, Gen::All, true);
    }

    /// How many legal moves the side to move has, the drops on one square counted once (the
    /// mate solver's estimate of a defence: interpositions by drops on a square stand or fall
    /// together, and it searches them one after another).
    pub fn count_legal_by_square(&self) -> usize {
        let mut count = movegen::CountBySquare {
            moves: 0,
            drop_squares: 0,
        };
        self.generate(&mut count, Gen::All, true);
        count.moves + count.drop_squares.count_ones() as usize
    }

    /// The legal moves, appended to `moves` (perft's way: no allocation).
    pub(crate) fn legal_into(&self, moves: &mut MoveList) {
        self.generate(moves, Gen::All, true);
    }

    /// The move named `text` (USI) if it is legal here; else an error naming why.
    pub fn parse_move(&self, text: &str) -> Result<Move, crate::ParseError> {
        crate::notation::parse_usi_move(self, text)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Game for Position {
    type Move = Move;

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.generate_legal(moves);
    }

    fn play(&self, mv: Move) -> Self {
        Position::play(self, mv)
    }

    /// A side with no legal move has lost (checkmate; shogi has no stalemate).
    fn outcome(&self) -> Option<Score> {
        self.legal_moves().is_empty().then_some(Score::LOSS)
    }

    fn hash(&self) -> u64 {
        self.key
    }

    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv, Move::Normal { to, .. } if self.board[to.0 as usize].is_some())
    }

    /// Shogi allows the generic search's null move: zugzwang hardly exists with pieces in
    /// hand (the search never passes in check).
    fn null_move(&self) -> Option<Self> {
        Some(Position::null_move(self))
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn see(&self, mv: Move) -> Option<i32> {
        Some(Position::see(self, mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zobrist::splitmix;

    /// The key and the king squares kept by `play` are the ones computed from scratch (and
    /// the board key is the key without the hands), along
    /// random games from the start (captures, promotions and drops included).
    #[test]
    fn incremental_key_and_kings_match_a_fresh_computation() {
        let mut state = 7u64;
        let mut drops = 0;
        for _game in 0..20 {
            let mut p: Position = "startpos".parse().unwrap();
            for _ply in 0..150 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(splitmix(&mut state) % moves.len() as u64) as usize];
                drops += usize::from(matches!(mv, Move::Drop { .. }));
                let before = p.clone();
                p = p.play(mv);
                let fresh = Position::from_parts(p.board, p.hands, p.side, p.ply);
                assert_eq!(p.key, fresh.key, "after {mv} in {p}");
                assert_eq!(p.kings, fresh.kings, "after {mv} in {p}");
                let handless = Position::from_parts(p.board, [[0; 7]; 2], p.side, p.ply);
                assert_eq!(p.board_key(), handless.key, "after {mv} in {p}");
                assert_eq!(
                    before.keys_after(before.board_key(), mv),
                    (p.board_key(), p.key),
                    "{mv} in {before}"
                );
            }
        }
        assert!(drops > 0, "the random games dropped pieces");
    }

    /// The generator's moves are the pseudo-legal moves that survive being played (the king
    /// not left attacked, no uchifuzume), in the same order: the order the engine's node
    /// counts depend on. Captures alike. Along random games from the start, from a position
    /// with every piece in hand, and from one where Black has no king (a tsume problem's
    /// attacker).
    #[test]
    fn legal_moves_are_the_pseudo_legal_ones_played_and_kept_in_order() {
        let mut state = 11u64;
        let mut checks = 0;
        for game in 0..40 {
            let sfen = match game % 3 {
                0 => "startpos",
                1 => "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
                _ => "9/9/9/3k5/9/9/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
            };
            let mut p: Position = sfen.parse().unwrap();
            for _ply in 0..160 {
                let mut played = Vec::new();
                p.pseudo_moves(&mut played, false);
                p.keep_by_playing(&mut played, 0);
                let moves = p.legal_moves();
                assert_eq!(moves, played, "{p}");
                let mut captures = Vec::new();
                p.pseudo_moves(&mut captures, true);
                p.keep_by_playing(&mut captures, 0);
                let mut legal_captures = Vec::new();
                p.legal_captures(&mut legal_captures);
                assert_eq!(legal_captures, captures, "{p}");
                checks += usize::from(p.in_check());
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[(splitmix(&mut state) % moves.len() as u64) as usize]);
            }
        }
        assert!(checks > 50, "only {checks} positions in check");
    }
}
