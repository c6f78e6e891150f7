//! The solver's steps: each adds one enhancement to every step before it, so a step is also a
//! set of features, passed to the node loop as a const generic (each step's loop is compiled
//! on its own, the other steps' code removed). The list below is the only place the steps are
//! named.

use prune_search::Named;

/// A node loop compiled for one step: `run::<F>` with `F` the step's feature bits.
pub(super) trait WithFeatures {
    /// What the run returns.
    type Output;
    /// Runs with the features `F`.
    fn run<const F: u32>(self) -> Self::Output;
}

macro_rules! steps {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $description:literal; )*) => {
        /// One step of the solver's progression, with every step before it (Pons's tutorial
        /// order, then ours).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Step {
            $( $(#[$doc])* $variant, )*
        }

        impl Step {
            /// Every step, in order.
            pub const ALL: [Step; [$($name),*].len()] = [$(Step::$variant),*];

            /// What the step adds, in a few words.
            pub const fn description(self) -> &'static str {
                match self {
                    $(Step::$variant => $description,)*
                }
            }

            /// Runs `run` compiled for this step's features.
            pub(super) fn dispatch<W: WithFeatures>(self, run: W) -> W::Output {
                match self {
                    $(Step::$variant => run.run::<{ Step::$variant.features() }>(),)*
                }
            }
        }

        impl Named for Step {
            const KIND: &'static str = "step";
            const ALL: &'static [Step] = &Step::ALL;
            fn name(self) -> &'static str {
                match self {
                    $(Step::$variant => $name,)*
                }
            }
        }
    };
}

steps! {
    /// Plain negamax: every move searched to the end, a win in one move seen at once.
    Negamax => "negamax", "plain negamax";
    /// Alpha-beta, the window clipped by the best and worst scores the moves left allow.
    AlphaBeta => "alphabeta", "+ alpha-beta, score bounded by the moves left";
    /// Columns tried from the centre outwards.
    CentreFirst => "centre", "+ centre columns first";
    /// A transposition table of upper and lower bounds.
    Table => "table", "+ transposition table of bounds";
    /// The score found by null-window searches that narrow its range (a binary search).
    NullWindow => "null-window", "+ iterative null-window search";
    /// Moves that let the opponent win at once never searched; a forced block played alone.
    NonLosing => "non-losing", "+ losing moves pruned";
    /// Moves that make the most threats (cells that would complete four) tried first.
    Threats => "threats", "+ threat ordering";
    /// The column that last refuted a window at the position, kept in the table, tried first
    /// (not in Pons's solver).
    TableMove => "table-move", "+ table's best move first";
    /// The table slots of a node's children fetched into the cache before they are searched
    /// (the same search, in less time).
    Prefetch => "prefetch", "+ children's table slots prefetched";
    /// Positions with at least 22 stones kept in the table's small part, which stays in the
    /// cache ([`Table`](crate::Table)).
    NearTable => "near-table", "+ deep positions in a cache-sized table";
    /// Enhanced transposition cutoff: a child whose table entry already refutes the window
    /// ends the node before any child is searched.
    Etc => "etc", "+ enhanced transposition cutoff";
    /// A position and its mirror image share their table entry (not in Pons's final solver).
    /// Measured not to pay: computing the mirror costs more than the nodes it saves, so the
    /// solver stops before it ([`Step::BEST`]).
    Mirror => "mirror", "+ mirror positions share an entry";
}

prune_search::named!(Step);

impl Step {
    /// The solver `prune solve` runs: the fastest step measured.
    pub const BEST: Step = Step::NearTable;

    /// The feature this step adds (none for plain negamax).
    const fn bit(self) -> u32 {
        (1 << self as u32) >> 1
    }

    /// The feature bits of this step and every earlier one.
    pub const fn features(self) -> u32 {
        (1 << self as u32) - 1
    }
}

/// The feature bits the node loop tests, one per step after plain negamax.
pub(super) mod feature {
    use super::Step;

    pub const ALPHA_BETA: u32 = Step::AlphaBeta.bit();
    pub const CENTRE_FIRST: u32 = Step::CentreFirst.bit();
    pub const TABLE: u32 = Step::Table.bit();
    pub const NULL_WINDOW: u32 = Step::NullWindow.bit();
    pub const NON_LOSING: u32 = Step::NonLosing.bit();
    pub const THREATS: u32 = Step::Threats.bit();
    pub const TABLE_MOVE: u32 = Step::TableMove.bit();
    pub const PREFETCH: u32 = Step::Prefetch.bit();
    pub const NEAR_TABLE: u32 = Step::NearTable.bit();
    pub const ETC: u32 = Step::Etc.bit();
    pub const MIRROR: u32 = Step::Mirror.bit();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_accumulate_and_name_themselves() {
        assert_eq!(Step::Negamax.features(), 0);
        assert_eq!(Step::AlphaBeta.features(), feature::ALPHA_BETA);
        assert_eq!(
            Step::Mirror.features().count_ones(),
            Step::ALL.len() as u32 - 1
        );
        for (i, step) in Step::ALL.into_iter().enumerate() {
            assert_eq!(step as usize, i);
            assert_eq!(step.name().parse::<Step>().unwrap(), step);
            assert_eq!(step.features() & step.bit(), step.bit());
            assert!(i == 0 || step.features() > Step::ALL[i - 1].features());
        }
    }
}
