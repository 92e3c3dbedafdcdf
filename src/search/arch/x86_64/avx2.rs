//! The AVX2 kernel: the search of [`crate::search::scalar`], eight nodes at a time, for
//! processors with AVX2 but without AVX-512 (most AMD processors before Zen 4, Intel
//! desktop and laptop processors).
//!
//! It is the lane machine of [`crate::search::arch::x86_64::avx512`] (`src/lane_machine.rs`) on 256-bit
//! vectors. AVX2 has neither lane masks nor compress and expand instructions, so masks
//! come from `movemask`, and compress and expand are permutes whose lane orders are
//! read from two 256-entry tables (one per 8-bit mask) built at compile time. Like the
//! AVX-512 kernel it visits exactly the scalar kernel's nodes (the tests compare all
//! three). `unsafe` is confined to the vector loads and stores (of bounds-checked
//! slices) and to the one call that relies on the detected features.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
    _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_cvtepu8_epi32, _mm256_loadu_si256,
    _mm256_movemask_ps, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_xor_si256, _mm_cvtsi64_si128, _pdep_u32,
};

use crate::model::constraints::{full_mask, Constraints, MAX_N};
use crate::search::lanes::buffers::{
    seed, suits, with_buffers, Buffers, Path, DRAIN_AT, ROW_ROOM, TIED,
};
use crate::search::lanes::machine::lane_machine;
use crate::search::scalar::{Frontier, Tally};

/// Nodes handled at once: the 32-bit lanes of a 256-bit vector.
const LANES: usize = 8;

/// Eight 32-bit lanes.
type Vector = __m256i;

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

/// Whether this processor can run the kernel (checked once by the standard library,
/// then cached).
pub(crate) fn is_supported() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("bmi2")
}

lane_machine!("avx2,bmi2,popcnt");

// The vector operations of the lane machine, on 256-bit vectors.

#[inline]
#[target_feature(enable = "avx2")]
fn load(v: &[u32], at: usize) -> Vector {
    let lanes = &v[at..at + LANES];
    // SAFETY: `lanes` is 8 readable u32s, 32 bytes; the load is unaligned.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(v: &mut [u32], at: usize, x: Vector) {
    let lanes = &mut v[at..at + LANES];
    // SAFETY: `lanes` is 8 writable u32s, 32 bytes; the store is unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), x) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn lanes(x: Vector) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    store(&mut out, 0, x);
    out
}

#[inline]
#[target_feature(enable = "avx2")]
fn zero() -> Vector {
    _mm256_setzero_si256()
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(x: u32) -> Vector {
    _mm256_set1_epi32(x as i32)
}

#[inline]
#[target_feature(enable = "avx2")]
fn ramp() -> Vector {
    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
}

#[inline]
#[target_feature(enable = "avx2")]
fn or(a: Vector, b: Vector) -> Vector {
    _mm256_or_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn and(a: Vector, b: Vector) -> Vector {
    _mm256_and_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn andnot(a: Vector, b: Vector) -> Vector {
    _mm256_andnot_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor(a: Vector, b: Vector) -> Vector {
    _mm256_xor_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn add(a: Vector, b: Vector) -> Vector {
    _mm256_add_epi32(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn sub(a: Vector, b: Vector) -> Vector {
    _mm256_sub_epi32(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn shl1(x: Vector) -> Vector {
    _mm256_slli_epi32::<1>(x)
}

#[inline]
#[target_feature(enable = "avx2")]
fn shr1(x: Vector) -> Vector {
    _mm256_srli_epi32::<1>(x)
}

#[inline]
#[target_feature(enable = "avx2")]
fn nonzero(x: Vector) -> u32 {
    let zero_lanes = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, zero())));
    !(zero_lanes as u32) & 0xff
}

#[inline]
#[target_feature(enable = "avx2")]
fn test(a: Vector, b: Vector) -> u32 {
    nonzero(and(a, b))
}

/// All ones in the lanes of `mask`, zeros elsewhere.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes_of(mask: u32) -> Vector {
    let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    _mm256_cmpeq_epi32(and(splat(mask), bits), bits)
}

#[inline]
#[target_feature(enable = "avx2")]
fn blend(old: Vector, mask: u32, new: Vector) -> Vector {
    _mm256_blendv_epi8(old, new, lanes_of(mask))
}

#[inline]
#[target_feature(enable = "avx2")]
fn or_where(x: Vector, mask: u32, y: Vector) -> Vector {
    or(x, and(lanes_of(mask), y))
}

/// The lane order `order` (8 bytes) as a vector of lane indices.
#[inline]
#[target_feature(enable = "avx2")]
fn lane_indices(order: u64) -> Vector {
    _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(order as i64))
}

#[inline]
#[target_feature(enable = "avx2")]
fn compress(x: Vector, mask: u32) -> Vector {
    _mm256_permutevar8x32_epi32(x, lane_indices(COMPRESS[mask as usize & 0xff]))
}

#[inline]
#[target_feature(enable = "avx2")]
fn expand_into(old: Vector, mask: u32, packed: Vector) -> Vector {
    let spread = _mm256_permutevar8x32_epi32(packed, lane_indices(EXPAND[mask as usize & 0xff]));
    blend(old, mask, spread)
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
