//! The solving part of `mcts-vs-alphabeta`: how many positions MCTS-Solver and alpha-beta
//! each prove within a time budget, random Othello endgames (the exact solver's scores as the
//! truth) and the first positions of Pons's Connect Four test sets (the files' scores).

use std::path::Path;
use std::time::{Duration, Instant};

use prune_connect4::ThreatEval;
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Ordered, OthelloEval, Position, StaticOrdering};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Proof};
use prune_search::{Algorithm, Engine, Evaluator, Game, Preset, Score, SearchLimits};

use super::super::connect4::{load, SETS};
use super::{CONNECT4_PER_SET, CONNECT4_SETS, ENDGAMES_PER_COUNT, ENDGAME_EMPTIES, PRESET};
use crate::runner::run_tasks;
use crate::{Cell, LabError, Progress, Table};

/// What [`solving_power`] found.
pub(super) struct Solving {
    /// A row for each group of positions.
    pub table: Table,
    /// A finding for each group, and one for them all.
    pub findings: Vec<String>,
    /// Each group where a search proved a result the truth contradicts.
    pub problems: Vec<String>,
    /// The names of the Connect Four sets read.
    pub sets: Vec<&'static str>,
}

/// Solves every position with MCTS-Solver and with alpha-beta, `budget` each, on `jobs`
/// threads (the Connect Four sets read from `dir`).
pub(super) fn solving_power(
    dir: &Path,
    budget: Duration,
    jobs: usize,
    progress: &dyn Progress,
) -> Result<Solving, LabError> {
    let mut findings = Vec::new();
    let mut solve_tasks = Vec::new();
    let mut solver = EndgameSolver::new(64);
    let mut exact_time = Duration::ZERO;
    for (position, empties) in othello_endgames() {
        let start = Instant::now();
        let exact = solver.solve(position.board(), -64, 64).score;
        exact_time += start.elapsed();
        let truth = Proof::of(Score::exact(exact));
        for mcts in [true, false] {
            solve_tasks.push(SolveTask::Othello {
                position,
                empties,
                truth,
                mcts,
            });
        }
    }
    let mut c4_sets = Vec::new();
    for key in CONNECT4_SETS {
        let info = SETS.iter().find(|s| s.key == key).expect("a known set");
        let set = load(dir, info, CONNECT4_PER_SET)?;
        c4_sets.push(info.name);
        for record in set.records {
            let Some(score) = record.score else { continue };
            let truth = Proof::of(Score::exact(score));
            for mcts in [true, false] {
                solve_tasks.push(SolveTask::Connect4 {
                    position: record.position,
                    set: info.name,
                    truth,
                    mcts,
                });
            }
        }
    }
    progress.start("solving power", solve_tasks.len() as u64);
    let solved = run_tasks(
        &solve_tasks,
        jobs,
        progress,
        |t| match t {
            SolveTask::Othello { empties, .. } => format!("othello {empties} empties"),
            SolveTask::Connect4 { set, .. } => format!("connect4 {set}"),
        },
        |t| match t {
            SolveTask::Othello {
                position,
                truth,
                mcts,
                ..
            } => {
                let eval = Ordered {
                    eval: OthelloEval::default(),
                    ordering: StaticOrdering::default(),
                };
                solve(position, &eval, *mcts, *truth, budget)
            }
            SolveTask::Connect4 {
                position,
                truth,
                mcts,
                ..
            } => solve(position, &ThreatEval, *mcts, *truth, budget),
        },
    );
    let mut solving = Table::new(
        "mcts-solving",
        &format!(
            "Positions proved within {} s each: MCTS-Solver (random playouts) proves the win, \
             draw or loss; alpha-beta (the `{PRESET}` preset, NegaScout) the exact value",
            budget.as_secs_f64()
        ),
        &[
            "positions",
            "count",
            "MCTS-Solver proved",
            "MCTS-Solver mean s",
            "alpha-beta proved",
            "alpha-beta mean s",
        ],
    );
    let mut problems = Vec::new();
    let mut groups: Vec<String> = ENDGAME_EMPTIES
        .map(|e| format!("Othello, {e} empties"))
        .collect();
    groups.extend(c4_sets.iter().map(|s| format!("Connect Four, {s}")));
    let group_of = |t: &SolveTask| match t {
        SolveTask::Othello { empties, .. } => format!("Othello, {empties} empties"),
        SolveTask::Connect4 { set, .. } => format!("Connect Four, {set}"),
    };
    let is_mcts = |t: &SolveTask| match t {
        SolveTask::Othello { mcts, .. } | SolveTask::Connect4 { mcts, .. } => *mcts,
    };
    let mut totals = [(0usize, 0usize); 2];
    for group in &groups {
        let of = |mcts: bool| -> Vec<&SolveResult> {
            solve_tasks
                .iter()
                .zip(&solved)
                .filter(|(t, _)| &group_of(t) == group && is_mcts(t) == mcts)
                .map(|(_, r)| r)
                .collect()
        };
        let (m, a) = (of(true), of(false));
        let proved = |rs: &[&SolveResult]| rs.iter().filter(|r| r.proved).count();
        let mean = |rs: &[&SolveResult]| {
            rs.iter().map(|r| r.time.as_secs_f64()).sum::<f64>() / rs.len().max(1) as f64
        };
        for (name, rs) in [("MCTS-Solver", &m), ("alpha-beta", &a)] {
            let wrong = rs.iter().filter(|r| !r.correct).count();
            if wrong > 0 {
                problems.push(format!("{group}: {name} proved {wrong} results wrong"));
            }
        }
        totals[0].0 += proved(&m);
        totals[0].1 += m.len();
        totals[1].0 += proved(&a);
        totals[1].1 += a.len();
        solving.push(vec![
            Cell::text(group.clone()),
            Cell::Count(m.len() as u64),
            Cell::Count(proved(&m) as u64),
            Cell::real(mean(&m), 3),
            Cell::Count(proved(&a) as u64),
            Cell::real(mean(&a), 3),
        ]);
        findings.push(format!(
            "Solving {group} within {} s: MCTS-Solver proved {} of {}, alpha-beta {} of {}.",
            budget.as_secs_f64(),
            proved(&m),
            m.len(),
            proved(&a),
            a.len()
        ));
    }
    findings.push(format!(
        "In all, MCTS-Solver proved {} of {} positions and alpha-beta {} of {}; Othello's own \
         exact solver took {:.3} s for all {} endgames together.",
        totals[0].0,
        totals[0].1,
        totals[1].0,
        totals[1].1,
        exact_time.as_secs_f64(),
        ENDGAMES_PER_COUNT * ENDGAME_EMPTIES.count(),
    ));
    Ok(Solving {
        table: solving,
        findings,
        problems,
        sets: c4_sets,
    })
}

/// What a solve attempt found: whether it proved the result, and in what time.
#[derive(Clone, Copy, Debug)]
struct SolveResult {
    proved: bool,
    /// Whether the proof agrees with the truth (true when nothing was proved).
    correct: bool,
    time: Duration,
}

/// MCTS-Solver (`mcts`) or alpha-beta on `game` within the budget, checked against `truth`.
fn solve<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    mcts: bool,
    truth: Proof,
    budget: Duration,
) -> SolveResult {
    let start = Instant::now();
    if mcts {
        let mut search = Mcts::new(MctsConfig::default()).expect("a valid configuration");
        let r = search.search(game, eval, &MctsLimits::time(budget), None);
        return SolveResult {
            proved: r.proof.is_some(),
            correct: r.proof.is_none_or(|p| p == truth),
            time: start.elapsed(),
        };
    }
    let config = Preset::find(PRESET)
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the preset exists");
    let limits = SearchLimits {
        depth: Some(SearchLimits::MAX_DEPTH),
        nodes: None,
        time: Some(budget),
    };
    let r = Engine::new(config)
        .expect("a valid preset")
        .search(game, eval, &limits)
        .expect("the limits have a depth");
    let proved = r.exhausted && !r.interrupted;
    SolveResult {
        proved,
        correct: !proved || Proof::of(r.score) == truth,
        time: start.elapsed(),
    }
}

/// A position to solve, with the truth.
#[derive(Clone, Debug)]
enum SolveTask {
    Othello {
        position: Position,
        empties: u32,
        truth: Proof,
        mcts: bool,
    },
    Connect4 {
        position: prune_connect4::Position,
        set: &'static str,
        truth: Proof,
        mcts: bool,
    },
}

/// Random Othello endgames: ENDGAMES_PER_COUNT positions for each count of ENDGAME_EMPTIES.
fn othello_endgames() -> Vec<(Position, u32)> {
    super::super::random_endgames(0x6d63_7473, ENDGAME_EMPTIES, ENDGAMES_PER_COUNT)
}
