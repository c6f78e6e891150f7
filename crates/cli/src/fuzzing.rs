//! The server's handling of request bodies, for the fuzz targets (`fuzz/fuzz_targets/
//! serve_request.rs`): each endpoint's body read and checked exactly as `prune serve` does,
//! short of running a search.

pub use crate::serve::board::{LegalMove, Outcome, View};
pub use crate::serve::fuzz_request as request;

/// The endpoints whose bodies [`request`] takes (`POST /api/{endpoint}`).
pub const ENDPOINTS: [&str; 4] = ["search", "position", "play", "tree"];
