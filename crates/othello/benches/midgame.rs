//! Criterion benchmarks of the fast midgame search ([`MidgameSearch`]): FFO #40 to #59 searched
//! to depth 8, full width and at selectivity 2.0, once per instruction set this CPU has
//! (`portable`, `x86-64-v3`, `x86-64-v4`); each search starts from a cleared table.
//!
//! `cargo bench -p prune-othello --bench midgame` (add `-- --quick` for a short run).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use prune_othello::endgame::Isa;
use prune_othello::midgame::{MidgameSearch, Selectivity};
use prune_othello::{builtin_suite, Position};
use prune_search::{Named, SearchLimits};

/// The table, in MiB: small, so that clearing it before each search costs little.
const TT_MIB: usize = 8;

/// The depth of the searches.
const DEPTH: u32 = 8;

fn bench_midgame(c: &mut Criterion) {
    let positions: Vec<Position> = builtin_suite("ffo-40-59")
        .expect("the built-in suite")
        .into_iter()
        .map(|p| p.entry.position)
        .collect();
    let mut group = c.benchmark_group("midgame");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for &isa in Isa::ALL.iter().filter(|isa| isa.is_available()) {
        for selectivity in [Selectivity::Off, Selectivity::Sigma(2.0)] {
            let mut search = MidgameSearch::new(TT_MIB).expect("a small table");
            search.set_isa(isa);
            search.set_selectivity(selectivity);
            let name = format!("depth {DEPTH} selectivity {selectivity} {}", isa.name());
            group.bench_function(name, |b| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|p| {
                            search.clear();
                            let r = search.search(black_box(p), &SearchLimits::depth(DEPTH));
                            r.stats.total.nodes
                        })
                        .sum::<u64>()
                })
            });
        }
    }
    group.finish();
}

/// The benchmark group, in a private module (criterion's macro defines a public function that
/// cannot carry documentation).
mod group {
    use super::*;
    criterion_group!(benches, bench_midgame);
}

criterion_main!(group::benches);
