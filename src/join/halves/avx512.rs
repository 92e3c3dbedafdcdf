//! The AVX-512 half-board generation: the whole generation compiled with AVX-512F,
//! BMI2 and POPCNT, and an inner loop testing eight pairs per step, the kept ones
//! left-packed by a compress into a register and written with one unaligned store;
//! the inner lists' runs are prepared eight placements at a time the same way.
//! Every `unsafe` block relies on the [`Avx512Popcnt`] token (`crate::cpu`), which only
//! `Avx512::popcnt` makes, after finding those features (and more).

#![allow(
    clippy::inline_always,
    reason = "the inner loop must inline into the generation compiled with the AVX-512 features"
)]

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_loadu_si512, _mm512_maskz_compress_epi64, _mm512_or_si512,
    _mm512_permutexvar_epi64, _mm512_set1_epi64, _mm512_set_epi64, _mm512_sll_epi64,
    _mm512_srl_epi64, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_test_epi64_mask,
    _mm512_testn_epi64_mask, _pdep_u64,
};

use super::avx2::ShiftCounts;
use super::group::generate_group_with;
use super::inner::{split_runs_portable, Frame, Run, INNER_PAD};
use super::walk::generate_with;
use super::{GroupCursor, GroupSpec, HalfBoards, HalfCursor, InnerLoop, Piece};
use crate::cpu::x86_64::Avx512Popcnt;
use crate::join::quadrants::QuadrantEntry;

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

/// [`super::generate_group`] with the AVX-512 inner loop; `token` proves the features.
pub(super) fn generate_group(
    token: Avx512Popcnt,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    // SAFETY: `token` proves the features `generate_group_avx512` is compiled with
    // (`Avx512::popcnt`).
    unsafe { generate_group_avx512(token, piece, group, cursor, out) }
}

/// The group walk, inlined and compiled with the features.
#[target_feature(enable = "avx512f,bmi2,popcnt")]
fn generate_group_avx512(
    token: Avx512Popcnt,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    generate_group_with(token, piece, group, cursor, out);
}

impl InnerLoop for Avx512Popcnt {
    /// Eight entries (one 512-bit vector of `u64`s) at a time.
    const PAD: usize = INNER_PAD;

    #[inline(always)]
    fn join(self, mask: u64, tag: u64, run: Run<'_>, buffer: &mut [u64], mut len: usize) -> usize {
        // SAFETY: `self` proves AVX-512F (`Avx512::popcnt`).
        let (mask, tag) = unsafe {
            (
                _mm512_set1_epi64(mask.cast_signed()),
                _mm512_set1_epi64(tag.cast_signed()),
            )
        };
        let load = |eight: &[u64]| -> __m512i {
            let eight: &[u64; INNER_PAD] = eight.try_into().expect("runs are padded to 8");
            // SAFETY: `self` proves AVX-512F; `eight` is 64 readable bytes, loaded
            // unaligned.
            unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) }
        };
        let steps = run
            .diagonals
            .chunks_exact(INNER_PAD)
            .zip(run.patterns.chunks_exact(INNER_PAD));
        for (diagonals, patterns) in steps {
            let (diagonals, patterns) = (load(diagonals), load(patterns));
            // SAFETY: `self` proves AVX-512F.
            let (packed, kept) = unsafe {
                let kept = _mm512_testn_epi64_mask(diagonals, mask);
                let values = _mm512_or_si512(tag, patterns);
                (_mm512_maskz_compress_epi64(kept, values), kept.count_ones())
            };
            let slot: &mut [u64; INNER_PAD] = (&mut buffer[len..len + INNER_PAD])
                .try_into()
                .expect("the buffer has a slack of 8");
            // SAFETY: `self` proves AVX-512F; `slot` is 64 writable bytes, stored
            // unaligned.
            unsafe { _mm512_storeu_si512(slot.as_mut_ptr().cast(), packed) };
            len += kept as usize;
        }
        len
    }

    #[inline(always)]
    fn split_runs(
        self,
        list: &[QuadrantEntry],
        frame: &Frame,
        diagonals: &mut [u64],
        patterns: &mut [u64],
        mut next: [usize; 2],
    ) -> [usize; 2] {
        let local = frame.pattern;
        let splat = |value: u64| {
            // SAFETY: `self` proves AVX-512F (`Avx512::popcnt`).
            unsafe { _mm512_set1_epi64(value.cast_signed()) }
        };
        let counts = ShiftCounts::of(&local);
        let (sum_mask, diff_mask) = (splat(local.sum_mask), splat(local.diff_mask));
        let (blocked, flag, low) = (splat(frame.blocked), splat(frame.flag), splat(0xffff_ffff));
        let eights = list.chunks_exact(INNER_PAD);
        let rest = eights.remainder();
        for eight in eights {
            let eight: &[QuadrantEntry; INNER_PAD] = eight.try_into().expect("chunks of 8");
            // SAFETY: `self` proves AVX-512F; `eight` is 64 readable bytes, eight
            // `QuadrantEntry` in C layout whose `u64` reads are their packed diagonals
            // (`sum` in the low half, on this little-endian target).
            let (packed, pattern, runs) = unsafe {
                let packed = _mm512_loadu_si512(eight.as_ptr().cast());
                let sum = _mm512_and_si512(packed, low);
                let diff = _mm512_srli_epi64::<32>(packed);
                let sum = _mm512_and_si512(
                    _mm512_srl_epi64(_mm512_sll_epi64(sum, counts.sum_up), counts.sum_down),
                    sum_mask,
                );
                let diff = _mm512_and_si512(
                    _mm512_srl_epi64(_mm512_sll_epi64(diff, counts.diff_up), counts.diff_down),
                    diff_mask,
                );
                let pattern = _mm512_or_si512(sum, _mm512_sll_epi64(diff, counts.diff_offset));
                let open = _mm512_testn_epi64_mask(packed, blocked);
                let flagged = _mm512_test_epi64_mask(packed, flag);
                (packed, pattern, [open & !flagged, open & flagged])
            };
            let [without, with] = runs;
            // SAFETY: `self` proves AVX-512F.
            let (up, down) = unsafe {
                let reversed = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
                let down = |values| {
                    _mm512_permutexvar_epi64(reversed, _mm512_maskz_compress_epi64(with, values))
                };
                (
                    [
                        _mm512_maskz_compress_epi64(without, packed),
                        _mm512_maskz_compress_epi64(without, pattern),
                    ],
                    [down(packed), down(pattern)],
                )
            };
            // The run without the flag: the kept lanes from its next position up; the
            // one with it: the kept lanes reversed, ending at its lowest entry.
            let (at_up, at_down) = (next[0], next[1] - INNER_PAD);
            for (values, up, down) in [
                (&mut *diagonals, up[0], down[0]),
                (&mut *patterns, up[1], down[1]),
            ] {
                for (at, vector) in [(at_up, up), (at_down, down)] {
                    let slot: &mut [u64; INNER_PAD] = (&mut values[at..at + INNER_PAD])
                        .try_into()
                        .expect("the room between the runs holds a vector");
                    // SAFETY: `self` proves AVX-512F; `slot` is 64 writable bytes, stored
                    // unaligned.
                    unsafe { _mm512_storeu_si512(slot.as_mut_ptr().cast(), vector) };
                }
            }
            next[0] += without.count_ones() as usize;
            next[1] -= with.count_ones() as usize;
        }
        split_runs_portable(rest, frame, diagonals, patterns, next)
    }

    #[inline(always)]
    fn deposit(self, compact: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves BMI2 (`Avx512::popcnt`).
        unsafe { _pdep_u64(compact, mask) }
    }
}
