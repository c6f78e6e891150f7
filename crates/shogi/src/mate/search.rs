//! df-pn over checks and evasions: the attacker's nodes (OR) try the checks, the defender's
//! (AND) every legal reply, and a defender without one is mated.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::table::{Hand, KeySet, Number, Numbers, Plies, Table, INFINITE, MOST, UNLIMITED};
use super::{futile_drops, Judged};
use crate::{Color, Move, Position};

mod children;
mod futile;
mod hands;
mod line;
mod repetition;
mod split;

use hands::{max_hand, min_hand};
use repetition::{follow, LineRefutations};

/// The ε of the 1+ε trick (Pawlewicz and Lew): a child is searched until its number passes
/// the second best's by this fraction, which saves re-expansions.
const EPSILON: f64 = 0.25;

/// The ε at the attacker's nodes in the searches within a ply limit. Their goal is a
/// refutation, which must refute every check: the order in which the checks are taken
/// matters less than in the first search, and a check is searched on until its proof number
/// is three times the next one's (twenty-fourth session in docs/tsume-log.md: with
/// [`LIMITED_EPSILON_DEFENDER`], on 91 Edo problems shown shortest in 0.3 to 5 s, 0.82 of the
/// nodes and 0.84 of the time of 0.25 at both).
const LIMITED_EPSILON_ATTACKER: f64 = 2.0;

/// The ε at the defender's nodes in the searches within a ply limit: a smaller one, since
/// there the search looks for the one reply that escapes, and the likeliest changes often.
const LIMITED_EPSILON_DEFENDER: f64 = 0.125;

/// The most a new defender's node's disproof number starts at.
const INITIAL_DN: Number = 1;

/// How often (in a node's iterations) its unsettled children are read again from the table.
const REFRESH_EVERY: u32 = 8;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1 << 12;

/// What a child may spend of its parent's threshold `th` on the number its parent sums
/// (`sum` over the children, `own` the child's part of it): the threshold less the others'.
/// An infinite threshold (the root's, searching until settled) stays infinite: the sums are
/// capped (at [`INFINITE`], and an unsettled node's at [`MOST`]), so the difference would be
/// too small, the child would return at once unchanged and its parent call it again forever.
fn spend(th: Number, sum: Number, own: Number) -> Number {
    if th >= INFINITE {
        INFINITE
    } else {
        th.saturating_sub(sum).saturating_add(own).min(INFINITE)
    }
}

/// A search in progress.
pub(super) struct Solver<'a> {
    pub attacker: Color,
    pub table: Table,
    /// Nodes searched (expanded).
    pub nodes: u64,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// On a thread of a search shared out ([`split`]): set when the others should stop.
    halt: Option<&'a AtomicBool>,
    /// And the nodes all its threads have searched, which `max_nodes` limits.
    spent: Option<&'a AtomicU64>,
    /// The threads of the searches that share out their checks ([`split`]; 1: none do).
    pub threads: usize,
    /// The nodes such a search spends on one thread before it shares out.
    pub split_after: u64,
    /// The times such a search shared out its checks.
    pub splits: u64,
    /// Set when a limit is met: every frame returns at once.
    pub stopped: bool,
    /// The positions on the current path (their full keys: board, hands, side to move).
    path: KeySet,
    /// The current path's key: its positions' full keys hashed in order ([`follow`]), the
    /// root's first.
    path_key: u64,
    /// Refutations that hold for one path only (a repetition on it), kept apart from the
    /// table.
    repetitions: LineRefutations,
    /// Move and child lists to reuse, one pair a ply of the current path.
    spare: Vec<(Vec<Move>, Vec<Child>)>,
    /// Whether a defender left with futile drops only is mated ([`super::MateRules::Tsume`]).
    pub tsume: bool,
    /// Under the tsume rules, whether the main line follows the two-ply rule on pieces left
    /// in hand ([`super::MateConfig::two_ply_rule`]).
    pub two_ply_rule: bool,
    /// Whether these are the searches after the first, within a ply limit (shortening the
    /// mate, reading its line, the audit), whose goal is a refutation. [`super::solve`] sets
    /// it after the first mate. Two rules hold only there, as in the first, unlimited search
    /// each sends df-pn round a king's walk (musou-073; docs/tsume-log.md, seventeenth and
    /// twentieth sessions): a defender's reply's disproof number starts at the number of the
    /// attacker's checks after it (else at one), and a check's disproof threshold is its
    /// node's less one for each other open check (see [`Solver::combine`]). The 1+ε trick
    /// takes its own ε there, one for each side (`LIMITED_EPSILON_ATTACKER`).
    pub limited: bool,
    /// The defenders' positions judged mated by futile drops or not (see
    /// [`Solver::only_futile_drops`]).
    judged: RefCell<Judged>,
}

/// The most verdicts [`Solver::judged`] keeps (then it starts again).
const MAX_JUDGED: usize = 1 << 20;

/// A child of a node, played once when the node is expanded.
struct Child {
    mv: Move,
    /// The position after `mv`, once played.
    position: Option<Position>,
    /// Its board key and the attacker's hand there: its table entry.
    key: u64,
    hand: Hand,
    /// What this path alone knows of it (a repetition), kept here and not in the table.
    path_only: Option<Numbers>,
    /// Its numbers until the table has some (df-pn+'s initial numbers).
    initial: Numbers,
    /// Its numbers as last read or searched here: a settled one holds for good, an unsettled
    /// one is read again from the table now and then (a transposition may have moved it).
    known: Option<Numbers>,
    /// Whether the attacker was found to have no mate in one there.
    no_mate_in_one: bool,
    /// The defender's reply searched only once this earlier one is proved: a drop waits for
    /// the drop before it on the same square, a move left unpromoted for the same move
    /// promoting (they stand or fall together, and counting them all at once would make a
    /// defence by interposition look far harder to break than it is).
    waits_for: Option<usize>,
    /// Whether it was proved when its node's numbers were last worked out.
    proved: bool,
    /// Under the tsume rules, a defender's drop: the position as if the drop were futile
    /// (see [`Takeback`]), `None` where the checker cannot take the piece.
    takeback: Option<Box<Takeback>>,
}

impl Child {
    /// Its numbers while the table has none: its initial numbers with its hand.
    fn untouched(&self) -> Numbers {
        Numbers {
            hand: self.hand,
            ..self.initial
        }
    }
}

/// A defender's drop seen as futile (無駄合, [`super::MateRules::Tsume`]): the checking piece
/// takes the dropped piece on its square, and the position after is mated without the piece
/// taken. That position with the piece back in the defender's hand (its board after the
/// capture, the hands of the node: the checker has only come closer) is searched within the
/// node's own plies, and if mated, the drop counts with that position's length: the drop and
/// its capture are not counted.
struct Takeback {
    /// The attacker's capture.
    capture: Move,
    /// The position: the board after the capture, the hands before the drop.
    position: Option<Position>,
    /// Its board key and the attacker's hand there (the node's).
    key: u64,
    hand: Hand,
    /// Its numbers as last read or searched.
    known: Option<Numbers>,
}

impl<'a> Solver<'a> {
    /// A solver for `attacker` with a table of at most `max_entries` entries.
    pub fn new(attacker: Color, max_entries: usize) -> Solver<'a> {
        Solver {
            attacker,
            table: Table::new(max_entries),
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            halt: None,
            spent: None,
            threads: 1,
            split_after: 0,
            splits: 0,
            stopped: false,
            path: KeySet::default(),
            path_key: 0,
            repetitions: LineRefutations::default(),
            spare: Vec::new(),
            tsume: false,
            two_ply_rule: false,
            limited: false,
            judged: RefCell::default(),
        }
    }

    /// Whether the defender to move in `position`, with the legal `replies` (at least one),
    /// has only futile drops ([`super::only_futile_drops`]); each position is judged once a
    /// search (the line readers ask again of the positions the search met).
    pub(super) fn only_futile_drops(&self, position: &Position, replies: &[Move]) -> bool {
        if replies.is_empty() {
            return false;
        }
        let key = position.key();
        if let Some(&known) = self.judged.borrow().get(&key) {
            return known;
        }
        let mut judged = self.judged.borrow_mut();
        if judged.len() >= MAX_JUDGED {
            judged.clear();
        }
        let verdict = futile_drops(position, replies, &mut judged);
        judged.insert(key, verdict);
        verdict
    }

    /// Whether the defender to move in `position`, whose legal replies are `replies`, is
    /// mated by the solver's rules: no reply, or (tsume) futile drops only.
    pub(super) fn is_mated(&self, position: &Position, replies: &[Move]) -> bool {
        replies.is_empty() || (self.tsume && self.only_futile_drops(position, replies))
    }

    /// What the table knows of `position` for a search with `plies` left.
    pub fn known(&self, position: &Position, plies: Plies) -> Numbers {
        self.table
            .get(position.board_key(), &position.hand(self.attacker), plies)
    }

    /// Searches `position` for a mate within `plies` until it is settled or the limits stop
    /// it.
    pub fn search_root(&mut self, position: &Position, plies: Plies) -> Numbers {
        self.stopped = false;
        self.path.clear();
        self.path_key = 0;
        let mut numbers = self.known(position, plies);
        while !(numbers.is_proved() || numbers.is_disproved() || self.stopped) {
            numbers = self.mid(position, INFINITE, INFINITE, plies, false);
        }
        numbers
    }

    /// Counts a node and reads the limits now and then.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            let out_of_time = self.out_of_time();
            let halted = self.halt.is_some_and(|s| s.load(Ordering::Relaxed));
            let spent = self
                .spent
                .is_some_and(|s| s.fetch_add(CHECK_EVERY, Ordering::Relaxed) >= self.max_nodes);
            self.stopped |= out_of_time || halted || spent;
        }
    }

    /// Whether the clock has run out or the caller asked the search to stop.
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Stores `numbers` for `position` unless they hold for this path only.
    fn store(&mut self, position: &Position, numbers: Numbers) -> Numbers {
        if !numbers.path_only {
            self.table
                .store(position.board_key(), &position.hand(self.attacker), numbers);
        }
        numbers
    }

    /// Searches `position` (within `plies` plies) until its proof number reaches `th_pn` or
    /// its disproof number `th_dn`; stores and returns its numbers. `no_mate_in_one`: the
    /// parent already found that the attacker has no mate in one here.
    fn mid(
        &mut self,
        position: &Position,
        th_pn: Number,
        th_dn: Number,
        plies: Plies,
        no_mate_in_one: bool,
    ) -> Numbers {
        // The move and child lists of this ply, kept from one visit to the next (no
        // allocation per node).
        let mut lists = self.spare.pop().unwrap_or_default();
        lists.0.clear();
        lists.1.clear();
        let numbers = self.expand(position, th_pn, th_dn, plies, no_mate_in_one, &mut lists);
        self.spare.push(lists);
        numbers
    }

    /// [`Solver::mid`] with the lists to fill.
    fn expand(
        &mut self,
        position: &Position,
        th_pn: Number,
        th_dn: Number,
        plies: Plies,
        no_mate_in_one: bool,
        (moves, children): &mut (Vec<Move>, Vec<Child>),
    ) -> Numbers {
        self.count_node();
        let full_key = position.key();
        let path_key = follow(self.path_key, full_key);
        // Refuted before along this very line (read once here, not for each child: a child
        // so refuted returns at once, and its parent then keeps it as refuted for the line).
        if let Some(n) = self.repetitions.get(path_key, plies) {
            return n;
        }
        let attacking = position.side_to_move() == self.attacker;
        let hand = position.hand(self.attacker);
        let first_visit = self
            .table
            .find(position.board_key(), &hand, plies)
            .is_none();
        if let Some(verdict) = self.verdict_before_children(
            position,
            plies,
            attacking,
            first_visit,
            no_mate_in_one,
            moves,
        ) {
            return self.store(position, verdict);
        }
        let child_plies = plies.saturating_sub(1).min(UNLIMITED - 1);
        self.list_children(position, hand, moves, attacking, children);
        if attacking {
            self.start_checks(position, moves, child_plies, first_visit, children);
        } else {
            if self.tsume && child_plies >= 1 {
                self.attach_takebacks(position, children);
            }
            if child_plies >= 1 && first_visit {
                self.settle_replies_mated_at_once(position, child_plies, children);
            }
        }
        self.path.insert(full_key);
        let outer_path_key = std::mem::replace(&mut self.path_key, path_key);
        let epsilon = match (self.limited, attacking) {
            (false, _) => EPSILON,
            (true, true) => LIMITED_EPSILON_ATTACKER,
            (true, false) => LIMITED_EPSILON_DEFENDER,
        };
        let mut iteration = 0u32;
        let numbers = loop {
            // (The first round reads the children this visit has not looked up yet: those
            // it has are known.)
            let refresh = iteration > 0 && iteration.is_multiple_of(REFRESH_EVERY);
            iteration += 1;
            let (numbers, best, second, share) =
                self.combine(position, children, attacking, child_plies, refresh);
            if numbers.is_settled() || numbers.pn >= th_pn || numbers.dn >= th_dn || self.stopped {
                break numbers;
            }
            // The best child's thresholds: its own number up to the second best's times 1+ε
            // (plus one), the other number what the node can spend of its own threshold.
            // (In the limited searches a check's disproof threshold is the node's less one
            // for each other open check: with the largest as its share, it is not sent back
            // each time it passes its own number while the node's, the weak sum, has not
            // moved.)
            let eased = ((second as f64) * (1.0 + epsilon)).ceil() as Number;
            let (th_n, th_other, sum) = if attacking {
                (th_pn, th_dn, numbers.dn)
            } else {
                (th_dn, th_pn, numbers.pn)
            };
            let child_th_n = th_n.min(eased.max(second).saturating_add(1)).min(INFINITE);
            let child_th_other = spend(th_other, sum, share);
            let (child_th_pn, child_th_dn) = if attacking {
                (child_th_n, child_th_other)
            } else {
                (child_th_other, child_th_n)
            };
            let child = &mut children[best];
            // The drop's own numbers as `combine` counted them: a repetition's first.
            let normal = child.path_only.or(child.known).unwrap_or(child.initial);
            if let Some(tb) = child.takeback.as_deref_mut() {
                let t = tb.known.unwrap_or(Numbers::UNKNOWN);
                if !t.is_settled() && (t.pn <= normal.pn || normal.is_settled()) {
                    // The takeback, within the node's own plies: of the drop's two ways
                    // (an OR), the one with the smaller proof number.
                    let th_pn = child_th_pn.min(normal.pn.saturating_add(1));
                    let th_dn = spend(child_th_dn, normal.dn, 0).max(1);
                    let tb_position = tb
                        .position
                        .get_or_insert_with(|| Self::takeback_position(position, tb.capture))
                        .clone();
                    let result = self.mid(&tb_position, th_pn, th_dn, plies, false);
                    let tb = children[best]
                        .takeback
                        .as_deref_mut()
                        .expect("the takeback");
                    tb.known = Some(if result.path_only {
                        Numbers::disproved(UNLIMITED, true, tb.hand)
                    } else {
                        result
                    });
                    continue;
                }
            }
            let child = &mut children[best];
            let (mut child_th_pn, mut child_th_dn) = (child_th_pn, child_th_dn);
            if let Some(t) = child.takeback.as_deref().and_then(|tb| tb.known) {
                if !t.is_settled() {
                    child_th_pn = child_th_pn.min(t.pn.saturating_add(1));
                    child_th_dn = spend(child_th_dn, t.dn, 0).max(1);
                }
            }
            let after = child
                .position
                .get_or_insert_with(|| position.play(child.mv));
            let result = self.mid(
                after,
                child_th_pn,
                child_th_dn,
                child_plies,
                child.no_mate_in_one,
            );
            children[best].known = Some(result);
            if result.path_only {
                children[best].path_only = Some(result);
            }
        };
        self.path.remove(&full_key);
        self.path_key = outer_path_key;
        // (Unsettled numbers are kept with the plies they were searched with.)
        let numbers = if numbers.is_settled() {
            numbers
        } else {
            Numbers { plies, ..numbers }
        };
        if numbers.path_only {
            self.repetitions.keep(path_key, numbers);
        }
        self.store(position, numbers)
    }

    /// The defender's node `position` (in check) settled without a node of its own, as if
    /// it had two plies left (its replies room for a mate in one only): proved in two if
    /// the attacker mates at once after each of its replies (at least one), with the least
    /// hand; with `refute`, refuted within two plies by the first reply after which the
    /// attacker has no mate in one, if that reply is a move on the board (a drop may still
    /// be futile by its takeback, a move left unpromoted waits for the same move
    /// promoting). Else `None`: a reply back to a position of this path, or an escape that
    /// does not count as a refutation here, leaves it to the node's own search.
    /// The replies' mates are stored (the line is read from the table).
    fn settled_by_mates_in_one(&mut self, position: &Position, refute: bool) -> Option<Numbers> {
        let mut replies = Vec::new();
        position.generate_legal(&mut replies);
        if refute {
            // The king's own moves first: the likeliest escapes.
            let king = position.king(position.side_to_move());
            replies.sort_by_key(|r| !matches!(r, Move::Normal { from, .. } if Some(*from) == king));
        }
        let mut mated = Vec::with_capacity(replies.len());
        for &reply in &replies {
            let after = position.play(reply);
            if self.path.contains(&after.key()) {
                return None;
            }
            match self.mate_in_one_hand(&after) {
                Some(proof) => mated.push((after.board_key(), proof)),
                None if refute
                    && matches!(reply, Move::Normal { .. })
                    && !children::unpromoted_by_choice(position, reply, &replies) =>
                {
                    let hand = position.hand(self.attacker);
                    return Some(Numbers::disproved(2, false, hand));
                }
                None => return None,
            }
        }
        if mated.is_empty() {
            return None;
        }
        let mut hand = [0; 7];
        for (key, proof) in mated {
            self.table.store(key, &proof, Numbers::proved(1, proof));
            hand = max_hand(&hand, &proof);
        }
        Some(Numbers::proved(2, self.and_proof_hand(position, hand)))
    }

    /// If the attacker mates at once in `position` by the solver's rules, the least hand the
    /// mate holds for (a mate by the convention: this hand, or more, which leaves the defender
    /// fewer drops, each as futile).
    fn mate_in_one_hand(&self, position: &Position) -> Option<Hand> {
        self.mate_in_one_or_checks(position).ok()
    }

    /// [`Solver::mate_in_one_hand`], or without a mate the number of the attacker's checks
    /// (the test looks at each of them then).
    fn mate_in_one_or_checks(&self, position: &Position) -> Result<Hand, usize> {
        match self.mate_in_one_or_count(position) {
            Ok((mv, false)) => Ok(self.proof_hand_of_mate(position, mv)),
            Ok((_, true)) => Ok(position.hand(self.attacker)),
            Err(checks) => Err(checks),
        }
    }

    /// A mate in one by the solver's rules: checkmate, or (tsume) futile drops only.
    fn mate_in_one(&self, position: &Position) -> Option<Move> {
        self.mate_in_one_or_count(position).ok().map(|(mv, _)| mv)
    }

    /// A mate in one by the solver's rules, and whether by futile drops (tsume; looked for
    /// only without a checkmate), or else the number of checks.
    fn mate_in_one_or_count(&self, position: &Position) -> Result<(Move, bool), usize> {
        if !self.tsume {
            return position.mate_in_one_or_checks().map(|mv| (mv, false));
        }
        let mut drops_only = Vec::new();
        match position.mate_in_one_or_checks_answered_by_drops(&mut drops_only) {
            Ok(mv) => Ok((mv, false)),
            Err(checks) => self
                .futile_mate_in_one(position, &drops_only)
                .map(|mv| (mv, true))
                .ok_or(checks),
        }
    }

    /// A node's numbers from its children's: (numbers, the best child, the second best's
    /// number, the best child's share of the node's other number: what its threshold on that
    /// number may add to what the node can spend). At the defender's node the proof number
    /// is the sum of its replies' and the disproof number the least. At the attacker's node the proof
    /// number is the least check's, and the disproof number the largest check's plus one for
    /// each other check not disproved: the weak sum of weak proof-number search (Ueda,
    /// Hashimoto, Hashimoto and Iida, Computers and Games 2008), here on the disproof side.
    /// An attacker's checks often lead to the same positions (the king runs the same way
    /// whichever piece checks), and a plain sum counts them over and over; around
    /// repetitions those counts grow without the search getting anywhere (musou-073).
    /// A settled node's hand is derived from its children's (proof and disproof pieces).
    fn combine(
        &self,
        position: &Position,
        children: &mut [Child],
        attacking: bool,
        child_plies: Plies,
        refresh: bool,
    ) -> (Numbers, usize, Number, Number) {
        let (mut best, mut best_n, mut second_n, mut best_other) = (0, INFINITE, INFINITE, 0);
        // The defender's node: the sum of its replies' proof numbers. The attacker's: the
        // largest disproof number of its checks, and how many are not disproved.
        let mut sum: Number = 0;
        let (mut largest, mut open): (Number, Number) = (0, 0);
        // The attacker's node: its shortest proved child; the defender's: the longest
        // proof, and the hands of all proofs (their union).
        let mut proof: Option<(Plies, Hand)> = None;
        // The attacker's node: the least plies and hand of all disproofs (their
        // intersection), and whether any is for this path only; the defender's: its best
        // refutation (for every path first, then the deepest).
        let mut refutation: Option<(Plies, bool, Hand)> = None;
        for i in 0..children.len() {
            if let Some(j) = children[i].waits_for {
                if !children[j].proved {
                    children[i].proved = false;
                    continue;
                }
            }
            let child = &mut children[i];
            let (n, futile) = self.child_numbers(child, child_plies, refresh);
            child.proved = n.is_proved();
            let child = &*child;
            let (own, other) = if attacking {
                (n.pn, n.dn)
            } else {
                (n.dn, n.pn)
            };
            if attacking {
                if other > 0 {
                    largest = largest.max(other);
                    open += 1;
                }
            } else {
                sum = sum.saturating_add(other).min(INFINITE);
            }
            if own < best_n {
                second_n = best_n;
                best_n = own;
                best = i;
                best_other = other;
            } else if own < second_n {
                second_n = own;
            }
            if n.is_proved() {
                // The defender's node: what this reply adds to its length (one more than the
                // child's, or a futile drop's takeback's own length) and its proof hand.
                let counted = || {
                    let normal =
                        (n.plies != UNLIMITED).then(|| (n.plies.saturating_add(1), n.hand));
                    match (normal, futile) {
                        (Some((p, h)), Some(t)) if t.plies >= p => (p, h),
                        (_, Some(t)) => (t.plies, t.hand),
                        (Some(x), None) => x,
                        (None, None) => (UNLIMITED, n.hand),
                    }
                };
                proof = Some(match proof {
                    None if attacking => {
                        (n.plies, self.parent_hand(position, child.mv, n.hand, true))
                    }
                    None => counted(),
                    Some((p, h)) if attacking => {
                        if n.plies < p {
                            (n.plies, self.parent_hand(position, child.mv, n.hand, true))
                        } else {
                            (p, h)
                        }
                    }
                    Some((p, h)) => {
                        let (c, ch) = counted();
                        (p.max(c), max_hand(&h, &ch))
                    }
                });
            }
            if n.is_disproved() {
                let h = self.parent_hand(position, child.mv, n.hand, attacking);
                refutation = Some(match refutation {
                    None => (n.plies, n.path_only, h),
                    Some((p, path, q)) if attacking => {
                        (p.min(n.plies), path || n.path_only, min_hand(&q, &h))
                    }
                    Some((p, path, q)) => {
                        if (!n.path_only, n.plies) > (!path, p) {
                            (n.plies, n.path_only, h)
                        } else {
                            (p, path, q)
                        }
                    }
                });
            }
        }
        let (pn, dn) = if attacking {
            let weak = match open {
                0 => 0,
                n => largest.saturating_add(n - 1).min(INFINITE),
            };
            (best_n, weak)
        } else {
            (sum, best_n)
        };
        let numbers = self.numbers_from(position, attacking, (pn, dn), proof, refutation);
        // The best child's share of the number the node sums: at the defender's node its
        // own proof number; at the attacker's node, in the limited searches, the largest
        // disproof number, as under the weak sum the node's grows only once the best
        // check's passes the largest (the first search keeps the check's own).
        let share = if attacking && self.limited {
            largest
        } else {
            best_other
        };
        (numbers, best, second_n, share)
    }

    /// A child's numbers for [`Solver::combine`], read again from the table where `refresh`
    /// asks (an unsettled one), and, for a defender's drop with a takeback, its proof by the
    /// takeback if there is one (`futile`).
    fn child_numbers(
        &self,
        child: &mut Child,
        child_plies: Plies,
        refresh: bool,
    ) -> (Numbers, Option<Numbers>) {
        let n = match (child.path_only, child.known) {
            (Some(n), _) => n,
            (None, Some(n)) if n.is_settled() || !refresh => n,
            _ => {
                let n = self
                    .table
                    .find(child.key, &child.hand, child_plies)
                    .unwrap_or_else(|| child.untouched());
                child.known = Some(n);
                n
            }
        };
        // A drop with a takeback is an OR of the two: proved if either is (counted the
        // shorter way), disproved if both are.
        let mut futile: Option<Numbers> = None;
        let n = match child.takeback.as_deref_mut() {
            None => n,
            Some(tb) => {
                let t = match tb.known {
                    Some(t) if t.is_settled() || !refresh => t,
                    _ => {
                        let t = self
                            .table
                            .find(tb.key, &tb.hand, child_plies.saturating_add(1))
                            .unwrap_or(Numbers::UNKNOWN);
                        tb.known = Some(t);
                        t
                    }
                };
                if t.is_proved() {
                    futile = Some(t);
                }
                if t.is_proved() && !n.is_proved() {
                    Numbers::proved(UNLIMITED, t.hand)
                } else if n.is_proved() || t.is_disproved() {
                    n
                } else {
                    Numbers {
                        pn: n.pn.min(t.pn),
                        dn: n.dn.saturating_add(t.dn).min(MOST),
                        path_only: false,
                        ..n
                    }
                }
            }
        };
        (n, futile)
    }

    /// A node's numbers from what [`Solver::combine`] gathered: its proof and disproof numbers,
    /// its best proof (plies and hand) and its refutation (plies, whether for this path only,
    /// hand).
    fn numbers_from(
        &self,
        position: &Position,
        attacking: bool,
        (pn, dn): (Number, Number),
        proof: Option<(Plies, Hand)>,
        refutation: Option<(Plies, bool, Hand)>,
    ) -> Numbers {
        let up = |p: Plies| if p == UNLIMITED { p } else { p + 1 };
        if pn == 0 {
            let (p, h) = proof.expect("a proved child");
            if attacking {
                Numbers::proved(p.saturating_add(1), h)
            } else {
                // (The replies' lengths were counted with their own ply.)
                Numbers::proved(p, self.and_proof_hand(position, h))
            }
        } else if dn == 0 {
            let (p, path_only, mut q) = refutation.expect("a disproved child");
            if attacking {
                // More of a kind the attacker lacks would give it new drops.
                let own = position.hand(self.attacker);
                for k in 0..7 {
                    if own[k] == 0 {
                        q[k] = 0;
                    }
                }
            }
            Numbers::disproved(up(p), path_only, q)
        } else {
            Numbers::open(pn, dn)
        }
    }
}
