//! The AVX2 half-board generation: the whole generation compiled with AVX2, BMI2 and
//! POPCNT, and an inner loop testing four pairs per step, the kept ones left-packed
//! with a permutation from a 16-entry table. Every `unsafe` block relies on the
//! [`Avx2`] token (`crate::cpu`), which only `Avx2::detect` makes, after finding those
//! features.

#![allow(
    clippy::inline_always,
    reason = "the inner loop must inline into the generation compiled with the AVX2 features"
)]

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64,
    _mm256_load_si256, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256,
    _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    _pdep_u64,
};

use super::inner::InnerParts;
use super::walk::generate_with;
use super::{HalfBoards, HalfCursor, InnerLoop, OuterPart, Piece};
use crate::cpu::x86_64::Avx2;

/// [`super::generate`] with the AVX2 inner loop; `token` proves the features.
pub(super) fn generate(
    token: Avx2,
    piece: &Piece<'_>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) {
    // SAFETY: `token` proves AVX2, BMI2 and POPCNT (`Avx2::detect`), the features
    // `generate_avx2` is compiled with.
    unsafe { generate_avx2(token, piece, cursor, out) }
}

/// The generation, inlined and compiled with the AVX2 features.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn generate_avx2(token: Avx2, piece: &Piece<'_>, cursor: &mut HalfCursor, out: &mut HalfBoards) {
    generate_with(token, piece, cursor, out);
}

impl InnerLoop for Avx2 {
    #[inline(always)]
    fn join(
        self,
        outer: &OuterPart,
        inner: &InnerParts,
        buffer: &mut [u64],
        mut len: usize,
    ) -> usize {
        // SAFETY: `self` proves AVX2 (`Avx2::detect`).
        let [avoid, flag, tagged_without, tagged_with, keep_without, keep_with, zero] = unsafe {
            [
                _mm256_set1_epi64x(outer.avoid.cast_signed()),
                _mm256_set1_epi64x(inner.flag.cast_signed()),
                _mm256_set1_epi64x(outer.tagged[0].cast_signed()),
                _mm256_set1_epi64x(outer.tagged[1].cast_signed()),
                _mm256_set1_epi64x(outer.keep[0].cast_signed()),
                _mm256_set1_epi64x(outer.keep[1].cast_signed()),
                _mm256_setzero_si256(),
            ]
        };
        let mut i = 0;
        while i < inner.padded_len() {
            let load = |values: &[u64]| -> __m256i {
                // Four at a time: the padded length is a multiple of 8.
                let four: &[u64; 4] = values[i..i + 4].try_into().expect("padded to 4");
                // SAFETY: `self` proves AVX2; `four` is 32 readable bytes, loaded
                // unaligned.
                unsafe { _mm256_loadu_si256(four.as_ptr().cast()) }
            };
            let (diagonals, pattern) = (load(&inner.diagonals), load(&inner.pattern));
            // SAFETY: `self` proves AVX2; the order is an aligned 32-byte `PackOrder`.
            let (packed, kept) = unsafe {
                let free = _mm256_cmpeq_epi64(_mm256_and_si256(diagonals, avoid), zero);
                let flags = _mm256_and_si256(diagonals, flag);
                // Lanes without their flag take the first value of a choice, the
                // others the second.
                let unflagged = _mm256_cmpeq_epi64(flags, zero);
                let keep = _mm256_or_si256(
                    _mm256_and_si256(unflagged, keep_without),
                    _mm256_andnot_si256(unflagged, keep_with),
                );
                let tagged = _mm256_or_si256(
                    _mm256_and_si256(unflagged, tagged_without),
                    _mm256_andnot_si256(unflagged, tagged_with),
                );
                let kept = _mm256_and_si256(free, keep);
                let mask = _mm256_movemask_pd(_mm256_castsi256_pd(kept)).cast_unsigned()
                    & u32::from(inner.valid_lanes(i));
                let order = _mm256_load_si256(LEFT_PACK[mask as usize].0.as_ptr().cast());
                let values = _mm256_or_si256(tagged, pattern);
                (
                    _mm256_permutevar8x32_epi32(values, order),
                    mask.count_ones(),
                )
            };
            let slot: &mut [u64; 4] = (&mut buffer[len..len + 4])
                .try_into()
                .expect("the buffer has a slack of 4");
            // SAFETY: `self` proves AVX2; `slot` is 32 writable bytes, stored unaligned.
            unsafe { _mm256_storeu_si256(slot.as_mut_ptr().cast(), packed) };
            len += kept as usize;
            i += 4;
        }
        len
    }

    #[inline(always)]
    fn deposit(self, compact: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves BMI2 (`Avx2::detect`).
        unsafe { _pdep_u64(compact, mask) }
    }
}

/// The 32-bit lane indices that move the 64-bit lanes of a 4-bit mask to the front,
/// aligned for a 256-bit load.
#[repr(C, align(32))]
struct PackOrder([i32; 8]);

/// [`PackOrder`] of every 4-bit mask, built at compile time.
static LEFT_PACK: [PackOrder; 16] = {
    let mut table = [const { PackOrder([0; 8]) }; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                table[mask].0[2 * out] = 2 * lane;
                table[mask].0[2 * out + 1] = 2 * lane + 1;
                out += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_pack_moves_the_kept_lanes_to_the_front() {
        assert_eq!(LEFT_PACK[0b1010].0[..4], [2, 3, 6, 7]);
        assert_eq!(LEFT_PACK[0b1111].0, [0, 1, 2, 3, 4, 5, 6, 7]);
    }
}
