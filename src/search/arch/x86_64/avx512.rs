//! The AVX-512 kernel: the search of [`crate::search::scalar`], sixteen nodes at a time.
//!
//! The scalar kernel spends most of its time on mispredicted branches: whether a node
//! has another free square is a coin toss the processor cannot learn. This kernel makes
//! those decisions for sixteen nodes at once, in the lanes of 512-bit vectors, with
//! masks instead of branches (the lane machine of `src/lane_machine.rs`):
//!
//! - The nodes waiting on row `d` sit in a buffer of that row (`src/row_buffers.rs`:
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
//! same; only the order differs, which a count cannot see (the tests compare the kernels). It
//! runs only where the processor has AVX-512F and BMI2 (Intel Xeon since Skylake, AMD
//! since Zen 4: [`is_supported`]). `unsafe` is confined to the vector loads and stores
//! (of bounds-checked slices) and to the one call that relies on the detected features.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_loadu_si512,
    _mm512_mask_expand_epi32, _mm512_mask_mov_epi32, _mm512_mask_or_epi32,
    _mm512_maskz_compress_epi32, _mm512_or_si512, _mm512_set1_epi32, _mm512_setr_epi32,
    _mm512_setzero_si512, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512,
    _mm512_sub_epi32, _mm512_test_epi32_mask, _mm512_xor_si512, _pdep_u32,
};

use crate::model::constraints::{full_mask, Constraints, MAX_N};
use crate::search::lanes::buffers::{
    seed, suits, with_buffers, Buffers, Path, DRAIN_AT, ROW_ROOM, TIED,
};
use crate::search::lanes::machine::lane_machine;
use crate::search::scalar::{Frontier, Tally};

/// Nodes handled at once: the 32-bit lanes of a 512-bit vector.
const LANES: usize = 16;

/// Sixteen 32-bit lanes.
type Vector = __m512i;

/// Whether this processor can run the kernel (checked once by the standard library,
/// then cached).
pub(crate) fn is_supported() -> bool {
    is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("bmi2")
}

lane_machine!("avx512f,bmi2,popcnt");

// The vector operations of the lane machine, on 512-bit vectors.

#[inline]
#[target_feature(enable = "avx512f")]
fn load(v: &[u32], at: usize) -> Vector {
    let lanes = &v[at..at + LANES];
    // SAFETY: `lanes` is 16 readable u32s, 64 bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &mut [u32], at: usize, x: Vector) {
    let lanes = &mut v[at..at + LANES];
    // SAFETY: `lanes` is 16 writable u32s, 64 bytes; the store is unaligned.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), x) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn lanes(x: Vector) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    store(&mut out, 0, x);
    out
}

#[inline]
#[target_feature(enable = "avx512f")]
fn zero() -> Vector {
    _mm512_setzero_si512()
}

#[inline]
#[target_feature(enable = "avx512f")]
fn splat(x: u32) -> Vector {
    _mm512_set1_epi32(x as i32)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn ramp() -> Vector {
    _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn or(a: Vector, b: Vector) -> Vector {
    _mm512_or_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn and(a: Vector, b: Vector) -> Vector {
    _mm512_and_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn andnot(a: Vector, b: Vector) -> Vector {
    _mm512_andnot_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn xor(a: Vector, b: Vector) -> Vector {
    _mm512_xor_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn add(a: Vector, b: Vector) -> Vector {
    _mm512_add_epi32(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn sub(a: Vector, b: Vector) -> Vector {
    _mm512_sub_epi32(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn shl1(x: Vector) -> Vector {
    _mm512_slli_epi32::<1>(x)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn shr1(x: Vector) -> Vector {
    _mm512_srli_epi32::<1>(x)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn nonzero(x: Vector) -> u32 {
    u32::from(_mm512_test_epi32_mask(x, x))
}

#[inline]
#[target_feature(enable = "avx512f")]
fn test(a: Vector, b: Vector) -> u32 {
    u32::from(_mm512_test_epi32_mask(a, b))
}

#[inline]
#[target_feature(enable = "avx512f")]
fn blend(old: Vector, mask: u32, new: Vector) -> Vector {
    _mm512_mask_mov_epi32(old, mask as u16, new)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn or_where(x: Vector, mask: u32, y: Vector) -> Vector {
    _mm512_mask_or_epi32(x, mask as u16, x, y)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn compress(x: Vector, mask: u32) -> Vector {
    _mm512_maskz_compress_epi32(mask as u16, x)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn expand_into(old: Vector, mask: u32, packed: Vector) -> Vector {
    _mm512_mask_expand_epi32(old, mask as u16, packed)
}
