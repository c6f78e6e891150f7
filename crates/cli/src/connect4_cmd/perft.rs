//! `prune perft --game connect4`: the leaves of the Connect Four game tree depth by depth
//! (`prune_search::perft`: paths, a won game counted as one leaf where it ends), and beside
//! them the distinct positions at each depth, which from the empty board are checked against
//! the published counts (OEIS A212693).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Color, Table};
use prune_connect4::{Position, CELLS};
use prune_search::{perft, Game};
use serde_json::json;

use crate::cells::{count, per_second, rate_text, right};
use crate::perft_cmd::PerftArgs;
use crate::positions::parse_position;
use crate::CliError;

/// The number of distinct positions (legal, reachable, a won game not continued) after `n`
/// moves from the empty board, `n` = 0..=10: OEIS A212693 (John Tromp's counts).
pub const A212693: [u64; 11] = [
    1, 7, 49, 238, 1_120, 4_263, 16_422, 54_859, 184_275, 558_186, 1_662_623,
];

/// The default depth: a fraction of a second.
pub const DEFAULT_DEPTH: u32 = 8;

/// The deepest depth whose distinct positions are counted (they are kept in memory).
const MAX_DISTINCT_DEPTH: u32 = 11;

/// One depth's counts.
struct Count {
    depth: u32,
    leaves: u64,
    time: Duration,
    /// Distinct positions at this depth (`None` beyond [`MAX_DISTINCT_DEPTH`]).
    positions: Option<u64>,
    /// The published count of distinct positions, from the empty board.
    published: Option<u64>,
}

impl Count {
    fn is_wrong(&self) -> bool {
        matches!((self.positions, self.published), (Some(p), Some(e)) if p != e)
    }
}

/// The distinct positions at each depth 0..=`depth` from `start` (won games end where they are
/// won; each layer is kept only until the next one is made).
pub fn distinct_positions(start: &Position, depth: u32) -> Vec<u64> {
    let mut layer: HashSet<Position> = HashSet::from([*start]);
    let mut counts = vec![1];
    let mut moves = Vec::new();
    for _ in 0..depth {
        let mut next = HashSet::with_capacity(layer.len() * 4);
        for p in &layer {
            moves.clear();
            p.generate_moves(&mut moves);
            next.extend(moves.iter().map(|&m| p.play(m)));
        }
        counts.push(next.len() as u64);
        layer = next;
    }
    counts
}

/// Runs `prune perft --game connect4`.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=CELLS).contains(&depth) {
        return Err(CliError::Usage(format!(
            "--depth must be 1 to {CELLS} for connect4, got {depth}"
        )));
    }
    let position = parse_position(args.position.as_deref(), Position::START)?;
    let from_start = position == Position::START;
    let distinct = distinct_positions(&position, depth.min(MAX_DISTINCT_DEPTH));
    let counts: Vec<Count> = (1..=depth)
        .map(|d| {
            let began = Instant::now();
            let leaves = perft(&position, d);
            Count {
                depth: d,
                leaves,
                time: began.elapsed(),
                positions: distinct.get(d as usize).copied(),
                published: from_start
                    .then(|| A212693.get(d as usize).copied())
                    .flatten(),
            }
        })
        .collect();
    let total: Duration = counts.iter().map(|c| c.time).sum();
    if args.json {
        let depths: Vec<_> = counts
            .iter()
            .map(|c| {
                json!({
                    "depth": c.depth,
                    "leaves": c.leaves,
                    "time_ms": c.time.as_secs_f64() * 1000.0,
                    "leaves_per_second": per_second(c.leaves, c.time),
                    "positions": c.positions,
                    "published_positions": c.published,
                    "correct": c.published.map(|_| !c.is_wrong()),
                })
            })
            .collect();
        let value = json!({
            "game": super::GAME,
            "position": args.position.clone().unwrap_or_default(),
            "depths": depths,
            "time_ms": total.as_secs_f64() * 1000.0,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
    } else {
        print_table(args, &counts, total, from_start);
    }
    match counts.iter().find(|c| c.is_wrong()) {
        Some(c) => Err(CliError::Failure(format!(
            "{} distinct positions at depth {}, but OEIS A212693 says {}",
            c.positions.unwrap_or_default(),
            c.depth,
            c.published.unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

fn print_table(args: &PerftArgs, counts: &[Count], total: Duration, from_start: bool) {
    let moves = args.position.as_deref().unwrap_or("").trim();
    if moves.is_empty() {
        println!("perft of {} from the empty board", super::GAME);
    } else {
        println!("perft of {} after {moves}", super::GAME);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec!["depth", "leaves", "time (s)", "leaves/s", "positions"];
    if from_start {
        header.push("A212693");
    }
    table.set_header(header);
    for c in counts {
        let mut row = vec![
            right(c.depth),
            count(c.leaves),
            right(format!("{:.3}", c.time.as_secs_f64())),
            right(rate_text(per_second(c.leaves, c.time))),
            c.positions.map_or_else(|| right("-"), count),
        ];
        if from_start {
            row.push(match c.published {
                None => Cell::new("-"),
                Some(_) if c.is_wrong() => Cell::new("✗ WRONG").fg(Color::Red),
                Some(_) => Cell::new("✓"),
            });
        }
        table.add_row(row);
    }
    println!("{table}");
    println!(
        "leaves: every path (a won game is one leaf where it ends); positions: distinct \
         positions at that depth"
    );
    println!("total time: {:.3} s", total.as_secs_f64());
}
