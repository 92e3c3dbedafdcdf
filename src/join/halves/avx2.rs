//! The AVX2 half-board generation: the whole generation compiled with AVX2, BMI2 and
//! POPCNT, and an inner loop testing four pairs per step, the kept ones left-packed
//! with a permutation from a 16-entry table; the inner lists' runs are prepared four
//! placements at a time the same way. Every `unsafe` block relies on the
//! [`Avx2`] token (`crate::cpu`), which only `Avx2::detect` makes, after finding those
//! features.

#![allow(
    clippy::inline_always,
    reason = "the inner loop must inline into the generation compiled with the AVX2 features"
)]

use std::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_load_si256,
    _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sll_epi64,
    _mm256_srl_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm_cvtsi64_si128, _pdep_u64,
};

use super::group::generate_group_with;
use super::inner::{split_runs_portable, Frame, Run};
use super::walk::generate_with;
use super::{GroupCursor, GroupSpec, HalfBoards, HalfCursor, InnerLoop, Piece};
use crate::cpu::x86_64::Avx2;
use crate::join::layout::LocalPattern;
use crate::join::quadrants::QuadrantEntry;

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

/// [`super::generate_group`] with the AVX2 inner loop; `token` proves the features.
pub(super) fn generate_group(
    token: Avx2,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    // SAFETY: `token` proves the features `generate_group_avx2` is compiled with
    // (`Avx2::detect`).
    unsafe { generate_group_avx2(token, piece, group, cursor, out) }
}

/// The group walk, inlined and compiled with the features.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn generate_group_avx2(
    token: Avx2,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    generate_group_with(token, piece, group, cursor, out);
}

impl InnerLoop for Avx2 {
    /// Four entries (one 256-bit vector of `u64`s) at a time.
    const PAD: usize = 4;

    #[inline(always)]
    fn join(self, mask: u64, tag: u64, run: Run<'_>, buffer: &mut [u64], mut len: usize) -> usize {
        // SAFETY: `self` proves AVX2 (`Avx2::detect`).
        let [mask, tag, zero] = unsafe {
            [
                _mm256_set1_epi64x(mask.cast_signed()),
                _mm256_set1_epi64x(tag.cast_signed()),
                _mm256_setzero_si256(),
            ]
        };
        let load = |four: &[u64]| -> __m256i {
            let four: &[u64; 4] = four.try_into().expect("runs are padded to 4");
            // SAFETY: `self` proves AVX2; `four` is 32 readable bytes, loaded unaligned.
            unsafe { _mm256_loadu_si256(four.as_ptr().cast()) }
        };
        let steps = run
            .diagonals
            .chunks_exact(4)
            .zip(run.patterns.chunks_exact(4));
        for (diagonals, patterns) in steps {
            let (diagonals, patterns) = (load(diagonals), load(patterns));
            // SAFETY: `self` proves AVX2; the order is an aligned 32-byte `PackOrder`.
            let (packed, kept) = unsafe {
                let free = _mm256_cmpeq_epi64(_mm256_and_si256(diagonals, mask), zero);
                let kept = _mm256_movemask_pd(_mm256_castsi256_pd(free)).cast_unsigned();
                let order = _mm256_load_si256(LEFT_PACK[kept as usize].0.as_ptr().cast());
                let values = _mm256_or_si256(tag, patterns);
                (
                    _mm256_permutevar8x32_epi32(values, order),
                    kept.count_ones(),
                )
            };
            let slot: &mut [u64; 4] = (&mut buffer[len..len + 4])
                .try_into()
                .expect("the buffer has a slack of 4");
            // SAFETY: `self` proves AVX2; `slot` is 32 writable bytes, stored unaligned.
            unsafe { _mm256_storeu_si256(slot.as_mut_ptr().cast(), packed) };
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
            // SAFETY: `self` proves AVX2 (`Avx2::detect`).
            unsafe { _mm256_set1_epi64x(value.cast_signed()) }
        };
        let counts = ShiftCounts::of(&local);
        let (sum_mask, diff_mask) = (splat(local.sum_mask), splat(local.diff_mask));
        let (blocked, flag, low) = (splat(frame.blocked), splat(frame.flag), splat(0xffff_ffff));
        let zero = splat(0);
        let fours = list.chunks_exact(4);
        let rest = fours.remainder();
        for four in fours {
            let four: &[QuadrantEntry; 4] = four.try_into().expect("chunks of 4");
            // SAFETY: `self` proves AVX2; `four` is 32 readable bytes, four
            // `QuadrantEntry` in C layout whose `u64` reads are their packed diagonals
            // (`sum` in the low half, on this little-endian target).
            let (packed, pattern, runs) = unsafe {
                let packed = _mm256_loadu_si256(four.as_ptr().cast());
                let sum = _mm256_and_si256(packed, low);
                let diff = _mm256_srli_epi64::<32>(packed);
                let sum = _mm256_and_si256(
                    _mm256_srl_epi64(_mm256_sll_epi64(sum, counts.sum_up), counts.sum_down),
                    sum_mask,
                );
                let diff = _mm256_and_si256(
                    _mm256_srl_epi64(_mm256_sll_epi64(diff, counts.diff_up), counts.diff_down),
                    diff_mask,
                );
                let pattern = _mm256_or_si256(sum, _mm256_sll_epi64(diff, counts.diff_offset));
                let lanes = |value: __m256i| {
                    _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(value, zero)))
                        .cast_unsigned()
                };
                let open = lanes(_mm256_and_si256(packed, blocked));
                let unflagged = lanes(_mm256_and_si256(packed, flag));
                (
                    packed,
                    pattern,
                    [open & unflagged, open & !unflagged & 0b1111],
                )
            };
            let [without, with] = runs;
            // SAFETY: `self` proves AVX2; the orders are aligned 32-byte `PackOrder`s.
            let (up, down) = unsafe {
                let order =
                    |kept: u32| _mm256_load_si256(LEFT_PACK[kept as usize].0.as_ptr().cast());
                let (up, down) = (order(without), order(with));
                let reversed = |value| {
                    _mm256_permute4x64_epi64::<0b0001_1011>(_mm256_permutevar8x32_epi32(
                        value, down,
                    ))
                };
                (
                    [
                        _mm256_permutevar8x32_epi32(packed, up),
                        _mm256_permutevar8x32_epi32(pattern, up),
                    ],
                    [reversed(packed), reversed(pattern)],
                )
            };
            // The run without the flag: the kept lanes from its next position up; the
            // one with it: the kept lanes reversed, ending at its lowest entry.
            let (at_up, at_down) = (next[0], next[1] - 4);
            for (values, up, down) in [
                (&mut *diagonals, up[0], down[0]),
                (&mut *patterns, up[1], down[1]),
            ] {
                for (at, vector) in [(at_up, up), (at_down, down)] {
                    let slot: &mut [u64; 4] = (&mut values[at..at + 4])
                        .try_into()
                        .expect("the room between the runs holds a vector");
                    // SAFETY: `self` proves AVX2; `slot` is 32 writable bytes, stored
                    // unaligned.
                    unsafe { _mm256_storeu_si256(slot.as_mut_ptr().cast(), vector) };
                }
            }
            next[0] += without.count_ones() as usize;
            next[1] -= with.count_ones() as usize;
        }
        split_runs_portable(rest, frame, diagonals, patterns, next)
    }

    #[inline(always)]
    fn deposit(self, compact: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves BMI2 (`Avx2::detect`).
        unsafe { _pdep_u64(compact, mask) }
    }
}

/// The shifts of a [`LocalPattern`] as the vector shifts by a register take them (the
/// count in the low 64 bits of an SSE2 register), for the AVX2 and AVX-512 paths.
pub(super) struct ShiftCounts {
    /// [`LocalPattern::sum_up`].
    pub(super) sum_up: __m128i,
    /// [`LocalPattern::sum_down`].
    pub(super) sum_down: __m128i,
    /// [`LocalPattern::diff_up`].
    pub(super) diff_up: __m128i,
    /// [`LocalPattern::diff_down`].
    pub(super) diff_down: __m128i,
    /// [`LocalPattern::diff_offset`].
    pub(super) diff_offset: __m128i,
}

impl ShiftCounts {
    /// The counts of `local`.
    #[inline(always)]
    pub(super) fn of(local: &LocalPattern) -> ShiftCounts {
        let count = |shift: u32| {
            // SAFETY: SSE2 is in every x86-64 processor (the target's baseline).
            unsafe { _mm_cvtsi64_si128(i64::from(shift)) }
        };
        ShiftCounts {
            sum_up: count(local.sum_up),
            sum_down: count(local.sum_down),
            diff_up: count(local.diff_up),
            diff_down: count(local.diff_down),
            diff_offset: count(local.diff_offset),
        }
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
