//! [`SearchConfig`]: which algorithm, with which enhancements, as data that can be listed,
//! serialised and checked by [`SearchConfig::validate`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Whether a windowed search may return values outside its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailMode {
    /// Values are clamped into `[alpha, beta]` (the textbook nega-alpha).
    Hard,
    /// The best value found is returned even outside the window: a tighter bound.
    Soft,
}

/// The search algorithm at the core of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Minimax in its two-function form (`max_value` / `min_value`): the reference.
    Minimax,
    /// Negamax: minimax with one function and negation. No pruning.
    Negamax,
    /// Alpha-beta in negamax form (nega-alpha), fail-hard or fail-soft.
    #[serde(rename = "alphabeta")]
    AlphaBeta(FailMode),
    /// Pearl's Scout: a boolean TEST of each sibling against the best value so far, and an
    /// EVAL only of the siblings that pass it.
    Scout,
    /// Reinefeld's NegaScout / principal variation search: a full window for the first move,
    /// null windows for the rest, re-searched when they fail high.
    NegaScout,
    /// MTD(f): a sequence of null-window alpha-beta searches with memory converging on the value.
    #[serde(rename = "mtdf")]
    MtdF,
}

impl Algorithm {
    /// Every algorithm, in the order of the textbooks.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta(FailMode::Hard),
        Algorithm::AlphaBeta(FailMode::Soft),
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::MtdF,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta(FailMode::Soft) => "alphabeta",
            Algorithm::AlphaBeta(FailMode::Hard) => "alphabeta-hard",
            Algorithm::Scout => "scout",
            Algorithm::NegaScout => "negascout",
            Algorithm::MtdF => "mtdf",
        }
    }

    /// Whether the algorithm searches with an `(alpha, beta)` window (and so can be driven by
    /// aspiration windows and use bounds from a transposition table).
    pub fn is_windowed(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBeta(_) | Algorithm::NegaScout | Algorithm::MtdF
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = ConfigError;
    /// Parses a name of [`Algorithm::name`]; also `alphabeta-soft`, `pvs` and `mtd-f`.
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        let lower = s.trim().to_ascii_lowercase();
        let found =
            Algorithm::ALL
                .into_iter()
                .find(|a| a.name() == lower)
                .or(match lower.as_str() {
                    "alphabeta-soft" | "alpha-beta" | "negaalpha" => {
                        Some(Algorithm::AlphaBeta(FailMode::Soft))
                    }
                    "pvs" => Some(Algorithm::NegaScout),
                    "mtd-f" | "mtd(f)" => Some(Algorithm::MtdF),
                    _ => None,
                });
        found.ok_or_else(|| ConfigError::UnknownAlgorithm(s.to_string()))
    }
}

/// Aspiration windows: search a window of `±half_width` around a guess (the previous
/// iteration's value, or the static evaluation), and re-search with a wider window (doubling
/// each time) on the side that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Aspiration {
    /// Half the width of the first window, in raw score units (> 0).
    pub half_width: i32,
}

/// A transposition table of a fixed size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TtConfig {
    /// The table's size in MiB (1 to 65,536).
    pub size_mib: usize,
}

impl Default for TtConfig {
    fn default() -> Self {
        TtConfig { size_mib: 16 }
    }
}

/// A search configuration: the algorithm and the enhancements that drive or help it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SearchConfig {
    /// The core algorithm.
    pub algorithm: Algorithm,
    /// Search depth 1, 2, ... up to the limit, the previous iteration's best line first.
    pub iterative_deepening: bool,
    /// Aspiration windows around a guess (alpha-beta and NegaScout only).
    pub aspiration: Option<Aspiration>,
    /// A transposition table (required by MTD(f); alpha-beta and NegaScout may use one).
    pub transposition_table: Option<TtConfig>,
    /// Sort each node's moves with the evaluator's static knowledge
    /// ([`Evaluator::order_moves`](crate::Evaluator::order_moves)) before the hash and PV moves.
    #[serde(default)]
    pub static_ordering: bool,
}

impl SearchConfig {
    /// The bare algorithm: a fixed-depth search with no enhancement (MTD(f) gets the
    /// transposition table it cannot work without).
    pub fn new(algorithm: Algorithm) -> Self {
        SearchConfig {
            algorithm,
            iterative_deepening: false,
            aspiration: None,
            transposition_table: (algorithm == Algorithm::MtdF).then(TtConfig::default),
            static_ordering: false,
        }
    }

    /// Checks that the enhancements make sense with the algorithm.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let algo = self.algorithm;
        if let Some(a) = self.aspiration {
            if !matches!(algo, Algorithm::AlphaBeta(_) | Algorithm::NegaScout) {
                return Err(ConfigError::Incoherent(format!(
                    "aspiration windows drive alpha-beta or negascout, not {algo}"
                )));
            }
            if a.half_width <= 0 {
                return Err(ConfigError::Invalid(format!(
                    "aspiration half-width must be positive, got {}",
                    a.half_width
                )));
            }
        }
        match self.transposition_table {
            Some(_) if !algo.is_windowed() => {
                return Err(ConfigError::Incoherent(format!(
                    "a transposition table stores window bounds; {algo} searches no window"
                )));
            }
            Some(tt) if !(1..=65_536).contains(&tt.size_mib) => {
                return Err(ConfigError::Invalid(format!(
                    "transposition table size must be 1 to 65536 MiB, got {}",
                    tt.size_mib
                )));
            }
            None if algo == Algorithm::MtdF => {
                return Err(ConfigError::Incoherent(
                    "mtdf needs a transposition table: it is alpha-beta *with memory*".into(),
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// An algorithm name that is not known.
    UnknownAlgorithm(String),
    /// A value out of range.
    Invalid(String),
    /// Options that do not go together.
    Incoherent(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownAlgorithm(name) => {
                let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                write!(
                    f,
                    "unknown algorithm '{name}' (expected one of: {})",
                    names.join(", ")
                )
            }
            ConfigError::Invalid(msg) | ConfigError::Incoherent(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert_eq!("PVS".parse(), Ok(Algorithm::NegaScout));
        let err = "alphabet".parse::<Algorithm>().unwrap_err().to_string();
        assert!(
            err.contains("alphabet") && err.contains("negascout"),
            "{err}"
        );
    }

    #[test]
    fn validate_rejects_incoherent_combinations() {
        assert!(SearchConfig::new(Algorithm::MtdF).validate().is_ok());
        let mut c = SearchConfig::new(Algorithm::MtdF);
        c.transposition_table = None;
        assert!(matches!(c.validate(), Err(ConfigError::Incoherent(_))));
        let mut c = SearchConfig::new(Algorithm::Scout);
        c.aspiration = Some(Aspiration { half_width: 50 });
        assert!(c.validate().is_err());
        let mut c = SearchConfig::new(Algorithm::Minimax);
        c.transposition_table = Some(TtConfig::default());
        assert!(c.validate().is_err());
        let mut c = SearchConfig::new(Algorithm::NegaScout);
        c.aspiration = Some(Aspiration { half_width: 0 });
        assert!(matches!(c.validate(), Err(ConfigError::Invalid(_))));
        c.aspiration = Some(Aspiration { half_width: 10 });
        c.transposition_table = Some(TtConfig { size_mib: 0 });
        assert!(c.validate().is_err());
        c.transposition_table = Some(TtConfig { size_mib: 1 });
        assert!(c.validate().is_ok());
    }

    #[test]
    fn config_serialises() {
        let mut c = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Hard));
        c.iterative_deepening = true;
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<SearchConfig>(&text).unwrap(), c);
    }
}
