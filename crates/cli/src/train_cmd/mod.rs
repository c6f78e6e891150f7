//! `prune train`: learn the pattern evaluation's weights from self-play (see
//! `prune_othello::train` for the method). The work is saved in a folder as it goes, so an
//! interrupted run picks up where it stopped when started again with the same settings.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use prune_othello::pattern::{Classes, PHASE_WIDTH, WEIGHTS_VERSION};
use prune_othello::train::{fit_phases, TrainOptions};
use prune_othello::OthelloEval;

mod work;

use crate::eval_arg::parse_eval;
use serde_json::json;
use work::{
    failure, labels, play_blocks, positions, read_records_files, write_atomic, Records, BLOCK,
};

use crate::CliError;

/// The library's defaults, which the options show.
static DEFAULTS: std::sync::LazyLock<TrainOptions> =
    std::sync::LazyLock::new(TrainOptions::default);

/// Options of `prune train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Write the weights to this file.
    #[arg(long, value_name = "FILE", default_value = "weights.bin")]
    pub out: PathBuf,
    /// The folder for the run's intermediate results (positions, labels), reused to resume.
    #[arg(long, value_name = "DIR", default_value = "prune-train")]
    pub work: PathBuf,
    /// Self-play games (a number), or recorded games to learn from instead: WTHOR `.wtb` files
    /// (the FFO's database, whose theoretical scores from 24 empties label its games, or
    /// PlayOK's), read in the order given.
    #[arg(long, value_name = "N|FILES", num_args = 1.., default_value = "20000")]
    pub games: Vec<String>,
    /// The seed of every random choice.
    #[arg(long, default_value_t = DEFAULTS.seed)]
    pub seed: u64,
    /// Random opening moves per game: MIN-MAX.
    #[arg(long, value_name = "MIN-MAX", default_value = "2-20")]
    pub random_plies: String,
    /// How the opening moves are drawn: 0, uniformly; T > 0 (with --play-depth), each with a
    /// probability proportional to exp(value / T), its value in discs by a search one ply
    /// shallower than --play-depth, so that openings vary but stay sound.
    #[arg(long, value_name = "T", default_value_t = DEFAULTS.opening_temperature)]
    pub opening_temperature: f32,
    /// The chance of a random move after the opening (with --play-depth, only where positions
    /// are solved: from --exact-empties on).
    #[arg(long, default_value_t = DEFAULTS.noise)]
    pub noise: f64,
    /// How the games are played after the opening: 0, a one-ply look at the hand-made
    /// evaluation (the first generation); more, a search of this many plies with --player's
    /// weights, then the exact solver from --exact-empties on (the second).
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULTS.play_depth)]
    pub play_depth: u32,
    /// The weights the games are played with (with --play-depth): pattern (the built-in
    /// ones) or a weights file.
    #[arg(long, value_name = "WEIGHTS", default_value = "pattern")]
    pub player: String,
    /// Positions with at most this many empties are labelled by exact solves.
    #[arg(long, value_name = "N", default_value_t = DEFAULTS.exact_empties)]
    pub exact_empties: u32,
    /// The depth of the labelling search of earlier positions (0: no search, the games'
    /// outcomes alone).
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULTS.search_depth)]
    pub search_depth: u32,
    /// Label with the mean of the search's values at --search-depth and one ply deeper, whose
    /// errors from the side to move's tempo have opposite signs.
    #[arg(long)]
    pub average_depths: bool,
    /// The share of an earlier position's target taken from the outcome of its games (with
    /// --play-depth; the rest from the labelling search).
    #[arg(long, value_name = "W", default_value_t = DEFAULTS.outcome_weight)]
    pub outcome_weight: f32,
    /// The outcome's share fades from --outcome-weight at this many empties to nothing at the
    /// start (linearly; 0: no fading). For recorded games, 24: their outcomes are exact play
    /// from 24 empties, and the players' mistakes blur them the further back a position is.
    #[arg(long, value_name = "EMPTIES", default_value_t = DEFAULTS.outcome_fade)]
    pub outcome_fade: u32,
    /// With recorded games: each position also gives one child off the game's path (after a
    /// move that was not played), labelled by a solve or the search, so that the fit sees
    /// positions after poor moves too.
    #[arg(long)]
    pub children: bool,
    /// Gradient-descent passes per phase.
    #[arg(long, default_value_t = DEFAULTS.epochs)]
    pub epochs: usize,
    /// The ridge penalty on the weights (in squared discs per squared disc of error).
    #[arg(long, default_value_t = DEFAULTS.l2)]
    pub l2: f32,
    /// What the ridge penalty pulls the weights toward: zero, or the weights of the phase
    /// fitted before (previous), so that phases change smoothly.
    #[arg(long, value_name = "zero|previous", default_value = "zero")]
    pub l2_toward: String,
    /// The evaluation's bias: one per number of empties (per-empties), or one per phase
    /// (per-phase), which cannot learn which colour the games favoured (the parity of the
    /// empties tells the colours apart).
    #[arg(
        long,
        value_name = "per-empties|per-phase",
        default_value = "per-empties"
    )]
    pub bias: String,
    /// Refine these weights (pattern, the built-in ones, or a weights file) instead of fitting
    /// from nothing: the phases below --refit-from empties are kept as they are, and each
    /// phase from there starts from (and with --l2-toward previous is pulled toward) its own
    /// weights here.
    #[arg(long, value_name = "WEIGHTS")]
    pub base: Option<String>,
    /// With --base: the first number of empties fitted again (a multiple of the phase width, 4).
    #[arg(long, value_name = "EMPTIES")]
    pub refit_from: Option<u32>,
    /// One game in this many is held out to measure the fit.
    #[arg(long, value_name = "N", default_value_t = DEFAULTS.holdout_every)]
    pub holdout_every: usize,
    /// Self-play and labelling threads [default: all cores]; the results do not depend on them.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Only play these blocks of 1,000 games (numbered from 0) into the work folder, then stop
    /// (with --play-depth): to spread the self-play over machines, run each on its own blocks
    /// with the same settings, then put the `games-*.txt` files in one folder and run without it.
    #[arg(long, value_name = "FIRST-LAST")]
    pub play_blocks: Option<String>,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Where the training positions come from.
enum Source {
    /// Self-play games, this many.
    SelfPlay(usize),
    /// Recorded games in these files.
    Records(Vec<PathBuf>),
}

impl TrainArgs {
    fn source(&self) -> Result<Source, CliError> {
        match self.games.as_slice() {
            [one] if one.trim().parse::<usize>().is_ok() => {
                let n = one.trim().parse::<usize>().expect("checked");
                if n == 0 || n > 10_000_000 {
                    return Err(CliError::Usage(
                        "--games: expected 1 to 10,000,000 self-play games, or game files".into(),
                    ));
                }
                Ok(Source::SelfPlay(n))
            }
            files => Ok(Source::Records(files.iter().map(PathBuf::from).collect())),
        }
    }

    fn options(&self) -> Result<TrainOptions, CliError> {
        let usage = |msg: String| CliError::Usage(msg);
        let records = matches!(self.source()?, Source::Records(_));
        if records && self.play_depth > 0 {
            return Err(usage(
                "--play-depth plays self-play games: with recorded games (--games FILES) no \
                 game is played"
                    .into(),
            ));
        }
        if records && self.play_blocks.is_some() {
            return Err(usage(
                "--play-blocks plays self-play games: with recorded games (--games FILES) no \
                 game is played"
                    .into(),
            ));
        }
        if self.children && !records {
            return Err(usage(
                "--children needs recorded games (--games FILES): self-play already plays \
                 random moves"
                    .into(),
            ));
        }
        if self.outcome_fade >= 60 {
            return Err(usage(format!(
                "--outcome-fade {}: expected 0 (none) to 59 empties",
                self.outcome_fade
            )));
        }
        let (low, high) = self
            .random_plies
            .split_once('-')
            .and_then(|(a, b)| Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?)))
            .filter(|&(a, b)| a <= b && b <= 60)
            .ok_or_else(|| {
                usage(format!(
                    "--random-plies '{}': expected MIN-MAX with MIN <= MAX <= 60",
                    self.random_plies
                ))
            })?;
        if !(0.0..=64.0).contains(&self.opening_temperature) {
            return Err(usage(format!(
                "--opening-temperature {}: expected 0 (uniform) to 64 discs",
                self.opening_temperature
            )));
        }
        if self.opening_temperature > 0.0 && self.play_depth == 0 {
            return Err(usage(
                "--opening-temperature needs --play-depth (its values come from the player's \
                 search)"
                    .into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.noise) {
            return Err(usage(format!("--noise {}: expected 0 to 1", self.noise)));
        }
        if (self.search_depth != 0 && self.search_depth < PHASE_WIDTH) || self.search_depth > 20 {
            return Err(usage(format!(
                "--search-depth {}: expected 0 (none) or {PHASE_WIDTH} (a phase's width, so that \
                 the search's leaves lie in phases already fitted) to 20",
                self.search_depth
            )));
        }
        if self.play_depth > 20 {
            return Err(usage(format!(
                "--play-depth {}: expected 0 to 20",
                self.play_depth
            )));
        }
        if !(0.0..=1.0).contains(&self.outcome_weight) {
            return Err(usage(format!(
                "--outcome-weight {}: expected 0 to 1",
                self.outcome_weight
            )));
        }
        if self.average_depths && self.search_depth == 0 {
            return Err(usage(
                "--average-depths needs a labelling search (--search-depth)".into(),
            ));
        }
        if self.play_depth == 0 && self.search_depth == 0 && !records {
            return Err(usage(
                "--search-depth 0 needs --play-depth: only the second generation's games have \
                 outcomes to label the earlier positions with"
                    .into(),
            ));
        }
        let player = trained("--player", &self.player)?;
        let (base, refit_from) = match (&self.base, self.refit_from) {
            (None, None) => (None, 0),
            (Some(base), Some(from)) => {
                if from % PHASE_WIDTH != 0 || from == 0 || from >= 60 {
                    return Err(usage(format!(
                        "--refit-from {from}: expected a multiple of {PHASE_WIDTH} from \
                         {PHASE_WIDTH} to 56 (the first empties of a phase)"
                    )));
                }
                if self.search_depth == 0 {
                    return Err(usage(
                        "--base: the refitted phases are labelled by a search (--search-depth)"
                            .into(),
                    ));
                }
                (Some(trained("--base", base)?), from)
            }
            (Some(_), None) => {
                return Err(usage(
                    "--base needs --refit-from (the first number of empties fitted again)".into(),
                ))
            }
            (None, Some(_)) => {
                return Err(usage(
                    "--refit-from needs --base (the weights whose earlier phases are kept)".into(),
                ))
            }
        };
        if self.exact_empties > 24 {
            return Err(usage("--exact-empties: at most 24".into()));
        }
        if self.holdout_every < 2 {
            return Err(usage("--holdout-every: at least 2".into()));
        }
        if !(0.0..=1e6).contains(&self.l2) {
            return Err(usage(format!("--l2 {}: expected 0 to 1,000,000", self.l2)));
        }
        if self.epochs > 100_000 {
            return Err(usage("--epochs: at most 100,000".into()));
        }
        let l2_toward_previous = either("--l2-toward", &self.l2_toward, ["zero", "previous"])?;
        let bias_per_phase = either("--bias", &self.bias, ["per-empties", "per-phase"])?;
        let threads = match self.threads {
            Some(0) => return Err(usage("--threads: at least 1".into())),
            Some(n) => n.min(256),
            None => TrainOptions::default().threads,
        };
        Ok(TrainOptions {
            seed: self.seed,
            games: match self.source()? {
                Source::SelfPlay(n) => n,
                Source::Records(_) => 0,
            },
            random_plies: (low, high),
            opening_temperature: self.opening_temperature,
            noise: self.noise,
            play_depth: self.play_depth,
            player: Some(player),
            exact_empties: self.exact_empties,
            search_depth: self.search_depth,
            outcome_weight: self.outcome_weight,
            outcome_fade: self.outcome_fade,
            children: self.children,
            average_depths: self.average_depths,
            holdout_every: self.holdout_every,
            epochs: self.epochs,
            l2: self.l2,
            l2_toward_previous,
            bias_per_phase,
            base,
            refit_from,
            threads,
        })
    }
}

/// The trained weights `spec` names for `option` (pattern or a weights file; not hand).
fn trained(
    option: &str,
    spec: &str,
) -> Result<std::sync::Arc<prune_othello::pattern::PatternWeights>, CliError> {
    match parse_eval(option, spec)? {
        OthelloEval::Pattern(p) => Ok(p.weights().clone()),
        OthelloEval::Hand => Err(CliError::Usage(format!(
            "{option} hand: expected trained weights (pattern or a weights file)"
        ))),
    }
}

/// FNV-1a, 64 bits: the fingerprint of the playing weights in the settings.
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Which of two names `value` is (`false` for the first), or a usage error naming `option`.
fn either(option: &str, value: &str, names: [&str; 2]) -> Result<bool, CliError> {
    match names.iter().position(|&n| n == value.trim()) {
        Some(i) => Ok(i == 1),
        None => Err(CliError::Usage(format!(
            "{option} '{value}': expected {} or {}",
            names[0], names[1]
        ))),
    }
}

/// The settings of a run on recorded games: the files (by name, size and fingerprint) and the
/// labelling and fitting settings (the self-play ones do not apply).
fn record_settings(o: &TrainOptions, records: &Records) -> serde_json::Value {
    let mut settings = json!({
        "weights_version": WEIGHTS_VERSION,
        "records": records.files.iter().map(|(path, fnv, bytes)| json!({
            "file": path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned()),
            "bytes": bytes,
            "fnv": format!("{fnv:016x}"),
        })).collect::<Vec<_>>(),
        "exact_empties": o.exact_empties,
        "search_depth": o.search_depth,
        "average_depths": o.average_depths,
        "outcome_weight": o.outcome_weight,
        "outcome_fade": o.outcome_fade,
        "holdout_every": o.holdout_every,
        "epochs": o.epochs,
        "l2": o.l2,
        "l2_toward": if o.l2_toward_previous { "previous" } else { "zero" },
        "bias": if o.bias_per_phase { "per-phase" } else { "per-empties" },
    });
    if let Some(base) = &o.base {
        settings["base"] = json!(format!("{:016x}", fingerprint(&base.to_bytes())));
        settings["refit_from"] = json!(o.refit_from);
    }
    if o.children {
        settings["children"] = json!(true);
    }
    settings
}

/// The settings that determine the run's results (not the threads), as saved in the folder.
fn settings(o: &TrainOptions) -> serde_json::Value {
    let mut settings = json!({
        "weights_version": WEIGHTS_VERSION,
        "seed": o.seed,
        "games": o.games,
        "random_plies": [o.random_plies.0, o.random_plies.1],
        "noise": o.noise,
        "exact_empties": o.exact_empties,
        "search_depth": o.search_depth,
        "holdout_every": o.holdout_every,
        "epochs": o.epochs,
        "l2": o.l2,
    });
    // The newer settings only when the second generation or a value other than the default
    // asks for them, so that a first-generation folder keeps its settings (and a run with
    // another fit is still told apart from it).
    if o.play_depth > 0 || o.bias_per_phase {
        settings["bias"] = json!(if o.bias_per_phase {
            "per-phase"
        } else {
            "per-empties"
        });
    }
    if o.play_depth > 0 || o.l2_toward_previous {
        settings["l2_toward"] = json!(if o.l2_toward_previous {
            "previous"
        } else {
            "zero"
        });
    }
    if o.average_depths {
        settings["average_depths"] = json!(true);
    }
    if o.outcome_fade > 0 {
        settings["outcome_fade"] = json!(o.outcome_fade);
    }
    if o.opening_temperature > 0.0 {
        settings["opening_temperature"] = json!(o.opening_temperature);
    }
    if let Some(base) = &o.base {
        settings["base"] = json!(format!("{:016x}", fingerprint(&base.to_bytes())));
        settings["refit_from"] = json!(o.refit_from);
    }
    if o.play_depth > 0 {
        settings["play_depth"] = json!(o.play_depth);
        settings["outcome_weight"] = json!(o.outcome_weight);
        if let Some(player) = &o.player {
            settings["player"] = json!(format!("{:016x}", fingerprint(&player.to_bytes())));
        }
    }
    settings
}

/// Runs `prune train`.
pub fn run(args: &TrainArgs) -> Result<(), CliError> {
    let mut options = args.options()?;
    let records = match args.source()? {
        Source::Records(paths) => {
            let records = read_records_files(&paths)?;
            options.games = records.games.iter().map(|f| f.games.len()).sum();
            Some(records)
        }
        Source::SelfPlay(_) => None,
    };
    let blocks = match &args.play_blocks {
        None => None,
        Some(text) => {
            let range = text
                .split_once('-')
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?))
                })
                .filter(|&(a, b)| a <= b && b < u32::MAX / BLOCK)
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "--play-blocks '{text}': expected FIRST-LAST block numbers with FIRST <= LAST"
                    ))
                })?;
            if options.play_depth == 0 {
                return Err(CliError::Usage(
                    "--play-blocks needs --play-depth (the first generation plays in one \
                     sequence)"
                        .into(),
                ));
            }
            Some(range)
        }
    };
    let start = Instant::now();
    let work = &args.work;
    fs::create_dir_all(work).map_err(|e| failure(work, "cannot create the folder", e))?;
    let settings_path = work.join("settings.json");
    let wanted = match &records {
        Some(records) => record_settings(&options, records),
        None => settings(&options),
    };
    if settings_path.exists() {
        let text = fs::read_to_string(&settings_path)
            .map_err(|e| failure(&settings_path, "cannot read", e))?;
        let found: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| failure(&settings_path, "not valid JSON", e))?;
        if found != wanted {
            return Err(CliError::Usage(format!(
                "{} holds a run with other settings ({found}); give another --work folder or \
                 delete it",
                work.display()
            )));
        }
        if !args.quiet {
            eprintln!("resuming the run in {}", work.display());
        }
    } else {
        write_atomic(&settings_path, format!("{wanted:#}\n").as_bytes())?;
    }

    if let Some((first, last)) = blocks {
        let games = play_blocks(work, &options, first..last + 1, args.quiet)?;
        let positions: usize = games.iter().map(Vec::len).sum();
        println!(
            "blocks {first}-{last} ({positions} positions) in {} in {:.1} s",
            work.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let samples = positions(work, &options, records.as_ref(), args.quiet)?;
    let provenance = format!(
        "prune train, settings {wanted}; {} positions; {} classes per phase",
        samples.len(),
        Classes::get().count,
    );
    let (weights, reports) = fit_phases(
        &samples,
        &options,
        &provenance,
        |phase, mine, model| labels(work, phase, mine, model, &options, args.quiet),
        |report| {
            if !args.quiet {
                eprintln!(
                    "phase {:2} ({:2}-{:2} empties): {} positions, held-out error {:.2} -> {:.2} discs",
                    report.phase,
                    report.phase as u32 * PHASE_WIDTH,
                    (report.phase as u32 + 1) * PHASE_WIDTH - 1,
                    report.train + report.holdout,
                    report.holdout_mae_before,
                    report.holdout_mae
                );
            }
        },
    )?;
    let bytes = weights.to_bytes();
    write_atomic(&args.out, &bytes)?;
    let report_json = json!({
        "settings": wanted,
        "positions": samples.len(),
        "weights": args.out.display().to_string(),
        "bytes": bytes.len(),
        "phases": reports.iter().map(|r| json!({
            "phase": r.phase,
            "empties": [r.phase as u32 * PHASE_WIDTH, (r.phase as u32 + 1) * PHASE_WIDTH - 1],
            "train": r.train,
            "holdout": r.holdout,
            "holdout_mae_before": r.holdout_mae_before,
            "train_mae": r.train_mae,
            "holdout_mae": r.holdout_mae,
        })).collect::<Vec<_>>(),
    });
    write_atomic(
        &work.join("report.json"),
        format!("{report_json:#}\n").as_bytes(),
    )?;

    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "phase",
        "empties",
        "train",
        "held out",
        "train MAE",
        "held-out MAE",
        "(before)",
    ]);
    for r in &reports {
        let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
        table.add_row(vec![
            right(r.phase.to_string()),
            right(format!(
                "{}-{}",
                r.phase as u32 * PHASE_WIDTH,
                (r.phase as u32 + 1) * PHASE_WIDTH - 1
            )),
            right(r.train.to_string()),
            right(r.holdout.to_string()),
            right(format!("{:.2}", r.train_mae)),
            right(format!("{:.2}", r.holdout_mae)),
            right(format!("{:.2}", r.holdout_mae_before)),
        ]);
    }
    println!("{table}");
    println!(
        "mean absolute errors in discs; '(before)' is the held-out error of the starting weights \
         (the previous phase's)"
    );
    println!(
        "{} positions, {} bytes written to {} in {:.1} s",
        samples.len(),
        bytes.len(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
