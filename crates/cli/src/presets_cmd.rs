//! `prune presets`: the named configurations `--preset` accepts.

use clap::Args;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use prune_search::{Algorithm, FailMode, Preset, SearchConfig, PRESETS};
use serde_json::{json, Value};

use crate::CliError;

/// The algorithm whose configuration is shown for each preset.
const SHOWN_FOR: Algorithm = Algorithm::AlphaBeta(FailMode::Soft);

/// Options of `prune presets`.
#[derive(Args, Debug)]
pub struct PresetsArgs {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A preset's enhancements and configuration for alpha-beta (every preset fits alpha-beta).
fn shown(preset: &Preset) -> Result<SearchConfig, CliError> {
    preset
        .config(SHOWN_FOR)
        .map_err(|e| CliError::Failure(format!("preset '{}': {e}", preset.name)))
}

/// Runs `prune presets`.
pub fn run(args: &PresetsArgs) -> Result<(), CliError> {
    if args.json {
        let presets = PRESETS
            .iter()
            .map(|p| {
                let config = shown(p)?;
                Ok(json!({
                    "name": p.name,
                    "summary": p.summary,
                    "enhancements": config.enhancements(),
                    "config": config,
                }))
            })
            .collect::<Result<Vec<Value>, CliError>>()?;
        println!(
            "{}",
            serde_json::to_string_pretty(&presets).expect("JSON of plain data")
        );
        return Ok(());
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(vec![
        "preset",
        "summary",
        &format!("turns on (for {SHOWN_FOR})"),
    ]);
    for p in PRESETS {
        let enhancements = shown(p)?.enhancements();
        let on = if enhancements.is_empty() {
            "-".to_string()
        } else {
            enhancements.join(", ")
        };
        table.add_row(vec![p.name, p.summary, &on]);
    }
    println!("{table}");
    println!("Use one with --preset NAME (search, solve); the switches add to it.");
    Ok(())
}
