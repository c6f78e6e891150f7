//! # prune-search
//!
//! Game-agnostic game-tree search: every member of the alpha-beta family, selectable at run
//! time through a [`SearchConfig`], with statistics as numbers. Move ordering — the table's
//! move, killers (N-slot or staged), history, the refutation table, shallow-search ordering and
//! the game's static knowledge — goes through one staged [`MovePicker`]; [`PRESETS`] names the
//! usual combinations. The crate does no I/O: it never
//! prints and never reads files; it reports through return values and a [`SearchObserver`].
//!
//! ```
//! use prune_search::{search, Algorithm, Evaluator, Game, Score, SearchConfig, SearchLimits};
//!
//! /// Take 1 or 2 from a pile; whoever takes the last stone wins.
//! #[derive(Clone)]
//! struct Pile(u32);
//! impl Game for Pile {
//!     type Move = u32;
//!     fn generate_moves(&self, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&n| n <= self.0));
//!     }
//!     fn play(&self, n: u32) -> Pile { Pile(self.0 - n) }
//!     fn outcome(&self) -> Option<Score> { (self.0 == 0).then_some(Score::LOSS) }
//!     fn hash(&self) -> u64 { u64::from(self.0) }
//! }
//! struct Zero;
//! impl Evaluator<Pile> for Zero {
//!     fn evaluate(&self, _: &Pile) -> Score { Score::DRAW }
//! }
//!
//! let config = SearchConfig::new(Algorithm::NegaScout);
//! let result = search(&Pile(7), &Zero, &config, &SearchLimits::depth(10)).unwrap();
//! assert_eq!(result.score, Score::WIN);
//! assert_eq!(result.best_move, Some(1)); // leave a multiple of 3
//! ```
#![deny(missing_docs)]

mod algo;
mod bound;
mod config;
mod engine;
mod game;
mod limits;
pub mod mcts;
mod name;
mod observer;
pub mod ordering;
mod parallel;
mod picker;
mod preset;
pub mod proof;
pub mod rng;
mod score;
mod searcher;
mod stats;
pub mod textbook;
mod trace;
mod tt;

pub use bound::{Bound, Window};
pub use config::{Algorithm, Aspiration, ConfigError, FailMode, KillerIndex, Killers};
pub use config::{NullMove, ProbCut, SearchConfig, Selective, ShallowOrdering, TtConfig};
pub use engine::{search, Engine, SearchError, SearchResult};
pub use game::{perft, Evaluator, Game, ProbCutFit};
pub use limits::SearchLimits;
pub use name::{list_names, parse_name, Named, UnknownName};
pub use observer::{Iteration, NoObserver, SearchObserver};
pub use parallel::{Parallel, ParallelKind};
pub use picker::{MovePicker, Stage};
pub use preset::{Preset, PRESETS};
pub use score::Score;
pub use stats::{Counters, DepthRow, SearchStats};
pub use trace::{Entered, NodeEnd, SearchTracer, SearchTree, TracedNode, TreeRecorder};
pub use tt::{
    advise_huge_pages, alloc_slice, MoveBits, TableAllocError, TranspositionTable, TtEntry,
};
