//! `ablation`: each enhancement alone against plain nega-alpha, and the cumulative stack.

use prune_search::{Algorithm, Aspiration, Killers, SearchConfig, ShallowOrdering, TtConfig};

use super::{depths, depths_setting, jobs_setting, position_set, positions_setting, ratio};
use super::{search_othello, Grid, NEGA_ALPHA};
use crate::{thousands, Series, Table, XAxis};
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report};

/// The transposition table's size, in MiB.
const TT_MIB: usize = 16;

/// The aspiration window's half-width, in evaluation units (a corner is worth 400 to 800).
const ASPIRATION: i32 = 100;

/// One enhancement: its name, a short name for plots, and how it changes a configuration.
struct Step {
    name: &'static str,
    short: &'static str,
    apply: fn(&mut SearchConfig),
}

/// The enhancements, in the order of the cumulative stack.
const STEPS: &[Step] = &[
    Step {
        name: "static ordering",
        short: "static",
        apply: |c| c.static_ordering = true,
    },
    Step {
        name: "transposition table",
        short: "tt",
        apply: |c| c.transposition_table = Some(TtConfig { size_mib: TT_MIB }),
    },
    Step {
        name: "history",
        short: "history",
        apply: |c| c.history = true,
    },
    Step {
        name: "killers (2 per ply)",
        short: "killers",
        apply: |c| c.killers = Some(Killers::new(2)),
    },
    Step {
        name: "refutation table (with iterative deepening)",
        short: "refutation",
        apply: |c| {
            c.iterative_deepening = true;
            c.refutation = true;
        },
    },
    Step {
        name: "aspiration windows (with iterative deepening)",
        short: "aspiration",
        apply: |c| {
            c.iterative_deepening = true;
            c.aspiration = Some(Aspiration {
                half_width: ASPIRATION,
            });
        },
    },
    Step {
        name: "null window (NegaScout)",
        short: "null window",
        apply: |c| c.algorithm = Algorithm::NegaScout,
    },
    Step {
        name: "shallow-search ordering",
        short: "shallow",
        apply: |c| c.shallow_ordering = Some(ShallowOrdering::default()),
    },
    Step {
        name: "MTD(f)",
        short: "mtd(f)",
        apply: |c| {
            // MTD(f) is its own sequence of windows, and alpha-beta with memory.
            c.algorithm = Algorithm::MtdF;
            c.aspiration = None;
            if c.transposition_table.is_none() {
                c.transposition_table = Some(TtConfig { size_mib: TT_MIB });
            }
        },
    },
];

/// A configuration of the experiment and what it is.
struct Config {
    kind: &'static str,
    name: String,
    config: SearchConfig,
}

fn configs() -> Vec<Config> {
    let base = SearchConfig::new(NEGA_ALPHA);
    let mut out = vec![Config {
        kind: "baseline",
        name: "plain nega-alpha".into(),
        config: base,
    }];
    for step in STEPS {
        let mut c = base;
        (step.apply)(&mut c);
        out.push(Config {
            kind: "alone",
            name: step.name.into(),
            config: c,
        });
    }
    let mut stacked = base;
    for step in STEPS {
        (step.apply)(&mut stacked);
        out.push(Config {
            kind: "stack",
            name: format!("+ {}", step.name),
            config: stacked,
        });
    }
    out
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let set = position_set(options);
    let depths = depths(options, 8..=8, 30)?;
    let configs = configs();
    for c in &configs {
        c.config
            .validate()
            .map_err(|e| LabError::Usage(format!("ablation config {}: {e}", c.name)))?;
    }
    let results = Grid::new(&depths, configs.len(), set.positions.len()).run(
        "searches",
        options,
        progress,
        |j| {
            let position = &set.positions[j.item].name;
            format!("{} {position} depth {}", configs[j.config].name, j.depth)
        },
        |j| {
            search_othello(
                &set.positions[j.item].position,
                &configs[j.config].config,
                j.depth,
            )
        },
    );
    let total = |depth: u32, config: usize| -> (u64, f64) {
        let mine = results.of(depth, config);
        (
            mine.iter().map(|r| r.counters.nodes).sum(),
            mine.iter().map(|r| r.time.as_secs_f64()).sum(),
        )
    };

    let mut alone = Table::new(
        "ablation-alone",
        "Each enhancement alone, against plain nega-alpha (ranked by nodes)",
        &[
            "depth",
            "rank",
            "enhancement",
            "nodes",
            "nodes ratio",
            "time (s)",
            "time ratio",
        ],
    );
    let mut stack = Table::new(
        "ablation-stack",
        "The cumulative stack: each row adds one enhancement to the row above",
        &[
            "depth",
            "configuration",
            "nodes",
            "nodes ratio",
            "ratio to the row above",
            "time (s)",
            "time ratio",
        ],
    );
    let mut plots = Vec::new();
    let mut findings = Vec::new();
    for &depth in &depths {
        let (base_nodes, base_secs) = total(depth, 0);
        let mut ranked: Vec<usize> = (0..configs.len())
            .filter(|&c| configs[c].kind == "alone")
            .collect();
        ranked.sort_by_key(|&c| total(depth, c).0);
        alone.push(vec![
            Cell::Count(u64::from(depth)),
            Cell::Empty,
            Cell::text(&configs[0].name),
            Cell::Count(base_nodes),
            Cell::real(1.0, 3),
            Cell::real(base_secs, 2),
            Cell::real(1.0, 3),
        ]);
        for (rank, &c) in ranked.iter().enumerate() {
            let (nodes, secs) = total(depth, c);
            alone.push(vec![
                Cell::Count(u64::from(depth)),
                Cell::Count(rank as u64 + 1),
                Cell::text(&configs[c].name),
                Cell::Count(nodes),
                Cell::maybe_real(ratio(nodes as f64, base_nodes as f64), 3),
                Cell::real(secs, 2),
                Cell::maybe_real(ratio(secs, base_secs), 3),
            ]);
        }
        let ranking: Vec<String> = ranked
            .iter()
            .map(|&c| {
                let r = ratio(total(depth, c).0 as f64, base_nodes as f64).unwrap_or(0.0);
                format!("{} {r:.3}", configs[c].name)
            })
            .collect();
        findings.push(format!(
            "Depth {depth}, each enhancement alone, nodes relative to plain nega-alpha ({} \
             nodes), best first: {}.",
            thousands(base_nodes),
            ranking.join("; ")
        ));

        let mut previous = base_nodes;
        let mut stack_points = vec![(0.0, 1.0)];
        let mut alone_points = Vec::new();
        let mut time_points = vec![(0.0, 1.0)];
        let mut names = vec!["plain".to_string()];
        stack.push(vec![
            Cell::Count(u64::from(depth)),
            Cell::text(&configs[0].name),
            Cell::Count(base_nodes),
            Cell::real(1.0, 3),
            Cell::Empty,
            Cell::real(base_secs, 2),
            Cell::real(1.0, 3),
        ]);
        let stacked: Vec<usize> = (0..configs.len())
            .filter(|&c| configs[c].kind == "stack")
            .collect();
        let mut best = (base_nodes, 0usize);
        for (i, &c) in stacked.iter().enumerate() {
            let (nodes, secs) = total(depth, c);
            let r = ratio(nodes as f64, base_nodes as f64);
            stack.push(vec![
                Cell::Count(u64::from(depth)),
                Cell::text(&configs[c].name),
                Cell::Count(nodes),
                Cell::maybe_real(r, 4),
                Cell::maybe_real(ratio(nodes as f64, previous as f64), 3),
                Cell::real(secs, 2),
                Cell::maybe_real(ratio(secs, base_secs), 3),
            ]);
            previous = nodes;
            if nodes < best.0 {
                best = (nodes, c);
            }
            let x = (i + 1) as f64;
            stack_points.push((x, r.unwrap_or(f64::NAN)));
            time_points.push((x, ratio(secs, base_secs).unwrap_or(f64::NAN)));
            let alone_nodes = total(depth, 1 + i).0;
            alone_points.push((
                x,
                ratio(alone_nodes as f64, base_nodes as f64).unwrap_or(f64::NAN),
            ));
            names.push(STEPS[i].short.to_string());
        }
        if best.1 > 0 {
            findings.push(format!(
                "Depth {depth}, cumulative stack: the fewest nodes after '{}' ({} nodes, {:.4} \
                 of plain nega-alpha).",
                configs[best.1].name.trim_start_matches("+ "),
                thousands(best.0),
                best.0 as f64 / base_nodes.max(1) as f64
            ));
        }
        plots.push(Plot {
            name: format!("ablation-depth-{depth}"),
            title: format!(
                "Enhancements against plain nega-alpha, depth {depth}, {} positions",
                set.positions.len()
            ),
            x_label: "enhancement (the stack adds each to those on its left)".into(),
            y_label: "relative to plain nega-alpha (log scale)".into(),
            x_axis: XAxis::Categories(names),
            log_y: true,
            series: vec![
                Series::new("nodes, alone", alone_points),
                Series::new("nodes, stack", stack_points),
                Series::new("time, stack", time_points),
            ],
            legend: Legend::UpperLeft,
        });
    }

    let mut raw = Table::new(
        "ablation-runs",
        "Every search",
        &[
            "depth",
            "kind",
            "configuration",
            "position",
            "nodes",
            "time (s)",
            "score",
        ],
    );
    raw.in_markdown = false;
    for (j, run) in results.iter() {
        raw.push(vec![
            Cell::Count(u64::from(j.depth)),
            Cell::text(configs[j.config].kind),
            Cell::text(&configs[j.config].name),
            Cell::text(&set.positions[j.item].name),
            Cell::Count(run.counters.nodes),
            Cell::real(run.time.as_secs_f64(), 4),
            Cell::Int(i64::from(run.score.raw())),
        ]);
    }
    let mut config_table = Table::new(
        "ablation-configs",
        "The configurations",
        &["kind", "configuration", "algorithm", "enhancements"],
    );
    for c in &configs {
        config_table.push(vec![
            Cell::text(c.kind),
            Cell::text(&c.name),
            Cell::text(c.config.algorithm.name()),
            Cell::text(c.config.enhancements().join(", ")),
        ]);
    }

    Ok(Report {
        experiment: "ablation".into(),
        files: Vec::new(),
        title: "Ablation: each enhancement alone and stacked".into(),
        reproduces: format!(
            "Each enhancement of the alpha-beta family alone, and the cumulative stack in the \
             order static ordering, transposition table ({TT_MIB} MiB), history, killers, \
             refutation table, aspiration windows (±{ASPIRATION}), null window (NegaScout), \
             shallow-search ordering, MTD(f): total nodes and time over the positions at fixed \
             depth, relative to plain nega-alpha (fail-soft alpha-beta). Enhancements that \
             need iterative deepening get it; its own cost is part of their figure."
        ),
        problems: Vec::new(),
        settings: vec![
            positions_setting(&set),
            depths_setting(&depths),
            jobs_setting(options),
        ],
        findings,
        tables: vec![alone, stack, config_table, raw],
        plots,
    })
}
