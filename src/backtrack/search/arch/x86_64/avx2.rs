//! The AVX2 kernel: the search of [`crate::backtrack::search::scalar`], eight nodes at a time, for
//! processors with AVX2 but without AVX-512 (most AMD processors before Zen 4, Intel
//! desktop and laptop processors).
//!
//! It is the lane machine ([`crate::backtrack::search::lanes::machine`]) on 256-bit vectors. AVX2
//! has neither lane masks nor compress and expand instructions, so masks come from
//! `movemask`, and compress and expand are permutes whose lane orders are read from two
//! 256-entry tables (one per 8-bit mask) built at compile time. Like the AVX-512 kernel
//! it visits exactly the scalar kernel's nodes (the tests in `tests/kernels.rs` compare
//! them). Every `unsafe` block relies on an [`Avx2`] token (`crate::cpu`), which only
//! [`Avx2::detect`] makes, after finding AVX2, BMI2 and POPCNT (the features
//! [`Lanes::expand`] is compiled with).

#![allow(
    clippy::inline_always,
    reason = "each operation is an instruction or two that must inline into the lane machine compiled with this kernel's target features; a call per instruction would dominate the search"
)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
    _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_cvtepu8_epi32, _mm256_loadu_si256,
    _mm256_movemask_ps, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_xor_si256, _mm_cvtsi64_si128, _pdep_u32,
};

use crate::backtrack::search::lanes::machine;
use crate::backtrack::search::lanes::ops::{Job, Lanes};
use crate::backtrack::search::scalar::Tally;
use crate::cpu::x86_64::Avx2;

/// For each 8-bit mask, the lane order that packs its lanes to the front: byte `k` is
/// the lane of the mask's `k`-th set bit.
static COMPRESS: [u64; 256] = lane_orders(true);

/// For each 8-bit mask, the lane order that spreads packed values over its lanes:
/// byte `i` (for a lane `i` of the mask) is how many of the mask's lanes come before it.
static EXPAND: [u64; 256] = lane_orders(false);

/// The [`COMPRESS`] (`compress`) or [`EXPAND`] table.
const fn lane_orders(compress: bool) -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut order, mut rank, mut lane) = (0u64, 0u64, 0u64);
        while lane < 8 {
            if mask >> lane & 1 == 1 {
                order |= if compress {
                    lane << (8 * rank)
                } else {
                    rank << (8 * lane)
                };
                rank += 1;
            }
            lane += 1;
        }
        table[mask] = order;
        mask += 1;
    }
    table
}

/// The machine compiled for AVX2: the whole search of one start, operations inlined.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn expand_avx2<const WEIGH_BY_CLASS: bool>(kernel: Avx2, job: Job<'_>) -> Tally {
    machine::expand::<Avx2, WEIGH_BY_CLASS>(kernel, job)
}

/// All ones in the lanes of `mask`, zeros elsewhere.
#[inline(always)]
fn lanes_of(k: Avx2, mask: u32) -> __m256i {
    // SAFETY: `k` proves AVX2 (`Avx2::detect`).
    unsafe {
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        _mm256_cmpeq_epi32(k.and(k.splat(mask), bits), bits)
    }
}

/// The lane order `order` (8 bytes) as a vector of lane indices.
#[inline(always)]
fn lane_indices(_: Avx2, order: u64) -> __m256i {
    // SAFETY: the token proves AVX2 (`Avx2::detect`).
    unsafe { _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(order.cast_signed())) }
}

// The operations of the lane machine on 256-bit vectors; each `unsafe` block runs AVX2
// (or BMI2) instructions, which `self`, an `Avx2` token, proves the processor has.
impl Lanes for Avx2 {
    const LANES: usize = 8;

    type Vector = __m256i;

    #[inline]
    fn expand<const WEIGH_BY_CLASS: bool>(self, job: Job<'_>) -> Tally {
        // SAFETY: `self` proves AVX2, BMI2 and POPCNT (`Avx2::detect`), the features
        // `expand_avx2` is compiled with.
        unsafe { expand_avx2::<WEIGH_BY_CLASS>(self, job) }
    }

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn splat(self, x: u32) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_set1_epi32(x.cast_signed()) }
    }

    #[inline(always)]
    fn ramp(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) }
    }

    #[inline(always)]
    fn load(self, v: &[u32], at: usize) -> __m256i {
        let lanes = &v[at..at + 8];
        // SAFETY: `self` proves AVX2; `lanes` is 8 readable u32s, 32 bytes, and the load
        // is unaligned.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, v: &mut [u32], at: usize, x: __m256i) {
        let lanes = &mut v[at..at + 8];
        // SAFETY: `self` proves AVX2; `lanes` is 8 writable u32s, 32 bytes, and the
        // store is unaligned.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), x) }
    }

    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn andnot(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_andnot_si256(a, b) }
    }

    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_xor_si256(a, b) }
    }

    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_sub_epi32(a, b) }
    }

    #[inline(always)]
    fn shl1(self, x: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_slli_epi32::<1>(x) }
    }

    #[inline(always)]
    fn shr1(self, x: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_srli_epi32::<1>(x) }
    }

    #[inline(always)]
    fn nonzero(self, x: __m256i) -> u32 {
        // SAFETY: `self` proves AVX2.
        let zero_lanes =
            unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, self.zero()))) };
        !zero_lanes.cast_unsigned() & 0xff
    }

    #[inline(always)]
    fn test(self, a: __m256i, b: __m256i) -> u32 {
        self.nonzero(self.and(a, b))
    }

    #[inline(always)]
    fn blend(self, old: __m256i, mask: u32, new: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_blendv_epi8(old, new, lanes_of(self, mask)) }
    }

    #[inline(always)]
    fn or_where(self, x: __m256i, mask: u32, y: __m256i) -> __m256i {
        self.or(x, self.and(lanes_of(self, mask), y))
    }

    #[inline(always)]
    fn compress(self, x: __m256i, mask: u32) -> __m256i {
        let order = lane_indices(self, COMPRESS[mask as usize & 0xff]);
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_permutevar8x32_epi32(x, order) }
    }

    #[inline(always)]
    fn expand_into(self, old: __m256i, mask: u32, packed: __m256i) -> __m256i {
        let order = lane_indices(self, EXPAND[mask as usize & 0xff]);
        // SAFETY: `self` proves AVX2.
        let spread = unsafe { _mm256_permutevar8x32_epi32(packed, order) };
        self.blend(old, mask, spread)
    }

    #[inline(always)]
    fn first_lanes(self, mask: u32, count: u32) -> u32 {
        // SAFETY: `self` proves BMI2.
        unsafe { _pdep_u32((1u32 << count) - 1, mask) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_order_tables() {
        // Lanes 1, 4, 6: packed to the front in that order, and spread back.
        let mask = 0b0101_0010;
        assert_eq!(COMPRESS[mask], 1 | 4 << 8 | 6 << 16);
        assert_eq!(EXPAND[mask], 1 << (8 * 4) | 2 << (8 * 6));
        assert_eq!(COMPRESS[0xff], 0x0706_0504_0302_0100);
        assert_eq!(EXPAND[0xff], 0x0706_0504_0302_0100);
    }
}
