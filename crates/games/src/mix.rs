//! A seeded hash used to draw the synthetic trees' values deterministically.

/// Mixes `a` and `b` into a well-scrambled 64-bit value (SplitMix64's finaliser applied to a
/// combination of both).
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A value drawn uniformly from `lo..=hi` by `h`.
pub(crate) fn draw(h: u64, lo: i32, hi: i32) -> i32 {
    let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
    (i64::from(lo) + (h % span) as i64) as i32
}
