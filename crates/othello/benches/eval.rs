//! Criterion benchmarks of the evaluations: the hand-made [`HandEval`] and the trained
//! [`PatternEval`] (built-in weights) on the boards of FFO #40 to #59 and of every position one
//! move later, reported per call.
//!
//! `cargo bench -p prune-othello --bench eval` (add `-- --quick` for a short run).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use prune_othello::{builtin_suite, squares, Board, HandEval, Move, PatternEval};

/// The FFO #40-#59 boards and the boards after each of their legal moves.
fn boards() -> Vec<Board> {
    let mut boards = Vec::new();
    for problem in builtin_suite("ffo-40-59").expect("the built-in suite") {
        let position = problem.entry.position;
        boards.push(*position.board());
        for square in squares(position.board().moves()) {
            let next = position.play(Move::from_square(square)).expect("legal");
            boards.push(*next.board());
        }
    }
    boards
}

fn bench_eval(c: &mut Criterion) {
    let boards = boards();
    let pattern = PatternEval::builtin();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("hand", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| HandEval.evaluate_board(black_box(board)))
                .fold(0i32, i32::wrapping_add)
        })
    });
    group.bench_function("pattern", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| pattern.evaluate_board(black_box(board)))
                .fold(0i32, i32::wrapping_add)
        })
    });
    group.finish();

    // The midgame search's case: a leaf reached by a move from its parent. From scratch, the
    // child's board is evaluated; incrementally, the parent's pattern state is moved on by the
    // move and read.
    let parents: Vec<(Board, u64, u64)> = boards
        .iter()
        .map(|b| (*b, b.player(), b.opponent()))
        .collect();
    let children: Vec<(Board, u32, u64)> = parents
        .iter()
        .flat_map(|&(b, _, _)| {
            squares(b.moves()).map(move |s| (b, u32::from(s.index()), b.flips(s)))
        })
        .collect();
    let states: Vec<_> = children
        .iter()
        .map(|(b, _, _)| pattern.state(b.player(), b.opponent()))
        .collect();
    let mut leaves = c.benchmark_group("leaf");
    leaves.throughput(Throughput::Elements(children.len() as u64));
    leaves.bench_function("pattern from scratch", |bench| {
        bench.iter(|| {
            children
                .iter()
                .map(|&(b, s, _)| {
                    let child = b.play_unchecked(prune_othello::Square::new(s as u8).unwrap());
                    pattern.evaluate_board(black_box(&child))
                })
                .fold(0i32, i32::wrapping_add)
        })
    });
    leaves.bench_function("pattern incremental", |bench| {
        bench.iter(|| {
            children
                .iter()
                .zip(&states)
                .map(|(&(b, s, flips), state)| {
                    let next = pattern.play_state(black_box(state), s, flips, true);
                    pattern.evaluate_state(&next, b.empty_count() - 1, false)
                })
                .fold(0i32, i32::wrapping_add)
        })
    });
    leaves.finish();
}

/// The benchmark group, in a private module (criterion's macro defines a public function that
/// cannot carry documentation).
mod group {
    use super::*;
    criterion_group!(benches, bench_eval);
}

criterion_main!(group::benches);
