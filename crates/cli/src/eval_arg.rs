//! The `--eval` option of the Othello commands: `pattern` (the built-in trained weights, the
//! default), `hand` (the hand-made evaluation) or a weights file written by `prune train`.

use std::sync::Arc;

use prune_othello::{OthelloEval, PatternEval, PatternWeights};

use crate::CliError;

/// The evaluation named by `spec`; `option` names the option in errors.
pub fn parse_eval(option: &str, spec: &str) -> Result<OthelloEval, CliError> {
    match spec.trim() {
        "pattern" => Ok(OthelloEval::default()),
        "hand" => Ok(OthelloEval::Hand),
        path => {
            let bytes = std::fs::read(path).map_err(|e| {
                CliError::Usage(format!(
                    "{option} {path}: not pattern or hand, and the file cannot be read: {e}"
                ))
            })?;
            let weights = PatternWeights::from_bytes(&bytes)
                .map_err(|e| CliError::Usage(format!("{option} {path}: {e}")))?;
            Ok(OthelloEval::Pattern(PatternEval::new(Arc::new(weights))))
        }
    }
}
