//! `nodes`: nodes searched by nega-alpha, Scout and NegaScout at fixed depths, per position
//! and in total, for each preset.

use prune_search::{Algorithm, Preset};

use super::{depths, depths_setting, jobs_setting, position_set, positions_setting, presets};
use super::{preset_configs, presets_setting, ratio, search_othello, Grid, Run, NEGA_ALPHA};
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report};
use crate::{Series, Table, XAxis};

/// The algorithms compared.
const ALGORITHMS: [Algorithm; 3] = [NEGA_ALPHA, Algorithm::Scout, Algorithm::NegaScout];

/// How a row names an algorithm.
fn label(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Scout => "scout",
        Algorithm::NegaScout => "negascout",
        _ => "nega-alpha",
    }
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let set = position_set(options);
    let depths = depths(options, 2..=10, 30)?;
    let presets = presets(options, &["plain", "full"])?;
    let configs = preset_configs(&presets, &ALGORITHMS)?;
    let results = Grid::new(&depths, configs.len(), set.positions.len()).run(
        "searches",
        options,
        progress,
        |j| {
            format!(
                "{} {} {} depth {}",
                presets[j.config / ALGORITHMS.len()].name,
                label(ALGORITHMS[j.config % ALGORITHMS.len()]),
                set.positions[j.item].name,
                j.depth
            )
        },
        |j| search_othello(&set.positions[j.item].position, &configs[j.config], j.depth),
    );
    let find = |p: usize, a: usize, pos: usize, d: u32| -> &Run {
        results.get(d, p * ALGORITHMS.len() + a, pos)
    };

    let depth_columns: Vec<String> = depths.iter().map(|d| format!("depth {d}")).collect();
    let by_depth = |name: &str, title: &str, lead: &[&str]| {
        let mut table = Table::new(name, title, lead);
        table.columns.extend(depth_columns.iter().cloned());
        table
    };
    let lead = ["preset", "algorithm"];
    let mut totals = by_depth("nodes-totals", "Total nodes over all positions", &lead);
    let mut relative = by_depth(
        "nodes-relative",
        "Total nodes relative to nega-alpha with the same preset",
        &lead,
    );
    let mut times = by_depth(
        "nodes-time",
        "Total time over all positions (seconds)",
        &lead,
    );
    let mut per_position = by_depth(
        "nodes-positions",
        "Nodes per position (one block per position: rows = algorithm, columns = depth)",
        &["position", "preset", "algorithm"],
    );
    let mut raw = Table::new(
        "nodes-runs",
        "Every search",
        &[
            "preset",
            "algorithm",
            "position",
            "depth",
            "nodes",
            "leaves",
            "beta cutoffs",
            "first-move cutoffs",
            "re-searches",
            "tt hits",
            "time (s)",
            "score",
            "best move",
        ],
    );
    raw.in_markdown = false;

    let mut plots = Vec::new();
    let mut findings = Vec::new();
    for (p, preset) in presets.iter().enumerate() {
        let mut series = Vec::new();
        let cell = |a: usize, d: u32| results.of(d, p * ALGORITHMS.len() + a);
        let total_of =
            |a: usize, d: u32| -> u64 { cell(a, d).iter().map(|r| r.counters.nodes).sum() };
        for (a, &algorithm) in ALGORITHMS.iter().enumerate() {
            let lead = || vec![Cell::text(preset.name), Cell::text(label(algorithm))];
            let mut row = lead();
            let mut rel = lead();
            let mut time_row = lead();
            let mut points = Vec::new();
            for &d in &depths {
                let n = total_of(a, d);
                row.push(Cell::Count(n));
                rel.push(Cell::maybe_real(ratio(n as f64, total_of(0, d) as f64), 3));
                let secs: f64 = cell(a, d).iter().map(|r| r.time.as_secs_f64()).sum();
                time_row.push(Cell::real(secs, 2));
                points.push((f64::from(d), n as f64));
            }
            totals.push(row);
            relative.push(rel);
            times.push(time_row);
            series.push(Series::new(label(algorithm), points));
        }
        plots.push(Plot {
            name: format!("nodes-{}", preset.name),
            title: format!(
                "Nodes against depth, {} positions, preset {}",
                set.positions.len(),
                preset.name
            ),
            x_label: "depth (plies)".into(),
            y_label: "total nodes (log scale)".into(),
            x_axis: XAxis::Numeric,
            log_y: true,
            series,
            legend: Legend::UpperLeft,
        });
        findings.extend(preset_findings(preset, &depths, &total_of));
        findings.push(agreement(p, preset, &depths, set.positions.len(), &find));
    }
    for (pos, lab_pos) in set.positions.iter().enumerate() {
        for (p, preset) in presets.iter().enumerate() {
            for (a, &algorithm) in ALGORITHMS.iter().enumerate() {
                let mut row = vec![
                    Cell::text(&lab_pos.name),
                    Cell::text(preset.name),
                    Cell::text(label(algorithm)),
                ];
                row.extend(
                    depths
                        .iter()
                        .map(|&d| Cell::Count(find(p, a, pos, d).counters.nodes)),
                );
                per_position.push(row);
            }
        }
    }
    // Shallow depths first, as the experiment is usually read.
    for (j, run) in results.iter().rev() {
        let c = &run.counters;
        raw.push(vec![
            Cell::text(presets[j.config / ALGORITHMS.len()].name),
            Cell::text(label(ALGORITHMS[j.config % ALGORITHMS.len()])),
            Cell::text(&set.positions[j.item].name),
            Cell::Count(u64::from(j.depth)),
            Cell::Count(c.nodes),
            Cell::Count(c.leaves),
            Cell::Count(c.beta_cutoffs),
            Cell::Count(c.first_move_cutoffs),
            Cell::Count(c.re_searches),
            Cell::Count(c.tt_hits),
            Cell::real(run.time.as_secs_f64(), 4),
            Cell::Int(i64::from(run.score.raw())),
            Cell::text(run.best_move.clone().unwrap_or_default()),
        ]);
    }

    Ok(Report {
        experiment: "nodes".into(),
        files: Vec::new(),
        title: "Nodes searched by nega-alpha, Scout and NegaScout".into(),
        reproduces: "Reproduces the classic comparison of nega-alpha (fail-soft alpha-beta), \
                     Pearl's Scout and NegaScout by nodes searched at fixed depths on the FFO \
                     #40-#59 positions, evaluated with prune's hand-made evaluation. A node is \
                     every position visited, interior or leaf, counted by the search itself."
            .into(),
        problems: Vec::new(),
        settings: vec![
            positions_setting(&set),
            depths_setting(&depths),
            presets_setting(&presets),
            jobs_setting(options),
        ],
        findings,
        tables: vec![totals, relative, times, per_position, raw],
        plots,
    })
}

/// Totals at the deepest depth and how Scout and NegaScout compare with nega-alpha.
fn preset_findings(
    preset: &Preset,
    depths: &[u32],
    total_of: &dyn Fn(usize, u32) -> u64,
) -> Vec<String> {
    let Some(&deepest) = depths.last() else {
        return Vec::new();
    };
    let base = total_of(0, deepest) as f64;
    let parts: Vec<String> = ALGORITHMS
        .iter()
        .enumerate()
        .map(|(a, &alg)| {
            let n = total_of(a, deepest);
            match ratio(n as f64, base) {
                Some(r) if a > 0 => format!("{} {} ({r:.3}x)", label(alg), crate::thousands(n)),
                _ => format!("{} {}", label(alg), crate::thousands(n)),
            }
        })
        .collect();
    vec![format!(
        "Preset {}, depth {deepest}, total nodes: {}.",
        preset.name,
        parts.join(", ")
    )]
}

/// Whether the three algorithms found the same value at every position and depth (they must
/// without a transposition table; with one, a deeper entry may answer a shallower search).
fn agreement<'a>(
    p: usize,
    preset: &Preset,
    depths: &[u32],
    positions: usize,
    find: &dyn Fn(usize, usize, usize, u32) -> &'a Run,
) -> String {
    let mut total = 0;
    let mut agree = 0;
    for &d in depths {
        for pos in 0..positions {
            total += 1;
            let first = find(p, 0, pos, d).score;
            if (1..ALGORITHMS.len()).all(|a| find(p, a, pos, d).score == first) {
                agree += 1;
            }
        }
    }
    format!(
        "Preset {}: the three algorithms returned the same value in {agree} of {total} \
         (position, depth) searches.",
        preset.name
    )
}
