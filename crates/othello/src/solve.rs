//! Exact endgame solving through the generic search: [`Solver`] runs `prune-search`'s
//! NegaScout with a transposition table and static move ordering ([`EndgameOrdering`]) to
//! the end of the game, so the value is the final disc difference under perfect play.
//!
//! This is the reference solver: every node goes through the same [`Engine`] as any other
//! game, so it is as trustworthy as the generic search and as slow. A specialised node loop
//! belongs elsewhere and is checked against this one.
//!
//! # Depth
//!
//! Passes count as plies, and a pass is never followed by another (two passes in a row end
//! the game), so a game with `e` empty squares ends within `2e` plies. The solver searches to
//! depth `2e + 2`, which the game always ends before: no leaf is ever cut off by depth, and the
//! evaluator's [`Evaluator::evaluate`] is never called below the root.
//!
//! # Win/draw/loss
//!
//! [`SolveWindow::WinDrawLoss`] asks only for the sign of the result: the generic engine
//! searches the root with the window around the draw, `(loss by 1, win by 1)`
//! ([`Engine::search_window`]). A fail high proves a win, a fail low a loss, and a value
//! inside is the draw; on FFO positions of 17 to 20 empties such a solve visits far fewer
//! nodes than an exact one.

use prune_search::{
    Algorithm, ConfigError, Engine, Evaluator, Named, Parallel, Score, SearchConfig, SearchLimits,
    SearchResult, SearchStats, TtConfig, Window,
};
use serde::{Deserialize, Serialize};

use crate::bitboard::{odd_regions, CORNERS};
use crate::board::Board;
use crate::endgame::{EndgameSolver, Isa, SolverError};
use crate::position::Position;
use crate::square::{Move, Square};
use crate::OthelloEval;

/// What a solve finds out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SolveWindow {
    /// The exact final disc difference.
    #[default]
    Exact,
    /// Only whether the side to move wins, draws or loses (usually faster).
    WinDrawLoss,
}

impl Named for SolveWindow {
    const KIND: &'static str = "window";
    const ALL: &'static [Self] = &[SolveWindow::Exact, SolveWindow::WinDrawLoss];

    /// The name used on the command line and in reports: `exact` or `wdl`.
    fn name(self) -> &'static str {
        match self {
            SolveWindow::Exact => "exact",
            SolveWindow::WinDrawLoss => "wdl",
        }
    }

    fn aliases(self) -> &'static [&'static str] {
        match self {
            SolveWindow::Exact => &[],
            SolveWindow::WinDrawLoss => &["win-draw-loss"],
        }
    }
}

/// Which search does the solving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverKind {
    /// The specialised Othello node loop of [`crate::endgame`] (fast; proved against the
    /// generic search by differential tests).
    #[default]
    Fast,
    /// The generic search of `prune-search` (the reference).
    Generic,
}

impl Named for SolverKind {
    const KIND: &'static str = "solver";
    const ALL: &'static [Self] = &[SolverKind::Fast, SolverKind::Generic];

    /// The name used on the command line and in reports: `fast` or `generic`.
    fn name(self) -> &'static str {
        match self {
            SolverKind::Fast => "fast",
            SolverKind::Generic => "generic",
        }
    }
}

prune_search::named!(SolveWindow, SolverKind);

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Exact score or win/draw/loss.
    pub window: SolveWindow,
    /// The transposition table's size in MiB (1 to 65,536).
    pub tt_mib: usize,
    /// The specialised solver or the generic search.
    #[serde(default)]
    pub kind: SolverKind,
    /// The generic search's configuration, instead of [`Solver::config`]'s default (ignored by
    /// the fast solver). Its table size wins over `tt_mib`; a win/draw/loss solve adds its
    /// aspiration window to it.
    #[serde(default)]
    pub search: Option<SearchConfig>,
    /// Threads and parallel scheme (YBWC, PV splitting or Lazy SMP, in the fast solver and in
    /// the generic search: see [`Engine::with_parallel`]).
    #[serde(default)]
    pub parallel: Parallel,
}

impl Default for SolveOptions {
    /// An exact solve with the fast solver and a 64 MiB table.
    fn default() -> Self {
        SolveOptions {
            window: SolveWindow::Exact,
            tt_mib: 64,
            kind: SolverKind::Fast,
            search: None,
            parallel: Parallel::SEQUENTIAL,
        }
    }
}

/// The result of a solve, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveResult {
    /// The window that was solved for.
    pub window: SolveWindow,
    /// [`SolveWindow::Exact`]: the final disc difference under perfect play (empty squares go
    /// to the winner). [`SolveWindow::WinDrawLoss`]: its sign, `+1` (win), `0` (draw) or
    /// `-1` (loss) — exact, not a bound.
    pub score: i32,
    /// A move that reaches `score` ([`Move::PASS`] when the side to move must pass; `None`
    /// when the game is over).
    pub best_move: Option<Move>,
    /// The principal variation from the root, as far as the search recorded it (it may stop
    /// short of the end where the transposition table settled a node).
    pub pv: Vec<Move>,
    /// What the search did.
    pub stats: SearchStats,
}

/// Move ordering for exact endgame search, as an [`Evaluator`] for the generic engine.
///
/// With [`FASTEST_FIRST_EMPTIES`] or more empty squares, moves are sorted fastest-first: the
/// move that leaves the opponent the fewest replies comes first (a move that forces a pass
/// first of all), because the smallest subtrees are the cheapest to refute with; among equals,
/// corners first and X-squares last. With fewer empties, counting replies costs more than it
/// saves, so moves are only sorted by square class, those in a region with an odd number of
/// empties first (parity: the side to move there can hope to have the last move in it).
///
/// [`Evaluator::evaluate`] returns the disc difference as a heuristic value; an exact solve
/// never calls it below the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndgameOrdering;

/// From this many empty squares up, [`EndgameOrdering`] sorts moves fastest-first. (Of the
/// values tried from 3 to 11, 5 gave the fewest nodes and the shortest time on FFO #40 and on
/// a position 17 empties deep.)
pub const FASTEST_FIRST_EMPTIES: u32 = 5;

/// The X-squares b2, g2, b7, g7: they give away the corner next to them.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The most legal moves a position can have is well under this.
const MAX_MOVES: usize = 64;

/// A square's class for ordering: 0 for a corner, 2 for an X-square, 1 otherwise.
#[inline]
fn square_class(bit: u64) -> u32 {
    if bit & CORNERS != 0 {
        0
    } else if bit & X_SQUARES != 0 {
        2
    } else {
        1
    }
}

impl EndgameOrdering {
    /// The sort key of playing `square` on `board` (smaller first).
    #[inline]
    fn key(board: &Board, square: Square, fastest_first: bool, odd: u64) -> u32 {
        let class = square_class(square.bit());
        if fastest_first {
            4 * board.play_unchecked(square).moves().count_ones() + class
        } else {
            4 * u32::from(square.bit() & odd == 0) + class
        }
    }
}

impl Evaluator<Position> for EndgameOrdering {
    fn evaluate(&self, game: &Position) -> Score {
        let board = game.board();
        Score::heuristic(board.player_count() as i32 - board.opponent_count() as i32)
    }

    fn order_moves(&self, game: &Position, moves: &mut [Move]) {
        if moves.len() < 2 || moves.len() > MAX_MOVES {
            return;
        }
        let board = game.board();
        let fastest_first = board.empty_count() >= FASTEST_FIRST_EMPTIES;
        let odd = if fastest_first {
            0
        } else {
            odd_regions(board.empties())
        };
        // Keys carry the original index in their low bits: unique, so the unstable sort is
        // deterministic and keeps the generator's order among equals.
        let mut keyed = [(0u32, Move::PASS); MAX_MOVES];
        for (i, (slot, &mv)) in keyed.iter_mut().zip(moves.iter()).enumerate() {
            // A pass is always the only move, so every move here has a square.
            let key = mv
                .square()
                .map_or(0, |s| Self::key(board, s, fastest_first, odd));
            *slot = ((key << 8) | i as u32, mv);
        }
        let keyed = &mut keyed[..moves.len()];
        keyed.sort_unstable_by_key(|&(key, _)| key);
        for (slot, &(_, mv)) in moves.iter_mut().zip(keyed.iter()) {
            *slot = mv;
        }
    }
}

/// The engine of a solver: the specialised one or the generic one.
enum SolveEngine {
    Fast(Box<EndgameSolver>),
    Generic(Engine<Position>),
}

/// An endgame solver: a configured engine whose transposition table is kept from one solve
/// to the next (every stored value is a game-theoretic one, so it stays valid).
pub struct Solver {
    options: SolveOptions,
    engine: SolveEngine,
}

impl Solver {
    /// A solver with `options`; fails if the table size is out of range.
    pub fn new(options: SolveOptions) -> Result<Solver, ConfigError> {
        let config = Solver::config(&options);
        config.validate()?;
        let engine = match options.kind {
            SolverKind::Fast => SolveEngine::Fast(Box::new(EndgameSolver::with_parallel(
                options.tt_mib,
                options.parallel,
            )?)),
            SolverKind::Generic => {
                SolveEngine::Generic(Engine::with_parallel(config, options.parallel)?)
            }
        };
        Ok(Solver { options, engine })
    }

    /// The search configuration a generic solve with `options` uses: the one given in
    /// `options.search`, or else NegaScout, no iterative deepening, a transposition table and
    /// [`EndgameOrdering`].
    pub fn config(options: &SolveOptions) -> SearchConfig {
        options.search.unwrap_or_else(|| {
            let mut config = SearchConfig::new(Algorithm::NegaScout);
            config.transposition_table = Some(TtConfig {
                size_mib: options.tt_mib,
            });
            config.static_ordering = true;
            config
        })
    }

    /// The evaluation of the fast solver's move-ordering pass (see
    /// [`EndgameSolver::set_eval`]); the generic solver has no such pass and ignores it.
    pub fn set_eval(&mut self, eval: OthelloEval) {
        if let SolveEngine::Fast(solver) = &mut self.engine {
            solver.set_eval(eval);
        }
    }

    /// The instruction set of the fast solver's node functions (see
    /// [`EndgameSolver::set_isa`]); fails if this CPU lacks it. The generic solver ignores it.
    pub fn set_isa(&mut self, isa: Isa) -> Result<(), SolverError> {
        match &mut self.engine {
            SolveEngine::Fast(solver) => solver.set_isa(isa),
            _ => Ok(()),
        }
    }

    /// The instruction set the fast solver runs with (`None` for the generic solver).
    pub fn isa(&self) -> Option<Isa> {
        match &self.engine {
            SolveEngine::Fast(solver) => Some(solver.isa()),
            _ => None,
        }
    }

    /// The options.
    pub fn options(&self) -> &SolveOptions {
        &self.options
    }

    /// Empties the transposition table (to make the next solve's counts independent of
    /// the earlier ones; the results do not depend on it).
    pub fn clear(&mut self) {
        match &mut self.engine {
            SolveEngine::Fast(solver) => solver.clear(),
            SolveEngine::Generic(engine) => engine.clear(),
        }
    }

    /// The depth that reaches the end of every line from a position with `empties` empty
    /// squares (see the [module documentation](self)).
    pub fn depth_for(empties: u32) -> u32 {
        2 * empties + 2
    }

    /// Solves `position`.
    pub fn solve(&mut self, position: &Position) -> SolveResult {
        let limits = SearchLimits::depth(Solver::depth_for(position.empty_count()));
        let window = self.options.window;
        // The depth is at least 2 and no node or time limit is set, so the engine cannot
        // refuse the limits.
        const VALID: &str = "a solve's limits are valid";
        match &mut self.engine {
            SolveEngine::Fast(solver) => {
                let start = std::time::Instant::now();
                let (alpha, beta) = match window {
                    SolveWindow::Exact => (-64, 64),
                    SolveWindow::WinDrawLoss => (-1, 1),
                };
                let r = solver.solve(position.board(), alpha, beta);
                let score = match window {
                    SolveWindow::Exact => r.score,
                    SolveWindow::WinDrawLoss => r.score.signum(),
                };
                SolveResult {
                    window,
                    score,
                    best_move: r.best_move,
                    pv: r.best_move.into_iter().collect(),
                    stats: SearchStats {
                        total: r.counters,
                        per_depth: Vec::new(),
                        time: start.elapsed(),
                    },
                }
            }
            SolveEngine::Generic(engine) => {
                let root = match window {
                    SolveWindow::Exact => Window::FULL,
                    SolveWindow::WinDrawLoss => Window {
                        alpha: Score::LOSS,
                        beta: Score::WIN,
                    },
                };
                let r = engine
                    .search_window(position, &EndgameOrdering, &limits, root)
                    .expect(VALID);
                SolveResult::from_search(window, r)
            }
        }
    }
}

impl SolveResult {
    fn from_search(window: SolveWindow, r: SearchResult<Move>) -> SolveResult {
        // The search reaches the end of every line, so the value is proven and has a margin.
        debug_assert!(r.exhausted, "an exact solve exhausts the game tree");
        let margin = r.score.margin().unwrap_or(0);
        let score = match window {
            SolveWindow::Exact => margin,
            SolveWindow::WinDrawLoss => margin.signum(),
        };
        SolveResult {
            window,
            score,
            best_move: r.best_move,
            pv: r.pv,
            stats: r.stats,
        }
    }
}

/// Solves `position` once with a fresh [`Solver`].
pub fn solve(position: &Position, options: &SolveOptions) -> Result<SolveResult, ConfigError> {
    Ok(Solver::new(*options)?.solve(position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::rng::{Rng, XorShift64};
    use prune_search::Game;

    #[test]
    fn ordering_is_a_permutation_on_many_positions() {
        let mut p = Position::START;
        let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
        while p.outcome().is_none() {
            let mut moves = p.legal_moves();
            EndgameOrdering.order_moves(&p, &mut moves);
            let mut a = moves.clone();
            let mut b = p.legal_moves();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{p}");
            if p.empty_count() >= FASTEST_FIRST_EMPTIES && !moves[0].is_pass() {
                let replies = |m: &Move| Game::play(&p, *m).board().moves().count_ones();
                let fewest = moves.iter().map(replies).min();
                assert_eq!(Some(replies(&moves[0])), fewest, "{p}");
            }
            p = Game::play(&p, moves[rng.below(moves.len() as u64) as usize]);
        }
    }

    #[test]
    fn finished_and_passing_roots() {
        // Black a1 b1, white h8: nobody can move; black wins 62-0 counting empties... as the
        // rules score it.
        let over = Position::from_discs(0b11, 1 << 63, crate::Color::Black).unwrap();
        let r = solve(&over, &SolveOptions::default()).unwrap();
        assert_eq!((r.score, r.best_move), (62, None));
        // Black b1, white a1: black must pass, then white c1 takes b1 and wins 64-0.
        let pass = Position::from_discs(0b10, 0b01, crate::Color::Black).unwrap();
        let r = solve(&pass, &SolveOptions::default()).unwrap();
        assert_eq!((r.score, r.best_move), (-64, Some(Move::PASS)));
        let wdl = SolveOptions {
            window: SolveWindow::WinDrawLoss,
            ..SolveOptions::default()
        };
        assert_eq!(solve(&pass, &wdl).unwrap().score, -1);
        assert_eq!(solve(&over, &wdl).unwrap().score, 1);
    }

    #[test]
    fn bad_table_size_is_an_error() {
        let options = SolveOptions {
            tt_mib: 0,
            ..SolveOptions::default()
        };
        assert!(Solver::new(options).is_err());
    }
}
