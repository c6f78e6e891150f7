//! `prune perft`: leaf counts of the Othello game tree, depth by depth, with the fast
//! bitboard perft; from the start position they are checked against the published counts.
//! `--game connect4` counts Connect Four's ([`crate::connect4_cmd::perft`]).

use std::time::{Duration, Instant};

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Color, Table};
use prune_othello::perft::START_PERFT;
use prune_othello::{perft, Position};
use serde_json::json;

use crate::cells::{count, rate_text, right};
use crate::games::GameChoice;
use crate::positions::parse_position;
use crate::CliError;

/// The deepest perft allowed: the counts stay far below `u64::MAX` (and depth 20 would
/// already run for a very long time).
const MAX_DEPTH: u32 = 20;

/// Options of `prune perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game: `othello`, `connect4` (whose table also shows the distinct positions at each
    /// depth, checked from the empty board against OEIS A212693) or `shogi` (from the start
    /// position checked against the published counts).
    #[arg(long, short, default_value = "othello")]
    pub game: String,
    /// Count to this depth (every depth from 1 up is shown) [default: 11 for Othello, 8 for
    /// Connect Four, 4 for shogi].
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// The position: 64 squares (a1, b1, .., h8; `X`, `O`, `-`) and the side to move, such as
    /// `---------------------------OX------XO--------------------------- X`; for Connect Four
    /// the columns played, 1-7, such as `4453`; for shogi an SFEN or `startpos`. The start
    /// position by default.
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One depth's count.
struct Count {
    depth: u32,
    leaves: u64,
    time: Duration,
    /// The published count, from the start position.
    expected: Option<u64>,
}

impl Count {
    fn leaves_per_second(&self) -> Option<f64> {
        let s = self.time.as_secs_f64();
        (s > 0.0).then(|| self.leaves as f64 / s)
    }

    fn is_wrong(&self) -> bool {
        self.expected.is_some_and(|e| e != self.leaves)
    }
}

/// The default depth of Othello.
const DEFAULT_DEPTH: u32 = 11;

/// Runs `prune perft`.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let depth = |default: u32| {
        let depth = args.depth.unwrap_or(default);
        if (1..=MAX_DEPTH).contains(&depth) {
            Ok(depth)
        } else {
            Err(CliError::Usage(format!(
                "--depth must be 1 to {MAX_DEPTH}, got {depth}"
            )))
        }
    };
    match args.game.parse::<GameChoice>()? {
        GameChoice::Othello => {
            let position = parse_position(args.position.as_deref(), Position::START)?;
            let published = (position == Position::START).then_some(&START_PERFT[..]);
            count_and_report(
                args,
                &position.to_string(),
                depth(DEFAULT_DEPTH)?,
                published,
                |d| perft(&position, d),
            )
        }
        GameChoice::Shogi => {
            let start: prune_shogi::Position = prune_shogi::START_SFEN.parse().expect("valid");
            let position = parse_position(args.position.as_deref(), start.clone())?;
            let published = (position == start).then_some(&prune_shogi::START_PERFT[..]);
            count_and_report(
                args,
                &position.to_string(),
                depth(SHOGI_DEPTH)?,
                published,
                |d| prune_shogi::perft(&position, d),
            )
        }
        GameChoice::Connect4 => crate::connect4_cmd::perft::run(args),
        other => Err(CliError::Usage(format!(
            "--game {other}: prune perft counts othello, connect4 and shogi"
        ))),
    }
}

/// The default depth of shogi.
const SHOGI_DEPTH: u32 = 4;

/// Counts depth 1 to `depth` with `perft`, prints them (against the `published` counts, from
/// index 1, where there are), and fails if one differs.
fn count_and_report(
    args: &PerftArgs,
    position: &str,
    depth: u32,
    published: Option<&[u64]>,
    perft: impl Fn(u32) -> u64,
) -> Result<(), CliError> {
    let from_start = published.is_some();
    let counts: Vec<Count> = (1..=depth)
        .map(|depth| {
            let start = Instant::now();
            let leaves = perft(depth);
            Count {
                depth,
                leaves,
                time: start.elapsed(),
                expected: published.and_then(|p| p.get(depth as usize).copied()),
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
                    "leaves_per_second": c.leaves_per_second(),
                    "expected": c.expected,
                    "correct": c.expected.map(|e| e == c.leaves),
                })
            })
            .collect();
        let value = json!({
            "position": position,
            "depths": depths,
            "time_ms": total.as_secs_f64() * 1000.0,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON of plain data")
        );
    } else {
        print_table(position, &counts, total, from_start);
    }
    match counts.iter().find(|c| c.is_wrong()) {
        Some(c) => Err(CliError::Failure(format!(
            "perft {} is {}, but the published count is {}",
            c.depth,
            c.leaves,
            c.expected.unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

fn print_table(position: &str, counts: &[Count], total: Duration, from_start: bool) {
    println!("perft from {position}");
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec!["depth", "leaves", "time (s)", "leaves/s"];
    if from_start {
        header.push("published");
    }
    table.set_header(header);
    for c in counts {
        let mut row = vec![
            right(c.depth),
            count(c.leaves),
            right(format!("{:.3}", c.time.as_secs_f64())),
            right(rate_text(c.leaves_per_second())),
        ];
        if from_start {
            row.push(match c.expected {
                None => Cell::new("-"),
                Some(_) if c.is_wrong() => Cell::new("✗ WRONG").fg(Color::Red),
                Some(_) => Cell::new("✓"),
            });
        }
        table.add_row(row);
    }
    println!("{table}");
    println!("total time: {:.3} s", total.as_secs_f64());
}
