//! Drawing the synthetic trees' values deterministically from a seeded hash ([`mix`], whose
//! home is [`prune_search::rng`]).

pub use prune_search::rng::mix;

/// A value drawn uniformly from `lo..=hi` by `h`.
pub(crate) fn draw(h: u64, lo: i32, hi: i32) -> i32 {
    let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
    (i64::from(lo) + (h % span) as i64) as i32
}
