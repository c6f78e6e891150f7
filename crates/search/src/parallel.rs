//! How a search uses several threads: [`Parallel`] (how many, and which scheme).
//!
//! * [`ParallelKind::Ybwc`] — Young Brothers Wait: a node's moves are shared out between
//!   threads only after its eldest (first) move has been searched, so that the window the
//!   younger brothers get is as good as a sequential search would give them; any node deep
//!   enough may split, and idle threads join the splits of busy ones (work stealing).
//! * [`ParallelKind::PvSplit`] — principal variation splitting: the same, but only nodes of
//!   the principal variation (the leftmost path) split.
//! * [`ParallelKind::LazySmp`] — every thread searches the whole tree from the root, in a
//!   slightly different order, sharing only the transposition table; the main thread's result
//!   is the answer and the others stop when it is done.
//!
//! The generic engine ([`crate::Engine::with_parallel`]) and Othello's endgame solver each run
//! all three; every thread shares one [`crate::TranspositionTable`].

use serde::{Deserialize, Serialize};

use crate::ConfigError;

/// A parallel search scheme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParallelKind {
    /// Young Brothers Wait (the default).
    #[default]
    Ybwc,
    /// Threads share only the transposition table.
    LazySmp,
    /// Principal variation splitting.
    PvSplit,
}

impl crate::Named for ParallelKind {
    const KIND: &'static str = "parallel scheme";
    const ALL: &'static [Self] = &[
        ParallelKind::Ybwc,
        ParallelKind::LazySmp,
        ParallelKind::PvSplit,
    ];

    /// The name on the command line: `ybwc`, `lazy-smp`, `pv-split`.
    fn name(self) -> &'static str {
        match self {
            ParallelKind::Ybwc => "ybwc",
            ParallelKind::LazySmp => "lazy-smp",
            ParallelKind::PvSplit => "pv-split",
        }
    }

    fn aliases(self) -> &'static [&'static str] {
        match self {
            ParallelKind::Ybwc => &[],
            ParallelKind::LazySmp => &["lazysmp"],
            ParallelKind::PvSplit => &["pvsplit"],
        }
    }
}

crate::named!(ParallelKind);

/// How many threads a search uses, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Parallel {
    /// Threads, at least 1 (1: the sequential search, exactly).
    pub threads: usize,
    /// The scheme (irrelevant with one thread).
    pub kind: ParallelKind,
}

impl Parallel {
    /// The most threads a search may use.
    pub const MAX_THREADS: usize = 512;

    /// One thread: the sequential search.
    pub const SEQUENTIAL: Parallel = Parallel {
        threads: 1,
        kind: ParallelKind::Ybwc,
    };

    /// `threads` threads with `kind`, checked.
    pub fn new(threads: usize, kind: ParallelKind) -> Result<Parallel, ConfigError> {
        if !(1..=Self::MAX_THREADS).contains(&threads) {
            return Err(ConfigError::Invalid(format!(
                "threads must be 1 to {}, got {threads}",
                Self::MAX_THREADS
            )));
        }
        Ok(Parallel { threads, kind })
    }

    /// Whether more than one thread searches.
    pub fn is_parallel(&self) -> bool {
        self.threads > 1
    }
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel::SEQUENTIAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Named;

    #[test]
    fn names_parse_back() {
        for &k in ParallelKind::ALL {
            assert_eq!(k.name().parse::<ParallelKind>(), Ok(k));
        }
        assert_eq!("LazySMP".parse::<ParallelKind>(), Ok(ParallelKind::LazySmp));
        assert!("abdada"
            .parse::<ParallelKind>()
            .unwrap_err()
            .to_string()
            .contains("ybwc"));
        assert!(Parallel::new(0, ParallelKind::Ybwc).is_err());
        assert!(Parallel::new(2, ParallelKind::Ybwc).unwrap().is_parallel());
    }
}
