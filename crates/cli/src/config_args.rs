//! The search configuration on the command line, shared by `prune search` and `prune solve`:
//! a preset, then switches that turn single enhancements on.

use clap::Args;
use prune_search::{Algorithm, Aspiration, KillerIndex, Killers, Parallel, ParallelKind};
use prune_search::{Named, Preset, SearchConfig, TtConfig};

use crate::CliError;

/// The killer slots that `--killer-index` turns on when no killers are on yet.
const DEFAULT_KILLER_SLOTS: usize = 2;

/// Options that build a [`SearchConfig`]: `--preset`'s configuration for the algorithm, then
/// each switch given turns its enhancement on or sets its value.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Search configuration")]
pub struct ConfigArgs {
    /// A named set of enhancements to start from (`prune presets` lists them); the switches
    /// below add to it [default: plain, the algorithm alone].
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// The algorithm: minimax, negamax, alphabeta, alphabeta-hard, scout, negascout, mtdf
    /// [default: alphabeta for `search`, negascout for `solve`]; in `search` also mcts (Monte
    /// Carlo tree search), pns, dfpn or dfpn+ (proof-number search: win, draw or loss, `--nodes`
    /// its limit; dfpn+ starts new positions from the evaluation's numbers).
    #[arg(long, short)]
    pub algorithm: Option<String>,
    /// Iterative deepening: depth 1, 2, ... up to the limit.
    #[arg(long, visible_alias = "id")]
    pub iterative: bool,
    /// Aspiration windows of this half-width around the previous value (alphabeta, negascout).
    #[arg(long, value_name = "HALF_WIDTH")]
    pub aspiration: Option<i32>,
    /// A transposition table of this many MiB (alphabeta, negascout; mtdf has 16 by default;
    /// `solve` sizes the fast solver's table and the default generic one with it, 64 by default).
    #[arg(long = "tt-mb", visible_alias = "tt", value_name = "MIB")]
    pub tt_mb: Option<usize>,
    /// Sort moves with the game's static knowledge (its evaluator's move ordering).
    #[arg(long)]
    pub static_ordering: bool,
    /// Killer moves with this many slots per list (1 to 128).
    #[arg(long, value_name = "N", value_parser = parse_killer_slots)]
    pub killers: Option<usize>,
    /// One killer list per `ply` from the root or per remaining `depth` (turns two-slot
    /// killers on if `--killers` is not given).
    #[arg(long, value_name = "ply|depth")]
    pub killer_index: Option<KillerIndex>,
    /// Staged two-slot killers: tactical moves, then quiet killers, then the rest.
    #[arg(long)]
    pub staged_killers: bool,
    /// The history heuristic: moves that caused cutoffs deeper in the tree come first.
    #[arg(long)]
    pub history: bool,
    /// The refutation table: each root move's refutation from the last iteration first
    /// (needs iterative deepening).
    #[arg(long)]
    pub refutation: bool,
    /// Order moves by a shallow search at nodes with at least this many plies left
    /// [default when only --shallow-depth is given: 4].
    #[arg(long, value_name = "MIN_DEPTH")]
    pub shallow_order: Option<u32>,
    /// The depth of the shallow ordering searches (turns them on) [default: 2].
    #[arg(long, value_name = "D")]
    pub shallow_depth: Option<u32>,
}

fn parse_killer_slots(text: &str) -> Result<usize, String> {
    let slots: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of slots"))?;
    if (1..=Killers::MAX_SLOTS).contains(&slots) {
        Ok(slots)
    } else {
        Err(format!(
            "killer slots must be 1 to {}, got {slots}",
            Killers::MAX_SLOTS
        ))
    }
}

impl ConfigArgs {
    /// The options given, as typed (`--killers 4`), in the order of `--help`.
    pub fn given(&self) -> Vec<String> {
        let value = |name: &str, v: Option<String>| v.map(|v| format!("{name} {v}"));
        let flag = |name: &str, on: bool| on.then(|| name.to_string());
        [
            value("--preset", self.preset.clone()),
            value("--algorithm", self.algorithm.clone()),
            flag("--iterative", self.iterative),
            value("--aspiration", self.aspiration.map(|a| a.to_string())),
            value("--tt-mb", self.tt_mb.map(|t| t.to_string())),
            flag("--static-ordering", self.static_ordering),
            value("--killers", self.killers.map(|k| k.to_string())),
            value("--killer-index", self.killer_index.map(|i| i.name().into())),
            flag("--staged-killers", self.staged_killers),
            flag("--history", self.history),
            flag("--refutation", self.refutation),
            value("--shallow-order", self.shallow_order.map(|d| d.to_string())),
            value("--shallow-depth", self.shallow_depth.map(|d| d.to_string())),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The first option given that configures the search itself (anything but `--tt-mb`,
    /// which also sizes the fast solver's table), as typed.
    pub fn first_search_option(&self) -> Option<String> {
        self.given()
            .into_iter()
            .find(|option| !option.starts_with("--tt-mb"))
    }

    /// The configuration: the preset's for the algorithm (`default_algorithm` if none is
    /// given), each switch given applied to it, iterative deepening also when `iterative` (a
    /// time or node limit), then validated. Every error is a usage error.
    pub fn build(
        &self,
        default_algorithm: Algorithm,
        iterative: bool,
    ) -> Result<SearchConfig, CliError> {
        let algorithm = match &self.algorithm {
            Some(name) => name
                .parse()
                .map_err(|e| CliError::Usage(format!("--algorithm: {e}")))?,
            None => default_algorithm,
        };
        let preset = Preset::find(self.preset.as_deref().unwrap_or("plain"))
            .map_err(|e| CliError::Usage(format!("--preset: {e}")))?;
        let mut config = preset
            .config(algorithm)
            .map_err(|e| CliError::Usage(format!("--preset: {e}")))?;
        config.iterative_deepening |= self.iterative || iterative;
        if let Some(half_width) = self.aspiration {
            config.aspiration = Some(Aspiration { half_width });
        }
        if let Some(size_mib) = self.tt_mb {
            crate::memory::check_table("--tt", size_mib)?;
            config.transposition_table = Some(TtConfig { size_mib });
        }
        config.static_ordering |= self.static_ordering;
        if self.killers.is_some() || self.killer_index.is_some() {
            let mut killers = config
                .killers
                .unwrap_or_else(|| Killers::new(DEFAULT_KILLER_SLOTS));
            if let Some(slots) = self.killers {
                killers.slots = slots;
            }
            if let Some(index) = self.killer_index {
                killers.index = index;
            }
            config.killers = Some(killers);
        }
        config.staged_killers |= self.staged_killers;
        config.history |= self.history;
        config.refutation |= self.refutation;
        if self.shallow_order.is_some() || self.shallow_depth.is_some() {
            let mut shallow = config.shallow_ordering.unwrap_or_default();
            if let Some(min_depth) = self.shallow_order {
                shallow.min_depth = min_depth;
            }
            if let Some(depth) = self.shallow_depth {
                shallow.depth = depth;
            }
            config.shallow_ordering = Some(shallow);
        }
        config.validate().map_err(|e| {
            let given = self.given();
            let given = if given.is_empty() {
                String::new()
            } else {
                format!(" (given: {})", given.join(", "))
            };
            CliError::Usage(format!("invalid configuration: {e}{given}"))
        })?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::{FailMode, ShallowOrdering};

    fn usage(result: Result<SearchConfig, CliError>) -> String {
        match result {
            Err(CliError::Usage(msg)) => msg,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn switches_add_to_the_preset() {
        let args = ConfigArgs {
            preset: Some("killers".into()),
            killer_index: Some(KillerIndex::Depth),
            history: true,
            ..ConfigArgs::default()
        };
        let config = args.build(Algorithm::NegaScout, false).unwrap();
        assert_eq!(
            config.killers,
            Some(Killers {
                slots: 2,
                index: KillerIndex::Depth
            })
        );
        assert!(config.history && !config.iterative_deepening);
        let args = ConfigArgs {
            shallow_depth: Some(3),
            ..ConfigArgs::default()
        };
        let config = args
            .build(Algorithm::AlphaBeta(FailMode::Soft), true)
            .unwrap();
        assert_eq!(
            config.shallow_ordering,
            Some(ShallowOrdering {
                min_depth: ShallowOrdering::default().min_depth,
                depth: 3
            })
        );
        assert!(config.iterative_deepening);
        assert_eq!(
            ConfigArgs::default()
                .build(Algorithm::Scout, false)
                .unwrap(),
            SearchConfig::new(Algorithm::Scout)
        );
    }

    #[test]
    fn errors_name_the_option() {
        let args = ConfigArgs {
            preset: Some("nope".into()),
            ..ConfigArgs::default()
        };
        let msg = usage(args.build(Algorithm::NegaScout, false));
        assert!(msg.starts_with("--preset: unknown preset 'nope'"), "{msg}");
        let args = ConfigArgs {
            algorithm: Some("minimax".into()),
            history: true,
            ..ConfigArgs::default()
        };
        let msg = usage(args.build(Algorithm::NegaScout, false));
        assert!(
            msg.starts_with("invalid configuration:") && msg.contains("minimax"),
            "{msg}"
        );
        assert!(
            msg.ends_with("(given: --algorithm minimax, --history)"),
            "{msg}"
        );
        assert_eq!(
            args.first_search_option().as_deref(),
            Some("--algorithm minimax")
        );
        assert!(parse_killer_slots("0").is_err() && parse_killer_slots("129").is_err());
        assert_eq!(parse_killer_slots("128"), Ok(128));
    }
}

/// `--threads` and `--parallel`, shared by `prune search` and `prune solve`.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = "Threads")]
pub struct ParallelArgs {
    /// Threads to search with [default: the number of cores]; 1 is the sequential search,
    /// whose node counts are reproducible.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The parallel scheme: ybwc (young brothers wait), lazy-smp (threads share only the
    /// table) or pv-split (split principal-variation nodes only) [default: ybwc].
    #[arg(long, value_name = "SCHEME")]
    pub parallel: Option<String>,
}

impl ParallelArgs {
    /// The threads and scheme (YBWC when `--parallel` is not given).
    pub fn build(&self) -> Result<Parallel, CliError> {
        let threads = match self.threads {
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let kind = match &self.parallel {
            Some(text) => text
                .parse()
                .map_err(|e| CliError::Usage(format!("--parallel: {e}")))?,
            None => ParallelKind::Ybwc,
        };
        Parallel::new(threads, kind).map_err(|e| CliError::Usage(format!("--threads: {e}")))
    }
}
