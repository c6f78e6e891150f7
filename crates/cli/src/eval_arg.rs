//! The `--eval` option of the Othello commands: `pattern` (the built-in trained weights, the
//! default), `hand` (the hand-made evaluation) or a weights file written by `prune train`, read
//! by the game registry ([`prune_registry::othello_eval`]).

use prune_othello::OthelloEval;
use prune_registry::GameError;

use crate::CliError;

/// The evaluation named by `spec`; `option` names the option in errors.
pub fn parse_eval(option: &str, spec: &str) -> Result<OthelloEval, CliError> {
    prune_registry::othello_eval(spec).map_err(|e| match e {
        GameError::Eval(m) => CliError::Usage(format!("{option} {m}")),
        e => CliError::Usage(format!("{option}: {e}")),
    })
}
