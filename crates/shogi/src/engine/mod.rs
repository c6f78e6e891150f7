//! The playing engine: NegaScout (principal variation search) with iterative deepening,
//! aspiration windows, a transposition table, the staged move picker with killer moves and
//! history, a quiescence search over captures (and, if asked, checks), check extension,
//! the selective search of chess and shogi engines ([`Selective`]: null move, late-move
//! reductions and pruning, futility, razoring, static-exchange pruning, internal iterative
//! reduction) and limits of depth, nodes and time. It evaluates with [`crate::HandMadeEval`] or
//! [`crate::MaterialEval`] ([`EvalKind`]), each thread keeping the values it computed by
//! position key. Before the alpha-beta search, the mate solver ([`crate::mate`]) looks for a
//! forced mate from the root ([`EngineOptions::root_mate_nodes`]). No I/O: `prune usi` and the
//! command line drive it.
//!
//! The staged picker draws a node's moves in the order shogi engines (Apery, and Stockfish
//! before it) use: the table's move, good captures (most valuable victim first, least valuable
//! attacker next; a capture is good when its static exchange evaluation, [`Position::see`],
//! loses nothing), the killer moves of the ply, the quiet moves by history, the bad
//! captures. Each stage is generated when the search reaches it: the table's move and the
//! killers are tested for legality alone ([`Position::is_legal`]), the captures generated
//! apart from the quiet moves, and a capture's static exchange worked out when it is about
//! to be picked; a cutoff early in the order saves the rest. The plain order, for
//! comparison, is the table's move and then captures by victim, the rest as generated.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune_search::{TableAllocError, TranspositionTable};

mod options;
mod worker;
use crate::mate::{solve_mate, MateConfig, MateOutcome, MateRules};
use crate::position::{Move, Position};
pub use options::{EngineOptions, EvalKind, Selective, ROOT_MATE_NODES};
use worker::{Heuristics, Shared, Worker};

/// The score of mate: mate in `n` plies scores `MATE - n` (its loss `-(MATE - n)`).
pub const MATE: i32 = 30_000;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITE: i32 = 32_000;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 128;
/// The quiescence search stops this many plies below the main search's leaves.
const QUIESCENCE_PLIES: usize = 12;

/// The stages of the picker, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The transposition table's move.
    HashMove,
    /// Captures that win material or are safe.
    GoodCapture,
    /// The killer moves of the ply.
    Killer,
    /// Quiet moves (and drops), by history.
    Quiet,
    /// Captures that lose material.
    BadCapture,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 5] = [
        Stage::HashMove,
        Stage::GoodCapture,
        Stage::Killer,
        Stage::Quiet,
        Stage::BadCapture,
    ];

    /// The stage's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::HashMove => "hash move",
            Stage::GoodCapture => "good captures",
            Stage::Killer => "killers",
            Stage::Quiet => "quiet moves",
            Stage::BadCapture => "bad captures",
        }
    }
}

/// When a search stops: the first limit reached. With none, it searches to [`MAX_DEPTH`]
/// (or until [`Engine::stop_flag`] is raised).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The last iteration's depth.
    pub depth: Option<u32>,
    /// Nodes (main and quiescence).
    pub nodes: Option<u64>,
    /// Stop at once when this much time has passed.
    pub hard_time: Option<Duration>,
    /// Start no new iteration after this much time.
    pub soft_time: Option<Duration>,
}

/// One finished iteration, as reported while searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Its depth.
    pub depth: u32,
    /// Its score for the side to move, centipawns (mates: see [`MATE`]).
    pub score: i32,
    /// Nodes so far in this search.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Per stage of the picker: moves searched, and cutoffs they caused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageCounts {
    /// Moves searched, by [`Stage`] order.
    pub searched: [u64; 5],
    /// Beta cutoffs, by [`Stage`] order.
    pub cutoffs: [u64; 5],
}

impl StageCounts {
    /// Adds `other` into these counts.
    pub fn add(&mut self, other: &StageCounts) {
        for i in 0..5 {
            self.searched[i] += other.searched[i];
            self.cutoffs[i] += other.cutoffs[i];
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// Its score for the side to move (centipawns; mates: see [`MATE`]).
    pub score: i32,
    /// The last finished iteration's depth.
    pub depth: u32,
    /// Nodes searched (main and quiescence).
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The picker's moves and cutoffs per stage (main search only).
    pub stages: StageCounts,
}

/// The engine: its table and each thread's killers and history persist between searches
/// until [`Engine::clear`].
pub struct Engine {
    options: EngineOptions,
    /// `None` when the options ask for no table.
    table: Option<TranspositionTable<Move>>,
    /// One per thread, the main thread's first.
    heuristics: Vec<Heuristics>,
    stop: Arc<AtomicBool>,
}

impl Engine {
    /// An engine with `options`.
    ///
    /// # Panics
    ///
    /// If the machine cannot give the table's memory; [`Engine::set_options`] reports that as
    /// an error instead.
    pub fn new(options: EngineOptions) -> Engine {
        let mut engine = Engine {
            options: EngineOptions {
                hash_mb: 0,
                ..options.clone()
            },
            table: None,
            heuristics: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
        };
        if let Err(e) = engine.set_options(options) {
            panic!("{e}");
        }
        engine
    }

    /// Changes the options: a new table size makes a new (empty) table, a new thread count
    /// gives the new threads empty heuristics. An error (the table's memory refused) leaves
    /// the options as they were.
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), TableAllocError> {
        if options.hash_mb != self.options.hash_mb || self.table.is_none() != (options.hash_mb == 0)
        {
            self.table = match options.hash_mb {
                0 => None,
                mb => Some(TranspositionTable::new(mb)?),
            };
        }
        self.heuristics
            .resize_with(options.threads.max(1), Heuristics::default);
        self.options = options;
        Ok(())
    }

    /// The options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Forgets the table, the killers and the history (a new game).
    pub fn clear(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        self.heuristics.fill_with(Heuristics::default);
    }

    /// The flag that stops a running search when raised. It stays raised (and stops every
    /// later search at once) until its owner lowers it: a search does not lower it itself, so
    /// that a stop sent just before a search thread begins is not lost.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Makes `flag` the engine's stop flag (one the caller already raises, such as a server's
    /// per-search flag).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Searches `root` within `limits`, calling `report` after each finished iteration.
    /// `history` lists the game's positions before `root`, oldest first, as
    /// [`crate::GameRecord::history`] gives them (keys and checks), for the repetition rule.
    ///
    /// With [`EngineOptions::threads`] above one, helper threads search the same root at the
    /// same time, sharing only the table (Lazy SMP); the main thread's iterations make the
    /// result, and the nodes are every thread's.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[(u64, bool)],
        limits: Limits,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let started = Instant::now();
        for h in &mut self.heuristics {
            h.new_search();
        }
        if let Some(table) = &mut self.table {
            table.new_search();
        }
        let moves = root.legal_moves();
        let result = SearchResult {
            best: moves.first().copied(),
            score: if moves.is_empty() { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: moves.first().copied().into_iter().collect(),
            stages: StageCounts::default(),
        };
        if moves.is_empty() {
            return result;
        }
        let mut limits = limits;
        if self.options.root_mate_nodes > 0 && !root.in_check() {
            let (found, nodes) = self.root_mate(root, &limits, started);
            if let Some(mut found) = found {
                found.elapsed = started.elapsed();
                report(&Iteration {
                    depth: found.depth,
                    score: found.score,
                    nodes: found.nodes,
                    elapsed: found.elapsed,
                    pv: found.pv.clone(),
                });
                return found;
            }
            // The mate search's nodes count against a node limit.
            limits.nodes = limits.nodes.map(|n| n.saturating_sub(nodes).max(1));
        }
        let mut path = history.to_vec();
        path.push((root.key(), root.in_check()));
        let shared = Shared {
            options: &self.options,
            table: self.table.as_ref(),
            limits,
            started,
            stop: &self.stop,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        };
        let (main, helpers) = self
            .heuristics
            .split_first_mut()
            .expect("one thread at least");
        let mut result = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, heur)| {
                    let (shared, path) = (&shared, path.clone());
                    scope.spawn(move || {
                        let mut worker = Worker::new(i + 1, shared, heur, path);
                        worker.help(root);
                        worker.nodes
                    })
                })
                .collect();
            let mut worker = Worker::new(0, &shared, main, path);
            let mut result = worker.main_search(root, result, report);
            shared.done.store(true, Ordering::Relaxed);
            result.nodes = worker.nodes;
            for handle in handles {
                match handle.join() {
                    Ok(nodes) => result.nodes += nodes,
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            result
        });
        result.elapsed = started.elapsed();
        result
    }

    /// The mate solver from `root` within [`EngineOptions::root_mate_nodes`] and an eighth of
    /// the search's time: the mate as a result, if it found one, and the nodes it took.
    fn root_mate(
        &self,
        root: &Position,
        limits: &Limits,
        started: Instant,
    ) -> (Option<SearchResult>, u64) {
        let time = limits
            .hard_time
            .or(limits.soft_time)
            .map(|t| t.saturating_sub(started.elapsed()) / 8);
        let config = MateConfig {
            max_nodes: self
                .options
                .root_mate_nodes
                .min(limits.nodes.unwrap_or(u64::MAX)),
            time,
            max_plies: ROOT_MATE_PLIES,
            max_entries: 1 << 20,
            shortest: false,
            // A game's mate ends in checkmate.
            rules: MateRules::Strict,
            two_ply_rule: false,
            // (One thread: not shortened, so no search within a ply limit to share out.)
            ..MateConfig::default()
        };
        let Ok(report) = solve_mate(root, &config, Some(&self.stop)) else {
            return (None, 0);
        };
        let found = match (report.outcome, report.line.first()) {
            (MateOutcome::Mate, Some(&first)) => Some(SearchResult {
                best: Some(first),
                score: MATE - report.plies as i32,
                depth: report.plies as u32,
                nodes: report.nodes,
                elapsed: Duration::ZERO,
                pv: report.line,
                stages: StageCounts::default(),
            }),
            _ => None,
        };
        (found, report.nodes)
    }
}

/// The longest mate the root's mate search looks for, in plies.
const ROOT_MATE_PLIES: u16 = 63;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandMadeEval;
    use prune_search::textbook::{negamax, Walk};

    fn search(sfen: &str, options: EngineOptions, depth: u32) -> SearchResult {
        let p: Position = sfen.parse().unwrap();
        Engine::new(options).search(
            &p,
            &[],
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &mut |_| {},
        )
    }

    #[test]
    fn finds_a_mate_in_one() {
        for preset in EngineOptions::PRESETS {
            let r = search(
                "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
                EngineOptions::preset(preset).unwrap(),
                3,
            );
            assert_eq!(r.best.unwrap().to_string(), "G*5b", "{preset}");
            assert_eq!(r.score, MATE - 1, "{preset}");
        }
    }

    /// The root's mate search plays a forced mate the alpha-beta search has no nodes to see,
    /// reports it as a mate score with the whole line, and counts its nodes against the limit.
    #[test]
    fn the_root_mate_search_plays_a_long_mate() {
        // Shogi Zuko #2 (Ito Sokan, 1734; ../shared/data/tsume/zukou.tsv): a mate in 21.
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let p: Position = sfen.parse().unwrap();
        let limits = Limits {
            nodes: Some(200_000),
            ..Limits::default()
        };
        let without = EngineOptions {
            root_mate_nodes: 0,
            ..EngineOptions::default()
        };
        let plain = Engine::new(without).search(&p, &[], limits, &mut |_| {});
        assert!(
            plain.score < MATE_BOUND,
            "the alpha-beta search alone finds the mate"
        );
        let options = EngineOptions::default();
        assert_eq!(options.root_mate_nodes, ROOT_MATE_NODES);
        let mut reported = Vec::new();
        let r = Engine::new(options).search(&p, &[], limits, &mut |it| reported.push(it.score));
        assert_eq!(r.score, MATE - 21);
        assert_eq!(reported, [MATE - 21]);
        assert_eq!(r.best, r.pv.first().copied());
        crate::mate::check_mating_line(&p, &r.pv).unwrap();
        assert!(r.nodes > 0 && r.nodes <= 100_000, "{}", r.nodes);
    }

    #[test]
    fn a_mated_side_has_no_move_and_a_lost_score() {
        let r = search(
            "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
            EngineOptions::default(),
            3,
        );
        assert_eq!(r.best, None);
        assert_eq!(r.score, -MATE);
    }

    /// Without quiescence, extension, aspiration and the selective search, every option set
    /// (the mate-in-one test included: it returns only what the node's own search would; the
    /// continuation history only orders)
    /// gives the value of a plain negamax of the same evaluation at the same depth.
    #[test]
    fn fixed_depth_values_equal_plain_negamax() {
        let positions = [
            crate::START_SFEN,
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15",
            // White threatens G*5h, mate, unless Black takes the pawn on 5g.
            "4k4/9/9/9/9/9/4p4/3S1S3/3LKL3 b g 1",
        ];
        for sfen in positions {
            let p: Position = sfen.parse().unwrap();
            for depth in 1..=2 {
                let expected = negamax(&p, depth, &mut Walk::new(&HandMadeEval))
                    .value
                    .raw();
                for (preset, mate_in_one, continuation) in [
                    ("exhaustive", false, false),
                    ("exhaustive", false, true),
                    ("plain", false, false),
                    ("plain", true, false),
                ] {
                    let options = EngineOptions {
                        quiescence: false,
                        check_extension: false,
                        aspiration: 0,
                        mate_in_one,
                        continuation,
                        ..EngineOptions::preset(preset).unwrap()
                    };
                    let r = search(sfen, options, depth);
                    assert_eq!(
                        r.score, expected,
                        "{sfen} depth {depth} {preset} {mate_in_one}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_staged_picker_counts_its_stages_and_a_search_stops_on_its_node_limit() {
        let p: Position = crate::START_SFEN.parse().unwrap();
        let mut engine = Engine::new(EngineOptions::default());
        let mut iterations = Vec::new();
        let r = engine.search(
            &p,
            &[],
            Limits {
                depth: Some(4),
                ..Limits::default()
            },
            &mut |it| iterations.push(it.depth),
        );
        assert_eq!(iterations, [1, 2, 3, 4]);
        assert!(p.legal_moves().contains(&r.best.unwrap()));
        let searched: u64 = r.stages.searched.iter().sum();
        let cutoffs: u64 = r.stages.cutoffs.iter().sum();
        assert!(searched > 0 && cutoffs > 0 && cutoffs <= searched);
        let limited = engine.search(
            &p,
            &[],
            Limits {
                nodes: Some(5_000),
                ..Limits::default()
            },
            &mut |_| {},
        );
        assert!(limited.nodes < 5_000 + 1_024 + 64, "{}", limited.nodes);
    }

    /// Lazy SMP: with helper threads the search still finds the mate, reaches the depth asked
    /// for with every iteration reported once, counts the helpers' nodes and stops on a
    /// node limit shared by all threads.
    #[test]
    fn several_threads_find_the_same_mate_and_share_a_node_limit() {
        for threads in [2, 3] {
            let options = EngineOptions {
                threads,
                ..EngineOptions::default()
            };
            let r = search("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", options.clone(), 3);
            assert_eq!(
                (r.best.unwrap().to_string(), r.score),
                ("G*5b".into(), MATE - 1)
            );
            let p: Position =
                "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15"
                    .parse()
                    .unwrap();
            let mut engine = Engine::new(options);
            let mut iterations = Vec::new();
            let depth = 6;
            let r = engine.search(
                &p,
                &[],
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                &mut |it| iterations.push(it.depth),
            );
            assert_eq!(
                iterations,
                (1..=depth).collect::<Vec<_>>(),
                "{threads} threads"
            );
            assert_eq!(r.depth, depth);
            assert!(p.legal_moves().contains(&r.best.unwrap()));
            let limited = engine.search(
                &p,
                &[],
                Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                },
                &mut |_| {},
            );
            // Each thread looks at the shared count every 1,024 of its own nodes.
            let slack = 1_024 * threads as u64 + 64;
            assert!(
                limited.nodes >= 20_000 && limited.nodes < 20_000 + slack,
                "{threads} threads: {}",
                limited.nodes
            );
        }
        let refused = EngineOptions {
            threads: 2,
            hash_mb: 0,
            ..EngineOptions::default()
        };
        assert!(refused.validate().unwrap_err().contains("table"));
    }

    #[test]
    fn the_search_takes_a_repetition_as_a_draw() {
        // Black is a rook down. Kings out and back: the position after 5i5h recurs if Black
        // plays 5i5h again, which the search scores as a draw: its best hope.
        let start: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1"
            .parse()
            .unwrap();
        let mut game = crate::GameRecord::new(start);
        let mut engine = Engine::new(EngineOptions::default());
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let before = engine.search(game.position(), &[], limits, &mut |_| {});
        assert!(before.score < -500, "a rook down: {}", before.score);
        for m in "5i5h 5a5b 5h5i 5b5a".split_whitespace() {
            game.play_usi(m).unwrap();
        }
        let history = &game.history()[..game.history().len() - 1];
        let r = engine.search(game.position(), history, limits, &mut |_| {});
        assert_eq!((r.best.unwrap().to_string(), r.score), ("5i5h".into(), 0));
    }
}
