//! `SearchConfig`: a search configuration by the command line's names.

use prune_search::mcts::{MctsConfig, Playout};
use prune_search::proof::ProofAlgorithm;
use prune_search::{
    Algorithm, Aspiration, FailMode, KillerIndex, Killers, Preset, SearchConfig, ShallowOrdering,
    TtConfig,
};
use pyo3::prelude::*;

use crate::err;

// ---------------------------------------------------------------------------------------------
// Configurations.

/// A search configuration by the command line's names: `SearchConfig(algorithm="negascout",
/// preset="full", history=True, ...)`; `algorithm="mcts"` is Monte Carlo tree search,
/// `"pns"`, `"dfpn"` and `"dfpn+"` proof-number searches (win, draw or loss).
#[pyclass(module = "prune._prune", name = "SearchConfig", frozen)]
#[derive(Clone)]
pub(crate) struct PySearchConfig {
    pub(crate) plan: Plan,
    pub(crate) threads: usize,
    pub(crate) text: String,
}

#[derive(Clone)]
pub(crate) enum Plan {
    AlphaBeta(SearchConfig),
    Mcts(MctsConfig, Option<u64>),
    /// A proof-number search: win, draw or loss by two proofs.
    Proof(ProofAlgorithm),
}

#[pymethods]
impl PySearchConfig {
    #[new]
    #[pyo3(signature = (
        algorithm=None, preset=None, *, iterative=false, aspiration=None, tt_mb=None,
        static_ordering=false, killers=None, killer_index=None, staged_killers=false,
        history=false, refutation=false, shallow_order=None, shallow_depth=None, threads=1,
        playouts=None, exploration=None, playout_cutoff=None, transpositions=false, seed=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        algorithm: Option<&str>,
        preset: Option<&str>,
        iterative: bool,
        aspiration: Option<i32>,
        tt_mb: Option<usize>,
        static_ordering: bool,
        killers: Option<usize>,
        killer_index: Option<&str>,
        staged_killers: bool,
        history: bool,
        refutation: bool,
        shallow_order: Option<u32>,
        shallow_depth: Option<u32>,
        threads: usize,
        playouts: Option<u64>,
        exploration: Option<f64>,
        playout_cutoff: Option<u32>,
        transpositions: bool,
        seed: Option<u64>,
    ) -> PyResult<Self> {
        if threads == 0 || threads > 1024 {
            return Err(err(format!("threads must be 1 to 1024, got {threads}")));
        }
        let mut given = Vec::new();
        // The options of the alpha-beta family, and of MCTS.
        let alpha_beta = preset.is_some()
            || iterative
            || aspiration.is_some()
            || tt_mb.is_some()
            || static_ordering
            || killers.is_some()
            || killer_index.is_some()
            || staged_killers
            || history
            || refutation
            || shallow_order.is_some()
            || shallow_depth.is_some();
        let mcts = playouts.is_some()
            || exploration.is_some()
            || playout_cutoff.is_some()
            || transpositions
            || seed.is_some();
        if let Some(proof) = algorithm.and_then(ProofAlgorithm::named) {
            if alpha_beta || mcts || threads != 1 {
                return Err(err(format!(
                    "algorithm {proof} (proof-number search) takes no other option: its limit \
                     is search(..., nodes=N)"
                )));
            }
            return Ok(PySearchConfig {
                plan: Plan::Proof(proof),
                threads: 1,
                text: format!("SearchConfig(algorithm='{proof}')"),
            });
        }
        if algorithm.is_some_and(|a| a.trim().eq_ignore_ascii_case("mcts")) {
            if alpha_beta {
                return Err(err(
                    "algorithm mcts takes playouts, exploration, playout_cutoff, transpositions \
                     and seed, not the alpha-beta options",
                ));
            }
            let default = MctsConfig::default();
            let config = MctsConfig {
                exploration: exploration.unwrap_or(default.exploration),
                seed: seed.unwrap_or(default.seed),
                playout: playout_cutoff.map_or(Playout::Random, |plies| Playout::Cutoff { plies }),
                transpositions,
                threads,
                ..default
            };
            config.validate().map_err(|e| err(e.to_string()))?;
            if playouts == Some(0) {
                return Err(err("playouts must be at least 1"));
            }
            return Ok(PySearchConfig {
                plan: Plan::Mcts(config, playouts),
                threads,
                text: format!("SearchConfig(algorithm='mcts', playouts={playouts:?})"),
            });
        }
        if mcts {
            return Err(err(
                "playouts, exploration, playout_cutoff, transpositions and seed are options of \
                 algorithm mcts",
            ));
        }
        let algorithm: Algorithm = match algorithm {
            Some(name) => {
                given.push(format!("algorithm={name}"));
                name.parse().map_err(|e| err(format!("algorithm: {e}")))?
            }
            None => Algorithm::AlphaBeta(FailMode::Soft),
        };
        let preset_name = preset.unwrap_or("plain");
        let found = Preset::find(preset_name).map_err(|e| err(format!("preset: {e}")))?;
        let mut c = found
            .config(algorithm)
            .map_err(|e| err(format!("preset: {e}")))?;
        c.iterative_deepening |= iterative;
        if let Some(half_width) = aspiration {
            c.aspiration = Some(Aspiration { half_width });
        }
        if let Some(size_mib) = tt_mb {
            c.transposition_table = Some(TtConfig { size_mib });
        }
        c.static_ordering |= static_ordering;
        if killers.is_some() || killer_index.is_some() {
            let mut k = c.killers.unwrap_or_else(|| Killers::new(2));
            if let Some(slots) = killers {
                if !(1..=Killers::MAX_SLOTS).contains(&slots) {
                    return Err(err(format!(
                        "killer slots must be 1 to {}, got {slots}",
                        Killers::MAX_SLOTS
                    )));
                }
                k.slots = slots;
            }
            if let Some(index) = killer_index {
                k.index = index
                    .parse::<KillerIndex>()
                    .map_err(|e| err(format!("killer_index: {e}")))?;
            }
            c.killers = Some(k);
        }
        c.staged_killers |= staged_killers;
        c.history |= history;
        c.refutation |= refutation;
        if shallow_order.is_some() || shallow_depth.is_some() {
            let mut s = c.shallow_ordering.unwrap_or_default();
            if let Some(d) = shallow_order {
                s.min_depth = d;
            }
            if let Some(d) = shallow_depth {
                s.depth = d;
            }
            c.shallow_ordering = Some(ShallowOrdering { ..s });
        }
        c.validate()
            .map_err(|e| err(format!("invalid configuration: {e}")))?;
        Ok(PySearchConfig {
            text: format!(
                "SearchConfig(algorithm='{}', preset='{preset_name}', ...)",
                c.algorithm
            ),
            plan: Plan::AlphaBeta(c),
            threads,
        })
    }

    fn __repr__(&self) -> String {
        self.text.clone()
    }
}
