//! Criterion benchmarks of the endgame solver: its leaf search ([`solve_small_with`]) on
//! positions with 4 and 6 empty squares, and full exact solves ([`EndgameSolver::solve`]) with
//! 14 empties, each set derived from FFO #40 to #59; each once per instruction set this CPU
//! has (`portable`, `x86-64-v3`, `x86-64-v4`).
//!
//! `cargo bench -p prune-othello --bench endgame` (add `-- --quick` for a short run).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use prune_othello::endgame::{solve_small_with, EndgameSolver, Isa};
use prune_othello::{builtin_suite, squares, Move, Position};
use prune_search::Named;

/// The endgame solver's table for the full solves, in MiB: small, so that clearing it before
/// each solve costs little next to the solve.
const TT_MIB: usize = 4;

/// FFO #40 to #59 played on until `empties` squares are left, always by the first legal move
/// in square order (a1, b1, .., h8), passing when the side to move has none; a game that ends
/// before is left out. The same positions every run.
fn positions_with(empties: u32) -> Vec<Position> {
    builtin_suite("ffo-40-59")
        .expect("the built-in suite")
        .into_iter()
        .filter_map(|problem| {
            let mut position = problem.entry.position;
            while position.empty_count() > empties {
                if position.is_game_over() {
                    return None;
                }
                let mv = squares(position.board().moves())
                    .next()
                    .map_or(Move::PASS, Move::from_square);
                position = position.play(mv).expect("a legal move or a forced pass");
            }
            (!position.is_game_over()).then_some(position)
        })
        .collect()
}

/// The instruction sets this CPU runs.
fn isas() -> Vec<Isa> {
    Isa::ALL
        .iter()
        .copied()
        .filter(|isa| isa.is_available())
        .collect()
}

fn bench_leaf_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_small");
    for empties in [4, 6] {
        let positions = positions_with(empties);
        assert!(positions.len() >= 10, "{} positions", positions.len());
        group.throughput(Throughput::Elements(positions.len() as u64));
        for isa in isas() {
            group.bench_function(format!("{empties}_empties/{isa}"), |b| {
                b.iter(|| {
                    let mut acc = 0i32;
                    for p in &positions {
                        acc += solve_small_with(isa, black_box(p.board()), -64, 64).0;
                    }
                    acc
                })
            });
        }
    }
    group.finish();
}

fn bench_full_solve(c: &mut Criterion) {
    let positions = positions_with(14);
    let mut group = c.benchmark_group("endgame_solver");
    group.sample_size(20);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for isa in isas() {
        let mut solver = EndgameSolver::new(TT_MIB);
        solver.set_isa(isa).expect("an available instruction set");
        group.bench_function(format!("14_empties/{isa}"), |b| {
            b.iter(|| {
                let mut acc = 0i32;
                for p in &positions {
                    // Each solve starts from an empty table, as the first solve of a position
                    // does.
                    solver.clear();
                    acc += solver.solve(black_box(p.board()), -64, 64).score;
                }
                acc
            })
        });
    }
    group.finish();
}

/// The benchmark group: in a private module, because the function criterion's macro defines
/// is public and cannot carry documentation.
mod group {
    use super::*;
    criterion_group!(benches, bench_leaf_search, bench_full_solve);
}

criterion_main!(group::benches);
