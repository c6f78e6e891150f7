//! Solves a file of positions (`MOVES SCORE` lines) and prints the mean nodes and time per
//! position: `cargo run --release -p prune-connect4 --example solve_set -- FILE [STEP] [THREADS]`.

use std::time::Instant;

use prune_connect4::{suite, SolveOptions, Solver, Step};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a file of positions");
    let step: Step = args
        .next()
        .map_or(Step::BEST, |s| s.parse().expect("a step"));
    let threads: usize = args
        .next()
        .map_or(1, |s| s.parse().expect("a thread count"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let (records, bad) = suite::parse(&text);
    assert!(bad.is_empty(), "{bad:?}");
    let bits: u32 = std::env::var("C4_BITS").map_or(23, |b| b.parse().expect("bits"));
    let mut solver = Solver::with_table_bits(bits).expect("a table");
    let options = SolveOptions {
        step,
        threads,
        ..SolveOptions::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    let mut wrong = 0;
    for r in &records {
        let s = solver.solve(&r.position, &options);
        nodes += s.nodes;
        if Some(s.score) != r.score {
            wrong += 1;
            eprintln!(
                "line {}: {} got {} want {:?}",
                r.line, r.moves, s.score, r.score
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = records.len() as f64;
    println!(
        "{path}: {} positions, {wrong} wrong, mean {:.1} µs, {:.0} nodes, {:.1} M nodes/s",
        records.len(),
        secs / n * 1e6,
        nodes as f64 / n,
        nodes as f64 / secs / 1e6
    );
}
