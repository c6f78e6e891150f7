//! Pattern weights files: reading any bytes never panics, and weights read write back to bytes
//! that read as the same weights. When the first byte is odd the rest is wrapped in a valid
//! header (magic, version, length, checksum) so that the fuzzer reaches the payload reader.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use prune_othello::pattern::WEIGHTS_VERSION;
use prune_othello::{Board, PatternEval, PatternWeights};

/// FNV-1a, 64 bits: the payload checksum of the format (`pattern/file.rs`).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fuzz_target!(|data: &[u8]| {
    let bytes = match data.split_first() {
        Some((&flag, payload)) if flag & 1 == 1 => {
            let mut bytes = b"PRUNEPAT".to_vec();
            bytes.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
            bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&checksum(payload).to_le_bytes());
            bytes.extend_from_slice(payload);
            bytes
        }
        _ => data.to_vec(),
    };
    if let Ok(weights) = PatternWeights::from_bytes(&bytes) {
        let written = weights.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&written).as_ref(), Ok(&weights));
        let eval = PatternEval::new(Arc::new(weights));
        let _ = eval.evaluate_board(&Board::START);
    }
});
