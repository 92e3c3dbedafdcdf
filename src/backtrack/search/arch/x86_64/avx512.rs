//! The AVX-512 kernel: the search of [`crate::backtrack::search::scalar`], sixteen nodes at a time.
//!
//! The scalar kernel spends most of its time on mispredicted branches: whether a node
//! has another free square is a coin toss the processor cannot learn. This kernel makes
//! those decisions for sixteen nodes at once, in the lanes of 512-bit vectors, with
//! masks instead of branches (the lane machine, [`crate::backtrack::search::lanes::machine`]):
//!
//! - The nodes waiting on row `d` sit in a buffer of that row ([`crate::backtrack::search::lanes::buffers`]:
//!   used columns, the two diagonals, and, when solutions are weighed, the index of the
//!   parent node in the buffer of row `d - 1`).
//! - Each step places one queen in every busy lane (its lowest free square) and appends
//!   the children to the buffer of row `d + 1` with a compress. A lane whose node has no
//!   free square left is refilled from its row's buffer with an expand, so the lanes stay
//!   busy whatever the branching.
//! - A buffer that fills up is drained before its parents' row goes on: depth-first
//!   between rows, breadth-first within one, so each row needs only a few kilobytes.
//! - Rows `n - 2` and `n - 1` are not stored: under row `n - 2` exactly two columns are
//!   free, and both orders of placing them are checked at once.
//!
//! It visits exactly the nodes of the scalar kernel, so `nodes` and every count are the
//! same; only the order differs, which a count cannot see (`tests/kernels.rs` compares
//! the kernels). It runs only where the processor has AVX-512F, BMI2 and POPCNT (Intel
//! Xeon since Skylake, AMD since Zen 4). Every `unsafe` block relies on an [`Avx512`]
//! token (`crate::cpu`), which only [`Avx512::detect`] makes, after finding those
//! features (the ones [`Lanes::expand`] is compiled with).

#![allow(
    clippy::inline_always,
    reason = "each operation is an instruction or two that must inline into the lane machine compiled with this kernel's target features; a call per instruction would dominate the search"
)]

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_loadu_si512,
    _mm512_mask_expand_epi32, _mm512_mask_mov_epi32, _mm512_mask_or_epi32,
    _mm512_maskz_compress_epi32, _mm512_or_si512, _mm512_set1_epi32, _mm512_setr_epi32,
    _mm512_setzero_si512, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512,
    _mm512_sub_epi32, _mm512_test_epi32_mask, _mm512_xor_si512, _pdep_u32,
};

use crate::backtrack::search::lanes::machine;
use crate::backtrack::search::lanes::ops::{Job, Lanes};
use crate::backtrack::search::scalar::Tally;
use crate::cpu::x86_64::Avx512;

/// A lane mask as the value of a 16-bit mask register.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "a lane mask has one bit per lane, and this kernel has 16 lanes: the bits above 15 are zero"
)]
fn lane_mask(mask: u32) -> u16 {
    mask as u16
}

/// The machine compiled for AVX-512: the whole search of one start, operations inlined.
#[target_feature(enable = "avx512f,bmi2,popcnt")]
fn expand_avx512<const WEIGH_BY_CLASS: bool>(kernel: Avx512, job: Job<'_>) -> Tally {
    machine::expand::<Avx512, WEIGH_BY_CLASS>(kernel, job)
}

// The operations of the lane machine on 512-bit vectors; each `unsafe` block runs
// AVX-512F (or BMI2) instructions, which `self`, an `Avx512` token, proves the processor
// has.
impl Lanes for Avx512 {
    const LANES: usize = 16;

    type Vector = __m512i;

    #[inline]
    fn expand<const WEIGH_BY_CLASS: bool>(self, job: Job<'_>) -> Tally {
        // SAFETY: `self` proves AVX-512F, BMI2 and POPCNT (`Avx512::detect`), the
        // features `expand_avx512` is compiled with.
        unsafe { expand_avx512::<WEIGH_BY_CLASS>(self, job) }
    }

    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    fn splat(self, x: u32) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_set1_epi32(x.cast_signed()) }
    }

    #[inline(always)]
    fn ramp(self) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
    }

    #[inline(always)]
    fn load(self, v: &[u32], at: usize) -> __m512i {
        let lanes = &v[at..at + 16];
        // SAFETY: `self` proves AVX-512F; `lanes` is 16 readable u32s, 64 bytes, and the
        // load is unaligned.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, v: &mut [u32], at: usize, x: __m512i) {
        let lanes = &mut v[at..at + 16];
        // SAFETY: `self` proves AVX-512F; `lanes` is 16 writable u32s, 64 bytes, and the
        // store is unaligned.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), x) }
    }

    #[inline(always)]
    fn or(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_or_si512(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_and_si512(a, b) }
    }

    #[inline(always)]
    fn andnot(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_andnot_si512(a, b) }
    }

    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_xor_si512(a, b) }
    }

    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_add_epi32(a, b) }
    }

    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_sub_epi32(a, b) }
    }

    #[inline(always)]
    fn shl1(self, x: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_slli_epi32::<1>(x) }
    }

    #[inline(always)]
    fn shr1(self, x: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_srli_epi32::<1>(x) }
    }

    #[inline(always)]
    fn nonzero(self, x: __m512i) -> u32 {
        // SAFETY: `self` proves AVX-512F.
        u32::from(unsafe { _mm512_test_epi32_mask(x, x) })
    }

    #[inline(always)]
    fn test(self, a: __m512i, b: __m512i) -> u32 {
        // SAFETY: `self` proves AVX-512F.
        u32::from(unsafe { _mm512_test_epi32_mask(a, b) })
    }

    #[inline(always)]
    fn blend(self, old: __m512i, mask: u32, new: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_mask_mov_epi32(old, lane_mask(mask), new) }
    }

    #[inline(always)]
    fn or_where(self, x: __m512i, mask: u32, y: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_mask_or_epi32(x, lane_mask(mask), x, y) }
    }

    #[inline(always)]
    fn compress(self, x: __m512i, mask: u32) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_maskz_compress_epi32(lane_mask(mask), x) }
    }

    #[inline(always)]
    fn expand_into(self, old: __m512i, mask: u32, packed: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_mask_expand_epi32(old, lane_mask(mask), packed) }
    }

    #[inline(always)]
    fn first_lanes(self, mask: u32, count: u32) -> u32 {
        // SAFETY: `self` proves BMI2.
        unsafe { _pdep_u32((1u32 << count) - 1, mask) }
    }
}
