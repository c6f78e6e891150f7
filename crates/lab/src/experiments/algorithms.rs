//! `algorithms`: every algorithm side by side on a position set at fixed depths.

use prune_search::{Algorithm, SearchConfig};

use super::{depths, depths_setting, effective_branching, jobs_setting, position_set};
use super::{positions_setting, presets, presets_setting, ratio, search_othello, Grid};
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report};
use crate::{Series, Table, XAxis};

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let set = position_set(options);
    let depths = depths(options, 6..=6, 30)?;
    let presets = presets(options, &["plain"])?;
    // Every (preset, algorithm) that fits together; the rest are reported as not applicable.
    let mut configs: Vec<(&str, Algorithm, SearchConfig)> = Vec::new();
    let mut skipped = Vec::new();
    for preset in &presets {
        for algorithm in Algorithm::ALL {
            match preset.config(algorithm) {
                Ok(c) => configs.push((preset.name, algorithm, c)),
                Err(_) => skipped.push(format!("{} with {algorithm}", preset.name)),
            }
        }
    }
    let results = Grid::new(&depths, configs.len(), set.positions.len()).run(
        "searches",
        options,
        progress,
        |j| {
            let (preset, algorithm, _) = &configs[j.config];
            let position = &set.positions[j.item].name;
            format!("{preset} {algorithm} {position} depth {}", j.depth)
        },
        |j| {
            search_othello(
                &set.positions[j.item].position,
                &configs[j.config].2,
                j.depth,
            )
        },
    );

    let mut table = Table::new(
        "algorithms",
        "Every algorithm, totals over the positions",
        &[
            "depth",
            "preset",
            "algorithm",
            "nodes",
            "nodes relative to minimax",
            "time (s)",
            "nodes per second",
            "effective branching factor",
            "first-move cutoff rate",
            "re-searches",
            "same value as minimax",
        ],
    );
    let mut series = Vec::new();
    let mut findings = Vec::new();
    let positions = set.positions.len();
    for &depth in &depths {
        let reference = configs
            .iter()
            .position(|(_, a, _)| *a == Algorithm::Minimax)
            .or(configs
                .iter()
                .position(|(_, a, _)| *a == Algorithm::Negamax));
        let reference_runs = reference.map(|r| results.of(depth, r));
        let reference_nodes =
            reference_runs.map(|rs| rs.iter().map(|r| r.counters.nodes).sum::<u64>());
        let mut points = Vec::new();
        let mut fewest: Option<(u64, usize)> = None;
        for (c, (preset, algorithm, _)) in configs.iter().enumerate() {
            let rs = results.of(depth, c);
            let nodes: u64 = rs.iter().map(|r| r.counters.nodes).sum();
            let secs: f64 = rs.iter().map(|r| r.time.as_secs_f64()).sum();
            let mut counters = prune_search::Counters::default();
            for r in rs {
                counters += r.counters;
            }
            let same = reference_runs.map(|reference| {
                rs.iter()
                    .zip(reference)
                    .filter(|(a, b)| a.score == b.score)
                    .count()
            });
            table.push(vec![
                Cell::Count(u64::from(depth)),
                Cell::text(*preset),
                Cell::text(algorithm.name()),
                Cell::Count(nodes),
                Cell::maybe_real(
                    reference_nodes.and_then(|m| ratio(nodes as f64, m as f64)),
                    4,
                ),
                Cell::real(secs, 3),
                ratio(nodes as f64, secs).map_or(Cell::Empty, |nps| Cell::Count(nps as u64)),
                Cell::maybe_real(
                    effective_branching(nodes as f64 / positions.max(1) as f64, depth),
                    2,
                ),
                Cell::maybe_real(counters.first_move_cutoff_rate(), 3),
                Cell::Count(counters.re_searches),
                same.map_or(Cell::Empty, |s| Cell::text(format!("{s}/{positions}"))),
            ]);
            points.push((c as f64, nodes as f64));
            if fewest.is_none_or(|(best, _)| nodes < best) {
                fewest = Some((nodes, c));
            }
        }
        series.push(Series::new(format!("depth {depth}"), points));
        if let Some((nodes, c)) = fewest {
            let (preset, algorithm, _) = &configs[c];
            findings.push(format!(
                "Depth {depth}: the fewest nodes with {algorithm} (preset {preset}): {} over \
                 {positions} positions.",
                crate::thousands(nodes)
            ));
        }
    }
    if !skipped.is_empty() {
        findings.push(format!(
            "Not run (the preset does not fit the algorithm): {}.",
            skipped.join(", ")
        ));
    }
    let mut raw = Table::new(
        "algorithms-runs",
        "Every search",
        &[
            "depth",
            "preset",
            "algorithm",
            "position",
            "nodes",
            "beta cutoffs",
            "first-move cutoffs",
            "time (s)",
            "score",
            "best move",
        ],
    );
    raw.in_markdown = false;
    // Shallow depths first, as the experiment is usually read.
    for (j, run) in results.iter().rev() {
        let (preset, algorithm, _) = &configs[j.config];
        raw.push(vec![
            Cell::Count(u64::from(j.depth)),
            Cell::text(*preset),
            Cell::text(algorithm.name()),
            Cell::text(&set.positions[j.item].name),
            Cell::Count(run.counters.nodes),
            Cell::Count(run.counters.beta_cutoffs),
            Cell::Count(run.counters.first_move_cutoffs),
            Cell::real(run.time.as_secs_f64(), 4),
            Cell::Int(i64::from(run.score.raw())),
            Cell::text(run.best_move.clone().unwrap_or_default()),
        ]);
    }

    Ok(Report {
        experiment: "algorithms".into(),
        files: Vec::new(),
        title: "Every algorithm side by side".into(),
        reproduces: "Minimax, negamax, alpha-beta fail-hard and fail-soft, Scout, NegaScout and \
                     MTD(f) on the same positions at fixed depth: nodes, time, the effective \
                     branching factor b (the uniform tree of the same size: 1 + b + ... + b^d = \
                     nodes per position) and the share of beta cutoffs made by the first move \
                     searched (a measure of move ordering)."
            .into(),
        problems: Vec::new(),
        settings: vec![
            positions_setting(&set),
            depths_setting(&depths),
            presets_setting(&presets),
            jobs_setting(options),
        ],
        findings,
        tables: vec![table, raw],
        plots: vec![Plot {
            name: "algorithms".into(),
            title: format!("Nodes per algorithm, {positions} positions"),
            x_label: "configuration".into(),
            y_label: "total nodes (log scale)".into(),
            x_axis: XAxis::Categories(
                configs
                    .iter()
                    .map(|(p, a, _)| {
                        if presets.len() > 1 {
                            format!("{a} ({p})")
                        } else {
                            a.name().to_string()
                        }
                    })
                    .collect(),
            ),
            log_y: true,
            series,
            legend: Legend::UpperRight,
        }],
    })
}
