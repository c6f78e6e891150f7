//! The solver's threads: Young Brothers Wait and PV splitting on a rayon pool (a node hands
//! out its remaining moves after its first ones), and Lazy SMP (helpers search the whole tree
//! with rotated root moves, sharing the table).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};

use prune_search::{Counters, Parallel, ParallelKind, TranspositionTable};
use rayon::prelude::*;

use super::moves::{MoveList, Placement};
use super::search::{stopped, Abort, Root, Shared};
use super::{Kernel, SolverError, NEAR_TABLE_BYTES};
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

/// How many moves a node of the selective pass searches one by one before it splits (at most;
/// the eager rule's one from [`EAGER_THREADS`]). Most of its nodes off the principal variation
/// are cut by ProbCut before their moves, and the pass scaled worse than the exact search with
/// [`ELDERS`]. At two threads, on FFO #40-#52 over five rounds, the pass took about 8% less
/// time with 2 than with 3 (with 5-6% more of its nodes), and the whole solve less in every
/// round; 1 made the pass faster still but the whole solve no faster than 2 (docs/tuning.md).
pub(super) const SELECTIVE_ELDERS: usize = 2;

/// When a node may hand out its moves: after `elders` of them were searched one by one, and
/// only with `min_empties` empties or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SplitRule {
    /// Moves searched one by one first.
    pub(super) elders: usize,
    /// The fewest empties of a node that splits.
    pub(super) min_empties: u32,
}

impl SplitRule {
    /// The rule for a pool of `threads` threads.
    pub(super) fn for_threads(threads: usize) -> Self {
        if threads >= EAGER_THREADS {
            SplitRule {
                elders: EAGER_ELDERS,
                min_empties: EAGER_SPLIT_EMPTIES,
            }
        } else {
            SplitRule {
                elders: ELDERS,
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

/// The number of a solver's tables: new when a solver is built, and whenever its tables are
/// cleared or its evaluation changes (see [`new_generation`]).
static NEXT_GENERATION: AtomicU64 = AtomicU64::new(1);

/// A number no solver's tables had before.
pub(super) fn new_generation() -> u64 {
    NEXT_GENERATION.fetch_add(1, Relaxed)
}

/// A thread's own near tables, for the moves handed to it, and the generation of the tables
/// whose searches filled them.
struct ThreadTables {
    /// The generation of the solver's tables these belong with.
    generation: u64,
    /// The near-leaf table (see [`Shared::near`]).
    near: EndgameTable,
    /// The near table of ProbCut's shallow searches (see [`Shared::probcut_near`]).
    probcut_near: TranspositionTable<Move>,
}

thread_local! {
    /// This thread's near tables. A search of another generation than theirs (another solver,
    /// or the same one after `clear` or `set_eval`) clears them first: the ProbCut searches'
    /// values belong to one evaluation.
    static TABLES: RefCell<ThreadTables> = RefCell::new(ThreadTables {
        generation: 0,
        near: EndgameTable::try_with_bytes(NEAR_TABLE_BYTES).expect("a near-leaf table of 64 KiB"),
        probcut_near: crate::midgame::near_table().expect("a near table of 64 KiB"),
    });
}

impl Shared<'_> {
    /// `f` of this search with the near tables of the thread it runs on, cleared first if they
    /// belong to another generation of tables.
    fn on_this_thread<R>(&self, f: impl FnOnce(&Shared<'_>) -> R) -> R {
        TABLES.with(|tables| {
            // A search of this thread that holds the tables (a brother that split again) is of
            // this generation already, so the tables are free whenever they need clearing.
            if let Ok(mut mine) = tables.try_borrow_mut() {
                if mine.generation != self.generation {
                    mine.near.clear();
                    mine.probcut_near.clear();
                    mine.generation = self.generation;
                }
            }
            let mine = tables.borrow();
            f(&Shared {
                near: &mine.near,
                probcut_near: &mine.probcut_near,
                ..*self
            })
        })
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
    /// This rule as the selective pass applies it: after at most [`SELECTIVE_ELDERS`] moves.
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
    /// rest: `usize::MAX` where it may not split.
    #[inline(always)]
    pub(super) fn elders(self, pv_node: bool, empties: u32) -> usize {
        let rule = match self {
            Split::AnyNode(rule) => rule,
            Split::PvNodes(rule) if pv_node => rule,
            _ => return usize::MAX,
        };
        if empties >= rule.min_empties {
            rule.elders
        } else {
            usize::MAX
        }
    }
}

/// A brother's value with its square and its index among the brothers (1 = the first after
/// the eldest).
pub(super) struct Brother {
    /// The value of the brother's move.
    pub(super) value: i32,
    /// The square of the move.
    pub(super) square: u32,
    /// Its index among the brothers.
    pub(super) index: usize,
}

/// What the search of one brother found: its value, and whether that value is more than the
/// alpha it was searched with (proven, not only a bound).
struct BrotherResult {
    brother: Brother,
    proven: bool,
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
                        self.on_this_thread(|shared| {
                            k.pvs(
                                shared,
                                &mut c,
                                Some(stop),
                                p,
                                o,
                                alpha,
                                beta,
                                true,
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
    /// searched by the pool's threads at once, each with the best alpha known when it starts;
    /// a cutoff stops the others. Returns the best value found with its move and its index
    /// among the brothers (`None` if every brother was stopped).
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
        pv_node: bool,
    ) -> Option<Brother> {
        c.splits += 1;
        let mut brothers = vec![next];
        while let Some(m) = list.next_best() {
            brothers.push(m);
        }
        let cut = AtomicBool::new(false);
        let here = Abort {
            flag: &cut,
            parent: abort,
        };
        let alpha = AtomicI32::new(a);
        // Each result says whether its value is more than a bound: a value at or below the
        // alpha it was searched with only says the move is no better, so on a tie it must not
        // displace a brother whose value was proven.
        let results: Vec<(Option<BrotherResult>, Counters)> = brothers
            .par_iter()
            .enumerate()
            .map(|(index, &m)| {
                let mut mine = Counters::default();
                let a = alpha.load(Relaxed);
                if a >= beta || stopped(Some(&here)) {
                    return (None, mine);
                }
                let v = self.on_this_thread(|shared| {
                    shared.child(k, &mut mine, Some(&here), p, o, m, false, a, beta, pv_node)
                });
                if stopped(Some(&here)) {
                    return (None, mine);
                }
                if v > a {
                    alpha.fetch_max(v, Relaxed);
                }
                if v >= beta {
                    cut.store(true, Relaxed);
                }
                let brother = Brother {
                    value: v,
                    square: m.square,
                    index: index + 1,
                };
                let proven = v > a;
                (Some(BrotherResult { brother, proven }), mine)
            })
            .collect();
        let mut best: Option<BrotherResult> = None;
        for (result, counters) in results {
            *c += counters;
            if let Some(r) = result {
                let better = |b: &BrotherResult| {
                    let (v, bv) = (r.brother.value, b.brother.value);
                    v > bv || (v == bv && r.proven && !b.proven)
                };
                if best.as_ref().is_none_or(better) {
                    best = Some(r);
                }
            }
        }
        best.map(|b| b.brother)
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
        assert_eq!(few.elders(false, SPLIT_EMPTIES), ELDERS);
        assert_eq!(few.elders(true, SPLIT_EMPTIES - 1), usize::MAX);
        let many = Split::PvNodes(SplitRule::for_threads(EAGER_THREADS));
        assert_eq!(many.elders(true, EAGER_SPLIT_EMPTIES), EAGER_ELDERS);
        assert_eq!(many.elders(true, EAGER_SPLIT_EMPTIES - 1), usize::MAX);
        assert_eq!(many.elders(false, 30), usize::MAX);
        assert_eq!(Split::Never.elders(true, 60), usize::MAX);
        // The selective pass splits after fewer moves, from the same number of empties.
        let selective = few.for_selective_pass();
        assert_eq!(selective.elders(false, SPLIT_EMPTIES), SELECTIVE_ELDERS);
        assert_eq!(selective.elders(false, SPLIT_EMPTIES - 1), usize::MAX);
        assert_eq!(many.for_selective_pass(), many);
        assert_eq!(Split::Never.for_selective_pass(), Split::Never);
    }

    /// A thread's own near tables keep what searches of one generation stored, for the next
    /// search of that generation, and are cleared for a search of another one; `clear` and
    /// `set_eval` start a new generation.
    #[test]
    fn a_thread_clears_its_near_tables_for_another_generation() {
        use crate::endgame::EndgameSolver;
        use prune_search::Score;
        let mut solver = EndgameSolver::new(1);
        let shared = |generation| Shared {
            generation,
            ..solver.shared(Split::Never, 0, false)
        };
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        // Any key: the test stores and probes it directly.
        const KEY: u64 = 0x9e37_79b9_7f4a_7c15;
        let holds = |s: &Shared<'_>| {
            assert!(
                !std::ptr::eq(s.near, &solver.near),
                "the solver's own table"
            );
            (
                s.near.probe(p, o).is_some(),
                s.probcut_near.probe(KEY).is_some(),
            )
        };
        let first = new_generation();
        shared(first).on_this_thread(|s| {
            s.near.store(p, o, 8, 2, 2, None, false);
            s.probcut_near
                .store(KEY, 3, Score::from_raw(100), Score::from_raw(100), None);
        });
        assert_eq!(shared(first).on_this_thread(holds), (true, true));
        assert_eq!(
            shared(new_generation()).on_this_thread(holds),
            (false, false)
        );
        let before = solver.generation;
        solver.clear();
        assert_ne!(solver.generation, before);
        let before = solver.generation;
        solver.set_eval(crate::OthelloEval::Hand);
        assert_ne!(solver.generation, before);
    }
}
