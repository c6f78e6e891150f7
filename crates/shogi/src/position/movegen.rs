//! Legal move generation: each move is legal as it is made, none is played to be tested
//! (uchifuzume apart). The checkers and the pinned pieces are found once per position; out of
//! check a pinned piece keeps to its line and the king steps to unattacked squares; in check
//! the king steps away, and a single checker is also captured or blocked (by a move or a drop
//! between it and the king). The pieces move in the order of their squares (the king among
//! them), then come the drops, kind by kind. Which moves check is told in `checks.rs`, with
//! the sinks that want only checks.

use super::*;

/// Where the generator puts its moves.
pub(crate) trait MoveSink {
    /// Takes one move.
    fn push(&mut self, mv: Move);

    /// Whether it wants no more moves (the generator then stops between pieces).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }

    /// The squares it wants drops on (the generator makes no others).
    #[inline(always)]
    fn drop_squares(&self) -> Bitboard {
        !0
    }

    /// The squares it wants drops of `kind` on, within [`MoveSink::drop_squares`].
    #[inline(always)]
    fn drop_squares_of(&self, _kind: Kind) -> Bitboard {
        !0
    }

    /// The squares it wants the piece on `from` to move to (the generator makes no others).
    #[inline(always)]
    fn move_squares(&self, _from: Square) -> Bitboard {
        !0
    }

    /// The squares whose pieces it wants moves of (the generator looks at no others).
    #[inline(always)]
    fn origins(&self) -> Bitboard {
        !0
    }
}

/// Which legal moves [`Position::generate`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Gen {
    /// Every legal move.
    All,
    /// The captures (with and without promotion).
    Captures,
    /// The moves that capture nothing (drops included): with [`Gen::Captures`], every move
    /// once, each list in the order [`Gen::All`] has it.
    Quiets,
}

impl MoveSink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// The most moves a [`MoveList`] holds: more than the 593 legal moves of the richest position
/// known, with room for positions without a king (no rule bounds those).
const MAX_MOVES: usize = 1024;

/// A list of moves of fixed capacity, reused from position to position (perft keeps one per
/// ply): no allocation, and no capacity to grow.
pub(crate) struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub(crate) fn new() -> MoveList {
        MoveList {
            moves: [Move::Drop {
                kind: Kind::Pawn,
                to: Square(0),
            }; MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

/// Counts the moves it is given, the drops on one square once (see
/// [`Position::count_legal_by_square`]).
pub(super) struct CountBySquare {
    pub(super) moves: usize,
    pub(super) drop_squares: Bitboard,
}

impl MoveSink for CountBySquare {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        match mv {
            Move::Drop { to, .. } => self.drop_squares |= bit(to),
            Move::Normal { .. } => self.moves += 1,
        }
    }
}

/// Notes the first move it is given, and then wants no more.
struct First(Option<Move>);

impl MoveSink for First {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.0 = Some(mv);
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0.is_some()
    }
}

/// What replies the side to move has ([`Position::replies_kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Replies {
    /// None: mated (or stalemated).
    None,
    /// A move of a piece on the board among them.
    OnBoard,
    /// Drops only.
    DropsOnly,
}

/// The sink of [`Position::generate_drops_only`]: keeps the drops, and stops at the first
/// move of a piece on the board (those come first).
struct DropsOnly<'a> {
    moves: &'a mut Vec<Move>,
    board_move: bool,
}

impl MoveSink for DropsOnly<'_> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        match mv {
            Move::Normal { .. } => self.board_move = true,
            Move::Drop { .. } => self.moves.push(mv),
        }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.board_move
    }
}

/// The sink of [`Position::generate_moves_onto`]: the moves of the pieces on `origins` to
/// `square`, no drops.
struct Onto<'a> {
    square: Bitboard,
    origins: Bitboard,
    moves: &'a mut Vec<Move>,
}

impl MoveSink for Onto<'_> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    #[inline(always)]
    fn drop_squares(&self) -> Bitboard {
        0
    }

    #[inline(always)]
    fn move_squares(&self, _from: Square) -> Bitboard {
        self.square
    }

    #[inline(always)]
    fn origins(&self) -> Bitboard {
        self.origins
    }
}

/// Looks for one move among the legal moves, and asks the generator for that piece's move
/// to that square (or drops on that square) only.
pub(super) struct Only {
    pub(super) mv: Move,
    pub(super) found: bool,
}

impl MoveSink for Only {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.found |= mv == self.mv;
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.found
    }

    #[inline(always)]
    fn drop_squares(&self) -> Bitboard {
        match self.mv {
            Move::Drop { to, .. } => bit(to),
            Move::Normal { .. } => 0,
        }
    }

    #[inline(always)]
    fn move_squares(&self, from: Square) -> Bitboard {
        match self.mv {
            Move::Normal { from: f, to, .. } if f == from => bit(to),
            _ => 0,
        }
    }

    #[inline(always)]
    fn origins(&self) -> Bitboard {
        match self.mv {
            Move::Normal { from, .. } => bit(from),
            Move::Drop { .. } => 0,
        }
    }
}

/// Our pieces pinned to our king, each with the squares it may still move to (its line up
/// to the pinner, the pinner included).
struct Pinned {
    /// Every pinned piece.
    all: Bitboard,
    /// (the pinned piece's square, its line), `count` of them.
    lines: [(Square, Bitboard); 8],
    count: usize,
}

impl Pinned {
    /// The line of the pinned piece on `from`.
    #[inline]
    fn line(&self, from: Square) -> Bitboard {
        self.lines[..self.count]
            .iter()
            .find(|(s, _)| *s == from)
            .map_or(0, |&(_, line)| line)
    }
}

/// Pushes the moves of a piece from `from` to the squares of `promoting` with promotion and
/// to those of `plain` without, target by target (the promotion first).
#[inline(always)]
pub(super) fn push_moves(
    moves: &mut impl MoveSink,
    from: Square,
    promoting: Bitboard,
    plain: Bitboard,
) {
    if promoting == 0 {
        return push_plain(moves, from, plain);
    }
    for to in squares(promoting | plain) {
        let b = bit(to);
        if b & promoting != 0 {
            moves.push(Move::Normal {
                from,
                to,
                promote: true,
            });
        }
        if b & plain != 0 {
            moves.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }
}

/// Pushes the moves without promotion of a piece from `from` to the squares of `plain`.
#[inline(always)]
fn push_plain(moves: &mut impl MoveSink, from: Square, plain: Bitboard) {
    for to in squares(plain) {
        moves.push(Move::Normal {
            from,
            to,
            promote: false,
        });
    }
}

/// The files that hold a square of `b`, whole.
#[inline]
pub(super) fn files_of(b: Bitboard) -> Bitboard {
    // Per file: adding the low eight bits' mask to the low eight bits carries into the ninth
    // exactly when one of them is set (and never beyond the file).
    let low = BOARD & !RANKS[8];
    let any = (((b & low) + low) | b) & RANKS[8];
    let rank_a = any >> 8;
    (rank_a << 9) - rank_a
}

impl Position {
    /// Whether `square` is attacked by a piece of `by` when only `occupied` blocks the
    /// sliders (the pieces themselves are the position's).
    #[inline]
    pub(super) fn attacked_over(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        self.attacked_from_over(square, by, self.colors[by.index()], occupied)
    }

    /// Whether `square` is attacked by one of `theirs` (pieces of `by`) when only `occupied`
    /// blocks the sliders.
    #[inline]
    pub(super) fn attacked_from_over(
        &self,
        square: Square,
        by: Color,
        theirs: Bitboard,
        occupied: Bitboard,
    ) -> bool {
        if self.steppers_to(square, by) & theirs != 0 {
            return true;
        }
        let kinds = &self.kinds;
        let rooks = (kinds[Kind::Rook as usize] | kinds[Kind::Dragon as usize]) & theirs;
        if rooks & bitboard::rook_lines(square) != 0
            && bitboard::rook_attacks(square, occupied) & rooks != 0
        {
            return true;
        }
        let bishops = (kinds[Kind::Bishop as usize] | kinds[Kind::Horse as usize]) & theirs;
        if bishops & bitboard::bishop_lines(square) != 0
            && bitboard::bishop_attacks(square, occupied) & bishops != 0
        {
            return true;
        }
        let lances = self.kinds[Kind::Lance as usize] & theirs;
        lances != 0 && bitboard::lance_attacks(by.flip(), square, occupied) & lances != 0
    }

    /// The pieces of `by` that attack `square` (its king's): a slider's attacks are computed
    /// only when `by` has such a slider on the square's lines.
    #[inline]
    pub(super) fn checkers(&self, square: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.colors[by.index()];
        let kinds = &self.kinds;
        let mut checkers = self.steppers_to(square, by) & theirs;
        let rooks = (kinds[Kind::Rook as usize] | kinds[Kind::Dragon as usize]) & theirs;
        if rooks & bitboard::rook_lines(square) != 0 {
            checkers |= bitboard::rook_attacks(square, occupied) & rooks;
        }
        let bishops = (kinds[Kind::Bishop as usize] | kinds[Kind::Horse as usize]) & theirs;
        if bishops & bitboard::bishop_lines(square) != 0 {
            checkers |= bitboard::bishop_attacks(square, occupied) & bishops;
        }
        let lances = self.pieces(by, Kind::Lance);
        if lances != 0 {
            checkers |= bitboard::lance_attacks(by.flip(), square, occupied) & lances;
        }
        checkers
    }

    /// Whether the side to move is in check by one piece from afar, so that a piece put
    /// between could block it (a drop there is a defence the defender's hand decides).
    pub(crate) fn check_can_be_blocked(&self) -> bool {
        let us = self.side;
        let Some(king) = self.king(us) else {
            return false;
        };
        let checkers = self.checkers(king, us.flip(), self.occupied());
        if checkers == 0 || checkers & (checkers - 1) != 0 {
            return false;
        }
        let checker = Square(checkers.trailing_zeros() as u8);
        bitboard::towards(king, checker) & !checkers != 0
    }

    /// The sliders of `by` on an empty board's lines to `king` (the other side's king): those
    /// that attack it, or would with the pieces between gone. A lance points towards the
    /// king's side, so from the king it lies in the king's side's forward direction.
    #[inline]
    pub(super) fn snipers(&self, by: Color, king: Square) -> Bitboard {
        let theirs = self.colors[by.index()];
        let kinds = &self.kinds;
        let rooks = (kinds[Kind::Rook as usize] | kinds[Kind::Dragon as usize]) & theirs;
        let bishops = (kinds[Kind::Bishop as usize] | kinds[Kind::Horse as usize]) & theirs;
        rooks & bitboard::rook_lines(king)
            | bishops & bitboard::bishop_lines(king)
            | self.pieces(by, Kind::Lance) & bitboard::lance_attacks(by.flip(), king, 0)
    }

    /// The pieces of the side to move pinned to its king on `king`.
    #[inline]
    fn pinned(&self, king: Square, occupied: Bitboard) -> Pinned {
        let ours = self.colors[self.side.index()];
        let snipers = self.snipers(self.side.flip(), king);
        let mut pinned = Pinned {
            all: 0,
            lines: [(Square(0), 0); 8],
            count: 0,
        };
        for sniper in squares(snipers) {
            let line = bitboard::towards(king, sniper);
            let blockers = line & occupied & !bit(sniper);
            if blockers & ours != 0 && blockers & (blockers - 1) == 0 {
                pinned.all |= blockers;
                pinned.lines[pinned.count] = (Square(blockers.trailing_zeros() as u8), line);
                pinned.count += 1;
            }
        }
        pinned
    }

    /// The legal moves of kind `gen`, appended to `moves`. Pawn drops that mate are left out
    /// when `uchifuzume` says so (replies to a pawn drop are generated without that test, as
    /// the rule reads).
    pub(super) fn generate(&self, moves: &mut impl MoveSink, gen: Gen, uchifuzume: bool) {
        let us = self.side;
        let them = us.flip();
        let king = self.king(us);
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = ours | theirs;
        let empty = BOARD & !occupied;
        // Without a king to lose (a tsume problem's attacker), nothing is in check or pinned.
        let checkers = king.map_or(0, |king| self.checkers(king, them, occupied));
        let (targets, drop_targets) = if checkers == 0 {
            match gen {
                Gen::All => (BOARD & !ours, empty),
                Gen::Captures => (theirs, 0),
                Gen::Quiets => (empty, empty),
            }
        } else if checkers & (checkers - 1) == 0 {
            // One checker: capture it, or (not for captures only) block its line.
            let checker = Square(checkers.trailing_zeros() as u8);
            let king = king.expect("a king in check");
            let between = bitboard::towards(king, checker) & !checkers;
            match gen {
                Gen::All => (checkers | between, between),
                Gen::Captures => (checkers, 0),
                Gen::Quiets => (between, between),
            }
        } else {
            (0, 0)
        };
        // In check only the king and the pieces that reach a target square move: found from
        // the few targets (each square's attackers) rather than by trying every piece.
        let origins = match king {
            Some(king) if checkers != 0 => {
                let mut reach = bit(king);
                for t in squares(targets) {
                    reach |= self.attackers(t, us, occupied);
                }
                reach
            }
            _ => !0,
        };
        self.board_moves(moves, king, occupied, targets, origins, gen);
        let drop_targets = drop_targets & moves.drop_squares();
        if drop_targets != 0 && !moves.done() {
            self.drops(moves, drop_targets, uchifuzume);
        }
    }

    /// The moves of the pieces on the board, piece by piece in square order (the order the
    /// engine's searches were tuned with): the king's to unattacked squares, the others' to
    /// `targets`, a pinned piece's along its line (`king`: the mover's, if it has one). Only
    /// the pieces on `origins` are looked at.
    #[inline(always)]
    fn board_moves(
        &self,
        moves: &mut impl MoveSink,
        king: Option<Square>,
        occupied: Bitboard,
        targets: Bitboard,
        origins: Bitboard,
        gen: Gen,
    ) {
        let us = self.side;
        let them = us.flip();
        let ours = self.colors[us.index()];
        let pinned = match king {
            Some(king) => self.pinned(king, occupied),
            None => Pinned {
                all: 0,
                lines: [(Square(0), 0); 8],
                count: 0,
            },
        };
        let zone = Self::zone(us);
        let king_targets = match gen {
            Gen::All => BOARD & !ours,
            Gen::Captures => self.colors[them.index()],
            Gen::Quiets => BOARD & !occupied,
        };
        // Silvers, bishops and rooks promote entering or leaving the zone; pawns, lances and
        // knights move forward only, so they may promote exactly where they land in it.
        let promoting = |from: Square, t: Bitboard| {
            if bit(from) & zone != 0 {
                t
            } else {
                t & zone
            }
        };
        for from in squares(ours & moves.origins() & origins) {
            if moves.done() {
                return;
            }
            let kind = self.board[from.0 as usize]
                .expect("a piece on its bit")
                .kind;
            if kind == Kind::King {
                let without_king = occupied ^ bit(from);
                let reach = bitboard::step_attacks(us, Kind::King, from)
                    & king_targets
                    & moves.move_squares(from);
                for to in squares(reach) {
                    if !self.attacked_over(to, them, without_king) {
                        moves.push(Move::Normal {
                            from,
                            to,
                            promote: false,
                        });
                    }
                }
                continue;
            }
            let allowed = if bit(from) & pinned.all != 0 {
                targets & pinned.line(from)
            } else {
                targets
            } & moves.move_squares(from);
            if allowed == 0 {
                continue;
            }
            match kind {
                Kind::Pawn | Kind::Knight => {
                    let t = bitboard::step_attacks(us, kind, from) & allowed;
                    push_moves(moves, from, t & zone, t & Self::alive(kind, us));
                }
                Kind::Lance => {
                    let t = bitboard::lance_attacks(us, from, occupied) & allowed;
                    push_moves(moves, from, t & zone, t & Self::alive(kind, us));
                }
                Kind::Silver => {
                    let t = bitboard::step_attacks(us, kind, from) & allowed;
                    push_moves(moves, from, promoting(from, t), t);
                }
                Kind::Bishop => {
                    let t = bitboard::bishop_attacks(from, occupied) & allowed;
                    push_moves(moves, from, promoting(from, t), t);
                }
                Kind::Rook => {
                    let t = bitboard::rook_attacks(from, occupied) & allowed;
                    push_moves(moves, from, promoting(from, t), t);
                }
                Kind::Horse => {
                    let t = (bitboard::bishop_attacks(from, occupied)
                        | bitboard::step_attacks(us, kind, from))
                        & allowed;
                    push_plain(moves, from, t);
                }
                Kind::Dragon => {
                    let t = (bitboard::rook_attacks(from, occupied)
                        | bitboard::step_attacks(us, kind, from))
                        & allowed;
                    push_plain(moves, from, t);
                }
                _ => {
                    // Gold and the promoted small pieces.
                    let t = bitboard::step_attacks(us, Kind::Gold, from) & allowed;
                    push_plain(moves, from, t);
                }
            }
        }
    }

    /// The drops on `targets` (empty squares): a pawn not on a file that holds one of ours
    /// (nifu) nor mating by the drop when `uchifuzume` is asked, no piece where it could never
    /// move.
    fn drops(&self, moves: &mut impl MoveSink, targets: Bitboard, uchifuzume: bool) {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand == [0; 7] {
            return;
        }
        if hand[0] > 0 {
            let mut t = targets
                & moves.drop_squares_of(Kind::Pawn)
                & Self::alive(Kind::Pawn, us)
                & !files_of(self.pieces(us, Kind::Pawn));
            if let (true, Some(their_king)) = (uchifuzume, self.king(us.flip())) {
                // The only drop that checks: in front of their king.
                let check = t & bitboard::step_attacks(us.flip(), Kind::Pawn, their_king);
                if check != 0 {
                    let to = Square(check.trailing_zeros() as u8);
                    let after = self.play(Move::Drop {
                        kind: Kind::Pawn,
                        to,
                    });
                    if !after.has_reply() {
                        t ^= check;
                    }
                }
            }
            for to in squares(t) {
                moves.push(Move::Drop {
                    kind: Kind::Pawn,
                    to,
                });
            }
        }
        for (i, &kind) in Kind::HAND.iter().enumerate().skip(1) {
            if hand[i] == 0 {
                continue;
            }
            for to in squares(targets & moves.drop_squares_of(kind) & Self::alive(kind, us)) {
                moves.push(Move::Drop { kind, to });
            }
        }
    }

    /// Whether the side to move has a legal move, pawn drops that mate counted as legal (a
    /// reply to a pawn drop is looked for this way by the uchifuzume rule).
    pub(super) fn has_reply(&self) -> bool {
        self.any_reply(false)
    }

    /// Whether the side to move has a legal move; `uchifuzume`: pawn drops that mate are not
    /// legal (as for every move but the replies the uchifuzume rule itself looks for).
    pub(super) fn any_reply(&self, uchifuzume: bool) -> bool {
        self.replies_kind(uchifuzume) != Replies::None
    }

    /// Whether the side to move has a legal move (`uchifuzume` as for
    /// [`Position::any_reply`]), and if so whether one is a move on the board or all are
    /// drops: the moves on the board are generated first, and the first move found tells.
    pub(super) fn replies_kind(&self, uchifuzume: bool) -> Replies {
        // The king's steps first: the commonest reply, and the quickest to find.
        let us = self.side;
        if let Some(king) = self.king(us) {
            let without_king = self.occupied() ^ bit(king);
            let steps = bitboard::step_attacks(us, Kind::King, king) & !self.colors[us.index()];
            if squares(steps).any(|to| !self.attacked_over(to, us.flip(), without_king)) {
                return Replies::OnBoard;
            }
        }
        let mut reply = First(None);
        self.generate(&mut reply, Gen::All, uchifuzume);
        match reply.0 {
            None => Replies::None,
            Some(Move::Normal { .. }) => Replies::OnBoard,
            Some(Move::Drop { .. }) => Replies::DropsOnly,
        }
    }

    /// The legal moves if every one is a drop: appends them to `moves` (in generation order)
    /// and says true; false as soon as a piece on the board has a legal move (the drops are
    /// then not generated).
    pub(crate) fn generate_drops_only(&self, moves: &mut Vec<Move>) -> bool {
        let mut sink = DropsOnly {
            moves,
            board_move: false,
        };
        self.generate(&mut sink, Gen::All, true);
        !sink.board_move
    }

    /// The legal moves of pieces on the board onto `square` (the captures there, if a piece
    /// stands on it), appended to `moves` in generation order: only the pieces that attack
    /// the square are looked at.
    pub(crate) fn generate_moves_onto(&self, square: Square, moves: &mut Vec<Move>) {
        let mut sink = Onto {
            square: bit(square),
            origins: self.attackers(square, self.side, self.occupied()),
            moves,
        };
        self.generate(&mut sink, Gen::All, true);
    }
}
