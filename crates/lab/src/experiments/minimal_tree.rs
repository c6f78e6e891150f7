//! `minimal-tree`: leaves evaluated on uniform trees against the Knuth-Moore minimal tree, as
//! the ordering degrades from perfect to random to worst.

use prune_games::{ChildOrder, NoisyEval, UniformTree};
use prune_search::{Algorithm, Preset};

use super::NEGA_ALPHA;
use super::{depths, depths_setting, jobs_setting, preset_configs, presets, search, Grid, Job};
use crate::{thousands, XAxis};
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series, Table};

/// The orderings, from perfect to worst.
const ORDERINGS: [ChildOrder; 7] = [
    ChildOrder::Perfect,
    ChildOrder::BestFirst(90),
    ChildOrder::BestFirst(75),
    ChildOrder::BestFirst(50),
    ChildOrder::BestFirst(25),
    ChildOrder::Random,
    ChildOrder::Worst,
];

const ALGORITHMS: [Algorithm; 3] = [NEGA_ALPHA, Algorithm::NegaScout, Algorithm::MtdF];

/// Worst-ordered trees keep every leaf value distinct (and so every leaf needed) up to about
/// this many leaves (see `prune_games::uniform`).
const MAX_LEAVES: u64 = 450_000;

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let width = options.width.unwrap_or(5);
    if !(2..=64).contains(&width) {
        return Err(LabError::Usage(format!(
            "--width {width}: give 2 to 64 children per node"
        )));
    }
    let depths = depths(options, 2..=8, 40)?;
    let deepest = *depths.last().expect("depths are not empty");
    let leaves = u64::from(width).checked_pow(deepest);
    if !matches!(leaves, Some(n) if n <= MAX_LEAVES) {
        return Err(LabError::Usage(format!(
            "width {width} and depth {deepest} make more than {} leaves per tree; the worst \
             ordering needs a distinct value per leaf (choose a smaller width or depth)",
            thousands(MAX_LEAVES)
        )));
    }
    let trees = options.trees.unwrap_or(20);
    if !(1..=1000).contains(&trees) {
        return Err(LabError::Usage(format!(
            "--trees {trees}: give 1 to 1000 trees per cell"
        )));
    }
    let presets = presets(options, &["plain"])?;
    let configs = preset_configs(&presets, &ALGORITHMS)?;

    // Item `ordering * trees + seed` is tree `seed` of an ordering.
    let per_cell = trees as usize;
    let tree = |j: &Job| UniformTree {
        width,
        depth: j.depth,
        order: ORDERINGS[j.item / per_cell],
        seed: (j.item % per_cell) as u64,
    };
    let results = Grid::new(&depths, configs.len(), ORDERINGS.len() * per_cell).run(
        "trees",
        options,
        progress,
        |j| format!("{} depth {}", tree(j).order, j.depth),
        |j| {
            let root = tree(j).root();
            let run = search(&root, &NoisyEval::default(), &configs[j.config], j.depth);
            let correct = run.score == root.true_value();
            (run, correct)
        },
    );
    let searches = results.iter().count();
    let wrong = results.iter().filter(|(_, (_, ok))| !ok).count();
    let mean_leaves = |p: usize, a: usize, o: usize, d: u32| -> f64 {
        let cell = results.of(d, p * ALGORITHMS.len() + a);
        let mine = &cell[o * per_cell..(o + 1) * per_cell];
        mine.iter().map(|(r, _)| r.counters.leaves).sum::<u64>() as f64 / mine.len().max(1) as f64
    };
    let minimal = |d: u32| {
        UniformTree {
            width,
            depth: d,
            order: ChildOrder::Perfect,
            seed: 0,
        }
        .minimal_leaves()
    };

    let mut table = Table::new(
        "minimal-tree",
        "Leaves evaluated (mean over the trees) against the Knuth-Moore minimal tree",
        &[
            "preset",
            "algorithm",
            "ordering",
            "depth",
            "leaves",
            "minimal tree",
            "every leaf",
            "leaves / minimal",
        ],
    );
    let mut plots = Vec::new();
    let mut findings = Vec::new();
    for (p, preset) in presets.iter().enumerate() {
        let mut by_ordering = Vec::new();
        for (a, &algorithm) in ALGORITHMS.iter().enumerate() {
            let mut points = Vec::new();
            for (o, order) in ORDERINGS.iter().enumerate() {
                for &d in &depths {
                    let leaves = mean_leaves(p, a, o, d);
                    table.push(vec![
                        Cell::text(preset.name),
                        Cell::text(algorithm.name()),
                        Cell::text(order.to_string()),
                        Cell::Count(u64::from(d)),
                        Cell::real(leaves, 1),
                        Cell::Count(minimal(d)),
                        Cell::Count(u64::from(width).pow(d)),
                        Cell::real(leaves / minimal(d) as f64, 3),
                    ]);
                }
                points.push((
                    o as f64,
                    mean_leaves(p, a, o, deepest) / minimal(deepest) as f64,
                ));
            }
            by_ordering.push(Series::new(algorithm.name(), points));
        }
        by_ordering.push(Series::reference(
            format!(
                "every leaf (w^d = {})",
                thousands(u64::from(width).pow(deepest))
            ),
            (0..ORDERINGS.len())
                .map(|o| {
                    (
                        o as f64,
                        u64::from(width).pow(deepest) as f64 / minimal(deepest) as f64,
                    )
                })
                .collect(),
        ));
        plots.push(Plot {
            name: format!("minimal-tree-ordering-{}", preset.name),
            title: format!(
                "Leaves over the minimal tree, width {width}, depth {deepest}, preset {}",
                preset.name
            ),
            x_label: "ordering (share of nodes with the best child first)".into(),
            y_label: "leaves / Knuth-Moore minimal tree (log scale)".into(),
            x_axis: XAxis::Categories(ORDERINGS.iter().map(|o| o.to_string()).collect()),
            log_y: true,
            series: by_ordering,
            legend: Legend::UpperLeft,
        });
        let mut by_depth: Vec<Series> = [0usize, 3, 5, 6]
            .iter()
            .map(|&o| {
                Series::new(
                    format!("{} {}", ALGORITHMS[0].name(), ORDERINGS[o]),
                    depths
                        .iter()
                        .map(|&d| (f64::from(d), mean_leaves(p, 0, o, d)))
                        .collect(),
                )
            })
            .collect();
        by_depth.push(Series::reference(
            "Knuth-Moore w^ceil(d/2) + w^floor(d/2) - 1",
            depths
                .iter()
                .map(|&d| (f64::from(d), minimal(d) as f64))
                .collect(),
        ));
        by_depth.push(Series::reference(
            "every leaf w^d",
            depths
                .iter()
                .map(|&d| (f64::from(d), u64::from(width).pow(d) as f64))
                .collect(),
        ));
        plots.push(Plot {
            name: format!("minimal-tree-depth-{}", preset.name),
            title: format!(
                "Leaves against depth, width {width}, {}, preset {}",
                ALGORITHMS[0].name(),
                preset.name
            ),
            x_label: "depth (plies)".into(),
            y_label: "leaves evaluated (log scale)".into(),
            x_axis: XAxis::Numeric,
            log_y: true,
            series: by_depth,
            legend: Legend::UpperLeft,
        });
        findings.extend(preset_findings(
            p,
            preset,
            width,
            &depths,
            &mean_leaves,
            &minimal,
        ));
    }
    findings.push(if wrong == 0 {
        format!("Every search returned the tree's true value ({searches} searches).")
    } else {
        format!(
            "{wrong} of {searches} searches returned a value other than the tree's true value: \
             a bug."
        )
    });

    Ok(Report {
        experiment: "minimal-tree".into(),
        files: Vec::new(),
        title: "The Knuth-Moore minimal tree".into(),
        reproduces: "Knuth and Moore (1975): on a uniform tree of width w and depth d with the \
                     best move always first, alpha-beta evaluates exactly w^ceil(d/2) + \
                     w^floor(d/2) - 1 leaves; with the worst ordering it evaluates all w^d. \
                     Between them, 'p%' trees put each node's best child first with \
                     probability p and anywhere otherwise, and 'random' anywhere. Leaves are \
                     positions evaluated or found terminal, as counted by the search, every \
                     visit counted: NegaScout's re-searches and MTD(f)'s passes count again. \
                     MTD(f) proves the value with at least two passes, one per bound, and their \
                     two proof trees share a leaf (so a perfect tree costs it the minimal tree \
                     plus one); it runs with the transposition table it needs, whose best moves \
                     reorder the children from the second pass on, which is why the worst \
                     ordering hurts it so little."
            .into(),
        problems: Vec::new(),
        settings: vec![
            ("width".into(), width.to_string()),
            depths_setting(&depths),
            ("trees per cell".into(), trees.to_string()),
            (
                "presets".into(),
                presets
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![table],
        plots,
    })
}

/// Whether perfect ordering met the bound exactly, and the ratios at the deepest depth.
fn preset_findings(
    p: usize,
    preset: &Preset,
    width: u32,
    depths: &[u32],
    mean_leaves: &dyn Fn(usize, usize, usize, u32) -> f64,
    minimal: &dyn Fn(u32) -> u64,
) -> Vec<String> {
    let mut out = Vec::new();
    let deepest = *depths.last().expect("depths are not empty");
    for (a, algorithm) in ALGORITHMS.iter().enumerate() {
        let exact = depths
            .iter()
            .filter(|&&d| mean_leaves(p, a, 0, d) == minimal(d) as f64)
            .count();
        let ratios: Vec<String> = ORDERINGS
            .iter()
            .enumerate()
            .map(|(o, order)| {
                format!(
                    "{order} {:.2}",
                    mean_leaves(p, a, o, deepest) / minimal(deepest) as f64
                )
            })
            .collect();
        out.push(format!(
            "Preset {}, {algorithm}: perfect ordering evaluated exactly the Knuth-Moore number \
             of leaves at {exact} of {} depths; at depth {deepest} (width {width}) leaves over \
             the minimal tree: {}.",
            preset.name,
            depths.len(),
            ratios.join(", ")
        ));
    }
    out
}
