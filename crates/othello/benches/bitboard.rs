//! Criterion benchmarks of the bitboard move generator: [`legal_moves`] and [`flipped`] on the
//! boards of FFO #40 to #59 and of every position one move later, reported per call.
//!
//! `cargo bench -p prune-othello --bench bitboard` (add `-- --quick` for a short run).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use prune_othello::bitboard::{flipped, legal_moves};
use prune_othello::{builtin_suite, squares, Board, Move};

/// The FFO #40-#59 boards (side to move's view) and the boards after each of their legal
/// moves: 20 real endgame positions and their children.
fn boards() -> Vec<Board> {
    let suite = builtin_suite("ffo-40-59").expect("the built-in suite");
    let mut boards = Vec::new();
    for problem in suite {
        let position = problem.entry.position;
        boards.push(*position.board());
        for square in squares(position.board().moves()) {
            let next = position
                .play(Move::from_square(square))
                .expect("a legal move");
            boards.push(*next.board());
        }
    }
    boards
}

/// Every legal move of every board: (the square's bit, player, opponent).
fn placements(boards: &[Board]) -> Vec<(u64, u64, u64)> {
    boards
        .iter()
        .flat_map(|b| {
            let (p, o) = (b.player(), b.opponent());
            squares(legal_moves(p, o)).map(move |s| (s.bit(), p, o))
        })
        .collect()
}

fn bench_bitboard(c: &mut Criterion) {
    let boards = boards();
    let moves = placements(&boards);
    let mut group = c.benchmark_group("bitboard");

    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for board in &boards {
                acc ^= legal_moves(black_box(board.player()), black_box(board.opponent()));
            }
            acc
        })
    });

    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("flipped", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(placed, p, o) in &moves {
                acc ^= flipped(black_box(placed), black_box(p), black_box(o));
            }
            acc
        })
    });
    group.finish();
}

/// The benchmark group: in a private module, because the function criterion's macro defines
/// is public and cannot carry documentation.
mod group {
    use super::*;
    criterion_group!(benches, bench_bitboard);
}

criterion_main!(group::benches);
