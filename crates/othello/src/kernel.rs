//! The kernel of Othello's engines: the node functions of the exact solver, the midgame search
//! and perft compiled once per instruction set, the best one the CPU has picked at run time.
//!
//! The node functions ([`Shared::node`], [`shallow_node`]) are written once, generic over a
//! [`Kernel`], and marked `#[inline(always)]`: each kernel's recursion entry points inline
//! them, so the whole node, with the bit operations it calls, is compiled with that kernel's
//! target features. Recursion goes back through the kernel, which keeps it in the same
//! instruction set.
//!
//! * [`Portable`]: whatever the build targets (x86-64-v2 by the workspace's
//!   `.cargo/config.toml`: `popcnt`, but no `lzcnt` and no BMI2).
//! * `X86V3` (x86-64 only): AVX2, BMI1, BMI2, LZCNT and POPCNT, the part of the x86-64-v3 level
//!   that the solver uses (Intel Haswell, AMD Zen and later; not the Atom-class Pentium and
//!   Celeron chips). A value exists only after `X86V3::detect` found these features on the
//!   CPU, so its unsafe calls of the target-feature functions are sound.
//! * `X86V4` (x86-64 only, where the compiler has AVX-512: Rust 1.89 or later, see the
//!   crate's build script): the x86-64-v4 level, AVX-512F, CD, BW, DQ and VL with the v3
//!   features (Intel Skylake-SP, Ice Lake and later server and some client cores, AMD Zen 4
//!   and later). The same node functions, compiled with these features, and a cheaper flip:
//!   the first disc of each ray towards lower squares found by a leading-zero count per lane.

use prune_search::Counters;

use crate::bitboard;
use crate::endgame::perft_node;
use crate::endgame::search::{Abort, Node, Root, Shared};
use crate::endgame::shallow::shallow_node;
use crate::midgame::leaf::Leaf;
use crate::midgame::search::Mid;

/// The instruction sets the endgame solver is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// The build's own target: runs on every CPU the binary runs on.
    Portable,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (the x86-64-v3 level).
    X86_64V3,
    /// x86-64 with AVX-512F, CD, BW, DQ and VL besides the x86-64-v3 features (the x86-64-v4
    /// level); available only in builds by Rust 1.89 or later.
    X86_64V4,
}

impl Isa {
    /// The fastest instruction set this CPU runs.
    pub fn best() -> Isa {
        [Isa::X86_64V4, Isa::X86_64V3]
            .into_iter()
            .find(|isa| isa.is_available())
            .unwrap_or(Isa::Portable)
    }

    /// Whether this CPU runs the instruction set.
    pub fn is_available(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 => X86V3::detect().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::X86_64V3 => false,
            #[cfg(all(target_arch = "x86_64", prune_avx512))]
            Isa::X86_64V4 => X86V4::detect().is_some(),
            #[cfg(not(all(target_arch = "x86_64", prune_avx512)))]
            Isa::X86_64V4 => false,
        }
    }
}

impl prune_search::Named for Isa {
    const KIND: &'static str = "instruction set";
    /// Every instruction set, the most portable first.
    const ALL: &'static [Self] = &[Isa::Portable, Isa::X86_64V3, Isa::X86_64V4];

    /// The name used on the command line and in reports.
    fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::X86_64V3 => "x86-64-v3",
            Isa::X86_64V4 => "x86-64-v4",
        }
    }
}

prune_search::named!(Isa);

/// A move as the node functions play it: the square (0-63) of the placed disc and the discs
/// it flips.
#[derive(Clone, Copy)]
pub(crate) struct Placement {
    /// The square of the placed disc.
    pub(crate) square: u32,
    /// The discs it flips.
    pub(crate) flips: u64,
}

impl Placement {
    /// The position after the move from `(p, o)`, from the opponent's view (who moves next).
    #[inline(always)]
    pub(crate) fn after(self, p: u64, o: u64) -> (u64, u64) {
        (o & !self.flips, p | self.flips | (1u64 << self.square))
    }
}

/// An entry of a node's move list, in the exact solver's lists and the midgame search's
/// alike: the move and its ordering key (each list says which way it sorts).
#[derive(Clone, Copy, Default)]
pub(crate) struct ListedMove {
    /// The square (0-63) of the placed disc.
    pub(crate) square: u32,
    /// Where it comes in its list's order.
    pub(crate) key: i32,
    /// The discs it flips.
    pub(crate) flips: u64,
}

impl ListedMove {
    /// The move without its key.
    #[inline(always)]
    pub(crate) fn placement(self) -> Placement {
        Placement {
            square: self.square,
            flips: self.flips,
        }
    }
}

/// Calls `$then!` with the recursion entry points of the node functions, each written once:
/// its name, generic parameter, arguments, result, and the call of the node function with the
/// kernel `k`. Every kernel compiles each of them with its own target features (the trait's
/// declarations, [`Portable`]'s methods, each x86 kernel's functions and methods are all
/// expanded from this one list).
macro_rules! entry_points {
    ($then:ident $(, $arg:tt)*) => {
        $then! {
            ($($arg),*)
            /// [`Shared::node`] compiled for this kernel.
            fn pvs[](
                shared: &Shared<'_>,
                c: &mut Counters,
                abort: Option<&Abort<'_>>,
                p: u64,
                o: u64,
                alpha: i32,
                beta: i32,
                node: Node,
                root: Root<'_>
            ) -> i32 = |k| shared.node(k, c, abort, p, o, alpha, beta, node, root);

            /// [`shallow_node`] compiled for this kernel.
            fn shallow[](
                c: &mut Counters,
                p: u64,
                o: u64,
                alpha: i32,
                beta: i32,
                empties: u32,
                parity: u32
            ) -> i32 = |k| shallow_node(k, c, p, o, alpha, beta, empties, parity);

            /// [`perft_node`] compiled for this kernel.
            fn perft[](p: u64, o: u64, depth: u32) -> u64 = |k| perft_node(k, p, o, depth);

            /// [`Mid::node`] (the midgame search's node) compiled for this kernel.
            fn mid[L: Leaf](
                m: &mut Mid<'_, L>,
                p: u64,
                o: u64,
                s: &L::State,
                us: bool,
                depth: u32,
                alpha: i32,
                beta: i32,
                pv: bool
            ) -> i32 = |k| m.node(k, p, o, s, us, depth, alpha, beta, pv);
        }
    };
}

/// The entry points as the trait's declarations.
macro_rules! declare_entries {
    (() $($(#[$doc:meta])* fn $name:ident [$($g:ident: $bound:path)?]
        ($($arg:ident: $ty:ty),*) -> $ret:ty = |$k:ident| $body:expr;)*) => {
        $(
            $(#[$doc])*
            #[allow(clippy::too_many_arguments)]
            fn $name$(<$g: $bound>)?(self, $($arg: $ty),*) -> $ret;
        )*
    };
}

/// The entry points as the portable kernel's methods: the node functions compiled for the
/// build's target.
macro_rules! portable_entries {
    (() $($(#[$doc:meta])* fn $name:ident [$($g:ident: $bound:path)?]
        ($($arg:ident: $ty:ty),*) -> $ret:ty = |$k:ident| $body:expr;)*) => {
        $(
            fn $name$(<$g: $bound>)?(self, $($arg: $ty),*) -> $ret {
                let $k = self;
                $body
            }
        )*
    };
}

/// One compilation of the node functions: the recursion entry points and the bit operations
/// whose best form depends on the instruction set.
pub(crate) trait Kernel: Copy + Send + Sync {
    entry_points!(declare_entries);

    /// The discs a move on `sq` flips (see [`bitboard::flips_at`]).
    fn flips(self, sq: u32, p: u64, o: u64) -> u64;

    /// The legal moves of the side owning `p` (see [`bitboard::legal_moves`]).
    fn moves(self, p: u64, o: u64) -> u64;

    /// Whether [`Kernel::prefetch`] does anything (so that callers skip computing addresses
    /// for nothing).
    const PREFETCHES: bool;

    /// Starts loading the cache line at `address` (a hint: nothing happens where the
    /// instruction set has no prefetch).
    fn prefetch(self, address: *const u8);
}

/// The build's own target.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Kernel for Portable {
    entry_points!(portable_entries);

    #[inline(always)]
    fn flips(self, sq: u32, p: u64, o: u64) -> u64 {
        bitboard::flips_at(sq, p, o)
    }

    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        bitboard::legal_moves(p, o)
    }

    const PREFETCHES: bool = false;

    #[inline(always)]
    fn prefetch(self, _: *const u8) {}
}

/// The kernel of an instruction set, if this CPU runs it (otherwise the portable one): what
/// [`with_kernel!`] dispatches on.
pub(crate) enum Chosen {
    /// The x86-64-v4 kernel.
    #[cfg(all(target_arch = "x86_64", prune_avx512))]
    V4(X86V4),
    /// The x86-64-v3 kernel.
    #[cfg(target_arch = "x86_64")]
    V3(X86V3),
    /// The build's own target.
    Portable(Portable),
}

impl Chosen {
    /// The kernel of `isa`, or the portable one if the CPU lacks it.
    #[inline]
    pub(crate) fn of(isa: Isa) -> Chosen {
        match isa {
            #[cfg(all(target_arch = "x86_64", prune_avx512))]
            Isa::X86_64V4 => X86V4::detect().map(Chosen::V4),
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 => X86V3::detect().map(Chosen::V3),
            _ => None,
        }
        .unwrap_or(Chosen::Portable(Portable))
    }
}

/// Evaluates `$body` with `$k` bound to the kernel of the instruction set `$isa` (the
/// portable one if the CPU lacks it). The body is compiled once per kernel.
macro_rules! with_kernel {
    ($isa:expr, $k:ident => $body:expr) => {{
        match $crate::kernel::Chosen::of($isa) {
            #[cfg(all(target_arch = "x86_64", prune_avx512))]
            $crate::kernel::Chosen::V4($k) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::kernel::Chosen::V3($k) => $body,
            $crate::kernel::Chosen::Portable($k) => $body,
        }
    }};
}
pub(crate) use with_kernel;

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::X86V3;
#[cfg(all(target_arch = "x86_64", prune_avx512))]
pub(crate) use x86::X86V4;

#[cfg(target_arch = "x86_64")]
mod x86 {
    #![allow(unsafe_code)]

    use std::arch::x86_64::*;

    use super::*;

    /// The entry points as functions compiled with the target features `$features` for the
    /// kernel `$kernel`.
    macro_rules! x86_functions {
        (($kernel:ident, $features:literal)
            $($(#[$doc:meta])* fn $name:ident [$($g:ident: $bound:path)?]
            ($($arg:ident: $ty:ty),*) -> $ret:ty = |$k:ident| $body:expr;)*) => {
            $(
                #[target_feature(enable = $features)]
                #[allow(clippy::too_many_arguments)]
                pub(super) unsafe fn $name$(<$g: $bound>)?($k: $kernel, $($arg: $ty),*) -> $ret {
                    $body
                }
            )*
        };
    }

    /// The entry points as an x86 kernel's methods, which call those functions in `$module`.
    macro_rules! x86_entries {
        (($module:ident)
            $($(#[$doc:meta])* fn $name:ident [$($g:ident: $bound:path)?]
            ($($arg:ident: $ty:ty),*) -> $ret:ty = |$k:ident| $body:expr;)*) => {
            $(
                #[inline(always)]
                fn $name$(<$g: $bound>)?(self, $($arg: $ty),*) -> $ret {
                    // SAFETY: `self` exists, so `detect` found every feature the function is
                    // compiled with.
                    unsafe { $module::$name(self, $($arg),*) }
                }
            )*
        };
    }

    /// The x86-64-v3 kernel. Its only constructor checks the CPU: a value of this type proves
    /// that the target features of the functions below are present.
    #[derive(Clone, Copy)]
    pub(crate) struct X86V3(());

    impl X86V3 {
        /// The kernel, if this CPU has every feature it is compiled with.
        pub(crate) fn detect() -> Option<X86V3> {
            let ok = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("popcnt");
            ok.then_some(X86V3(()))
        }
    }

    /// An x86 kernel's entry points, compiled with `$features` in the module `$module`, and its
    /// [`Kernel`] methods: the flips by `$flips`, the legal moves by AVX2, the prefetch.
    macro_rules! x86_kernel {
        ($kernel:ident, $module:ident, $features:literal, $flips:ident) => {
            /// The entry points compiled for this kernel.
            mod $module {
                use super::*;
                entry_points!(x86_functions, $kernel, $features);
            }

            impl Kernel for $kernel {
                entry_points!(x86_entries, $module);

                #[inline(always)]
                fn flips(self, sq: u32, p: u64, o: u64) -> u64 {
                    // SAFETY: `self` exists, so `detect` found every feature this is compiled
                    // with.
                    unsafe { $flips(sq, p, o) }
                }

                #[inline(always)]
                fn moves(self, p: u64, o: u64) -> u64 {
                    // SAFETY: as for `flips` (AVX2 is among every x86 kernel's features).
                    unsafe { moves_avx2(p, o) }
                }

                const PREFETCHES: bool = true;

                #[inline(always)]
                fn prefetch(self, address: *const u8) {
                    // SAFETY: a prefetch never faults, whatever the address; SSE is part of
                    // x86-64.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) }
                }
            }
        };
    }

    x86_kernel!(X86V3, v3, "avx2,bmi1,bmi2,lzcnt,popcnt", flips_avx2);

    /// The x86-64-v4 kernel (AVX-512). Its only constructor checks the CPU: a value of this
    /// type proves that the target features of the functions below are present.
    #[cfg(prune_avx512)]
    #[derive(Clone, Copy)]
    pub(crate) struct X86V4(());

    #[cfg(prune_avx512)]
    impl X86V4 {
        /// The kernel, if this CPU has every feature it is compiled with.
        pub(crate) fn detect() -> Option<X86V4> {
            let v4 = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512cd")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512dq")
                && std::arch::is_x86_feature_detected!("avx512vl");
            (v4 && X86V3::detect().is_some()).then_some(X86V4(()))
        }
    }

    #[cfg(prune_avx512)]
    x86_kernel!(
        X86V4,
        v4,
        "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512cd,avx512bw,avx512dq,avx512vl",
        flips_avx512
    );

    /// The steps of the four directions, one per 64-bit lane: east, north, north-east,
    /// north-west (shifted left: towards higher squares) or their opposites (shifted right).
    const STEP: [i64; 4] = [1, 8, 9, 7];

    /// Per lane, the squares a run of flipped discs may cross: the b- to g-files in the
    /// directions that move sideways (a bit shifted past the h-file wraps onto the a-file
    /// and must die), every square north and south.
    const THROUGH: [i64; 4] = [
        bitboard::INNER_FILES as i64,
        -1,
        bitboard::INNER_FILES as i64,
        bitboard::INNER_FILES as i64,
    ];

    /// The runs of `through` squares reached from the bits of `from`, per lane: towards
    /// higher squares (steps shifted left) and towards lower ones (shifted right). The same
    /// doubling fill as [`bitboard::legal_moves`]: one step, one more, then two double steps
    /// through pairs of `through` squares (runs of up to six).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn runs(from: __m256i, through: __m256i) -> (__m256i, __m256i) {
        let step = _mm256_loadu_si256(STEP.as_ptr().cast());
        let step2 = _mm256_add_epi64(step, step);
        let mut up = _mm256_and_si256(_mm256_sllv_epi64(from, step), through);
        up = _mm256_or_si256(up, _mm256_and_si256(_mm256_sllv_epi64(up, step), through));
        let pairs = _mm256_and_si256(through, _mm256_sllv_epi64(through, step));
        up = _mm256_or_si256(up, _mm256_and_si256(_mm256_sllv_epi64(up, step2), pairs));
        up = _mm256_or_si256(up, _mm256_and_si256(_mm256_sllv_epi64(up, step2), pairs));
        let mut down = _mm256_and_si256(_mm256_srlv_epi64(from, step), through);
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(_mm256_srlv_epi64(down, step), through),
        );
        let pairs = _mm256_and_si256(through, _mm256_srlv_epi64(through, step));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(_mm256_srlv_epi64(down, step2), pairs),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(_mm256_srlv_epi64(down, step2), pairs),
        );
        (up, down)
    }

    /// The squares one step past each run (the next square of each lane's direction).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn beyond((up, down): (__m256i, __m256i)) -> (__m256i, __m256i) {
        let step = _mm256_loadu_si256(STEP.as_ptr().cast());
        (_mm256_sllv_epi64(up, step), _mm256_srlv_epi64(down, step))
    }

    /// The union of the four lanes of `up | down`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn union((up, down): (__m256i, __m256i)) -> u64 {
        let both = _mm256_or_si256(up, down);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(both),
            _mm256_extracti128_si256::<1>(both),
        );
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }

    /// The opponent's discs a run may cross, per lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn crossable(o: u64) -> __m256i {
        _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm256_loadu_si256(THROUGH.as_ptr().cast()),
        )
    }

    /// [`bitboard::flips_at`] with AVX2: the same eight rays from the placed disc
    /// ([`bitboard::RAYS`]; east, north, north-east, north-west in one vector, their opposites
    /// in the other, the order of [`STEP`]), four lanes at once. Towards higher squares the
    /// first square that is not the opponent's is the lowest bit (`x & -x`); towards lower ones
    /// the highest, found by smearing the ray's other squares down it (1, 2 and 4 steps) as
    /// AVX2 has no leading-zero count.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn flips_avx2(sq: u32, p: u64, o: u64) -> u64 {
        let player = _mm256_set1_epi64x(p as i64);
        let opponent = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let rays = &bitboard::RAYS[sq as usize];
        let up_ray = _mm256_loadu_si256(rays[..4].as_ptr().cast());
        let down_ray = _mm256_loadu_si256(rays[4..].as_ptr().cast());
        // Towards higher squares.
        let other = _mm256_andnot_si256(opponent, up_ray);
        let first = _mm256_and_si256(other, _mm256_sub_epi64(zero, other));
        let run = _mm256_and_si256(up_ray, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, player), zero);
        let up = _mm256_andnot_si256(open, run);
        // Towards lower squares.
        let step = _mm256_loadu_si256(STEP.as_ptr().cast());
        let other = _mm256_andnot_si256(opponent, down_ray);
        let mut below = _mm256_srlv_epi64(other, step);
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step));
        below = _mm256_or_si256(
            below,
            _mm256_srlv_epi64(below, _mm256_slli_epi64::<1>(step)),
        );
        below = _mm256_or_si256(
            below,
            _mm256_srlv_epi64(below, _mm256_slli_epi64::<2>(step)),
        );
        let first = _mm256_andnot_si256(below, other);
        let run = _mm256_andnot_si256(_mm256_or_si256(below, other), down_ray);
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, player), zero);
        let down = _mm256_andnot_si256(open, run);
        union((up, down))
    }

    /// [`flips_avx2`] with AVX-512 (F, CD and VL, on four lanes): towards lower squares the
    /// first square that is not the opponent's is found by a leading-zero count per lane (the
    /// top bit shifted right by it: nothing when the count is 64), not by smearing; a ray that
    /// does not end on the player's disc is dropped by a mask register.
    #[cfg(prune_avx512)]
    #[target_feature(enable = "avx2,avx512f,avx512cd,avx512vl")]
    #[inline]
    unsafe fn flips_avx512(sq: u32, p: u64, o: u64) -> u64 {
        let player = _mm256_set1_epi64x(p as i64);
        let opponent = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let rays = &bitboard::RAYS[sq as usize];
        let up_ray = _mm256_loadu_si256(rays[..4].as_ptr().cast());
        let down_ray = _mm256_loadu_si256(rays[4..].as_ptr().cast());
        // Towards higher squares: the lowest bit, and the ray's squares below it.
        let other = _mm256_andnot_si256(opponent, up_ray);
        let first = _mm256_and_si256(other, _mm256_sub_epi64(zero, other));
        let run = _mm256_and_si256(up_ray, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
        let up = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, player), run);
        // Towards lower squares: the highest bit, and the ray's squares above it.
        let other = _mm256_andnot_si256(opponent, down_ray);
        let top = _mm256_set1_epi64x(i64::MIN);
        let first = _mm256_srlv_epi64(top, _mm256_lzcnt_epi64(other));
        let above = _mm256_sub_epi64(zero, _mm256_add_epi64(first, first));
        let run = _mm256_and_si256(down_ray, above);
        let down = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, player), run);
        union((up, down))
    }

    /// [`bitboard::legal_moves`] with AVX2: the empty squares one step past the runs of
    /// opponent discs from the player's discs (see [`runs`]).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn moves_avx2(p: u64, o: u64) -> u64 {
        let player = _mm256_set1_epi64x(p as i64);
        union(beyond(runs(player, crossable(o)))) & !(p | o)
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use prune_search::rng::{Rng, XorShift64};

        /// The x86-64-v4 kernel's flips where this build and CPU have it, else the portable
        /// ones (so that the test still checks AVX2 against them).
        fn flips_v4(sq: u32, p: u64, o: u64) -> u64 {
            #[cfg(prune_avx512)]
            if let Some(k) = X86V4::detect() {
                return k.flips(sq, p, o);
            }
            bitboard::flips_at(sq, p, o)
        }

        /// Where the build has the x86-64-v4 kernel, this CPU runs it if it has the features,
        /// and [`Isa::best`] picks it.
        #[test]
        fn the_best_instruction_set_is_the_newest_the_cpu_runs() {
            let v4 = Isa::X86_64V4.is_available();
            assert_eq!(v4, cfg!(prune_avx512) && cpu_has_v4());
            let expected = if v4 {
                Isa::X86_64V4
            } else if X86V3::detect().is_some() {
                Isa::X86_64V3
            } else {
                Isa::Portable
            };
            assert_eq!(Isa::best(), expected);
        }

        /// Whether this CPU has the x86-64-v4 features.
        fn cpu_has_v4() -> bool {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512cd")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512dq")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && X86V3::detect().is_some()
        }

        #[test]
        fn the_x86_flips_and_moves_equal_the_portable_ones() {
            let Some(_) = X86V3::detect() else {
                eprintln!("skipped: this CPU has no AVX2");
                return;
            };
            // Random boards of every density from a fixed xorshift sequence.
            let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
            let mut next = || rng.next_u64();
            for i in 0..20_000 {
                let (a, b) = (next(), next());
                let filled = match i % 4 {
                    0 => a,
                    1 => a | b,
                    2 => a & b,
                    _ => !(1u64 << (a % 64)),
                };
                let p = filled & next();
                let o = filled & !p;
                for sq in 0..64 {
                    if (p | o) >> sq & 1 == 0 {
                        // SAFETY: `detect` found AVX2 above.
                        let fast = unsafe { flips_avx2(sq, p, o) };
                        assert_eq!(fast, bitboard::flips_at(sq, p, o), "{p:#x} {o:#x} {sq}");
                        assert_eq!(flips_v4(sq, p, o), fast, "{p:#x} {o:#x} {sq}");
                    }
                }
                // SAFETY: as above.
                let moves = unsafe { moves_avx2(p, o) };
                assert_eq!(moves, bitboard::legal_moves(p, o), "{p:#x} {o:#x}");
            }
            // The longest runs, up to the edges and across them: one empty square, one player
            // disc anywhere (or none), every other square the opponent's.
            for sq in 0..64u32 {
                for t in (0..64u32).filter(|&t| t != sq).map(Some).chain([None]) {
                    let p = t.map_or(0, |t| 1u64 << t);
                    let o = !(p | 1u64 << sq);
                    // SAFETY: as above.
                    let (fast, moves) = unsafe { (flips_avx2(sq, p, o), moves_avx2(p, o)) };
                    assert_eq!(fast, bitboard::flips_at(sq, p, o), "{sq} {t:?}");
                    assert_eq!(flips_v4(sq, p, o), fast, "{sq} {t:?}");
                    assert_eq!(moves, bitboard::legal_moves(p, o), "{sq} {t:?}");
                }
            }
        }
    }
}
