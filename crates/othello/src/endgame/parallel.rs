//! The solver's threads: Young Brothers Wait and PV splitting on a rayon pool (a node hands
//! out its remaining moves after its first ones), and Lazy SMP (helpers search the whole tree
//! with rotated root moves, sharing the table).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use prune_search::{Counters, Parallel, ParallelKind, TableAllocError, TranspositionTable};

use super::moves::{MoveList, Placement, Stack, MAX_MOVES};
use super::search::{stopped, Abort, Node, Root, Shared};
use super::{SolverError, NEAR_TABLE_BYTES};
use crate::kernel::Kernel;
use crate::table::EndgameTable;
use crate::Move;

/// With fewer than [`EAGER_THREADS`] threads, nodes with at least this many empties may be
/// split between threads (YBWC, PV splitting): below it a subtree is too small to be worth
/// handing out.
pub const SPLIT_EMPTIES: u32 = 12;

/// With fewer than [`EAGER_THREADS`] threads, a node splits only after this many of its moves
/// were searched one by one. A null-window node whose first moves did not cut off is most
/// likely one where none will (every move must be searched), and there sharing out the rest
/// costs nothing; at a PV node the first moves set the window the rest are searched with.
/// With 1 (textbook YBWC) the nodes where the second or third move cuts off waste the work
/// given to other threads, and at PV nodes several brothers may each fail high and be
/// re-searched (measured at two threads: docs/tuning.md).
pub(super) const ELDERS: usize = 3;

/// How many moves a node expected to fail high ([`Node::Cut`]) searches one by one before it
/// splits, at any number of threads: one of its first moves most likely cuts off, and the
/// brothers handed out with it would be searched in vain. With many threads, splitting such
/// nodes after their first move (as the principal variation's) wasted about a third of the
/// nodes of FFO #40-#52 at 16 threads (`split_wasted_nodes`; docs/solver.md).
pub(super) const CUT_ELDERS: usize = 3;

/// From this many threads up, splitting is eager: a node splits after its first move
/// (`EAGER_ELDERS`), from [`EAGER_SPLIT_EMPTIES`] empties. With many threads most of them
/// would otherwise wait for work: the wasted work of a split that a later brother's cutoff
/// ends costs less than the idle threads (measured on a 16-core machine: at 8 and 16 threads
/// the cautious rule of [`SPLIT_EMPTIES`] was slower, docs/tuning.md).
pub const EAGER_THREADS: usize = 8;

/// How many moves a node searches one by one before it splits, from [`EAGER_THREADS`].
pub(super) const EAGER_ELDERS: usize = 1;

/// The fewest empties of a node that splits, from [`EAGER_THREADS`]: the subtrees handed out
/// are larger, as eager splitting makes many more split points.
pub const EAGER_SPLIT_EMPTIES: u32 = 16;

/// How many moves a node of the selective pass on the principal variation searches one by one
/// before it splits (at most; the eager rule's one from [`EAGER_THREADS`]; measured when it
/// applied to every node but those found failing low). Most of its nodes off the principal variation
/// are cut by ProbCut before their moves, and the pass scaled worse than the exact search with
/// [`ELDERS`]. At two threads, on FFO #40-#52 over five rounds, the pass took about 8% less
/// time with 2 than with 3 (with 5-6% more of its nodes), and the whole solve less in every
/// round; 1 made the pass faster still but the whole solve no faster than 2 (docs/tuning.md).
pub(super) const SELECTIVE_ELDERS: usize = 2;

/// When a node may hand out its moves: after `elders` of them were searched one by one
/// (`cut_elders` at a node expected to fail high, one at a node expected to fail low), and
/// only with `min_empties` empties or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SplitRule {
    /// Moves searched one by one first on the principal variation.
    pub(super) elders: usize,
    /// Moves searched one by one first at a node expected to fail high ([`Node::Cut`]).
    pub(super) cut_elders: usize,
    /// The fewest empties of a node that splits.
    pub(super) min_empties: u32,
}

impl SplitRule {
    /// The rule for a pool of `threads` threads.
    pub(super) fn for_threads(threads: usize) -> Self {
        if threads >= EAGER_THREADS {
            SplitRule {
                elders: EAGER_ELDERS,
                cut_elders: CUT_ELDERS,
                min_empties: EAGER_SPLIT_EMPTIES,
            }
        } else {
            SplitRule {
                elders: ELDERS,
                cut_elders: CUT_ELDERS,
                min_empties: SPLIT_EMPTIES,
            }
        }
    }
}

/// How a solve uses its threads (derived from [`Parallel`] once, when the solver is built).
pub(super) enum Threads {
    /// One thread.
    Sequential,
    /// YBWC or PV splitting on a pool built once and reused by every solve.
    Split(rayon::ThreadPool, Split),
    /// Lazy SMP with this many threads (scoped threads started per solve).
    LazySmp(usize),
}

impl Threads {
    /// The threads of `parallel`; fails if the system cannot start them.
    pub(super) fn new(parallel: Parallel) -> Result<Self, SolverError> {
        let rule = SplitRule::for_threads(parallel.threads);
        let split = match parallel.kind {
            ParallelKind::Ybwc => Split::AnyNode(rule),
            ParallelKind::PvSplit => Split::PvNodes(rule),
            ParallelKind::LazySmp => Split::Never,
        };
        Ok(match (parallel.threads, split) {
            (1, _) => Threads::Sequential,
            (n, Split::Never) => Threads::LazySmp(n),
            (n, split) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("prune-endgame-{i}"))
                    .build()
                    .map_err(|e| SolverError::Threads {
                        threads: n,
                        reason: e.to_string(),
                    })?;
                Threads::Split(pool, split)
            }
        })
    }

    /// Which nodes may split, and when.
    pub(super) fn split(&self) -> Split {
        match self {
            Threads::Split(_, split) => *split,
            Threads::Sequential | Threads::LazySmp(_) => Split::Never,
        }
    }
}

/// The near tables of one thread: for the solve's own thread, and for each thread that takes
/// moves handed out (see [`Shared::tables`]). The solver owns one
/// set per thread, so that `clear` and `set_eval` reach them all.
pub(super) struct NearTables {
    /// The near-leaf table.
    pub(super) near: EndgameTable,
    /// The near table of ProbCut's shallow searches.
    pub(super) probcut_near: TranspositionTable<Move>,
}

impl NearTables {
    /// Empty tables; fails if the machine cannot give their memory.
    pub(super) fn new() -> Result<Self, TableAllocError> {
        Ok(NearTables {
            near: EndgameTable::try_with_bytes(NEAR_TABLE_BYTES)?,
            probcut_near: crate::midgame::near_table()?,
        })
    }

    /// The sets for a solver with `parallel`'s threads: one for the solve's own thread (index
    /// 0), and one for each thread that may take moves handed out (see [`Shared::on_thread`]).
    pub(super) fn for_threads(parallel: Parallel) -> Result<Vec<Self>, TableAllocError> {
        let sets = match parallel.threads {
            1 => 1,
            n => n + 1,
        };
        (0..sets).map(|_| NearTables::new()).collect()
    }
}

impl Shared<'_> {
    /// `f` of this search with the near tables of set `index` (see [`NearTables::for_threads`]).
    /// Any set gives the same results: the tables are per thread only so that threads do not
    /// write to one small table at once.
    fn on_thread<R>(&self, index: usize, f: impl FnOnce(&Shared<'_>) -> R) -> R {
        f(&Shared {
            tables: &self.near_tables[index],
            ..*self
        })
    }

    /// [`Shared::on_thread`] with the set of the pool thread this runs on.
    fn on_this_pool_thread<R>(&self, f: impl FnOnce(&Shared<'_>) -> R) -> R {
        let index = rayon::current_thread_index().map_or(0, |i| i + 1);
        self.on_thread(index, f)
    }
}

/// Which nodes may hand out their moves to other threads, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Split {
    /// None (one thread, Lazy SMP).
    Never,
    /// Nodes on the principal variation (PV splitting).
    PvNodes(SplitRule),
    /// Any node (YBWC).
    AnyNode(SplitRule),
}

impl Split {
    /// This rule as the selective pass applies it: on the principal variation after at most
    /// [`SELECTIVE_ELDERS`] moves (nodes expected to fail high keep [`CUT_ELDERS`]: lowered to
    /// two as well, they wasted more at 16 threads, FFO #40-#52 searching 1.13 times one
    /// thread's nodes against 1.11, and two threads were no faster).
    pub(super) fn for_selective_pass(self) -> Split {
        let selective = |rule: SplitRule| SplitRule {
            elders: rule.elders.min(SELECTIVE_ELDERS),
            ..rule
        };
        match self {
            Split::Never => Split::Never,
            Split::PvNodes(rule) => Split::PvNodes(selective(rule)),
            Split::AnyNode(rule) => Split::AnyNode(selective(rule)),
        }
    }

    /// How many moves a node of `empties` empties searches one by one before it hands out the
    /// rest: `usize::MAX` where it may not split; one at a node expected to fail low (`All`,
    /// or found failing low by an earlier pass: `failed_low_before`), as all its moves will
    /// most likely be searched; the rule's elders at the others.
    #[inline(always)]
    pub(super) fn elders(self, node: Node, empties: u32, failed_low_before: bool) -> usize {
        let rule = match self {
            Split::AnyNode(rule) => rule,
            Split::PvNodes(rule) if node.is_pv() => rule,
            _ => return usize::MAX,
        };
        if empties < rule.min_empties {
            usize::MAX
        } else if failed_low_before || node == Node::All {
            1
        } else if node == Node::Cut {
            rule.cut_elders
        } else {
            rule.elders
        }
    }
}

/// A brother's value with its square and its index among the brothers (1 = the first after
/// the eldest).
#[derive(Clone, Copy)]
pub(super) struct Brother {
    /// The value of the brother's move.
    pub(super) value: i32,
    /// The square of the move.
    pub(super) square: u32,
    /// Its index among the brothers.
    pub(super) index: usize,
}

/// A brother as searched in a split: its index, the nodes it took, and whether it cut off.
type Searched = (usize, u64, bool);

/// What the tasks of one split found together: the best brother, their counters and the
/// brothers each searched.
struct Found {
    best: Option<BrotherResult>,
    counters: Counters,
    searched: Stack<Searched, MAX_MOVES>,
}

/// Runs `task` as `n` tasks of the current pool at once (by nested `rayon::join`s, which,
/// unlike a parallel iterator's collect, allocate nothing).
fn fan_out(n: usize, task: &(impl Fn() + Sync)) {
    if n <= 1 {
        task();
    } else {
        let half = n / 2;
        rayon::join(|| fan_out(half, task), || fan_out(n - half, task));
    }
}

/// A value alone on its cache line (128 bytes: the adjacent-line prefetcher pairs lines), so
/// that a thread writing one of a split point's atomics does not evict the others from the
/// other threads' caches (two single runs at two threads were 3.6% and 2.5% faster with it;
/// not measured alone since the rest of the split's changes).
#[repr(align(128))]
struct Line<T>(T);

/// What the search of one brother found: its value, and whether that value is more than the
/// alpha it was searched with (proven, not only a bound).
#[derive(Clone, Copy)]
struct BrotherResult {
    brother: Brother,
    proven: bool,
}

impl BrotherResult {
    /// `result` if it is better than `best` (or there is none), else `best`. A value at or
    /// below the alpha it was searched with only says the move is no better, so on a tie it
    /// must not displace a brother whose value was proven.
    fn better(best: Option<Self>, result: Option<Self>) -> Option<Self> {
        match (best, result) {
            (Some(b), Some(r)) => {
                let (v, bv) = (r.brother.value, b.brother.value);
                let wins = v > bv || (v == bv && r.proven && !b.proven);
                Some(if wins { r } else { b })
            }
            (b, r) => b.or(r),
        }
    }
}

impl Shared<'_> {
    /// Lazy SMP: `threads - 1` helpers search the root with their root moves rotated, sharing
    /// the table with the main search (`main`), and stop when it is done.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lazy_smp<K: Kernel>(
        &self,
        k: K,
        counters: &mut Counters,
        threads: usize,
        (p, o): (u64, u64),
        (alpha, beta): (i32, i32),
        outside: &Abort<'_>,
        main: impl FnOnce(&mut Counters) -> i32,
    ) -> i32 {
        let done = AtomicBool::new(false);
        let stop = Abort {
            flag: &done,
            parent: Some(outside),
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let stop = &stop;
                    scope.spawn(move || {
                        let mut c = Counters::default();
                        self.on_thread(i, |shared| {
                            k.pvs(
                                shared,
                                &mut c,
                                Some(stop),
                                p,
                                o,
                                alpha,
                                beta,
                                Node::Pv,
                                Root::Helper(i),
                            )
                        });
                        c
                    })
                })
                .collect();
            let score = main(counters);
            done.store(true, Relaxed);
            for helper in helpers {
                *counters += helper.join().expect("a Lazy SMP helper panicked");
            }
            score
        })
    }

    /// Young brothers: the moves left after the eldest (`next` and the rest of `list`) are
    /// searched by the pool's threads at once, each thread taking the next one in order, with
    /// the best alpha known when it starts; a cutoff stops the others. Returns the best value
    /// found with its move and its index among the brothers (`None` if every brother was
    /// stopped).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        (p, o): (u64, u64),
        next: Placement,
        list: &mut MoveList,
        a: i32,
        beta: i32,
        node: Node,
    ) -> Option<Brother> {
        c.splits += 1;
        let empties = 64 - (p | o).count_ones();
        // No allocation here: splits are many (1.7 M on FFO #50 at two threads), and the heap
        // took 1.3% of a two-thread solve's time (`perf`).
        let mut brothers = Stack::<Placement, MAX_MOVES>::new();
        brothers.push(next);
        while let Some(m) = list.next_best() {
            brothers.push(m);
        }
        let brothers = brothers.as_slice();
        let cut = Line(AtomicBool::new(false));
        let cut = &cut.0;
        let here = Abort {
            flag: cut,
            parent: abort,
        };
        let alpha = Line(AtomicI32::new(a));
        let alpha = &alpha.0;
        // One task per thread; each takes the next brother in order, best first. (A parallel
        // iterator over the list would halve it, and a thread that joined would start from the
        // middle, on the moves least likely to matter, wasted wherever an earlier one cut off.)
        // A task runs on one thread, so it takes that thread's near tables once.
        let next = Line(AtomicUsize::new(0));
        let next = &next.0;
        let workers = rayon::current_num_threads().clamp(1, brothers.len());
        // What the tasks found, merged as each ends.
        let mut found = Mutex::new(Found {
            best: None,
            counters: Counters::default(),
            searched: Stack::new(),
        });
        let work = |shared: &Shared<'_>| {
            let mut mine = Counters::default();
            let mut best = None;
            let mut searched = Stack::<Searched, MAX_MOVES>::new();
            loop {
                let index = next.fetch_add(1, Relaxed);
                let Some(&m) = brothers.get(index) else {
                    break;
                };
                let a = alpha.load(Relaxed);
                if a >= beta || stopped(Some(&here), empties) {
                    break;
                }
                let before = mine.nodes;
                let v = shared.child(k, &mut mine, Some(&here), p, o, m, false, a, beta, node);
                // A stopped search's value means nothing: it cut nothing.
                searched.push((index, mine.nodes - before, false));
                if stopped(Some(&here), empties) {
                    break;
                }
                if v > a {
                    alpha.fetch_max(v, Relaxed);
                }
                if v >= beta {
                    cut.store(true, Relaxed);
                    searched.as_mut_slice().last_mut().expect("just pushed").2 = true;
                }
                let brother = Brother {
                    value: v,
                    square: m.square,
                    index: index + 1,
                };
                let proven = v > a;
                best = BrotherResult::better(best, Some(BrotherResult { brother, proven }));
            }
            let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
            found.best = BrotherResult::better(found.best, best);
            found.counters += mine;
            for &s in searched.as_slice() {
                found.searched.push(s);
            }
        };
        fan_out(workers, &|| self.on_this_pool_thread(work));
        let found = found.get_mut().unwrap_or_else(PoisonError::into_inner);
        *c += found.counters;
        let searched = found.searched.as_slice();
        let first_cut = searched
            .iter()
            .filter(|&&(_, _, cut)| cut)
            .map(|&(index, _, _)| index)
            .min();
        if let Some(first_cut) = first_cut {
            c.split_wasted_nodes += searched
                .iter()
                .filter(|&&(index, _, _)| index > first_cut)
                .map(|&(_, nodes, _)| nodes)
                .sum::<u64>();
        }
        found.best.map(|b| b.brother)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule by the number of threads, and which nodes it lets split after how many moves.
    #[test]
    fn which_nodes_split_after_how_many_moves() {
        assert_eq!(
            SplitRule::for_threads(EAGER_THREADS - 1),
            SplitRule::for_threads(2)
        );
        let few = Split::AnyNode(SplitRule::for_threads(2));
        assert_eq!(few.elders(Node::Pv, SPLIT_EMPTIES, false), ELDERS);
        assert_eq!(few.elders(Node::Cut, SPLIT_EMPTIES, false), CUT_ELDERS);
        assert_eq!(few.elders(Node::Pv, SPLIT_EMPTIES - 1, false), usize::MAX);
        // A node expected to fail low, or that an earlier pass found failing low, splits after
        // its first move.
        assert_eq!(few.elders(Node::All, SPLIT_EMPTIES, false), 1);
        assert_eq!(few.elders(Node::Cut, SPLIT_EMPTIES, true), 1);
        assert_eq!(few.elders(Node::All, SPLIT_EMPTIES - 1, true), usize::MAX);
        let many = Split::PvNodes(SplitRule::for_threads(EAGER_THREADS));
        assert_eq!(
            many.elders(Node::Pv, EAGER_SPLIT_EMPTIES, false),
            EAGER_ELDERS
        );
        assert_eq!(
            many.elders(Node::Pv, EAGER_SPLIT_EMPTIES - 1, false),
            usize::MAX
        );
        // PV splitting splits nothing off the principal variation.
        assert_eq!(many.elders(Node::All, 30, false), usize::MAX);
        let eager = Split::AnyNode(SplitRule::for_threads(EAGER_THREADS));
        assert_eq!(eager.elders(Node::Cut, 30, false), CUT_ELDERS);
        assert_eq!(eager.elders(Node::All, 30, false), 1);
        assert_eq!(Split::Never.elders(Node::Pv, 60, true), usize::MAX);
        // The selective pass splits after fewer moves, from the same number of empties.
        let selective = few.for_selective_pass();
        assert_eq!(
            selective.elders(Node::Pv, SPLIT_EMPTIES, false),
            SELECTIVE_ELDERS
        );
        assert_eq!(
            selective.elders(Node::Cut, SPLIT_EMPTIES, false),
            CUT_ELDERS
        );
        assert_eq!(
            selective.elders(Node::Pv, SPLIT_EMPTIES - 1, false),
            usize::MAX
        );
        assert_eq!(Split::Never.for_selective_pass(), Split::Never);
    }

    /// Off the principal variation the expected types alternate: a refutation is tried at a
    /// `Cut` node, each of whose moves leads to an `All` node, each of whose moves leads to a
    /// `Cut` node again.
    #[test]
    fn expected_node_types_alternate_off_the_principal_variation() {
        assert_eq!(Node::Pv.null_window_child(), Node::Cut);
        assert_eq!(Node::Cut.null_window_child(), Node::All);
        assert_eq!(Node::All.null_window_child(), Node::Cut);
        assert!(Node::Pv.is_pv() && !Node::Cut.is_pv() && !Node::All.is_pv());
    }

    /// Each thread has its own near tables, which belong to the solver: a search on a pool
    /// thread takes that thread's set, `clear` forgets every set, and `set_eval` every set's
    /// ProbCut table (values of the old evaluation); one thread has only the solve's own set.
    #[test]
    fn each_thread_has_near_tables_that_the_solver_clears() {
        use crate::endgame::EndgameSolver;
        use prune_search::Score;
        assert_eq!(EndgameSolver::new(1).near_tables.len(), 1);
        let two = Parallel::new(2, ParallelKind::Ybwc).expect("two threads");
        let mut solver = EndgameSolver::with_parallel(1, two).expect("a solver of two threads");
        assert_eq!(solver.near_tables.len(), 3);
        // On a pool thread a search takes the set after the solve's own, by the thread's index.
        let Threads::Split(pool, _) = &solver.threads else {
            panic!("a pool of two threads")
        };
        let shared = solver.shared(Split::Never, 0, false);
        let on_its_own = pool.broadcast(|_| {
            let i = rayon::current_thread_index().expect("a pool thread");
            shared.on_this_pool_thread(|s| std::ptr::eq(s.tables, &solver.near_tables[i + 1]))
        });
        assert_eq!(on_its_own, [true, true]);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        // Any key: the test stores and probes it directly.
        const KEY: u64 = 0x9e37_79b9_7f4a_7c15;
        let store = |solver: &EndgameSolver| {
            solver.shared(Split::Never, 0, false).on_thread(2, |s| {
                assert!(std::ptr::eq(s.tables, &solver.near_tables[2]));
                s.tables.near.store(p, o, 8, 2, 2, None, false);
                s.tables.probcut_near.store(
                    KEY,
                    3,
                    Score::from_raw(100),
                    Score::from_raw(100),
                    None,
                );
            })
        };
        let holds = |solver: &EndgameSolver, i: usize| {
            let tables = &solver.near_tables[i];
            (
                tables.near.probe(p, o).is_some(),
                tables.probcut_near.probe(KEY).is_some(),
            )
        };
        store(&solver);
        assert_eq!(
            [holds(&solver, 1), holds(&solver, 2)],
            [(false, false), (true, true)]
        );
        solver.set_eval(crate::OthelloEval::Hand);
        assert_eq!(holds(&solver, 2), (true, false));
        store(&solver);
        solver.clear();
        assert_eq!(holds(&solver, 2), (false, false));
    }

    /// A stop set on the nearest split point is seen at any node; one set further up only
    /// from `SPLIT_EMPTIES` up (below, the node's search goes on until it returns there).
    #[test]
    fn a_stop_further_up_is_read_from_split_empties_up() {
        let (far, near) = (AtomicBool::new(false), AtomicBool::new(false));
        let top = Abort {
            flag: &far,
            parent: None,
        };
        let chain = Abort {
            flag: &near,
            parent: Some(&top),
        };
        for empties in [SPLIT_EMPTIES - 1, SPLIT_EMPTIES] {
            assert!(!stopped(Some(&chain), empties));
        }
        far.store(true, Relaxed);
        assert!(!stopped(Some(&chain), SPLIT_EMPTIES - 1));
        assert!(stopped(Some(&chain), SPLIT_EMPTIES));
        assert!(stopped(Some(&top), SPLIT_EMPTIES - 1));
        near.store(true, Relaxed);
        assert!(stopped(Some(&chain), SPLIT_EMPTIES - 1));
        assert!(!stopped(None, SPLIT_EMPTIES));
    }
}
