//! The prune lab: the classic experiments of game-tree search, reproduced on real positions and
//! written up as a report folder (Markdown with the tables and plots, CSV, JSON, SVG).
//!
//! An experiment ([`EXPERIMENTS`]) takes [`LabOptions`] (positions, depths, presets, jobs) and
//! returns a [`Report`]: settings, findings, tables and plots as data. [`Report::write`] makes
//! the folder. [`tree`] draws the tree one traced search visited (`prune tree`). Every search
//! is deterministic (a fresh engine per search, or per game), so the
//! same command gives the same node counts whatever `jobs` is; only times vary.
//!
//! ```
//! use prune_lab::{run_experiment, LabOptions, NoProgress};
//!
//! let options = LabOptions {
//!     depths: Some(2..=3),
//!     width: Some(3),
//!     trees: Some(2),
//!     ..LabOptions::default()
//! };
//! let report = run_experiment("minimal-tree", &options, &NoProgress).unwrap();
//! assert!(report.table("minimal-tree").is_some());
//! ```

mod experiments;
mod plot;
mod positions;
mod report;
mod runner;
pub mod tree;

use std::fmt;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

pub use experiments::{run_experiment, ExperimentInfo, EXPERIMENTS};
pub use plot::{render_svg, Legend, Plot, Series, XAxis};
pub use positions::{load_positions, LabPosition, PositionSet};
pub use report::{thousands, Cell, Report, Table};
pub use runner::{run_tasks, NoProgress, Progress};

/// The settings of an experiment run. `None` or empty means the experiment's default; an
/// option the experiment does not use is refused (see [`ExperimentInfo::options`]).
#[derive(Clone, Debug, Default)]
pub struct LabOptions {
    /// The positions (Othello experiments).
    pub positions: Option<PositionSet>,
    /// The depths.
    pub depths: Option<RangeInclusive<u32>>,
    /// The presets to run (each a name of `prune_search::PRESETS`).
    pub presets: Vec<String>,
    /// Searches run at once (at least 1; 0 means 1).
    pub jobs: usize,
    /// `killers`: how many games (openings) per configuration; `probcut`: match games per
    /// selectivity level.
    pub games: Option<usize>,
    /// `probcut`: the matches' time per move, in milliseconds.
    pub time_per_move: Option<u64>,
    /// `probcut`: the self-play games the fit's positions come from.
    pub fit_games: Option<usize>,
    /// `killers`: the slot counts to compare.
    pub slots: Option<Vec<usize>>,
    /// `minimal-tree`: the trees' width.
    pub width: Option<u32>,
    /// `minimal-tree`: trees (seeds) per cell.
    pub trees: Option<u32>,
    /// `parallel`: the most threads to measure (default: the number of cores).
    pub threads_max: Option<usize>,
    /// `connect4`: positions per test set (the first N of each file); `wthor`: positions per
    /// number of empties.
    pub per_set: Option<usize>,
    /// `connect4`: the test sets to solve (names such as `end-easy`, or file names such as
    /// `Test_L3_R1`).
    pub sets: Option<Vec<String>>,
    /// `connect4`: the node limit per position: `Some(None)` for none, `Some(Some(n))` for
    /// `n` nodes.
    pub node_limit: Option<Option<u64>>,
    /// `connect4`: the folder of the test sets (default: `../shared/data/connect4` from the
    /// current folder or one above it); `wthor`: the folder of the WTHOR game files (default:
    /// `../shared/data/wthor`, found the same way).
    pub data: Option<PathBuf>,
    /// `wthor`: the numbers of empties to measure (each 1 to 22, or 24).
    pub empties: Option<Vec<u32>>,
    /// `wthor`: weights files (written by `prune train`) measured beside the built-in
    /// evaluations.
    pub evals: Vec<PathBuf>,
}

impl LabOptions {
    /// The number of searches to run at once.
    pub fn jobs(&self) -> usize {
        self.jobs.max(1)
    }
}

/// Why an experiment could not run or its report could not be written.
#[derive(Debug)]
pub enum LabError {
    /// A bad option or input, with what was wrong.
    Usage(String),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A plot could not be drawn.
    Plot(String),
}

impl LabError {
    fn io(path: &Path, error: std::io::Error) -> LabError {
        LabError::Io {
            path: path.display().to_string(),
            error,
        }
    }
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::Usage(msg) => f.write_str(msg),
            LabError::Io { path, error } => write!(f, "{path}: {error}"),
            LabError::Plot(msg) => write!(f, "drawing a plot: {msg}"),
        }
    }
}

impl std::error::Error for LabError {}
