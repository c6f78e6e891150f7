//! The node loop of the ordered search: principal variation search with null windows off the
//! principal variation, the transposition table, the stability and enhanced transposition
//! cutoffs, ProbCut in the selective pass, and the hand-over to the leaf search below
//! [`ORDERED_EMPTIES`].

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use prune_search::{Counters, TranspositionTable};

use super::moves::{MoveList, Placement};
use super::ordering::EVAL_ORDER_EMPTIES;
use super::parallel::{NearTables, Split, SPLIT_EMPTIES};
use super::shallow::{final_score, parity, stability_cutoff};
use super::{CountCutoff, ORDERED_EMPTIES};
use crate::kernel::Kernel;
use crate::midgame::leaf::Leaf;
use crate::midgame::search::Mid;
use crate::table::EndgameTable;
use crate::{Board, HandEval, Move, OthelloEval, Square};

/// From this many empties up, a node first looks up its children in the table (enhanced
/// transposition cutoff; docs/tuning.md). One more than [`TABLE_EMPTIES`]: the children's
/// entries are in the shared table.
const ETC_EMPTIES: u32 = 13;

/// From this many empties up, nodes keep their entries in the shared transposition table;
/// below (from [`ORDERED_EMPTIES`] up) in the near-leaf table, a small one of the thread's
/// that stays in the second-level cache: most probes of such nodes miss, and a miss in the
/// large table, a load from memory, cost more than the nodes it saves. 12 took 0.96 of the
/// time of 10 on FFO #40-#52 (measured with a 1 MiB near-leaf table against 64 KiB; 256 KiB
/// took the same time as 1 MiB, for 4.5% more nodes than 10), as Egaroucid keeps its shared
/// table to the upper nodes too; 13 gained less, 11 was timed once only (docs/tuning.md).
pub(super) const TABLE_EMPTIES: u32 = 12;

/// In the selective pass, ProbCut is tried at nodes with this many empties or more: 11
/// searched 1.3-1.9% fewer nodes than 12 on three sets of positions and took 0.988 of the
/// time on FFO #40-#52 without #50; 13 and 14 searched more (docs/tuning.md).
pub(super) const PROBCUT_EMPTIES: u32 = 11;

/// In the selective pass, ProbCut's margin in discs: a node off the principal variation whose
/// shallow search ([`probcut_depth`] plies) lands this far beyond its window is cut
/// (docs/tuning.md). The midgame's fit (`crates/othello/data/probcut.txt`, 10-19 empties)
/// puts the error of 1- to 5-ply searches against 3- to 13-ply ones at 3.6 to 6.1 discs.
const PROBCUT_MARGIN: i32 = 12;

/// ProbCut's shallow depth at a node of `empties` empties: a quarter of them, at least 1,
/// rounded up to the same parity (Othello's values swing with the side to move at the
/// horizon); a third searched fewer nodes but cost more time (docs/tuning.md).
fn probcut_depth(empties: u32) -> u32 {
    let d = (empties / 4).max(1);
    d + (d + empties) % 2
}

// The enhanced transposition cutoff probes the shared table for the children.
const _: () = assert!(ETC_EMPTIES > TABLE_EMPTIES);

/// A chain of stop flags: a search beneath a split point stops when a sibling's cutoff (or the
/// end of the main search, for Lazy SMP helpers) sets the flag of any split point above it.
pub(crate) struct Abort<'a> {
    /// This link's flag.
    pub(super) flag: &'a AtomicBool,
    /// The link above, if any.
    pub(super) parent: Option<&'a Abort<'a>>,
}

/// Whether the search of a node of `empties` empties under `abort` must stop (its result would
/// be thrown away). From [`SPLIT_EMPTIES`] up the whole chain is read; below, only its nearest
/// link, the split point the node lies under (or the solve's own flag): nodes there are many,
/// and at two threads reading the whole chain at each of them took 4% of the time (`perf`,
/// FFO #45 and #49), against 1% at one thread. A stop set further up reaches them when their
/// search returns to a node of `SPLIT_EMPTIES`. Nothing wrong is used: a child stops only on
/// a flag its parent also reads (the parent has as many empties or more and the same chain,
/// or, at a split point, reads the whole chain of the split).
pub(super) fn stopped(abort: Option<&Abort<'_>>, empties: u32) -> bool {
    let mut link = abort;
    while let Some(a) = link {
        if a.flag.load(Relaxed) {
            return true;
        }
        if empties < SPLIT_EMPTIES {
            return false;
        }
        link = a.parent;
    }
    false
}

/// What every thread of one solve shares (but the near-leaf table: each thread has its own).
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    /// The transposition table.
    pub(super) tt: &'a EndgameTable,
    /// The near tables of the thread this search runs on (see `parallel`): the near-leaf
    /// table, for nodes of fewer than [`TABLE_EMPTIES`] empties, and the near table of
    /// ProbCut's shallow searches (see `midgame::search`). A thread has its own, as threads
    /// writing to one small table slowed each other down.
    pub(super) tables: &'a NearTables,
    /// Which nodes may split, and when: none (sequential, Lazy SMP), PV nodes, or any.
    pub(super) split: Split,
    /// 0 for the exact search; otherwise a move-ordering pass: nodes with this many empties
    /// or fewer are evaluated, not searched, and the table gets best moves but no bounds.
    pub(super) horizon: u32,
    /// The evaluation at the horizon.
    pub(super) eval: &'a OthelloEval,
    /// The selective pass: to the end of the game (horizon 0), but with ProbCut; its bounds
    /// go to the table marked selective (where ProbCut may have cut below them: see
    /// [`Shared::marks`]), and the exact search takes only the moves of marked entries.
    pub(super) selective: bool,
    /// The table of ProbCut's shallow searches (the midgame search's: their bounds hold for
    /// their depth only).
    pub(super) probcut_tt: &'a TranspositionTable<Move>,
    /// The solver's near tables, one set per thread: the first is the solve's own thread's; a
    /// search handed to another thread takes that thread's set as [`Shared::tables`].
    pub(super) near_tables: &'a [NearTables],
}

/// What a node is expected to be (Knuth and Moore's node types): on the principal variation
/// (searched with an open window), or off it, a node expected to fail high (`Cut`: one of its
/// first moves should refute the parent's move) or to fail low (`All`: every move will be
/// searched). Only where the parallel search splits depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// On the principal variation.
    Pv,
    /// Expected to fail high.
    Cut,
    /// Expected to fail low.
    All,
}

impl Node {
    /// Whether the node is on the principal variation.
    #[inline(always)]
    pub(crate) fn is_pv(self) -> bool {
        self == Node::Pv
    }

    /// The expected type of a child searched with a null window (or of the position after a
    /// pass): a move tried to refute a `Cut` node's parent leads to a node whose every move
    /// must fail; each move of an `All` node is expected to be refuted; off the principal
    /// variation, a `Pv` node's later moves are expected to be refuted.
    #[inline(always)]
    pub(crate) fn null_window_child(self) -> Node {
        match self {
            Node::Pv | Node::All => Node::Cut,
            Node::Cut => Node::All,
        }
    }
}

/// What a node is to the root.
pub(crate) enum Root<'a> {
    /// Not the root.
    No,
    /// The root: the best move is written back here.
    Main(&'a mut Option<Move>),
    /// The root of a Lazy SMP helper: its moves are searched rotated by this much.
    Helper(usize),
}

impl Root<'_> {
    fn is_root(&self) -> bool {
        !matches!(self, Root::No)
    }
}

impl Shared<'_> {
    /// Principal variation search of the position `(p, o)` (side to move owns `p`); a null
    /// window everywhere off the principal variation. At the root the table cannot end the
    /// search and the best move is written back. Under a set stop flag the value is meaningless
    /// and nothing is stored.
    ///
    /// Reached through [`Kernel::pvs`], which compiles it for the kernel `k`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn node<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        node: Node,
        root: Root<'_>,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if self.horizon > 0 && empties <= self.horizon && !root.is_root() {
            c.nodes += 1;
            c.leaves += 1;
            // The evaluation is in hundredths of a disc; the windows are in discs.
            let e = self.eval.evaluate_board(&Board::from_disjoint_bits(p, o));
            return (e / 100).clamp(-64, 64);
        }
        if empties < ORDERED_EMPTIES && !root.is_root() {
            return k.shallow(c, p, o, alpha, beta, empties, parity(!(p | o)));
        }
        if stopped(abort, empties) {
            return 0;
        }
        if !root.is_root() {
            if let Some(v) = stability_cutoff(c, p, o, alpha) {
                return v;
            }
        }
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                c.nodes += 1;
                c.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            let root = match root {
                Root::Main(best) => {
                    *best = Some(Move::PASS);
                    Root::No
                }
                _ => Root::No,
            };
            let after_pass = if node.is_pv() {
                Node::Pv
            } else {
                node.null_window_child()
            };
            return -k.pvs(self, c, abort, o, p, -beta, -alpha, after_pass, root);
        }
        c.nodes += 1;
        c.interior += 1;
        let mut a = alpha;
        c.tt_probes += 1;
        let mut tt_move = None;
        // Whether the selective pass found this node failing low: then it most likely must
        // search every move, and may hand them out early (see `Split::elders`).
        let mut failed_low_before = false;
        let table = if empties >= TABLE_EMPTIES || root.is_root() {
            self.tt
        } else {
            &self.tables.near
        };
        if let Some(mut e) = table.probe(p, o) {
            c.tt_hits += 1;
            if !e.bounds_hold(self.selective) {
                failed_low_before = e.upper <= alpha;
                (e.lower, e.upper) = (-64, 64);
            }
            if !root.is_root() && (e.lower >= beta || e.upper <= alpha || e.lower == e.upper) {
                c.tt_cutoffs += 1;
                return if e.lower >= beta { e.lower } else { e.upper };
            }
            if !root.is_root() {
                a = a.max(e.lower);
            }
            tt_move = e.best;
        }
        if self.selective && !node.is_pv() && !root.is_root() && empties >= PROBCUT_EMPTIES {
            if let Some(v) = self.probcut(k, c, p, o, empties, alpha, beta) {
                return v;
            }
        }
        let mut list = MoveList::empty();
        // From ETC_EMPTIES up, the children's table entries start loading as the list is
        // built, for the enhanced transposition cutoff after it.
        let etc = !root.is_root() && empties >= ETC_EMPTIES;
        list.fill(k, p, o, moves, tt_move, etc.then_some(self.tt));
        if empties >= EVAL_ORDER_EMPTIES {
            self.order_by_eval(k, p, o, empties, &mut list);
        }
        if etc {
            if let Some(v) = self.etc(c, p, o, &list, beta) {
                return v;
            }
        }
        if let Root::Helper(rotation) = root {
            list.rotate(rotation);
        }
        let mut best = -65;
        let mut best_sq = None;
        let mut i = 0;
        let split_after = self.split.elders(node, empties, failed_low_before);
        while let Some(m) = list.next_best() {
            if i >= split_after && !list.is_empty() {
                let found = self.split(k, c, abort, (p, o), m, &mut list, a, beta, node);
                if stopped(abort, empties) {
                    return 0;
                }
                if let Some(brother) = found {
                    if brother.value > best {
                        best = brother.value;
                        best_sq = Some(brother.square);
                    }
                    if brother.value >= beta {
                        c.count_cutoff(brother.index);
                    }
                }
                break;
            }
            let v = self.child(k, c, abort, p, o, m, i == 0, a, beta, node);
            if stopped(abort, empties) {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = Some(m.square);
                a = a.max(v);
            }
            if v >= beta {
                c.count_cutoff(i);
                break;
            }
            i += 1;
        }
        let (lower, upper) = if self.horizon > 0 {
            (-64, 64)
        } else {
            (
                if best > alpha { best } else { -64 },
                if best < beta { best } else { 64 },
            )
        };
        table.store(p, o, empties, lower, upper, best_sq, self.marks(empties));
        let best_move = best_sq
            .and_then(|s| Square::new(s as u8))
            .map(Move::from_square);
        if let Root::Main(out) = root {
            *out = best_move;
        }
        best
    }

    /// Whether the bounds a node of `empties` empties found are stored marked selective: in
    /// the selective pass, from [`PROBCUT_EMPTIES`] up. Below, no node of the subtree tries
    /// ProbCut, and every entry the subtree may read holds a position of fewer empties, stored
    /// unmarked by such a node or by the exact search: the bounds are exact, so the exact
    /// search may cut on them (FFO #40-#52: 2.3% fewer nodes than marking every entry).
    #[inline(always)]
    pub(super) fn marks(&self, empties: u32) -> bool {
        self.selective && empties >= PROBCUT_EMPTIES
    }

    /// ProbCut (the selective pass only): a null-window search [`probcut_depth`] plies deep
    /// with the evaluation at its horizon, at [`PROBCUT_MARGIN`] beyond `beta` (then below
    /// `alpha`); if it lands beyond, the node is taken to fail high (low) without a search.
    ///
    /// The shallow searches are the midgame search's node loop (`midgame::search`), with its
    /// own tables ([`Shared::probcut_tt`], [`NearTables::probcut_near`]): the evaluation's state
    /// carried along the moves, the last ply evaluated in its parent's loop, bounds kept per
    /// depth so that neighbouring nodes' tests share their work. On FFO #49 and #52 they took
    /// a third of the time the endgame's node loop with a horizon took (docs/tuning.md). The
    /// midgame search values a finished game beyond every evaluation, so a test that reaches
    /// one predicts a cut of that game's sign whatever its margin: only the selective pass's
    /// guess depends on it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probcut<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        p: u64,
        o: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let depth = probcut_depth(empties);
        match self.eval {
            OthelloEval::Pattern(e) => self.probcut_with(k, c, e, p, o, depth, alpha, beta),
            OthelloEval::Hand => self.probcut_with(k, c, &HandEval, p, o, depth, alpha, beta),
        }
    }

    /// [`Shared::probcut`] with the evaluation `leaf`, `depth` plies deep.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probcut_with<K: Kernel, L: Leaf>(
        &self,
        k: K,
        c: &mut Counters,
        leaf: &L,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let mut mid = Mid::unlimited(self.probcut_tt, &self.tables.probcut_near, leaf);
        let state = leaf.state(p, o);
        // The midgame search's values are in hundredths of a disc.
        let up = beta + PROBCUT_MARGIN;
        let down = alpha - PROBCUT_MARGIN;
        let cut = if up <= 64 && mid.null_window(k, p, o, &state, depth, up * 100) {
            Some(beta)
        } else if down >= -64 && !mid.null_window(k, p, o, &state, depth, down * 100 + 1) {
            Some(alpha)
        } else {
            None
        };
        // Their nodes count as the solve's; their table probes and cutoffs stay out of the
        // solve's, which describe its own table and move ordering.
        c.nodes += mid.c.nodes;
        c.interior += mid.c.interior;
        c.leaves += mid.c.leaves;
        if cut.is_some() {
            c.forward_cuts += 1;
        }
        cut
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound (its own view) proves
    /// this node reaches `beta` ends the search of this node before any child is searched.
    #[inline(always)]
    fn etc(&self, c: &mut Counters, p: u64, o: u64, list: &MoveList, beta: i32) -> Option<i32> {
        // The children's entries were prefetched as the list was built (`MoveList::fill`):
        // by now the first have most likely arrived.
        for m in list.remaining() {
            let (np, no) = m.placement().after(p, o);
            c.tt_probes += 1;
            if let Some(e) = self.tt.probe(np, no) {
                if -e.upper >= beta && e.bounds_hold(self.selective) {
                    c.tt_hits += 1;
                    c.tt_cutoffs += 1;
                    return Some(-e.upper);
                }
            }
        }
        None
    }

    /// The value of the move `m` from `(p, o)`: the first move of a PV
    /// node with the whole window, the others with a null window at `a` (re-searched at a PV
    /// node when they land inside the window).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn child<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        p: u64,
        o: u64,
        m: Placement,
        first: bool,
        a: i32,
        beta: i32,
        node: Node,
    ) -> i32 {
        let (np, no) = m.after(p, o);
        if first && node.is_pv() {
            return -k.pvs(self, c, abort, np, no, -beta, -a, Node::Pv, Root::No);
        }
        let child = node.null_window_child();
        if !node.is_pv() {
            return -k.pvs(self, c, abort, np, no, -beta, -a, child, Root::No);
        }
        let v = -k.pvs(self, c, abort, np, no, -a - 1, -a, child, Root::No);
        if v > a && v < beta && !stopped(abort, 64 - (p | o).count_ones()) {
            c.re_searches += 1;
            return -k.pvs(self, c, abort, np, no, -beta, -v, Node::Pv, Root::No);
        }
        v
    }
}
