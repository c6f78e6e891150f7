//! `proof-number`: the three families of solving search side by side on the same positions,
//! each within the same node budget: best-first PN search, df-pn, df-pn+ (initial numbers from
//! the evaluation), alpha-beta (the `full` preset searched to the end in the win/draw/loss
//! window (-1, 1): a search that finishes proves the result) and MCTS-Solver. The proof-number searches settle win, draw or loss
//! by two proofs ([`solve_wdl`]); MCTS-Solver proves one of the three; every result is checked
//! against the truth (a plain search to the end for tic-tac-toe, the test sets' scores for
//! Connect Four, the exact solver for Othello). A proof that contradicts the truth is a problem
//! of the report.
//!
//! Tsume-shogi has its own row: the mate solver (df-pn over checks and evasions) against the
//! generic df-pn over every move, on sugyan's mates in 3 to 7 (`../shared/data/tsume/`), each
//! asked only whether the side to move mates.

use std::time::{Duration, Instant};

use prune_connect4::ThreatEval;
use prune_games::{LineEval, TicTacToe};
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Ordered, OthelloEval, Position, StaticOrdering};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Proof};
use prune_search::proof::{
    dfpn, dfpn_guided, pn_search, solve_wdl, DfpnConfig, Goal, Verdict, Wdl,
};
use prune_search::{Algorithm, Engine, Evaluator, Game, Preset, Score, SearchLimits, Window};

use super::connect4::{data_dir, load, SETS};
use super::jobs_setting;
use crate::runner::run_tasks;
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series, Table, XAxis};

/// The defaults, in words.
pub(super) const DEFAULTS: &str = "1,000,000 nodes per solve (MCTS-Solver: a twentieth as \
                                   playouts); the 72 tic-tac-toe positions two plies in, the \
                                   first 20 positions of Pons's End-Easy and Middle-Easy sets, \
                                   12 random Othello endgames of 10 and of 12 empties, sugyan's \
                                   35 tsume of 3 to 7 plies";

/// The node budget of a solve unless `--node-limit` says.
const DEFAULT_BUDGET: u64 = 1_000_000;
/// MCTS-Solver's playouts: the node budget divided by this (a playout visits many nodes).
const PLAYOUT_NODES: u64 = 20;
/// Connect Four sets and positions of each.
const CONNECT4_SETS: [&str; 2] = ["end-easy", "middle-easy"];
/// See [`CONNECT4_SETS`].
const CONNECT4_PER_SET: usize = 20;
/// Othello endgames: empties and positions of each.
const OTHELLO_EMPTIES: [u32; 2] = [10, 12];
/// See [`OTHELLO_EMPTIES`].
const OTHELLO_PER_COUNT: usize = 12;

/// The solvers compared.
const SOLVERS: [&str; 5] = ["PN", "df-pn", "df-pn+", "alpha-beta", "MCTS-Solver"];

/// One solve's outcome.
#[derive(Clone, Copy, Debug)]
struct Solved {
    /// What it proved (`None`: the budget ran out first).
    proof: Option<Proof>,
    nodes: u64,
    /// Positions it kept (a tree's nodes, a table's entries; alpha-beta: not counted).
    stored: Option<u64>,
    time: Duration,
}

/// A position to solve with its truth.
#[derive(Clone, Debug)]
enum Task {
    TicTacToe(TicTacToe, Proof),
    Connect4(prune_connect4::Position, &'static str, Proof),
    Othello(Position, u32, Proof),
    Tsume(Box<prune_shogi::Position>),
}

impl Task {
    fn group(&self) -> String {
        match self {
            Task::TicTacToe(..) => "tic-tac-toe, 2 plies in".to_string(),
            Task::Connect4(_, set, _) => format!("Connect Four, {set}"),
            Task::Othello(_, empties, _) => format!("Othello, {empties} empties"),
            Task::Tsume(..) => "tsume (sugyan, 3-7 plies)".to_string(),
        }
    }
}

fn wdl_proof(w: Wdl) -> Proof {
    match w {
        Wdl::Win => Proof::Win,
        Wdl::Draw => Proof::Draw,
        Wdl::Loss => Proof::Loss,
    }
}

/// Every solver on `game`, each within `budget` nodes.
fn solve_all<G: Game, E: Evaluator<G>>(game: &G, eval: &E, budget: u64) -> Vec<Solved> {
    let mut out = Vec::new();
    let config = DfpnConfig {
        max_nodes: budget,
        ..DfpnConfig::default()
    };
    for solver in 0..3 {
        let start = Instant::now();
        let mut stored = 0u64;
        let mut search = |g: &G, goal: Goal| {
            let r = match solver {
                0 => pn_search(g, goal, usize::try_from(budget).unwrap_or(usize::MAX)),
                1 => dfpn(g, goal, &config),
                _ => dfpn_guided(g, goal, eval, &config),
            };
            stored = stored.max(r.stored as u64);
            r
        };
        let r = solve_wdl(game, &mut search);
        out.push(Solved {
            proof: r.wdl.map(wdl_proof),
            nodes: r.nodes,
            stored: Some(stored),
            time: start.elapsed(),
        });
    }
    let start = Instant::now();
    let config = Preset::find("full")
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the preset exists");
    let limits = SearchLimits {
        depth: Some(SearchLimits::MAX_DEPTH),
        nodes: Some(budget),
        time: None,
    };
    // The win/draw/loss window: a value above it proves a win, below it a loss, inside a draw.
    let wdl = Window::new(Score::from_raw(-1), Score::from_raw(1)).expect("a window");
    let r = Engine::new(config)
        .expect("a valid preset")
        .search_window(game, eval, &limits, wdl)
        .expect("the limits have a depth");
    out.push(Solved {
        proof: (r.exhausted && !r.interrupted).then(|| Proof::of(r.score)),
        nodes: r.stats.total.nodes,
        stored: None,
        time: start.elapsed(),
    });
    let start = Instant::now();
    let mut mcts = Mcts::new(MctsConfig::default()).expect("a valid configuration");
    let r = mcts.search(
        game,
        eval,
        &MctsLimits::playouts((budget / PLAYOUT_NODES).max(1)),
        None,
    );
    out.push(Solved {
        proof: r.proof,
        nodes: r.playouts,
        stored: Some(r.tree_size as u64),
        time: start.elapsed(),
    });
    out
}

/// The tsume row: the mate solver and the generic df-pn, asked whether the side to move
/// mates, within `budget` nodes (the mate solver's expanded positions, df-pn's visited ones).
fn solve_tsume(position: &prune_shogi::Position, budget: u64) -> Vec<Solved> {
    let start = Instant::now();
    let config = prune_shogi::mate::MateConfig {
        max_nodes: budget,
        shortest: false,
        ..prune_shogi::mate::MateConfig::default()
    };
    let mate = prune_shogi::mate::solve_mate(position, &config, None);
    let (proof, nodes, stored) = match mate {
        Ok(r) => (
            (r.outcome == prune_shogi::mate::MateOutcome::Mate).then_some(Proof::Win),
            r.nodes,
            r.entries as u64,
        ),
        Err(_) => (None, 0, 0),
    };
    let first = Solved {
        proof,
        nodes,
        stored: Some(stored),
        time: start.elapsed(),
    };
    let start = Instant::now();
    let dfpn_config = DfpnConfig {
        max_nodes: budget,
        ..DfpnConfig::default()
    };
    let r = dfpn(position, Goal::Win, &dfpn_config);
    let second = Solved {
        proof: (r.verdict == Verdict::Proved).then_some(Proof::Win),
        nodes: r.nodes,
        stored: Some(r.stored as u64),
        time: start.elapsed(),
    };
    vec![first, second]
}

/// Random Othello endgames: OTHELLO_PER_COUNT positions for each count of OTHELLO_EMPTIES.
fn othello_endgames() -> Vec<(Position, u32)> {
    super::random_endgames(0x7072_6f6f, OTHELLO_EMPTIES, OTHELLO_PER_COUNT)
}

/// sugyan's mates of 3 to 7 plies from the tsume suite beside the repository.
fn tsume(options: &LabOptions) -> Result<Vec<prune_shogi::Position>, LabError> {
    // Beside the Connect Four sets (`--data`'s sibling `tsume`), or found as they are.
    let beside = options
        .data
        .as_ref()
        .and_then(|d| d.parent())
        .map(|p| p.join("tsume"))
        .filter(|d| d.is_dir());
    let found = || -> Option<std::path::PathBuf> {
        let relative = std::path::Path::new("..")
            .join("shared")
            .join("data")
            .join("tsume");
        let cwd = std::env::current_dir().ok()?;
        cwd.ancestors()
            .map(|a| a.join(&relative))
            .find(|d| d.is_dir())
    };
    let dir = beside.or_else(found).ok_or_else(|| {
        LabError::Usage(
            "tsume: no folder ../shared/data/tsume here or above, nor beside --data".into(),
        )
    })?;
    let path = dir.join("sugyan.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| LabError::io(&path, e))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(id), Some(sfen), Some(plies)) = (f.first(), f.get(1), f.get(2)) else {
            continue;
        };
        let plies: u32 = plies.parse().unwrap_or(0);
        if !id.starts_with("solve_mates") || !(3..=7).contains(&plies) {
            continue;
        }
        let position = sfen
            .parse()
            .map_err(|e| LabError::Usage(format!("{}: {id}: {e}", path.display())))?;
        out.push(position);
    }
    Ok(out)
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let budget = options.node_limit.flatten().unwrap_or(DEFAULT_BUDGET);
    let mut tasks = Vec::new();
    // Tic-tac-toe two plies in, the truth by a plain search to the end.
    let root = TicTacToe::default();
    for a in root.legal_moves() {
        let after = root.play(a);
        for b in after.legal_moves() {
            let p = after.play(b);
            let config = Preset::find("plain")
                .and_then(|p| p.config(Algorithm::Negamax))
                .expect("the preset exists");
            let limits = SearchLimits {
                depth: Some(SearchLimits::MAX_DEPTH),
                nodes: None,
                time: None,
            };
            let r = Engine::new(config)
                .expect("a valid preset")
                .search(&p, &LineEval, &limits)
                .expect("the limits have a depth");
            tasks.push(Task::TicTacToe(p, Proof::of(r.score)));
        }
    }
    let dir = data_dir(options)?;
    for key in CONNECT4_SETS {
        let info = SETS.iter().find(|s| s.key == key).expect("a known set");
        let set = load(&dir, info, CONNECT4_PER_SET)?;
        for record in set.records {
            if let Some(score) = record.score {
                tasks.push(Task::Connect4(
                    record.position,
                    info.name,
                    Proof::of(Score::exact(score)),
                ));
            }
        }
    }
    let mut solver = EndgameSolver::new(64);
    for (position, empties) in othello_endgames() {
        let exact = solver.solve(position.board(), -64, 64).score;
        tasks.push(Task::Othello(
            position,
            empties,
            Proof::of(Score::exact(exact)),
        ));
    }
    for position in tsume(options)? {
        tasks.push(Task::Tsume(Box::new(position)));
    }
    progress.start("solves", tasks.len() as u64);
    let results = run_tasks(&tasks, options.jobs(), progress, Task::group, |t| match t {
        Task::TicTacToe(p, _) => solve_all(p, &LineEval, budget),
        Task::Connect4(p, _, _) => solve_all(p, &ThreatEval, budget),
        Task::Othello(p, _, _) => {
            let eval = Ordered {
                eval: OthelloEval::default(),
                ordering: StaticOrdering::default(),
            };
            solve_all(p, &eval, budget)
        }
        Task::Tsume(p) => solve_tsume(p, budget),
    });

    let mut table = Table::new(
        "proof-number-solving",
        &format!(
            "Positions solved within {budget} nodes each (MCTS-Solver: {} playouts), mean time \
             and nodes over all positions of the row, the most positions kept at once",
            budget / PLAYOUT_NODES
        ),
        &[
            "positions",
            "count",
            "solver",
            "solved",
            "mean s",
            "mean nodes (MCTS: playouts)",
            "most kept",
        ],
    );
    let mut problems = Vec::new();
    let mut findings = Vec::new();
    // The plot: each generic solver's mean nodes per group (tsume apart).
    let mut points: Vec<Vec<(f64, f64)>> = vec![Vec::new(); SOLVERS.len()];
    let mut categories = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for t in &tasks {
        if !groups.contains(&t.group()) {
            groups.push(t.group());
        }
    }
    for group in &groups {
        let rows: Vec<(&Task, &Vec<Solved>)> = tasks
            .iter()
            .zip(&results)
            .filter(|(t, _)| &t.group() == group)
            .collect();
        let tsume = matches!(rows[0].0, Task::Tsume(..));
        let names: &[&str] = if tsume {
            &["mate solver", "generic df-pn"]
        } else {
            &SOLVERS
        };
        let mut solved_by = Vec::new();
        if !tsume {
            categories.push(group.clone());
        }
        for (i, name) in names.iter().enumerate() {
            let mut solved = 0;
            let (mut time, mut nodes, mut kept) = (0.0, 0u64, None::<u64>);
            for (task, r) in &rows {
                let s = r[i];
                time += s.time.as_secs_f64();
                nodes += s.nodes;
                if let Some(k) = s.stored {
                    kept = Some(kept.unwrap_or(0).max(k));
                }
                let truth = match task {
                    Task::TicTacToe(_, t) | Task::Connect4(_, _, t) | Task::Othello(_, _, t) => {
                        Some(*t)
                    }
                    Task::Tsume(..) => Some(Proof::Win),
                };
                if let Some(p) = s.proof {
                    solved += 1;
                    if Some(p) != truth {
                        problems.push(format!(
                            "{group}: {name} proved {p:?}, the truth is {truth:?}"
                        ));
                    }
                }
            }
            let n = rows.len() as f64;
            if !tsume {
                points[i].push(((categories.len() - 1) as f64, nodes as f64 / n));
            }
            table.push(vec![
                Cell::text(group.clone()),
                Cell::Count(rows.len() as u64),
                Cell::text(*name),
                Cell::Count(solved),
                Cell::real(time / n, 4),
                Cell::real(nodes as f64 / n, 0),
                kept.map_or(Cell::Empty, Cell::Count),
            ]);
            solved_by.push(format!("{name} {solved}"));
        }
        findings.push(format!(
            "{group} ({} positions), solved within the budget: {}.",
            rows.len(),
            solved_by.join(", ")
        ));
    }
    Ok(Report {
        experiment: "proof-number".into(),
        files: Vec::new(),
        title: "Proof-number search against alpha-beta and MCTS-Solver".into(),
        reproduces: "The third family of game-tree search (Allis, van der Meulen and van den \
                     Herik 1994; Nagai's df-pn, 2002) beside alpha-beta and MCTS-Solver: how \
                     many positions each proves within the same node budget, and at what cost; \
                     tsume-shogi by the mate solver against the generic df-pn."
            .into(),
        problems,
        settings: vec![
            ("node budget".into(), budget.to_string()),
            (
                "positions".into(),
                format!(
                    "tic-tac-toe 2 plies in (72); Connect Four {} (first {CONNECT4_PER_SET} \
                     each); Othello random endgames of {:?} empties ({OTHELLO_PER_COUNT} each); \
                     sugyan's tsume of 3-7 plies",
                    CONNECT4_SETS.join(", "),
                    OTHELLO_EMPTIES
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![table],
        plots: vec![Plot {
            name: "proof-number-nodes".into(),
            title: "Mean nodes per position by solver (MCTS-Solver: playouts), log scale".into(),
            x_label: "positions".into(),
            y_label: "mean nodes".into(),
            x_axis: XAxis::Categories(categories),
            log_y: true,
            series: SOLVERS
                .iter()
                .zip(points)
                .map(|(name, p)| Series::new(*name, p))
                .collect(),
            legend: Legend::UpperLeft,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;

    /// A quick run: nothing proved against the truth, a row for each solver of each group.
    #[test]
    fn a_quick_run_proves_nothing_false() {
        let options = LabOptions {
            node_limit: Some(Some(20_000)),
            ..LabOptions::default()
        };
        let report = run(&options, &NoProgress).unwrap();
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        let table = report.table("proof-number-solving").unwrap();
        assert_eq!(table.rows.len(), 5 * 5 + 2);
        // Every tic-tac-toe position is proved by the proof-number searches and alpha-beta
        // within 20,000 nodes.
        for row in &table.rows[..4] {
            assert_eq!(row[3], Cell::Count(72), "{row:?}");
        }
    }
}
