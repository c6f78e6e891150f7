//! `killers`: the killer-slot experiment. Complete self-play games where both sides search
//! to a fixed depth with nega-alpha plus N killer slots, against plain nega-alpha.

use std::time::Duration;

use prune_othello::openings::{enumerate_openings, Distinct};
use prune_othello::Position;
use prune_search::{Engine, Game, KillerIndex, Killers, SearchConfig, SearchLimits};

use super::NEGA_ALPHA;
use super::{
    depths, depths_setting, jobs_setting, othello_eval, presets, ratio, slots_setting, Grid,
};
use crate::{thousands, XAxis};
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series, Table};

/// The slot counts of the published experiment.
const DEFAULT_SLOTS: [usize; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// Games per configuration by default.
const DEFAULT_GAMES: usize = 32;

/// The first move of every opening (the four first moves are symmetric).
const FIRST_MOVE: &str = "f5";

/// Plies in an opening, the first move included.
const OPENING_PLIES: u32 = 4;

/// Every distinct position after [`FIRST_MOVE`] and three more plies, in the order of
/// generation (moves by square, a1 first), each with its moves.
fn all_openings() -> Vec<(String, Position)> {
    enumerate_openings(OPENING_PLIES, Distinct::Position)
        .into_iter()
        .map(|opening| (opening.line(), opening.position))
        .collect()
}

/// `count` openings spread evenly over `all` (all of them if `count` is larger).
fn openings(all: &[(String, Position)], count: usize) -> Vec<(String, Position)> {
    let count = count.min(all.len());
    (0..count)
        .map(|i| all[i * all.len() / count].clone())
        .collect()
}

/// One game's cost and result.
struct Played {
    nodes: u64,
    time: Duration,
    moves: u32,
    /// Black's discs minus White's at the end.
    margin: i32,
}

/// Plays `start` to the end, both sides searching to `depth` with `config`.
fn play(start: &Position, config: &SearchConfig, depth: u32) -> Played {
    let eval = othello_eval();
    let mut engine = Engine::<Position>::new(*config).expect("lab configurations are validated");
    let mut position = *start;
    let mut game = Played {
        nodes: 0,
        time: Duration::ZERO,
        moves: 0,
        margin: 0,
    };
    while position.outcome().is_none() {
        let result = engine
            .search(&position, &eval, &SearchLimits::depth(depth))
            .expect("a depth limit suits every configuration");
        game.nodes += result.stats.total.nodes;
        game.time += result.stats.time;
        game.moves += 1;
        let mv = result
            .best_move
            .expect("a position that is not over has a move");
        position = position.play_unchecked(mv);
    }
    let score = position.final_score();
    game.margin = match position.to_move() {
        prune_othello::Color::Black => score,
        prune_othello::Color::White => -score,
    };
    game
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let depths = depths(options, 6..=6, 12)?;
    let base_preset = match presets(options, &["plain"])?.as_slice() {
        [one] => *one,
        _ => {
            return Err(LabError::Usage(
                "--preset: the killer experiment takes one base preset".into(),
            ))
        }
    };
    let base = base_preset
        .config(NEGA_ALPHA)
        .map_err(|e| LabError::Usage(format!("--preset: {e}")))?;
    if base.killers.is_some() || base.staged_killers {
        return Err(LabError::Usage(format!(
            "--preset {}: the base preset already has killers",
            base_preset.name
        )));
    }
    let slots = options.slots.clone().unwrap_or(DEFAULT_SLOTS.to_vec());
    if slots.is_empty()
        || slots
            .iter()
            .any(|&n| !(1..=Killers::MAX_SLOTS).contains(&n))
    {
        return Err(LabError::Usage(format!(
            "--slots: give slot counts from 1 to {}",
            Killers::MAX_SLOTS
        )));
    }
    if options.games == Some(0) {
        return Err(LabError::Usage("--games must be at least 1".into()));
    }
    // The games start from the built-in openings, or from the user's positions (the first
    // `--games` of them, or all).
    let (openings, origin) = match &options.positions {
        None => {
            let all = all_openings();
            let openings = openings(&all, options.games.unwrap_or(DEFAULT_GAMES));
            let origin = format!(
                "Games start from {} of the {} distinct positions after {FIRST_MOVE} and three \
                 more plies, spread evenly over them in move order (listed below).",
                openings.len(),
                all.len()
            );
            (openings, origin)
        }
        Some(set) => {
            let count = options.games.unwrap_or(usize::MAX);
            let openings: Vec<(String, Position)> = set
                .positions
                .iter()
                .take(count)
                .map(|p| (p.name.clone(), p.position))
                .collect();
            let origin = format!(
                "Games start from {} positions of {} (listed below).",
                openings.len(),
                set.source
            );
            (openings, origin)
        }
    };

    // Configuration 0 is the baseline, then one per slot count.
    let mut configs = vec![("baseline".to_string(), base)];
    for &n in &slots {
        let mut c = base;
        c.killers = Some(Killers {
            slots: n,
            index: KillerIndex::Depth,
        });
        configs.push((format!("{n} slots"), c));
    }
    let results = Grid::new(&depths, configs.len(), openings.len()).run(
        "games",
        options,
        progress,
        |j| {
            format!(
                "depth {} {} game {}",
                j.depth,
                configs[j.config].0,
                j.item + 1
            )
        },
        |j| play(&openings[j.item].1, &configs[j.config].1, j.depth),
    );

    let mut summary = Table::new(
        "killers-summary",
        "Average per game, and the share saved against the baseline",
        &[
            "depth",
            "configuration",
            "slots",
            "games",
            "nodes per game",
            "time per game (s)",
            "nodes saved (%)",
            "time saved (%)",
        ],
    );
    let mut raw = Table::new(
        "killers-games",
        "Every game",
        &[
            "depth",
            "configuration",
            "opening",
            "moves",
            "nodes",
            "time (s)",
            "black margin",
        ],
    );
    raw.in_markdown = false;
    let mut series = Vec::new();
    let mut findings = Vec::new();
    for &depth in &depths {
        let averages: Vec<(f64, f64)> = (0..configs.len())
            .map(|c| {
                let games = results.of(depth, c);
                let n = games.len() as f64;
                let nodes = games.iter().map(|g| g.nodes as f64).sum::<f64>() / n;
                let secs = games.iter().map(|g| g.time.as_secs_f64()).sum::<f64>() / n;
                (nodes, secs)
            })
            .collect();
        let (base_nodes, base_secs) = averages[0];
        let saved = |x: f64, base: f64| ratio(x, base).map(|r| 100.0 * (1.0 - r));
        let mut points = Vec::new();
        for (c, &(nodes, secs)) in averages.iter().enumerate() {
            summary.push(vec![
                Cell::Count(u64::from(depth)),
                Cell::text(&configs[c].0),
                if c == 0 {
                    Cell::Empty
                } else {
                    Cell::Count(slots[c - 1] as u64)
                },
                Cell::Count(openings.len() as u64),
                Cell::real(nodes, 0),
                Cell::real(secs, 3),
                Cell::maybe_real(saved(nodes, base_nodes), 1),
                Cell::maybe_real(saved(secs, base_secs), 1),
            ]);
            if c > 0 {
                points.push(((c - 1) as f64, nodes));
            }
        }
        series.push(Series::new(format!("killers, depth {depth}"), points));
        series.push(Series::reference(
            format!("baseline (no killers), depth {depth}"),
            (0..slots.len()).map(|i| (i as f64, base_nodes)).collect(),
        ));
        let best = (1..configs.len())
            .min_by(|&a, &b| averages[a].0.total_cmp(&averages[b].0))
            .expect("at least one slot count");
        let all: Vec<String> = (1..configs.len())
            .map(|c| {
                format!(
                    "{} {:.1}%",
                    slots[c - 1],
                    saved(averages[c].0, base_nodes).unwrap_or(0.0)
                )
            })
            .collect();
        findings.push(format!(
            "Depth {depth}: the fewest nodes with {} slots, {} nodes per game against {} for \
             the baseline: {:.1}% fewer nodes and {:.1}% less time. Nodes saved by slot count: \
             {}.",
            slots[best - 1],
            thousands(averages[best].0 as u64),
            thousands(base_nodes as u64),
            saved(averages[best].0, base_nodes).unwrap_or(0.0),
            saved(averages[best].1, base_secs).unwrap_or(0.0),
            all.join(", ")
        ));
    }
    findings.push(
        "For comparison, the figure quoted for this experiment in prune's lab issue: 48.4% \
         fewer nodes and 33.4% less time at the best slot count, 32 (another program, \
         evaluation and set of games, so only the shape is comparable)."
            .into(),
    );
    // Shallow depths first, as the experiment is usually read.
    for (j, g) in results.iter().rev() {
        raw.push(vec![
            Cell::Count(u64::from(j.depth)),
            Cell::text(&configs[j.config].0),
            Cell::text(&openings[j.item].0),
            Cell::Count(u64::from(g.moves)),
            Cell::Count(g.nodes),
            Cell::real(g.time.as_secs_f64(), 4),
            Cell::Int(i64::from(g.margin)),
        ]);
    }
    let mut openings_table = Table::new(
        "killers-openings",
        "Where the games start",
        &["game", "opening"],
    );
    for (i, (line, _)) in openings.iter().enumerate() {
        openings_table.push(vec![Cell::Count(i as u64 + 1), Cell::text(line)]);
    }

    Ok(Report {
        experiment: "killers".into(),
        files: Vec::new(),
        title: "The killer-slot experiment".into(),
        reproduces: format!(
            "Complete self-play games in which both sides search to a fixed depth with \
             nega-alpha (fail-soft alpha-beta) plus N killer slots: one list of N moves per \
             remaining depth, a move that caused a beta cutoff moved to the front and the \
             killers legal in a position tried first. The baseline is the same search without \
             killers. {origin}"
        ),
        problems: Vec::new(),
        settings: vec![
            depths_setting(&depths),
            (
                "base preset".into(),
                format!("{} ({})", base_preset.name, base_preset.summary),
            ),
            slots_setting(&slots),
            ("games per configuration".into(), openings.len().to_string()),
            jobs_setting(options),
        ],
        findings,
        tables: vec![summary, openings_table, raw],
        plots: vec![Plot {
            name: "killers".into(),
            title: "Nodes per game against killer slots".into(),
            x_label: "killer slots N".into(),
            y_label: "nodes per game".into(),
            x_axis: XAxis::Categories(slots.iter().map(|n| n.to_string()).collect()),
            log_y: false,
            series,
            legend: Legend::MiddleRight,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_four_ply_positions() {
        let all = all_openings();
        assert!(all.len() > 8, "{}", all.len());
        for (line, p) in &all {
            assert!(line.starts_with("f5 "), "{line}");
            assert_eq!(p.empty_count(), 60 - 4, "{line}");
        }
        let picked = openings(&all, 8);
        assert_eq!(picked.len(), 8);
        assert_eq!(picked[0], all[0]);
    }
}
