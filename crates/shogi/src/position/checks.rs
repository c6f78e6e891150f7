//! Checks: which moves check the opponent's king, told move by move from what is worked out
//! once a position (where each kind checks from, which pieces may uncover a line); the checks
//! themselves, the mate in one, and the distant checker a futile drop's capture needs.

use super::movegen::{Gen, MoveSink, Replies};
use super::*;

impl Position {
    /// A legal move that mates at once, if there is one: a check after which the opponent
    /// has no legal move (never a pawn drop: uchifuzume forbids that mate). The first found
    /// in generation order.
    ///
    /// The legal moves are generated into a sink that plays only the checks: a move whose
    /// piece attacks the king from its target square, or one that uncovers a slider.
    pub fn mate_in_one(&self) -> Option<Move> {
        self.mate_in_one_or_checks().ok()
    }

    /// [`Position::mate_in_one`], or without one the number of legal checks (every check
    /// is looked at then): what the attacker has to try here.
    pub fn mate_in_one_or_checks(&self) -> Result<Move, usize> {
        self.find_mate_in_one(None)
    }

    /// [`Position::mate_in_one_or_checks`], and without a mate in one the checks after which
    /// the opponent has drops only (interpositions: what a mate by futile drops needs),
    /// appended to `drops_only` in generation order.
    pub(crate) fn mate_in_one_or_checks_answered_by_drops(
        &self,
        drops_only: &mut Vec<Move>,
    ) -> Result<Move, usize> {
        self.find_mate_in_one(Some(drops_only))
    }

    /// [`Position::mate_in_one_or_checks`], noting the checks answered by drops only where
    /// asked.
    fn find_mate_in_one(&self, drops_only: Option<&mut Vec<Move>>) -> Result<Move, usize> {
        let Some(targets) = CheckTargets::of(self) else {
            return Err(0);
        };
        let action = MateFinder {
            free: targets.free_steps(),
            found: None,
            checks: 0,
            drops_only,
        };
        let mut finder = Checks { targets, action };
        self.generate(&mut finder, Gen::All, true);
        finder.action.found.ok_or(finder.action.checks)
    }

    /// The legal moves that check the opponent's king, appended to `moves` in generation
    /// order (none if the opponent has no king).
    pub fn generate_checks(&self, moves: &mut Vec<Move>) {
        let Some(targets) = CheckTargets::of(self) else {
            return;
        };
        let mut sink = Checks {
            targets,
            action: moves,
        };
        self.generate(&mut sink, Gen::All, true);
    }
}

/// What tells, move by move, whether a legal move of the side to move checks: worked out once
/// for a position ([`Position::check_info`]) and then a few bit tests a move, where
/// [`Position::gives_check`] works out the king's lines for each move it is asked about.
pub struct CheckInfo<'a>(CheckTargets<'a>);

impl CheckInfo<'_> {
    /// Whether legal `mv` checks the opponent's king (as [`Position::gives_check`]).
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        self.0.check(mv).is_some()
    }
}

impl Position {
    /// The one piece that checks the side to move from afar (with a square between it and
    /// the king), if the check is so.
    pub(crate) fn distant_checker(&self) -> Option<Square> {
        let king = self.king(self.side)?;
        let checkers = self.checkers(king, self.side.flip(), self.occupied());
        if checkers == 0 || checkers & (checkers - 1) != 0 {
            return None;
        }
        let checker = Square(checkers.trailing_zeros() as u8);
        (bitboard::towards(king, checker) & !checkers != 0).then_some(checker)
    }

    /// The move of `checker` (the [`Position::distant_checker`]) that would take a piece put
    /// on `square` between it and the king (promoting where a rook or bishop may: it still
    /// checks along the same line), as the checker's side would play it after that drop;
    /// `None` if `square` is not between or the move would leave the checker's own king
    /// attacked.
    pub(crate) fn checker_takes_on(&self, checker: Square, square: Square) -> Option<Move> {
        let us = self.side;
        let them = us.flip();
        let from = checker;
        if bitboard::towards(self.king(us)?, from) & bit(square) == 0 {
            return None;
        }
        let kind = self.board[from.0 as usize]?.kind;
        let zone = Self::zone(them);
        let promote =
            matches!(kind, Kind::Rook | Kind::Bishop) && (bit(from) | bit(square)) & zone != 0;
        let capture = Move::Normal {
            from,
            to: square,
            promote,
        };
        if let Some(own) = self.king(them) {
            // The checker leaves its square: a line onto its own king may open.
            let occupied = (self.occupied() ^ bit(from)) | bit(square);
            if self.attackers(own, us, occupied) != 0 {
                return None;
            }
        }
        Some(capture)
    }

    /// The [`CheckInfo`] of the side to move; `None` if the opponent has no king (no move
    /// checks).
    pub fn check_info(&self) -> Option<CheckInfo<'_>> {
        CheckTargets::of(self).map(CheckInfo)
    }
}

/// Where the side to move checks the opponent's king from: a move whose piece attacks the
/// king from its target square (the squares each kind checks from are found once), or one
/// that leaves a line from the king (a discovered check, decided by playing it).
struct CheckTargets<'a> {
    position: &'a Position,
    /// The opponent's king.
    king: Square,
    /// By kind: where a piece of that kind of the side to move attacks the king from.
    checks: [Bitboard; 14],
    /// Every square some kind checks from.
    any_check: Bitboard,
    /// By kind: where a piece of that kind checks from, as it is or promoted.
    by_piece: [Bitboard; 14],
    /// Our pieces that stand alone between one of our sliders and the king: only a move of
    /// one of them can uncover a check.
    discoverers: Bitboard,
    /// Our pieces that may check by a move: the sliders, the discoverers and the pieces
    /// near enough to the king (the generator looks at no others).
    origins: Bitboard,
}

/// The pieces of the side to move that stand alone between one of its sliders and the
/// opponent's king on `king`.
fn discoverers(position: &Position, king: Square, occupied: Bitboard) -> Bitboard {
    let ours = position.colors[position.side.index()];
    let mut found = 0;
    for sniper in squares(position.snipers(position.side, king)) {
        let blockers = bitboard::towards(king, sniper) & occupied & !bit(sniper);
        if blockers & ours != 0 && blockers & (blockers - 1) == 0 {
            found |= blockers;
        }
    }
    found
}

impl<'a> CheckTargets<'a> {
    /// The check targets of the side to move in `position`; `None` if the opponent has no
    /// king.
    fn of(position: &'a Position) -> Option<CheckTargets<'a>> {
        let us = position.side;
        let king = position.king(us.flip())?;
        let occupied = position.occupied();
        // A piece of ours of kind k checks from `checks[k]`: where their piece of that kind
        // on the king's square would attack (the moved piece's own square left occupied
        // changes nothing: it was not on a line to the king that it attacked along).
        // (Each slider's lines from the king worked out once: a horse's are a bishop's, a
        // dragon's a rook's.)
        let bishop = bitboard::bishop_attacks(king, occupied);
        let rook = bitboard::rook_attacks(king, occupied);
        let mut checks = [0; 14];
        for kind in Kind::ALL {
            let steps = bitboard::step_attacks(us.flip(), kind, king);
            checks[kind as usize] = match kind {
                Kind::Lance => bitboard::lance_attacks(us.flip(), king, occupied),
                Kind::Bishop | Kind::Horse => steps | bishop,
                Kind::Rook | Kind::Dragon => steps | rook,
                _ => steps,
            };
        }
        let mut by_piece = checks;
        for kind in Kind::ALL {
            if let Some(promoted) = kind.promoted() {
                by_piece[kind as usize] |= checks[promoted as usize];
            }
        }
        let discoverers = discoverers(position, king, occupied);
        let kinds = &position.kinds;
        let sliders = kinds[Kind::Lance as usize]
            | kinds[Kind::Bishop as usize]
            | kinds[Kind::Rook as usize]
            | kinds[Kind::Horse as usize]
            | kinds[Kind::Dragon as usize];
        Some(CheckTargets {
            position,
            king,
            by_piece,
            checks,
            any_check: checks.iter().fold(0, |all, &b| all | b),
            discoverers,
            origins: discoverers | sliders | bitboard::near(king),
        })
    }

    /// Where the piece on `from` may check from: anywhere if it may uncover a check, else
    /// where it attacks the king from, as it is or promoted.
    #[inline(always)]
    fn move_squares(&self, from: Square) -> Bitboard {
        if self.discoverers & bit(from) != 0 {
            !0
        } else {
            self.position.board[from.0 as usize]
                .map_or(0, |piece| self.by_piece[piece.kind as usize])
        }
    }

    /// The squares next to the opponent's king, empty or ours, that no piece of ours
    /// attacks now (the king itself not blocking a line): where it may step after a check,
    /// unless the checking move changes that (worked out once for every check tried).
    fn free_steps(&self) -> Bitboard {
        let p = self.position;
        let us = p.side;
        let occupied = p.occupied() ^ bit(self.king);
        let steps =
            bitboard::step_attacks(us.flip(), Kind::King, self.king) & !p.colors[us.flip().index()];
        let mut free = 0;
        for s in squares(steps) {
            if !p.attacked_over(s, us, occupied) {
                free |= bit(s);
            }
        }
        free
    }

    /// Whether the king surely has a square to step to after `mv`, a direct check, told
    /// without playing `mv`; `free`: [`CheckTargets::free_steps`]. A drop only blocks lines,
    /// so a free square it does not attack stays free (its own square too: the king takes
    /// it). A move of a piece may open a line onto a free square, so each is tested again
    /// with the pieces where they will stand (the moved piece counted on its old square as
    /// well as its new one: a square found is safe); a moved piece next to the king that
    /// nothing else of ours guards is taken by the king. Other captures of the moved piece
    /// are not looked for.
    #[inline]
    fn king_steps_away(&self, mv: Move, free: Bitboard) -> bool {
        let p = self.position;
        let us = p.side;
        let king = self.king;
        let (from, to) = match mv {
            Move::Normal { from, to, .. } => (Some(from), to),
            Move::Drop { to, .. } => (None, to),
        };
        let next_to_king = bitboard::step_attacks(us.flip(), Kind::King, king) & bit(to) != 0;
        if free == 0 && !(from.is_some() && next_to_king) {
            return false;
        }
        let mut occupied = p.occupied() | bit(to);
        if let Some(from) = from {
            occupied &= !bit(from);
        }
        let occupied = occupied ^ bit(king);
        let steps = free & !bitboard::attacks(us, p.placed(mv), to, occupied);
        match from {
            None => steps != 0,
            Some(from) => {
                // The moved piece next to the king, and nothing else of ours behind it: the
                // king takes it.
                let ours = p.colors[us.index()] & !bit(from);
                (next_to_king && !p.attacked_from_over(to, us, ours, occupied))
                    || squares(steps & !bit(to)).any(|s| !p.attacked_over(s, us, occupied))
            }
        }
    }

    /// Whether legal `mv` checks: `None` if not; else the position after it when that had
    /// to be played to tell (a discovered check).
    #[inline(always)]
    fn check(&self, mv: Move) -> Option<Option<Position>> {
        let p = self.position;
        let (to, from) = match mv {
            Move::Normal { from, to, .. } => (to, Some(from)),
            Move::Drop { to, .. } => (to, None),
        };
        let discovered = from.is_some_and(|f| self.discoverers & bit(f) != 0);
        // Most moves go nowhere any kind checks from: rejected before asking the kind.
        if !discovered && self.any_check & bit(to) == 0 {
            return None;
        }
        if self.checks[p.placed(mv) as usize] & bit(to) != 0 {
            return Some(None);
        }
        if !discovered {
            return None;
        }
        let after = p.play(mv);
        after.in_check().then_some(Some(after))
    }
}

/// A sink that asks the generator only for the moves that may check (the pieces and
/// squares [`CheckTargets`] allows) and hands each check to its `action`: the one mechanism
/// of [`Position::mate_in_one`] and [`Position::generate_checks`].
struct Checks<'a, A> {
    targets: CheckTargets<'a>,
    action: A,
}

/// What a [`Checks`] sink does with each check.
trait CheckAction {
    /// Takes check `mv`; `after`: the position after it, when telling the check played it.
    fn take(&mut self, targets: &CheckTargets<'_>, mv: Move, after: Option<Position>);

    /// Whether it wants no more checks.
    fn done(&self) -> bool {
        false
    }
}

impl<A: CheckAction> MoveSink for Checks<'_, A> {
    #[inline(always)]
    fn done(&self) -> bool {
        self.action.done()
    }

    /// A drop checks only directly: from where some kind attacks the king.
    #[inline(always)]
    fn drop_squares(&self) -> Bitboard {
        self.targets.any_check
    }

    #[inline(always)]
    fn move_squares(&self, from: Square) -> Bitboard {
        self.targets.move_squares(from)
    }

    #[inline(always)]
    fn origins(&self) -> Bitboard {
        self.targets.origins
    }

    #[inline(always)]
    fn drop_squares_of(&self, kind: Kind) -> Bitboard {
        self.targets.checks[kind as usize]
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        if let Some(after) = self.targets.check(mv) {
            self.action.take(&self.targets, mv, after);
        }
    }
}

/// The action of [`Position::mate_in_one`]: tries each check as it comes (and, where asked,
/// notes those the opponent answers by drops only).
struct MateFinder<'a> {
    /// [`CheckTargets::free_steps`].
    free: Bitboard,
    found: Option<Move>,
    /// The checks looked at.
    checks: usize,
    /// Where asked, the checks answered by drops only.
    drops_only: Option<&'a mut Vec<Move>>,
}

impl CheckAction for MateFinder<'_> {
    #[inline(always)]
    fn take(&mut self, targets: &CheckTargets<'_>, mv: Move, after: Option<Position>) {
        self.checks += 1;
        if self.found.is_some() || after.is_none() && targets.king_steps_away(mv, self.free) {
            return;
        }
        let after = after.unwrap_or_else(|| targets.position.play(mv));
        // A reply that would itself be a pawn drop mating us is no reply (uchifuzume).
        match after.replies_kind(true) {
            Replies::None => self.found = Some(mv),
            Replies::DropsOnly => {
                if let Some(list) = self.drops_only.as_deref_mut() {
                    list.push(mv);
                }
            }
            Replies::OnBoard => {}
        }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.found.is_some()
    }
}

/// The action of [`Position::generate_checks`]: keeps the checks.
impl CheckAction for &mut Vec<Move> {
    #[inline(always)]
    fn take(&mut self, _: &CheckTargets<'_>, mv: Move, _: Option<Position>) {
        self.push(mv);
    }
}
