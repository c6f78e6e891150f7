//! Tsume-shogi: the mate solver. The side to move (the attacker) must check at every move,
//! the defender escapes as it can (king moves, captures, interpositions by moves and drops),
//! and the attacker wins when the defender has no legal reply. A pawn drop that mates is
//! illegal (uchifuzume), and coming back to a position of the same line gets the attacker
//! nowhere (a perpetual check loses).
//!
//! The search is df-pn (Nagai, 2002) with the 1+ε trick over checks and evasions, its table
//! keyed by the board with the attacker's hand beside it: a proof holds for a hand that holds
//! at least as much, a disproof for one that holds at most as much. A repetition refutes only
//! the line that meets it, so it is kept on that line and never in the table (the
//! graph-history interaction: a position disproved through a loop is not disproved for other
//! paths). Depth-limited searches keep their disproofs with the depth they hold to.
//!
//! The defender's interpositions by drops on one square are searched one after another: the
//! next kind only once the one before is proved (and a move left unpromoted only once the
//! same move promoting is), so that a check the defender can answer with many drops does not
//! look many times harder to prove than it is (KomoringHeights delays them in the same way).
//!
//! The mate found first is then shortened: searched again for a mate two plies shorter until
//! there is none, which makes its length the shortest mate against the longest resistance.
//! Its line is read as the problem convention reads a solution: of the attacker's mates as
//! short, one that spends its hand; of the defender's replies as long, one after which the
//! attacker is left nothing in hand at the end (駒余り, pieces left over, mark a line the
//! defender could have made worse for it).
//!
//! Two rules ([`MateRules`]): the strict ones (the default), where every interposition is a
//! defence, the futile ones (無駄合) included, and a mate ends in checkmate; and the tsume
//! convention's, where a check the defender can answer only by futile drops counts as mate
//! and a futile drop in the middle of a line is not counted (see [`MateRules::Tsume`] for
//! what counts as futile). Published problems are counted by the convention, so their
//! lengths can be shorter than the strict ones. Under it each defender's drop is searched two
//! ways (an OR): as played, and as futile (its takeback's position within the node's own
//! plies), and counts the shorter way that is proved.

mod audit;
mod search;
mod table;

pub use audit::{Deviation, LineAudit};

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasherDefault;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::{Move, Position};
use search::Solver;
use table::{Plies, UNLIMITED};

/// What counts as mate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MateRules {
    /// The rules of the game: every legal reply is a defence, and a mate ends with the
    /// defender in check and without a legal reply.
    #[default]
    Strict,
    /// The tsume convention on futile interpositions (無駄合). At the end of a line: a check
    /// the defender can answer only by drops, each of which the attacker takes (on the square
    /// it was dropped on) with a check that mates, or that the defender again can answer only
    /// so, counts as mate; those drops and captures are not played and not counted. In the
    /// middle of a line: a drop that the checking piece takes on its square, after which the
    /// position is mated without the piece taken (the same board with that piece back in the
    /// defender's hand: the checker has only come closer), counts with that position's
    /// length; the line shows the drop and its capture, the length does not count
    /// them. An interposition by a piece moved there, a king's move or a capture of the
    /// checker is always a defence. With [`MateConfig::two_ply_rule`], the convention's
    /// two-ply rule on pieces left in hand too.
    Tsume,
}

impl MateRules {
    /// The name the command line and the JSON use (`strict`, `tsume`).
    pub fn name(self) -> &'static str {
        match self {
            MateRules::Strict => "strict",
            MateRules::Tsume => "tsume",
        }
    }
}

impl std::str::FromStr for MateRules {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "strict" => Ok(MateRules::Strict),
            "tsume" => Ok(MateRules::Tsume),
            _ => Err(format!("unknown rules '{s}': expected strict or tsume")),
        }
    }
}

/// Whether the defender to move in `position` (in check, `replies` its legal replies) is
/// mated under [`MateRules::Tsume`] though it has replies: every reply a drop the attacker
/// takes with a check that mates (or leaves only such drops again).
pub(crate) fn only_futile_drops(position: &Position, replies: &[Move]) -> bool {
    // The drops of different kinds, taken in turn, meet the same positions again: each is
    // judged once.
    futile_drops(position, replies, &mut HashMap::default())
}

/// What [`futile_drops`] judged, by position key: whether the defender to move there is
/// mated (no reply, or futile drops only). A verdict holds for the position wherever it
/// is met, so a solver keeps one map for its whole search.
type Judged = HashMap<u64, bool, BuildHasherDefault<table::KeyHasher>>;

/// [`only_futile_drops`] with what was judged so far (by position key).
fn futile_drops(position: &Position, replies: &[Move], judged: &mut Judged) -> bool {
    !replies.is_empty()
        && replies.iter().all(|mv| matches!(mv, Move::Drop { .. }))
        && replies.iter().all(|&reply| {
            let Move::Drop { to: square, .. } = reply else {
                return false;
            };
            let after = position.play(reply);
            let mut captures = Vec::new();
            after.generate_moves_onto(square, &mut captures);
            captures.iter().any(|&capture| {
                let next = after.play(capture);
                if !next.in_check() {
                    return false;
                }
                if let Some(&known) = judged.get(&next.key()) {
                    return known;
                }
                // (A move on the board escapes: the drops are looked at only without one.)
                let mut answers = Vec::new();
                let mated = next.generate_drops_only(&mut answers)
                    && (answers.is_empty() || futile_drops(&next, &answers, judged));
                judged.insert(next.key(), mated);
                mated
            })
        })
}

/// How the solver searches.
#[derive(Clone, Debug)]
pub struct MateConfig {
    /// The most nodes (expanded positions) for the whole solve.
    pub max_nodes: u64,
    /// The most time for the whole solve (`None`: no limit).
    pub time: Option<Duration>,
    /// The longest mate looked for, in plies.
    pub max_plies: u16,
    /// The most table entries.
    pub max_entries: usize,
    /// Whether the mate found is shortened to the shortest one.
    pub shortest: bool,
    /// What counts as mate.
    pub rules: MateRules,
    /// Under [`MateRules::Tsume`], the two-ply rule of the modern convention (2手変長駒余り):
    /// where the defender's longest defence leaves the attacker pieces in hand at the end
    /// and one two plies shorter leaves none, the shorter is the main line, and the mate's
    /// length is counted along it. Off (the default), the longest defence is the main line,
    /// as the test suites count; of defences as long, one that leaves no pieces is taken
    /// either way.
    pub two_ply_rule: bool,
    /// Threads for the searches within a ply limit, which shorten the mate and read its
    /// line (the first search runs on one): once such a search has spent
    /// [`MateConfig::split_after`] nodes, an attacker's node's checks are shared out among
    /// them (`search/split.rs`). With more than one, node counts vary from run to run.
    pub threads: usize,
    /// With more than one thread, the nodes a search within a ply limit spends on one
    /// before it shares out its checks: most such searches end sooner, where copying the
    /// table for each thread would cost more than the threads save.
    pub split_after: u64,
}

impl Default for MateConfig {
    fn default() -> Self {
        MateConfig {
            max_nodes: 50_000_000,
            time: None,
            max_plies: 4_095,
            max_entries: 8_000_000,
            shortest: true,
            rules: MateRules::Strict,
            two_ply_rule: false,
            threads: 1,
            split_after: 100_000,
        }
    }
}

/// What the solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A mate: the line is in the report.
    Mate,
    /// No mate at all (or, under a ply limit, none within it).
    NoMate,
    /// The limits stopped the search first.
    Unknown,
}

/// A solve's result.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// What was found.
    pub outcome: MateOutcome,
    /// The mate's length in plies: exact when `shortest`, else a length within which the
    /// attacker mates however the defender replies (0 without a mate). Under
    /// [`MateRules::Tsume`], when `shortest`, the length of the convention's main line: where
    /// the longest defence leaves the attacker pieces in hand and one two plies shorter does
    /// not, the shorter is the main line with [`MateConfig::two_ply_rule`].
    pub plies: usize,
    /// The mate: the attacker's moves and the defender's replies, ending in checkmate (empty
    /// without a mate). When `shortest`, the shortest mate against the longest defence, as
    /// long as `plies`; otherwise a mating line through the table whose defender's replies
    /// need not be its best (it can be shorter than `plies`). Under [`MateRules::Tsume`] a
    /// futile drop in it and its capture are shown and not counted, so it can be longer, and
    /// after them it goes on as from the position with the piece back in the defender's
    /// hand.
    pub line: Vec<Move>,
    /// Whether `plies` is known to be the shortest mate (a mate two plies shorter was
    /// disproved) and the line is that long; false if the shortening was not asked for or
    /// the limits stopped it.
    pub shortest: bool,
    /// When `shortest`, the pieces left in the attacker's hand at the end of the line (駒余り:
    /// a published problem's solution leaves none); 0 otherwise.
    pub in_hand: usize,
    /// Nodes searched (expanded positions), every search of the solve together.
    pub nodes: u64,
    /// Positions in the table at the end.
    pub entries: usize,
    /// The times a search within a ply limit shared out an attacker's node's checks among
    /// threads ([`MateConfig::threads`]; 0 with one thread).
    pub splits: u64,
}

impl MateReport {
    /// Takes the solver's counts so far: its nodes, table entries and splits.
    fn count(&mut self, solver: &Solver) {
        self.nodes = solver.nodes;
        self.entries = solver.table.len();
        self.splits = solver.splits;
    }
}

/// A position the solver refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateError {
    /// The side to move, who attacks, is in check itself.
    AttackerInCheck,
    /// The defender (the side not to move) has no king to mate.
    NoKingToMate,
    /// The defender's king is attacked with the attacker to move: not a position of a game.
    DefenderInCheck,
    /// A line to audit is not a mate by the rules (what fails, and where).
    NotAMate(String),
}

impl fmt::Display for MateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MateError::AttackerInCheck => {
                "the side to move is in check: a mate problem's attacker (the side to move) \
                 must not be"
            }
            MateError::NoKingToMate => {
                "the side not to move has no king to mate: the attacker is the side to move \
                 (is the SFEN's side to move, 'b' or 'w', the right one?)"
            }
            MateError::DefenderInCheck => {
                "the side not to move is in check: no game reaches this position"
            }
            MateError::NotAMate(why) => return write!(f, "the line is not a mate: {why}"),
        })
    }
}

impl std::error::Error for MateError {}

/// Looks for a mate by the side to move in `position`, within `config`'s limits; `stop`, when
/// set from another thread, ends the search as if out of time.
pub fn solve_mate(
    position: &Position,
    config: &MateConfig,
    stop: Option<&AtomicBool>,
) -> Result<MateReport, MateError> {
    refuse(position)?;
    on_mate_stack(|| {
        let mut solver = Solver::new(position.side_to_move(), config.max_entries);
        solve(&mut solver, position, config, stop)
    })
}

/// Solves `position` as [`solve_mate`] does, then reads `line`, a solution from elsewhere (a
/// mate by `config`'s rules: see [`check_line`]), against the solver on the same table: the
/// exact length from each of its positions, and where its moves are not best play (see
/// [`LineAudit`]). The audit is `None` when the solver's mate was not shown shortest (there
/// is no exact length to start from); it is cut short if the limits stop it. The report's
/// nodes count the audit's searches too.
pub fn solve_and_audit(
    position: &Position,
    config: &MateConfig,
    line: &[Move],
    stop: Option<&AtomicBool>,
) -> Result<(MateReport, Option<LineAudit>), MateError> {
    refuse(position)?;
    check_line(position, line, config.rules).map_err(MateError::NotAMate)?;
    on_mate_stack(|| {
        let mut solver = Solver::new(position.side_to_move(), config.max_entries);
        let mut report = solve(&mut solver, position, config, stop)?;
        if report.outcome != MateOutcome::Mate || !report.shortest {
            return Ok((report, None));
        }
        let max_plies = config.max_plies.min(UNLIMITED - 1);
        let guess = Plies::try_from(report.plies).unwrap_or(max_plies);
        let audit = solver.audit(position, line, guess, max_plies);
        // The audit's searches counted with the solve's.
        report.count(&solver);
        Ok((report, Some(audit)))
    })
}

/// The reasons a position cannot be solved, if it has one.
fn refuse(position: &Position) -> Result<(), MateError> {
    let attacker = position.side_to_move();
    if position.king(attacker.flip()).is_none() {
        return Err(MateError::NoKingToMate);
    }
    if position.in_check() {
        return Err(MateError::AttackerInCheck);
    }
    if position.null_move().in_check() {
        return Err(MateError::DefenderInCheck);
    }
    Ok(())
}

/// Runs `f` on a thread with the mate search's stack, or at once if this is one.
fn on_mate_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if ON_MATE_STACK.with(Cell::get) {
        f()
    } else {
        with_mate_stack(f)
    }
}

/// The stack of a thread that searches mates: the search recurses once per ply of its line.
const MATE_STACK: usize = 256 << 20;

thread_local! {
    /// Whether this thread was started by [`with_mate_stack`].
    static ON_MATE_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` on a thread with room for the mate search's deepest recursion, and waits for it:
/// every [`solve_mate`] inside runs there at once, without starting a thread of its own (a
/// caller with many problems saves a thread per problem).
pub fn with_mate_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(MATE_STACK)
            .spawn_scoped(scope, || {
                ON_MATE_STACK.with(|on| on.set(true));
                f()
            })
            .expect("a thread for the mate search")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The solve itself (see [`solve_mate`]).
fn solve<'a>(
    solver: &mut Solver<'a>,
    position: &Position,
    config: &MateConfig,
    stop: Option<&'a AtomicBool>,
) -> Result<MateReport, MateError> {
    solver.tsume = config.rules == MateRules::Tsume;
    solver.two_ply_rule = config.two_ply_rule;
    solver.threads = config.threads;
    solver.split_after = config.split_after;
    solver.max_nodes = config.max_nodes;
    solver.deadline = config.time.map(|t| Instant::now() + t);
    solver.stop = stop;
    let max_plies: Plies = config.max_plies.min(UNLIMITED - 1);
    let first = solver.search_root(position, max_plies);
    let mut report = MateReport {
        outcome: MateOutcome::Unknown,
        line: Vec::new(),
        plies: 0,
        shortest: false,
        in_hand: 0,
        nodes: 0,
        entries: 0,
        splits: 0,
    };
    if first.is_disproved() {
        report.outcome = MateOutcome::NoMate;
    } else if first.is_proved() {
        report.outcome = MateOutcome::Mate;
        // The searches within a ply limit look for refutations first.
        solver.limited = true;
        // Shorter and shorter: a mate two plies shorter than the last, until there is none.
        let mut plies = first.plies;
        while config.shortest && !report.shortest {
            if plies < 3 {
                report.shortest = true;
                break;
            }
            let shorter = solver.search_root_split(position, plies - 2);
            if !shorter.is_proved() {
                report.shortest = shorter.is_disproved();
                break;
            }
            plies = shorter.plies;
        }
        report.plies = usize::from(plies);
        let main = if report.shortest {
            solver.main_line(position, plies)
        } else {
            None
        };
        match main {
            Some(main) => {
                report.plies = usize::from(main.plies);
                report.in_hand = main.hand.iter().map(|&n| usize::from(n)).sum();
                report.line = main.line;
            }
            None => {
                report.shortest = false;
                report.line = solver.line(position, plies);
            }
        }
    }
    report.count(solver);
    Ok(report)
}

/// Whether `line` is a mate from `position`: every move legal, every attacker move (the
/// even plies) a check, an odd number of plies, and no legal reply at the end; else what fails.
pub fn check_mating_line(position: &Position, line: &[Move]) -> Result<(), String> {
    check_line(position, line, MateRules::Strict)
}

/// As [`check_mating_line`], the end judged by `rules`: under [`MateRules::Tsume`] the
/// defender may be left with futile drops only.
pub fn check_line(position: &Position, line: &[Move], rules: MateRules) -> Result<(), String> {
    if line.len().is_multiple_of(2) {
        return Err(format!(
            "{} plies: a mate ends on the attacker's move",
            line.len()
        ));
    }
    let mut p = position.clone();
    for (ply, &mv) in line.iter().enumerate() {
        if !p.legal_moves().contains(&mv) {
            return Err(format!("{mv} at ply {ply} is illegal in {p}"));
        }
        p = p.play(mv);
        if ply % 2 == 0 && !p.in_check() {
            return Err(format!("{mv} at ply {ply} does not check"));
        }
    }
    let replies = p.legal_moves();
    if replies.is_empty() || (rules == MateRules::Tsume && only_futile_drops(&p, &replies)) {
        Ok(())
    } else {
        Err(format!("no checkmate at the end: {p}"))
    }
}

#[cfg(test)]
mod tests;
