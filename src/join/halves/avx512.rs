//! The AVX-512 half-board generation: the whole generation compiled with AVX-512F,
//! BMI2 and POPCNT, and an inner loop testing eight pairs per step, the kept ones
//! left-packed by a compress into a register and written with one unaligned store.
//! Every `unsafe` block relies on the [`Avx512Popcnt`] token (`crate::cpu`), which only
//! `Avx512::popcnt` makes, after finding those features (and more).

#![allow(
    clippy::inline_always,
    reason = "the inner loop must inline into the generation compiled with the AVX-512 features"
)]

use std::arch::x86_64::{
    __m512i, _mm512_loadu_si512, _mm512_mask_blend_epi64, _mm512_maskz_compress_epi64,
    _mm512_or_si512, _mm512_set1_epi64, _mm512_storeu_si512, _mm512_test_epi64_mask, _pdep_u64,
};

use super::inner::{InnerParts, INNER_PAD};
use super::walk::generate_with;
use super::{HalfBoards, HalfCursor, InnerLoop, OuterPart, Piece};
use crate::cpu::x86_64::Avx512Popcnt;

/// [`super::generate`] with the AVX-512 inner loop; `token` proves the features.
pub(super) fn generate(
    token: Avx512Popcnt,
    piece: &Piece<'_>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) {
    // SAFETY: `token` proves AVX-512F, BMI2 and POPCNT (`Avx512::popcnt`), the
    // features `generate_avx512` is compiled with.
    unsafe { generate_avx512(token, piece, cursor, out) }
}

/// The generation, inlined and compiled with the AVX-512 features.
#[target_feature(enable = "avx512f,bmi2,popcnt")]
fn generate_avx512(
    token: Avx512Popcnt,
    piece: &Piece<'_>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) {
    generate_with(token, piece, cursor, out);
}

impl InnerLoop for Avx512Popcnt {
    #[inline(always)]
    fn join(
        self,
        outer: &OuterPart,
        inner: &InnerParts,
        buffer: &mut [u64],
        mut len: usize,
    ) -> usize {
        let splat = |value: u64| {
            // SAFETY: `self` proves AVX-512F (`Avx512::popcnt`).
            unsafe { _mm512_set1_epi64(value.cast_signed()) }
        };
        let (avoid, flag) = (splat(outer.avoid), splat(inner.flag));
        let (tagged_without, tagged_with) = (splat(outer.tagged[0]), splat(outer.tagged[1]));
        // The eight lanes' keep masks for inner parts without / with their own flag.
        let [keep_without, keep_with] =
            outer.keep.map(|keep| if keep == 0 { 0u8 } else { u8::MAX });
        let mut i = 0;
        while i < inner.padded_len() {
            let load = |values: &[u64]| -> __m512i {
                let eight: &[u64; INNER_PAD] =
                    values[i..i + INNER_PAD].try_into().expect("padded to 8");
                // SAFETY: `self` proves AVX-512F; `eight` is 64 readable bytes, loaded
                // unaligned.
                unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) }
            };
            let (diagonals, pattern) = (load(&inner.diagonals), load(&inner.pattern));
            // SAFETY: `self` proves AVX-512F.
            let (packed, kept) = unsafe {
                let conflicts = _mm512_test_epi64_mask(diagonals, avoid);
                let flagged = _mm512_test_epi64_mask(diagonals, flag);
                let keep = (flagged & keep_with) | (!flagged & keep_without);
                let kept = !conflicts & keep & inner.valid_lanes(i);
                let tagged = _mm512_mask_blend_epi64(flagged, tagged_without, tagged_with);
                let values = _mm512_or_si512(tagged, pattern);
                (_mm512_maskz_compress_epi64(kept, values), kept.count_ones())
            };
            let slot: &mut [u64; INNER_PAD] = (&mut buffer[len..len + INNER_PAD])
                .try_into()
                .expect("the buffer has a slack of 8");
            // SAFETY: `self` proves AVX-512F; `slot` is 64 writable bytes, stored
            // unaligned.
            unsafe { _mm512_storeu_si512(slot.as_mut_ptr().cast(), packed) };
            len += kept as usize;
            i += INNER_PAD;
        }
        len
    }

    #[inline(always)]
    fn deposit(self, compact: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves BMI2 (`Avx512::popcnt`).
        unsafe { _pdep_u64(compact, mask) }
    }
}
