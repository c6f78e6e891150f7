//! Small deterministic pseudo-random generators and a hash mixer, for tests, synthetic trees,
//! self-play and shuffles. Not for cryptography.
//!
//! Three generators live here because pinned numbers depend on their exact sequences:
//! [`XorShift64Star`] draws the training games of `prune train` (its data must not change with
//! a refactoring), [`SplitMix64`] shuffles the openings of a seeded match, and [`XorShift64`]
//! drives the randomised tests. All three implement [`Rng`], which adds the common draws.

/// SplitMix64's increment, 2^64 divided by the golden ratio (odd): also a good multiplier to
/// spread a small seed over all 64 bits.
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output function: a bijection on `u64` with good avalanche (every input bit
/// changes about half the output bits).
#[inline]
pub const fn splitmix64_finalize(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Mixes `a` and `b` into a well-scrambled 64-bit value: [`splitmix64_finalize`] of a
/// combination of both. A stateless way to draw a value from a node's identity and a salt.
#[inline]
pub const fn mix(a: u64, b: u64) -> u64 {
    splitmix64_finalize(
        a.wrapping_add(b.wrapping_mul(GOLDEN_GAMMA))
            .wrapping_add(0x6a09_e667_f3bc_c909),
    )
}

/// A source of pseudo-random 64-bit values, with the draws built on them.
pub trait Rng {
    /// The next value of the sequence.
    fn next_u64(&mut self) -> u64;

    /// A value in `0..n` (`n` must not be zero; the slight bias of a remainder is accepted).
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A value in `[0, 1)`, from the top 53 bits of the next value.
    #[inline]
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `true` with probability `p` (from [`Rng::unit`]).
    #[inline]
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// SplitMix64 (Steele, Lea and Flood): a counter stepped by [`GOLDEN_GAMMA`] and passed
/// through [`splitmix64_finalize`]. Every seed, zero included, gives a full-period sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator whose state starts at `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
}

impl Rng for SplitMix64 {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        splitmix64_finalize(self.0)
    }
}

/// Marsaglia's xorshift64 with the shifts (13, 7, 17): the state is the value. The state must
/// never be zero, so a zero seed is replaced by [`GOLDEN_GAMMA`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// The generator whose state starts at `seed` (or [`GOLDEN_GAMMA`] if `seed` is zero).
    pub const fn new(seed: u64) -> XorShift64 {
        XorShift64(if seed == 0 { GOLDEN_GAMMA } else { seed })
    }
}

impl Rng for XorShift64 {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// xorshift64* (Vigna): the xorshift (12, 25, 27) state with its value multiplied on the way
/// out, which hides the weak low bits of plain xorshift.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// The generator seeded by `seed`: its state is `seed` times [`GOLDEN_GAMMA`], made odd
    /// (so never zero, and nearby seeds start far apart).
    pub const fn new(seed: u64) -> XorShift64Star {
        XorShift64Star(seed.wrapping_mul(GOLDEN_GAMMA) | 1)
    }
}

impl Rng for XorShift64Star {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first values of each generator, pinned: training data, seeded matches and test
    /// positions depend on these exact sequences.
    #[test]
    fn sequences_are_pinned() {
        let first = |rng: &mut dyn Rng| [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        // SplitMix64 from 1234567, as in Vigna's reference `splitmix64.c`.
        assert_eq!(
            first(&mut SplitMix64::new(1_234_567)),
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
        assert_eq!(
            first(&mut XorShift64::new(1)),
            [
                1_082_269_761,
                1_152_992_998_833_853_505,
                11_177_516_664_432_764_457
            ]
        );
        assert_eq!(
            first(&mut XorShift64Star::new(1)),
            [
                973_819_730_272_012_410,
                6_108_091_081_255_984_487,
                12_125_365_036_566_318_712
            ]
        );
    }

    #[test]
    fn a_zero_seed_does_not_stick_at_zero() {
        let mut rng = XorShift64::new(0);
        assert_ne!(rng.next_u64(), 0);
        let mut rng = XorShift64Star::new(0);
        assert_ne!(rng.next_u64(), 0);
    }

    #[test]
    fn draws_stay_in_range_and_cover_it() {
        let mut rng = XorShift64Star::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let heads = (0..10_000).filter(|_| rng.chance(0.25)).count();
        assert!((2200..2800).contains(&heads), "{heads}");
        assert!(!(0..1000).any(|_| rng.chance(0.0)));
        assert!((0..1000).all(|_| rng.chance(1.0)));
    }

    #[test]
    fn mix_separates_its_arguments() {
        assert_ne!(mix(1, 2), mix(2, 1));
        assert_ne!(mix(0, 0), 0);
        // The finaliser is a bijection: distinct inputs give distinct outputs.
        let mut outputs: Vec<u64> = (0..10_000).map(splitmix64_finalize).collect();
        outputs.sort_unstable();
        outputs.dedup();
        assert_eq!(outputs.len(), 10_000);
    }
}
