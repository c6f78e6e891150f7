//! `prune search --algorithm pns|dfpn|dfpn+`: proof-number search on any game of the registry — win,
//! draw or loss of the side to move by two proofs (a win, else at least a draw), with a move
//! that keeps the result.

use std::time::{Duration, Instant};

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use prune_registry::{GameChoice, RegisteredGame};
use prune_search::proof::{ProofAlgorithm, ProofTree, Verdict, Wdl};
use prune_search::Evaluator;
use serde_json::json;

use crate::games::{run_on_game, GameVisitor};
use crate::search_cmd::SearchArgs;
use crate::CliError;

/// Nodes a proof may visit (df-pn) or keep (PN) when `--nodes` does not say.
const DEFAULT_NODES: u64 = 2_000_000;

/// Runs `prune search --algorithm pns|dfpn`.
pub fn run(args: &SearchArgs, choice: GameChoice, kind: ProofAlgorithm) -> Result<(), CliError> {
    args.refuse_beside(
        &format!("proof-number search (--algorithm {})", kind.name()),
        [
            args.time_ms.map(|_| "--time-ms (give --nodes)".to_string()),
            args.parallel_args
                .parallel
                .as_ref()
                .map(|_| "--parallel".to_string()),
            args.parallel_args
                .threads
                .filter(|&t| t > 1)
                .map(|_| "--threads".to_string()),
        ],
    )?;
    let nodes = args.nodes.unwrap_or(DEFAULT_NODES);
    let options = args.game_options()?;
    run_on_game(choice, &options, ProofCommand { args, kind, nodes })
}

/// The command once the game is set up.
struct ProofCommand<'a> {
    args: &'a SearchArgs,
    kind: ProofAlgorithm,
    nodes: u64,
}

impl GameVisitor for ProofCommand<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        let start = Instant::now();
        let (kind, nodes) = (self.kind, self.nodes);
        let (r, stats) = kind.solve(&game, &eval, nodes);
        let time = start.elapsed();
        let result = r.wdl.map_or(
            "unknown (the node limit came first: raise --nodes)",
            Wdl::name,
        );
        let best = r.best_move.map(|m| game.move_name(m));
        // The proof that settled the result: the last one run.
        let tree = self.args.proof_tree.map(|plies| {
            match stats
                .last()
                .and_then(|(goal, p)| Some((goal, p, p.tree.as_ref()?)))
            {
                Some((goal, p, tree)) => {
                    let named = name_tree(&game, tree);
                    let what = if p.verdict == Verdict::Proved {
                        "proof"
                    } else {
                        "disproof"
                    };
                    format!(
                        "{what} tree of '{}' ({} positions, {} plies deep; {plies} shown):\n{}",
                        goal.name(),
                        named.len(),
                        named.depth(),
                        named.render(plies)
                    )
                }
                None if r.wdl.is_none() => "no proof tree: the result is unknown".to_string(),
                None => format!(
                    "no proof tree kept: more than {} positions",
                    prune_search::proof::TREE_LIMIT
                ),
            }
        });
        if self.args.json {
            let proofs: Vec<_> = stats
                .iter()
                .map(|(goal, p)| {
                    json!({
                        "goal": goal.name(),
                        "verdict": p.verdict.name(),
                        "pn": p.pn,
                        "dn": p.dn,
                        "expanded": p.expanded,
                        "nodes": p.nodes,
                        "stored": p.stored,
                        "proof_size": p.proof_size,
                    })
                })
                .collect();
            let v = json!({
                "game": self.args.game,
                "algorithm": kind.name(),
                "result": r.wdl.map(Wdl::name),
                "best_move": best,
                "nodes": r.nodes,
                "node_limit": nodes,
                "time_ms": millis(time),
                "proofs": proofs,
                "proof_tree": tree,
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&v).expect("JSON of plain data")
            );
            return Ok(());
        }
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        table.set_header(vec![
            "goal",
            "verdict",
            "pn",
            "dn",
            "expanded",
            "nodes",
            "stored",
            "proof tree",
        ]);
        for (goal, p) in &stats {
            let number = |n: u64| {
                if n >= prune_search::proof::INFINITE {
                    "inf".to_string()
                } else {
                    n.to_string()
                }
            };
            table.add_row(vec![
                goal.name().to_string(),
                p.verdict.name().to_string(),
                number(p.pn),
                number(p.dn),
                p.expanded.to_string(),
                p.nodes.to_string(),
                p.stored.to_string(),
                p.proof_size.map_or("-".to_string(), |n| n.to_string()),
            ]);
        }
        println!(
            "{} by {}: {result} for the side to move{}, {} nodes, {:.3} s",
            self.args.game,
            kind.name(),
            best.map_or(String::new(), |m| format!(" (move {m})")),
            r.nodes,
            time.as_secs_f64()
        );
        println!("{table}");
        if let Some(tree) = tree {
            print!("{tree}");
        }
        Ok(())
    }
}

/// `tree` with its moves named as the game names them (from `game`, its root).
fn name_tree<G: RegisteredGame>(game: &G, tree: &ProofTree<G::Move>) -> ProofTree<String> {
    ProofTree {
        children: tree
            .children
            .iter()
            .map(|(m, t)| (game.move_name(*m), name_tree(&game.play(*m), t)))
            .collect(),
        again: tree.again,
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
