//! [`SearchConfig`]: which algorithm, with which enhancements, as data that can be listed,
//! serialised and checked by [`SearchConfig::validate`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Named;

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
    #[serde(rename = "negascout")]
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

impl Named for Algorithm {
    const KIND: &'static str = "algorithm";
    const ALL: &'static [Self] = &Algorithm::ALL;

    fn name(self) -> &'static str {
        Algorithm::name(self)
    }

    fn aliases(self) -> &'static [&'static str] {
        match self {
            Algorithm::AlphaBeta(FailMode::Soft) => &["alphabeta-soft", "alpha-beta", "negaalpha"],
            Algorithm::NegaScout => &["pvs"],
            Algorithm::MtdF => &["mtd-f", "mtd(f)"],
            _ => &[],
        }
    }
}

crate::named!(Algorithm);

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

/// Which table of killer moves a node reads and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KillerIndex {
    /// One list per ply from the root (the usual scheme).
    #[default]
    Ply,
    /// One list per remaining depth (the scheme of the original killer-slot experiments).
    Depth,
}

impl Named for KillerIndex {
    const KIND: &'static str = "killer index";
    const ALL: &'static [Self] = &[KillerIndex::Ply, KillerIndex::Depth];

    /// The name used on the command line and in reports: `ply` or `depth`.
    fn name(self) -> &'static str {
        match self {
            KillerIndex::Ply => "ply",
            KillerIndex::Depth => "depth",
        }
    }
}

crate::named!(KillerIndex);

/// Killer moves with `slots` slots: a move that caused a beta cutoff goes to the front of its
/// list (dropping the last if it was not there yet), and the killers legal in a position are
/// tried right after the hash move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Killers {
    /// Moves remembered per list, 1 to [`Killers::MAX_SLOTS`].
    pub slots: usize,
    /// Per ply or per remaining depth.
    #[serde(default)]
    pub index: KillerIndex,
}

impl Killers {
    /// The most slots a list may have.
    pub const MAX_SLOTS: usize = 128;

    /// `slots` slots, one list per ply.
    pub fn new(slots: usize) -> Self {
        Killers {
            slots,
            index: KillerIndex::Ply,
        }
    }
}

/// Ordering by a shallow search: at nodes with at least `min_depth` plies left, each move is
/// scored by an alpha-beta search of `depth` plies below it (at most the remaining depth less
/// two, so the ordering search is always shallower than the search it orders; 0 plies is the
/// evaluation of the position after the move) and the moves are searched best score first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShallowOrdering {
    /// The least remaining depth at which moves are ordered this way (default 4).
    pub min_depth: u32,
    /// The depth of the ordering searches, in plies below the move (default 2).
    pub depth: u32,
}

impl Default for ShallowOrdering {
    fn default() -> Self {
        ShallowOrdering {
            min_depth: 4,
            depth: 2,
        }
    }
}

/// A search configuration: the algorithm and the enhancements that drive or help it.
///
/// Move ordering: a node's moves come from a staged picker ([`crate::MovePicker`]): first the
/// move of the line being followed (the previous iteration's principal variation, or a root
/// move's refutation) and the transposition table's move; then, with
/// [`SearchConfig::staged_killers`], the game's tactical moves; then the killers; then the rest,
/// sorted by static knowledge, the history table and a shallow search, each if enabled (a later
/// sort is stable, so the earlier one breaks its ties).
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
    /// Killer moves with a configurable number of slots.
    #[serde(default)]
    pub killers: Option<Killers>,
    /// Two-slot killers per ply in a staged picker, as in shogi engines: tactical moves
    /// ([`Game::is_tactical`](crate::Game::is_tactical)) come before the killers, and only
    /// quiet moves are recorded, on a beta cutoff and on a transposition-table cutoff.
    #[serde(default)]
    pub staged_killers: bool,
    /// The history heuristic: every cutoff (and every best move of a node searched exactly)
    /// adds `2^min(depth, 32)` to its move's score; moves after the killers are tried by
    /// descending score.
    #[serde(default)]
    pub history: bool,
    /// The refutation table: for each root move, the line that refuted it in the last iteration
    /// is tried first in the next (needs iterative deepening).
    #[serde(default)]
    pub refutation: bool,
    /// Ordering by a shallow search.
    #[serde(default)]
    pub shallow_ordering: Option<ShallowOrdering>,
    /// Multi-ProbCut forward pruning (alphabeta, negascout) at the nodes whose evaluator has a
    /// fit ([`Evaluator::probcut`](crate::Evaluator::probcut)); `None`: full width.
    #[serde(default)]
    pub probcut: Option<ProbCut>,
    /// The selective search of chess and shogi engines (null move, late-move reductions,
    /// futility, razoring, ...); all off by default.
    #[serde(default)]
    pub selective: Selective,
}

/// Null-move pruning: at a null-window node whose static evaluation is at least beta, the side
/// to move passes ([`Game::null_move`](crate::Game::null_move)) and the opponent's reply is
/// searched `R = 3 + depth / 4` plies shallower than the moves would be; if the node still
/// fails high, it returns that value without searching its moves. Never twice in a row, never
/// in check, never against a proven beta.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NullMove {
    /// Verification (for games where zugzwang matters): a null move's fail high is accepted
    /// only if a search of the node itself, `R` plies shallower and with null moves off below
    /// it, fails high too.
    #[serde(default)]
    pub verify: bool,
}

/// The selective enhancements of chess and shogi engines, each a switch (the formulas are
/// those of prune's shogi engine). None is exact: each trades some wrong values for fewer
/// nodes. Prunings and reductions act only at nodes searched with a null window (never at the
/// root nor on the principal variation of NegaScout), never when the side to move is in
/// check ([`Game::in_check`](crate::Game::in_check)), never while the search is traced, and
/// never on the first move of a node.
///
/// Margins are in units of the evaluator's
/// [`win_scale`](crate::Evaluator::win_scale) (the value of a 73% chance of winning), times
/// [`Selective::margin_percent`] / 100: the shogi engine's margins in centipawns, read with
/// its scale of 100. So one configuration means the same risk for every evaluation that
/// states its scale honestly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Selective {
    /// Null-move pruning (the game must allow null moves).
    #[serde(default)]
    pub null_move: Option<NullMove>,
    /// Late-move reductions with re-search: quiet moves (not tactical, not from the table or
    /// the killers, not giving check) after the first two quiet ones, at nodes with 3 plies or
    /// more left, are searched `max(1, ln(depth) · ln(index) / 2)` plies shallower, and again
    /// at full depth when they fail high.
    #[serde(default)]
    pub lmr: bool,
    /// Futility pruning at the frontier: with 1 to 3 plies left and the evaluation plus
    /// `(0.5 + 1.5 · depth)` scales below alpha, quiet moves are skipped; and its reverse:
    /// with up to 5 plies left, an evaluation `1.5 · depth` scales above beta is returned at
    /// once.
    #[serde(default)]
    pub futility: bool,
    /// Razoring: with 1 or 2 plies left and the evaluation `5 + 2.5 · depth` scales below
    /// alpha, the node is searched one ply shallower with a null window on alpha, and a value
    /// below alpha is returned.
    #[serde(default)]
    pub razoring: bool,
    /// Internal iterative reduction: a node with 4 plies or more left and no move from the
    /// table is searched one ply shallower (needs a transposition table).
    #[serde(default)]
    pub iir: bool,
    /// Late-move pruning: with up to 6 plies left, quiet moves are skipped once `3 + depth²`
    /// of them have been searched.
    #[serde(default)]
    pub late_move_pruning: bool,
    /// Static-exchange pruning: with up to 5 plies left, tactical moves (not from the table)
    /// that lose material by the game's static exchange evaluation
    /// ([`Game::see`](crate::Game::see)) and do not give check are skipped. The game must have
    /// one.
    #[serde(default)]
    pub see_pruning: bool,
    /// Check extension: a move that gives check is searched one ply deeper (while the ply is
    /// below `2 · depth + 8`, so extensions end). Acts at every node; a game that never reports
    /// check ([`Game::in_check`](crate::Game::in_check)) is never extended.
    #[serde(default)]
    pub check_extension: bool,
    /// The margins of futility and razoring in hundredths of the formulas' (100: as written;
    /// 1 to 10,000).
    #[serde(default = "Selective::default_margin")]
    pub margin_percent: u32,
}

impl Default for Selective {
    /// Everything off, margins as written.
    fn default() -> Self {
        Selective::NONE
    }
}

impl Selective {
    /// Everything off.
    pub const NONE: Selective = Selective {
        null_move: None,
        lmr: false,
        futility: false,
        razoring: false,
        iir: false,
        late_move_pruning: false,
        see_pruning: false,
        check_extension: false,
        margin_percent: 100,
    };

    /// The switches by name (as the lab and the command line call them), in order.
    pub const NAMES: [&'static str; 8] = [
        "null-move",
        "lmr",
        "futility",
        "razoring",
        "iir",
        "late-move-pruning",
        "see-pruning",
        "check-extension",
    ];

    fn default_margin() -> u32 {
        100
    }

    /// Turns on the switch called `name` (one of [`Selective::NAMES`]; `null-move` without
    /// verification); false if there is none of that name.
    pub fn enable(&mut self, name: &str) -> bool {
        match name {
            "null-move" => self.null_move = Some(NullMove::default()),
            "lmr" => self.lmr = true,
            "futility" => self.futility = true,
            "razoring" => self.razoring = true,
            "iir" => self.iir = true,
            "late-move-pruning" => self.late_move_pruning = true,
            "see-pruning" => self.see_pruning = true,
            "check-extension" => self.check_extension = true,
            _ => return false,
        }
        true
    }

    /// The names of the switches turned on, in the order of [`Selective::NAMES`] (null move
    /// with verification is `null-move verified`).
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        match self.null_move {
            Some(NullMove { verify: true }) => out.push("null-move verified"),
            Some(NullMove { verify: false }) => out.push("null-move"),
            None => {}
        }
        for (on, name) in [
            (self.lmr, "lmr"),
            (self.futility, "futility"),
            (self.razoring, "razoring"),
            (self.iir, "iir"),
            (self.late_move_pruning, "late-move-pruning"),
            (self.see_pruning, "see-pruning"),
            (self.check_extension, "check-extension"),
        ] {
            if on {
                out.push(name);
            }
        }
        out
    }

    /// Whether any switch is on.
    pub fn any(&self) -> bool {
        Selective {
            margin_percent: 100,
            ..*self
        } != Selective::NONE
    }

    /// Whether a switch that prunes or reduces (rather than extends) is on: the search is
    /// then not exact by design.
    pub fn prunes(&self) -> bool {
        Selective {
            check_extension: false,
            margin_percent: 100,
            ..*self
        } != Selective::NONE
    }
}

/// Multi-ProbCut's confidence: a node is cut when a shallow search predicts, with a margin of
/// this many deviations of the fitted error, that the deep search would fail outside the
/// window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProbCut {
    /// The margin in tenths of a deviation (20: 2.0 σ).
    pub margin_tenths: u32,
}

impl ProbCut {
    /// The margin in deviations.
    pub fn margin(self) -> f64 {
        f64::from(self.margin_tenths) / 10.0
    }
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
            killers: None,
            staged_killers: false,
            history: false,
            refutation: false,
            shallow_ordering: None,
            probcut: None,
            selective: Selective::NONE,
        }
    }

    /// The names of the enhancements turned on, in a fixed order (for reports).
    pub fn enhancements(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.iterative_deepening {
            out.push("iterative".to_string());
        }
        if let Some(a) = self.aspiration {
            out.push(format!("aspiration {}", a.half_width));
        }
        if let Some(tt) = self.transposition_table {
            out.push(format!("tt {} MiB", tt.size_mib));
        }
        if self.static_ordering {
            out.push("static ordering".to_string());
        }
        if let Some(k) = self.killers {
            out.push(format!("killers {} per {}", k.slots, k.index.name()));
        }
        if self.staged_killers {
            out.push("staged killers".to_string());
        }
        if self.history {
            out.push("history".to_string());
        }
        if self.refutation {
            out.push("refutation".to_string());
        }
        if let Some(s) = self.shallow_ordering {
            out.push(format!("shallow ordering {}@{}", s.depth, s.min_depth));
        }
        if let Some(p) = self.probcut {
            out.push(format!("probcut {:.1} sigma", p.margin()));
        }
        for name in self.selective.names() {
            out.push(name.to_string());
        }
        if self.selective.any() && self.selective.margin_percent != 100 {
            out.push(format!("margins {}%", self.selective.margin_percent));
        }
        out
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
        if let Some(p) = self.probcut {
            if !matches!(algo, Algorithm::AlphaBeta(_) | Algorithm::NegaScout) {
                return Err(ConfigError::Incoherent(format!(
                    "probcut prunes the nodes of alpha-beta or negascout, not {algo}"
                )));
            }
            if p.margin_tenths == 0 {
                return Err(ConfigError::Invalid(
                    "probcut's margin must be positive".into(),
                ));
            }
        }
        self.validate_selective()?;
        self.validate_ordering()
    }

    /// The selective search: it acts at null-window nodes, so it needs an algorithm that
    /// searches with null windows (NegaScout, MTD(f)); internal iterative reduction needs the
    /// table whose move it waits for.
    fn validate_selective(&self) -> Result<(), ConfigError> {
        let algo = self.algorithm;
        let sel = self.selective;
        let Some(first) = sel.names().first().copied() else {
            return Ok(());
        };
        if !matches!(algo, Algorithm::NegaScout | Algorithm::MtdF) {
            return Err(ConfigError::Incoherent(format!(
                "{first} acts at the null-window nodes of negascout or mtdf; {algo} {}",
                match algo {
                    Algorithm::AlphaBeta(_) => "searches with open windows",
                    Algorithm::Scout => "tests with boolean searches outside the windowed node",
                    _ => "searches every move in full (the reference stays exact)",
                }
            )));
        }
        if sel.iir && self.transposition_table.is_none() {
            return Err(ConfigError::Incoherent(
                "internal iterative reduction waits for the table's move: it needs a \
                 transposition table"
                    .into(),
            ));
        }
        if !(1..=10_000).contains(&sel.margin_percent) {
            return Err(ConfigError::Invalid(format!(
                "selective margins must be 1 to 10000 percent, got {}",
                sel.margin_percent
            )));
        }
        Ok(())
    }

    /// The move-ordering enhancements: they learn from cutoffs, so they need an algorithm that
    /// prunes (minimax and negamax search every move whatever the order).
    fn validate_ordering(&self) -> Result<(), ConfigError> {
        let algo = self.algorithm;
        let prunes = !matches!(algo, Algorithm::Minimax | Algorithm::Negamax);
        let mut learned = Vec::new();
        if self.killers.is_some() {
            learned.push("killer moves");
        }
        if self.staged_killers {
            learned.push("staged killers");
        }
        if self.history {
            learned.push("the history heuristic");
        }
        if self.refutation {
            learned.push("the refutation table");
        }
        if self.shallow_ordering.is_some() {
            learned.push("shallow-search ordering");
        }
        if let (false, Some(first)) = (prunes, learned.first()) {
            return Err(ConfigError::Incoherent(format!(
                "{first} only change which moves are pruned; {algo} prunes none"
            )));
        }
        if let Some(k) = self.killers {
            if !(1..=Killers::MAX_SLOTS).contains(&k.slots) {
                return Err(ConfigError::Invalid(format!(
                    "killer slots must be 1 to {}, got {}",
                    Killers::MAX_SLOTS,
                    k.slots
                )));
            }
            if self.staged_killers {
                return Err(ConfigError::Incoherent(
                    "choose N-slot killers or staged two-slot killers, not both".into(),
                ));
            }
        }
        if self.refutation && !self.iterative_deepening {
            return Err(ConfigError::Incoherent(
                "the refutation table keeps lines from the previous iteration: it needs \
                 iterative deepening"
                    .into(),
            ));
        }
        if let Some(s) = self.shallow_ordering {
            if s.min_depth < 2 || s.depth == 0 {
                return Err(ConfigError::Invalid(format!(
                    "shallow ordering needs a minimum depth of at least 2 and a search depth \
                     of at least 1, got {} and {}",
                    s.min_depth, s.depth
                )));
            }
        }
        Ok(())
    }
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A name (of an algorithm, a killer index...) that is not known.
    UnknownName(crate::UnknownName),
    /// A value out of range.
    Invalid(String),
    /// Options that do not go together.
    Incoherent(String),
    /// The transposition table asked for is more memory than the machine can give.
    Memory(crate::TableAllocError),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownName(e) => e.fmt(f),
            ConfigError::Invalid(msg) | ConfigError::Incoherent(msg) => f.write_str(msg),
            ConfigError::Memory(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {}

impl From<crate::UnknownName> for ConfigError {
    fn from(e: crate::UnknownName) -> Self {
        ConfigError::UnknownName(e)
    }
}

impl From<crate::TableAllocError> for ConfigError {
    fn from(e: crate::TableAllocError) -> Self {
        ConfigError::Memory(e)
    }
}

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
