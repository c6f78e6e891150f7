//! `prune mate`: tsume-shogi, the mate solver on SFEN positions given on the command line or in
//! a file (one per line: a bare SFEN, or the suites' `id<TAB>sfen<TAB>plies<TAB>solution`
//! lines, whose stated length is then checked).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use prune_shogi::mate::{
    solve_and_audit, solve_mate, LineAudit, MateConfig, MateOutcome, MateReport, MateRules,
};
use prune_shogi::{Move, Position};
use serde_json::json;

use crate::cells::{count, right};
use crate::CliError;

/// Options of `prune mate`.
#[derive(Args, Debug)]
pub struct MateArgs {
    /// The game: only shogi has a mate solver.
    #[arg(long, default_value = "shogi")]
    pub game: String,
    /// Positions as SFEN (quoted: an SFEN has spaces), the attacker to move.
    #[arg(value_name = "SFEN")]
    pub sfens: Vec<String>,
    /// A file of positions: one per line, a bare SFEN or `id<TAB>sfen<TAB>plies<TAB>...`
    /// (the format of the tsume suites); empty lines and lines starting with `#` are skipped.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Seconds each position may take (default: no limit but the nodes).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Nodes each position may search.
    #[arg(long, default_value_t = MateConfig::default().max_nodes)]
    pub nodes: u64,
    /// The longest mate looked for, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = MateConfig::default().max_plies)]
    pub max_plies: u16,
    /// Stop at the first mate found instead of shortening it to the shortest.
    #[arg(long)]
    pub first: bool,
    /// What counts as mate: `strict` (the game's rules: every interposition is a defence, a
    /// mate ends in checkmate) or `tsume` (the problem convention: a futile drop, taken by
    /// the checker and the mate going on without the piece, is not counted, and a check answered
    /// only by such drops is mate; published problems count so).
    #[arg(long, default_value = "strict", value_name = "RULES")]
    pub rules: String,
    /// With `--rules tsume`, the modern convention's two-ply rule: a defence two plies longer
    /// than another that leaves the attacker pieces in hand at the end, where the other
    /// leaves none, is not the main line (2手変長駒余り); the length is counted along the
    /// main line. Without it the longest defence is taken, as the test suites count.
    #[arg(long)]
    pub two_ply_rule: bool,
    /// Read each problem's published line (the file's fourth field) against the solver:
    /// the plies where it is not best play (the attacker's move not a shortest mate, the
    /// defender's not a longest defence) and how each changes the count, so that a length
    /// that differs from the stated one is accounted for. Needs the shortest mate (not
    /// `--first`).
    #[arg(long)]
    pub audit: bool,
    /// Only the first N positions of the file.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// One JSON object per position instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Threads for the searches within a ply limit that shorten the mate and read its line
    /// (the first search runs on one): an attacker's node's checks shared out once such a
    /// search has run a while. 1 gives node counts that are the same from run to run
    /// [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// A position to solve: its name, the SFEN, and the length and line its source states, if
/// any.
struct Problem {
    id: String,
    sfen: String,
    stated: Option<usize>,
    /// The source's line (USI moves, space-separated); `None` where there is none (`-`,
    /// `nomate` or no fourth field).
    solution: Option<String>,
}

/// Reads `text` (a file's lines) as problems; an error names the line.
fn problems_in(text: &str, file: &str) -> Result<Vec<Problem>, CliError> {
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let problem = if fields.len() >= 3 {
            let stated = fields[2].trim().parse::<usize>().map_err(|_| {
                CliError::Usage(format!(
                    "{file}:{}: the third field should be the mate's plies, got '{}'",
                    i + 1,
                    fields[2]
                ))
            })?;
            let solution = fields
                .get(3)
                .map(|f| f.trim())
                .filter(|f| !f.is_empty() && *f != "-" && *f != "nomate")
                .map(str::to_string);
            Problem {
                id: fields[0].to_string(),
                sfen: fields[1].to_string(),
                stated: Some(stated),
                solution,
            }
        } else {
            Problem {
                id: format!("{file}:{}", i + 1),
                sfen: fields[0].trim().to_string(),
                stated: None,
                solution: None,
            }
        };
        problems.push(problem);
    }
    Ok(problems)
}

/// Runs `prune mate`.
pub fn run(args: &MateArgs) -> Result<(), CliError> {
    if !args.game.trim().eq_ignore_ascii_case("shogi") {
        return Err(CliError::Usage(format!(
            "--game: only shogi has a mate solver, got '{}' (other games are proved with \
             `prune search --algorithm dfpn`)",
            args.game
        )));
    }
    let mut problems: Vec<Problem> = args
        .sfens
        .iter()
        .enumerate()
        .map(|(i, sfen)| Problem {
            id: format!("#{}", i + 1),
            sfen: sfen.clone(),
            stated: None,
            solution: None,
        })
        .collect();
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("--file {}: {e}", path.display())))?;
        problems.extend(problems_in(&text, &path.display().to_string())?);
    }
    if let Some(limit) = args.limit {
        problems.truncate(limit);
    }
    if problems.is_empty() {
        return Err(CliError::Usage(
            "no position: give SFENs or --file FILE".to_string(),
        ));
    }
    // Every position is read before any is solved: a typo is reported at once.
    let mut positions = Vec::new();
    for p in &problems {
        let position: Position = p
            .sfen
            .parse()
            .map_err(|e| CliError::Usage(format!("{}: '{}': {e}", p.id, p.sfen)))?;
        positions.push(position);
    }
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(CliError::Usage(format!(
                "--time: expected a positive number of seconds, got {t}"
            )))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let rules: MateRules = args
        .rules
        .parse()
        .map_err(|e| CliError::Usage(format!("--rules: {e}")))?;
    if args.two_ply_rule && rules != MateRules::Tsume {
        return Err(CliError::Usage(
            "--two-ply-rule: the rule is the tsume convention's; give --rules tsume too"
                .to_string(),
        ));
    }
    if args.audit && args.first {
        return Err(CliError::Usage(
            "--audit: a line is read against the shortest mate; drop --first".to_string(),
        ));
    }
    let config = MateConfig {
        max_nodes: args.nodes,
        time,
        max_plies: args.max_plies,
        shortest: !args.first,
        rules,
        two_ply_rule: args.two_ply_rule,
        threads: match args.threads {
            Some(0) => {
                return Err(CliError::Usage(
                    "--threads: expected at least 1".to_string(),
                ))
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        ..MateConfig::default()
    };
    // Every problem on one thread with the solver's stack.
    prune_shogi::mate::with_mate_stack(|| solve_all(args, &problems, &positions, &config))
}

/// Solves `problems` (read as `positions`) one by one, printing each as it is settled.
fn solve_all(
    args: &MateArgs,
    problems: &[Problem],
    positions: &[Position],
    config: &MateConfig,
) -> Result<(), CliError> {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
        "position", "result", "plies", "stated", "nodes", "time", "line",
    ]);
    let mut summary = Summary::default();
    let mut audits = Vec::new();
    for (problem, position) in problems.iter().zip(positions) {
        let start = Instant::now();
        let solved = solve_one(args, problem, position, config);
        let elapsed = start.elapsed();
        let (report, audit) = match solved {
            Ok(r) => r,
            Err(e) if problems.len() == 1 => return Err(e),
            Err(CliError::Usage(msg) | CliError::Failure(msg)) => {
                // One bad position of a file: said, and the others solved.
                eprintln!("error: {msg}");
                summary.refused += 1;
                continue;
            }
        };
        summary.add(&report, problem.stated, elapsed);
        summary.add_audit(audit.as_ref(), args.audit && problem.solution.is_some());
        let line = line_text(&report.line);
        if args.json {
            println!(
                "{}",
                json!({
                    "id": problem.id,
                    "sfen": problem.sfen,
                    "result": outcome_name(report.outcome),
                    "plies": (report.outcome == MateOutcome::Mate).then_some(report.plies),
                    "shortest": report.shortest,
                    "in_hand": report.in_hand,
                    "rules": config.rules.name(),
                    "stated": problem.stated,
                    "nodes": report.nodes,
                    "entries": report.entries,
                    "splits": report.splits,
                    "seconds": elapsed.as_secs_f64(),
                    "line": line,
                    "audit": audit.as_ref().map(audit_json),
                })
            );
        } else {
            table.add_row(vec![
                problem.id.clone().into(),
                outcome_name(report.outcome).into(),
                right(plies_text(&report)),
                right(problem.stated.map_or("-".to_string(), |s| s.to_string())),
                count(report.nodes),
                right(format!("{:.3} s", elapsed.as_secs_f64())),
                shorten(&line, 60).into(),
            ]);
            if let Some(audit) = &audit {
                audits.push(audit_text(problem, audit));
            }
        }
    }
    if !args.json {
        println!("{table}");
        if !audits.is_empty() {
            println!("The sources' lines against best play (1: the first ply):");
            for text in &audits {
                println!("{text}");
            }
        }
        summary.print(config.rules);
    }
    Ok(())
}

/// Solves one problem, and with `--audit` reads its source's line against the solver; an
/// error names the problem (and the line's ply where its move is wrong).
fn solve_one(
    args: &MateArgs,
    problem: &Problem,
    position: &Position,
    config: &MateConfig,
) -> Result<(MateReport, Option<LineAudit>), CliError> {
    let named = |e: String| CliError::Usage(format!("{}: {e}", problem.id));
    let Some(solution) = problem.solution.as_ref().filter(|_| args.audit) else {
        let report = solve_mate(position, config, None).map_err(|e| named(e.to_string()))?;
        return Ok((report, None));
    };
    let mut here = position.clone();
    let mut line = Vec::new();
    for (ply, text) in solution.split_whitespace().enumerate() {
        let mv = here
            .parse_move(text)
            .map_err(|e| named(format!("the source's line, ply {}: '{text}': {e}", ply + 1)))?;
        here = here.play(mv);
        line.push(mv);
    }
    solve_and_audit(position, config, &line, None).map_err(|e| named(e.to_string()))
}

/// Moves in USI notation, space-separated.
fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An audit as JSON (plies counted from 1).
fn audit_json(audit: &LineAudit) -> serde_json::Value {
    let deviations: Vec<_> = audit
        .deviations
        .iter()
        .map(|d| {
            json!({
                "ply": d.ply + 1,
                "side": d.side(),
                "move": d.played.to_string(),
                "length": d.length,
                "best": d.best,
                "better": d.better.map(|m| m.to_string()),
            })
        })
        .collect();
    json!({
        "length": audit.length,
        "complete": audit.complete,
        "deviations": deviations,
    })
}

/// An audit in words: the problem, the lengths, and each ply where the line departs from best
/// play with what that changes.
fn audit_text(problem: &Problem, audit: &LineAudit) -> String {
    let length = audit.length.map_or("?".to_string(), |n| n.to_string());
    let stated = problem.stated.map_or("-".to_string(), |n| n.to_string());
    let mut text = format!("{}: stated {stated}, best play {length}", problem.id);
    if audit.deviations.is_empty() && audit.complete {
        text.push_str(": the line is best play throughout");
    }
    for d in &audit.deviations {
        let change = d.length as i64 - d.best as i64;
        text.push_str(&format!(
            "; ply {} ({}) {}: {} plies to mate, best {}{} ({change:+})",
            d.ply + 1,
            d.side(),
            d.played,
            d.length,
            d.best,
            d.better.map_or(String::new(), |m| format!(" by {m}")),
        ));
    }
    if !audit.complete {
        text.push_str("; not finished within the limits");
    }
    text
}

/// The outcome in words.
fn outcome_name(outcome: MateOutcome) -> &'static str {
    match outcome {
        MateOutcome::Mate => "mate",
        MateOutcome::NoMate => "no mate",
        MateOutcome::Unknown => "unknown",
    }
}

/// The mate's plies, marked `≤` when not known to be the shortest.
fn plies_text(report: &MateReport) -> String {
    match report.outcome {
        MateOutcome::Mate if report.shortest => report.plies.to_string(),
        MateOutcome::Mate => format!("≤{}", report.plies),
        _ => "-".to_string(),
    }
}

/// `text` cut to `width` characters with an ellipsis.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// The totals of a run.
#[derive(Default)]
struct Summary {
    positions: usize,
    mates: usize,
    no_mates: usize,
    refused: usize,
    /// Mates whose length the source states: as stated, and those that differ.
    as_stated: usize,
    differ: Vec<String>,
    nodes: u64,
    total: Duration,
    longest: Duration,
    /// Sources' lines asked to be audited; of those, read to the end: as best play
    /// throughout, and departing from it.
    audits_asked: usize,
    best_play: usize,
    departing: usize,
}

impl Summary {
    fn add(&mut self, report: &MateReport, stated: Option<usize>, elapsed: Duration) {
        self.positions += 1;
        self.nodes += report.nodes;
        self.total += elapsed;
        self.longest = self.longest.max(elapsed);
        match report.outcome {
            MateOutcome::Mate => self.mates += 1,
            MateOutcome::NoMate => self.no_mates += 1,
            MateOutcome::Unknown => {}
        }
        if let Some(stated) = stated {
            let found = match report.outcome {
                MateOutcome::Mate => report.plies,
                _ => 0,
            };
            if found == stated && (report.shortest || found == 0) {
                self.as_stated += 1;
            } else {
                self.differ.push(format!("{found} (stated {stated})"));
            }
        }
    }

    /// Counts an audit (`asked`: one was asked for this problem).
    fn add_audit(&mut self, audit: Option<&LineAudit>, asked: bool) {
        self.audits_asked += usize::from(asked);
        if let Some(audit) = audit.filter(|a| a.complete) {
            if audit.deviations.is_empty() {
                self.best_play += 1;
            } else {
                self.departing += 1;
            }
        }
    }

    fn print(&self, rules: MateRules) {
        let n = self.positions.max(1) as f64;
        println!(
            "{} positions: {} mates, {} no mate, {} unknown{}; time mean {:.3} s, max {:.3} s; \
             {} nodes; {} rules",
            self.positions,
            self.mates,
            self.no_mates,
            self.positions - self.mates - self.no_mates,
            if self.refused > 0 {
                format!(", {} refused", self.refused)
            } else {
                String::new()
            },
            self.total.as_secs_f64() / n,
            self.longest.as_secs_f64(),
            self.nodes,
            rules.name()
        );
        if self.as_stated + self.differ.len() > 0 {
            println!(
                "lengths as the source states: {} of {} ({})",
                self.as_stated,
                self.as_stated + self.differ.len(),
                match rules {
                    MateRules::Strict => "strict rules: every interposition counts",
                    MateRules::Tsume => "tsume rules: futile drops do not count",
                }
            );
        }
        if self.audits_asked > 0 {
            println!(
                "sources' lines audited: {} of {} read to the end, {} of them best play \
                 throughout, {} departing from it (the rest: not shown shortest, or the limits)",
                self.best_play + self.departing,
                self.audits_asked,
                self.best_play,
                self.departing
            );
        }
    }
}
