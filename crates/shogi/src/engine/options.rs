//! How the engine searches, as data: [`EngineOptions`] (the presets and their validation),
//! the static evaluation ([`EvalKind`]) and the selective search's switches ([`Selective`]).

use crate::eval::{HandMadeEval, MaterialEval};
use crate::position::Position;

/// How the engine searches. [`EngineOptions::preset`] names the usual sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The transposition table's size in MiB (0: no table).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP: every thread searches the root, sharing the table); at least
    /// one.
    pub threads: usize,
    /// The staged picker (else the plain order; see the module).
    pub staged: bool,
    /// Killer slots per ply (staged picker only; 0: none).
    pub killers: usize,
    /// Quiet moves ordered by the history heuristic (staged picker only).
    pub history: bool,
    /// Continuation history (staged picker only): quiet moves are also ordered by the cutoffs
    /// they made after the same move one and two plies before (the piece and square of each),
    /// as Stockfish's and YaneuraOu's pickers do. Off in every preset: it did not play better
    /// (see docs/shogi.md).
    pub continuation: bool,
    /// A quiescence search over captures at the leaves (else the static evaluation).
    pub quiescence: bool,
    /// The quiescence search's first ply also tries the quiet moves and drops that check
    /// (and do not lose the piece by [`Position::see`]): in shogi most tactics begin with a
    /// check, often by a drop. Off in every preset: at 100 ms a move it did not play better
    /// (45% over 40 games against the same engine without it; see docs/shogi.md).
    pub quiet_checks: bool,
    /// Checking moves that lose nothing by static exchange are searched one ply deeper. Off in
    /// every preset (YaneuraOu has none either): against it, at equal nodes and at 100 ms, the
    /// search played better without (docs/shogi.md).
    pub check_extension: bool,
    /// Every node of the main search not in check that the transposition table knows nothing
    /// of first asks whether the side to move mates at once ([`Position::mate_in_one`]) and if
    /// so returns the mate (as YaneuraOu does). Off in every preset: see docs/shogi.md for the
    /// matches (asked at every node, it halved the nodes per second and played worse).
    pub mate_in_one: bool,
    /// Before the alpha-beta search, the mate solver ([`crate::mate`], df-pn over checks)
    /// looks for a forced mate from the root with at most this many nodes and an eighth of
    /// the time the search may take; a mate found is played at once (0: no such search).
    /// Mates by a long series of checks are where a df-pn beats an alpha-beta search of the
    /// same time. [`ROOT_MATE_NODES`] in every preset but `minimal`: on 60 middle-game positions
    /// of the matches against YaneuraOu it took no time that could be measured.
    pub root_mate_nodes: u64,
    /// The aspiration window's half-width in centipawns from depth 4 (0: full windows).
    pub aspiration: i32,
    /// The static evaluation.
    pub eval: EvalKind,
    /// The selective search: which prunings and reductions are on (see [`Selective`]).
    pub selective: Selective,
}

/// Which static evaluation the engine uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// [`HandMadeEval`]: material and king safety.
    #[default]
    HandMade,
    /// [`MaterialEval`]: material alone (on the board and in hand).
    Material,
}

impl EvalKind {
    /// The evaluations by name (the USI option `Eval`): `hand`, `material`.
    pub const NAMES: [&'static str; 2] = ["hand", "material"];

    /// The evaluation called `name`.
    pub fn from_name(name: &str) -> Option<EvalKind> {
        match name {
            "hand" => Some(EvalKind::HandMade),
            "material" => Some(EvalKind::Material),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::HandMade => "hand",
            EvalKind::Material => "material",
        }
    }

    /// The value of `p` for its side to move, in centipawns.
    pub fn value(self, p: &Position) -> i32 {
        match self {
            EvalKind::HandMade => HandMadeEval.value(p),
            EvalKind::Material => MaterialEval.value(p),
        }
    }
}

/// The selective enhancements of chess and shogi engines, each a switch. None of them is exact:
/// each trades a few wrong values for a deeper search in the same time. They act only at
/// nodes searched with a null window (not on the principal variation) and never when the side
/// to move is in check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selective {
    /// Null-move pruning: when the static evaluation is at least beta, the opponent moves twice
    /// in a row (the side to move passes) in a search `4 + depth / 3` plies shallower, and up
    /// to 3 plies more by how far the evaluation is above beta (one per 200 centipawns); if
    /// that still fails high, so does the node. Never twice in a row. Shogi has no zugzwang worth
    /// the name (a piece in hand can always be dropped), so there is no verification search.
    pub null_move: bool,
    /// Late-move reductions: quiet moves late in the order (after the table's move, the
    /// captures, the killers and two more) that do not give check are searched
    /// `0.68 · ln(depth) · ln(index)` plies shallower with a null window (a ply more off the
    /// principal variation and when the side to move is not improving on its position two
    /// plies before, a ply less at the principal variation and in all a ply less per 8,192 of
    /// history), and again at full depth when they beat alpha.
    pub lmr: bool,
    /// Futility pruning: a quiet move that does not check is skipped when the static
    /// evaluation plus `100 + 150 · d` centipawns cannot reach alpha, where `d` (below 8) is
    /// the depth it would be searched at after its late-move reduction; and its reverse: with
    /// up to 5 plies left, an evaluation that beats beta by 150 centipawns a ply (a ply fewer
    /// when the side to move is improving) returns at once.
    pub futility: bool,
    /// Razoring: with 1 or 2 plies left, an evaluation 500 + 250 · depth centipawns below alpha
    /// asks the quiescence search, and a node it confirms below alpha returns its value.
    pub razoring: bool,
    /// Internal iterative reduction: a node with 4 plies or more left and no move from the
    /// table is searched one ply shallower (its first search fills the table for the next).
    pub iir: bool,
    /// Late-move pruning (move-count and history pruning): quiet moves that do not check are
    /// skipped from the `(3 + depth²) / 2`-th move on (`3 + depth²` when improving), and when
    /// their history is below `-4,000 · depth`.
    pub late_move_pruning: bool,
    /// Static-exchange pruning: with up to 5 plies left, captures whose exchange
    /// ([`Position::see`]) loses more than 150 centipawns a ply and quiet moves that lose more
    /// than `60 · depth²` are skipped (never the first move, never a check).
    pub see_pruning: bool,
    /// Singular extension: at a node 6 plies or more from the leaves whose table move holds a
    /// lower bound from a search at most 3 plies shallower, the other moves are searched at
    /// half the depth against that bound less `2 · depth`; if none reaches it, the table move
    /// is the only good one and is searched a ply deeper. If the bound beats beta even so,
    /// the node fails high at once (multi-cut).
    pub singular: bool,
    /// Cut-node reductions: late-move reductions two plies deeper at the nodes expected to
    /// fail high (the children of a reduced search, every second ply below it), where
    /// alpha-beta needs one refutation and the rest only confirm it.
    pub cut_nodes: bool,
    /// The table's bounds sharpen the static evaluation the pruning decisions read (reverse
    /// futility, razoring, the null move, futility of moves): a stored lower bound above the
    /// evaluation replaces it, as does an upper bound below it (mate scores never do). The
    /// "improving" test keeps the evaluation itself.
    pub table_eval: bool,
}

impl Selective {
    /// Every enhancement on.
    pub const ALL: Selective = Selective {
        null_move: true,
        lmr: true,
        futility: true,
        razoring: true,
        iir: true,
        late_move_pruning: true,
        see_pruning: true,
        singular: true,
        cut_nodes: true,
        table_eval: true,
    };

    /// The `full` preset's switches: all but [`Selective::singular`], which played worse
    /// (docs/shogi.md).
    pub const FULL: Selective = Selective {
        singular: false,
        ..Selective::ALL
    };

    /// The switches by name (as USI options and in the lab), in order.
    pub const NAMES: [&'static str; 10] = [
        "NullMove",
        "LMR",
        "Futility",
        "Razoring",
        "IIR",
        "LateMovePruning",
        "SeePruning",
        "Singular",
        "CutNodes",
        "TableEval",
    ];

    /// The switch called `name` (one of [`Selective::NAMES`]).
    pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "NullMove" => &mut self.null_move,
            "LMR" => &mut self.lmr,
            "Futility" => &mut self.futility,
            "Razoring" => &mut self.razoring,
            "IIR" => &mut self.iir,
            "LateMovePruning" => &mut self.late_move_pruning,
            "SeePruning" => &mut self.see_pruning,
            "Singular" => &mut self.singular,
            "CutNodes" => &mut self.cut_nodes,
            "TableEval" => &mut self.table_eval,
            _ => return None,
        })
    }

    /// The switches the switch called `name` refines, one of which must be on for it to act:
    /// none for the enhancements that stand alone.
    pub fn needs(name: &str) -> &'static [&'static str] {
        match name {
            "CutNodes" => &["LMR"],
            "TableEval" => &["NullMove", "Futility", "Razoring"],
            _ => &[],
        }
    }

    /// The switch called `name` alone, with the first switch it needs ([`Selective::needs`]).
    pub fn alone(name: &str) -> Option<Selective> {
        let mut s = Selective::default();
        *s.switch(name)? = true;
        if let Some(base) = Selective::needs(name).first() {
            *s.switch(base)? = true;
        }
        Some(s)
    }

    /// Every switch but the one called `name`, and but the refinements left with nothing to
    /// refine.
    pub fn all_but(name: &str) -> Option<Selective> {
        let mut s = Selective::ALL;
        *s.switch(name)? = false;
        for other in Selective::NAMES {
            if s.missing(other).is_some() {
                *s.switch(other)? = false;
            }
        }
        Some(s)
    }

    /// Whether the switch called `name` is on (`None`: no such switch).
    pub fn get(mut self, name: &str) -> Option<bool> {
        self.switch(name).map(|on| *on)
    }

    /// For a switch that is on but has none of the switches it needs, what it needs.
    fn missing(self, name: &str) -> Option<&'static [&'static str]> {
        let needs = Selective::needs(name);
        let base = needs.iter().any(|n| self.get(n) == Some(true));
        (self.get(name)? && !needs.is_empty() && !base).then_some(needs)
    }

    /// Refuses a refinement without what it refines ([`Selective::needs`]).
    pub fn validate(self) -> Result<(), String> {
        for name in Selective::NAMES {
            if let Some(needs) = self.missing(name) {
                return Err(format!("{name} needs {}", needs.join(" or ")));
            }
        }
        Ok(())
    }

    /// Whether any enhancement is on.
    pub fn any(self) -> bool {
        self != Selective::default()
    }
}

/// The presets' budget for the root's mate search, in nodes ([`EngineOptions::root_mate_nodes`]).
pub const ROOT_MATE_NODES: u64 = 100_000;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions::preset("full").expect("a preset")
    }
}

impl EngineOptions {
    /// The presets' names.
    pub const PRESETS: [&'static str; 4] = ["full", "exhaustive", "plain", "minimal"];

    /// A preset: `full` (everything above, two killers, the whole selective search),
    /// `exhaustive` (as `full` without the selective search), `plain` (the plain order, no
    /// killers, history or selective search, the rest as `full`), `minimal` (alpha-beta order
    /// only: no table, plain order, no quiescence or extension).
    pub fn preset(name: &str) -> Option<EngineOptions> {
        let full = EngineOptions {
            hash_mb: 16,
            threads: 1,
            staged: true,
            killers: 2,
            history: true,
            continuation: false,
            quiescence: true,
            quiet_checks: false,
            check_extension: false,
            mate_in_one: false,
            root_mate_nodes: ROOT_MATE_NODES,
            aspiration: 60,
            eval: EvalKind::HandMade,
            selective: Selective::FULL,
        };
        Some(match name {
            "full" => full,
            "exhaustive" => EngineOptions {
                selective: Selective::default(),
                ..full
            },
            "plain" => EngineOptions {
                staged: false,
                killers: 0,
                history: false,
                continuation: false,
                selective: Selective::default(),
                ..full
            },
            "minimal" => EngineOptions {
                hash_mb: 0,
                threads: 1,
                staged: false,
                killers: 0,
                history: false,
                continuation: false,
                quiescence: false,
                quiet_checks: false,
                check_extension: false,
                mate_in_one: false,
                root_mate_nodes: 0,
                aspiration: 0,
                eval: EvalKind::HandMade,
                selective: Selective::default(),
            },
            _ => return None,
        })
    }

    /// Refuses incoherent combinations: razoring and checks in the quiescence search need
    /// one; killers live in the staged picker; threads share the table, so more than one needs
    /// one (and none is no search); a refinement of the selective search needs what it
    /// refines ([`Selective::needs`]).
    pub fn validate(&self) -> Result<(), String> {
        if self.threads == 0 {
            return Err("a search needs one thread at least".into());
        }
        if self.threads > 1 && self.hash_mb == 0 {
            return Err("more than one thread needs a transposition table to share".into());
        }
        if self.selective.razoring && !self.quiescence {
            return Err("razoring needs the quiescence search".into());
        }
        if self.quiet_checks && !self.quiescence {
            return Err("checks in the quiescence search need the quiescence search".into());
        }
        if self.killers > 0 && !self.staged {
            return Err("killer moves need the staged picker".into());
        }
        if self.continuation && !self.staged {
            return Err("the continuation history needs the staged picker".into());
        }
        self.selective.validate()
    }
}
