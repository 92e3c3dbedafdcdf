//! The inner side of a column split: the shorter quadrant list, prepared once as a
//! structure of arrays padded to [`INNER_PAD`] entries, and the portable inner loop.

use super::{HalfSpec, InnerLoop, OuterPart};
use crate::join::layout::{Layout, QuadrantPlace};
use crate::join::quadrants::QuadrantEntry;

/// The padding granularity of the inner lists: one 512-bit vector of `u64`s (two
/// 256-bit ones).
pub(crate) const INNER_PAD: usize = 8;

/// The inner quadrant placements of one column split. Padding entries are never kept.
#[derive(Default)]
pub(crate) struct InnerParts {
    /// Local sum diagonals.
    pub(super) sum: Vec<u64>,
    /// Local difference diagonals.
    pub(super) diff: Vec<u64>,
    /// The inner part's pattern with the half-board's tag, for an outer part
    /// without / with its own flag.
    pub(super) tagged: [Vec<u64>; 2],
    /// All ones to keep the half-board, 0 to drop it, for an outer part without / with
    /// its own flag.
    pub(super) keep: [Vec<u64>; 2],
    /// The entries in use (a multiple of [`INNER_PAD`]); the vectors may be longer.
    len: usize,
}

impl InnerParts {
    /// Prepares `list` (placed at `place`) as the inner side. `inner_is_north` tells
    /// which flag the inner entries carry (north: main, south: anti).
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "the preparation inlines into the walk compiled with the vector features"
    )]
    pub(super) fn fill(
        &mut self,
        layout: &Layout,
        spec: &HalfSpec,
        list: &[QuadrantEntry],
        place: QuadrantPlace,
        inner_is_north: bool,
    ) {
        let padded = list.len().div_ceil(INNER_PAD) * INNER_PAD;
        if self.sum.len() < padded {
            // Grow only; the values past `padded` are never read.
            self.sum.resize(padded, 0);
            self.diff.resize(padded, 0);
            for flag in 0..2 {
                self.tagged[flag].resize(padded, 0);
                self.keep[flag].resize(padded, 0);
            }
        }
        self.len = padded;
        for i in list.len()..padded {
            self.sum[i] = 0;
            self.diff[i] = 0;
            for flag in 0..2 {
                self.tagged[flag][i] = 0;
                self.keep[flag][i] = 0;
            }
        }
        for (i, entry) in list.iter().enumerate() {
            let sum = u64::from(entry.sum);
            let diff = u64::from(entry.diff);
            let global_sum = sum << place.sum_shift;
            let global_diff = diff << place.diff_shift;
            let pattern = layout.pattern(global_sum, global_diff);
            let inner_flag = usize::from(if inner_is_north {
                global_diff & spec.main_diff != 0
            } else {
                global_sum & spec.anti_sum != 0
            });
            self.sum[i] = sum;
            self.diff[i] = diff;
            for outer_flag in 0..2 {
                let flags = if inner_is_north {
                    inner_flag * 2 + outer_flag
                } else {
                    outer_flag * 2 + inner_flag
                };
                self.tagged[outer_flag][i] = pattern | spec.tags[flags];
                self.keep[outer_flag][i] = if spec.keep[flags] { u64::MAX } else { 0 };
            }
        }
    }

    /// The number of entries, padding included.
    pub(super) fn padded_len(&self) -> usize {
        self.len
    }
}

/// The portable inner loop, one pair at a time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl InnerLoop for Portable {
    #[inline]
    fn join(
        self,
        outer: &OuterPart,
        inner: &InnerParts,
        buffer: &mut [u64],
        mut len: usize,
    ) -> usize {
        let tagged = &inner.tagged[outer.flag];
        let keep = &inner.keep[outer.flag];
        for i in 0..inner.padded_len() {
            let disjoint =
                (outer.avoid_sum & inner.sum[i]) | (outer.avoid_diff & inner.diff[i]) == 0;
            buffer[len] = outer.pattern | tagged[i];
            len += usize::from(disjoint) & usize::from(keep[i] != 0);
        }
        len
    }
}
