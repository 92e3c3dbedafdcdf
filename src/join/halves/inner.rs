//! The inner side of a column split: the longer quadrant list, prepared once as a
//! structure of arrays padded to [`INNER_PAD`] entries, and the portable inner loop.
//!
//! The preparation writes two plain arrays (the local sum and difference diagonals
//! packed in one word, [`packed`], and the join pattern), a loop the compiler
//! vectorizes. So a pair's conflict is one test of the inner word against the outer
//! part's packed diagonals. What depends on the half-board's flags (the tag of its
//! weight class, and whether it is kept) is chosen in the inner loop: an inner part's
//! own flag is one test of its word against [`InnerParts::flag`], and the outer part
//! brings the tag and the keep mask for either value of it ([`OuterPart`]).

use super::{HalfSpec, InnerLoop, OuterPart};
use crate::join::layout::{Layout, QuadrantPlace};
use crate::join::quadrants::QuadrantEntry;

/// Local sum diagonals `sum` (bits 0..32) and difference diagonals `diff` (bits 32..64)
/// in one word. A quadrant's local diagonals take `2q - 1 <= 31` bits
/// (`crate::join::quadrants::MAX_SIDE`), so a packed placement is exact; of a mask (an
/// outer part's diagonals, shifted into the inner frame), the bits past 32 are dropped,
/// and no local diagonal has them.
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "called in the preparation and the outer loop"
)]
pub(super) fn packed(sum: u64, diff: u64) -> u64 {
    const LOW: u64 = u32::MAX as u64;
    (sum & LOW) | (diff & LOW) << 32
}

const _: () = assert!(
    2 * crate::join::quadrants::MAX_SIDE - 1 <= 32,
    "a quadrant's local diagonals fit in 32 bits"
);

/// The padding granularity of the inner lists: one 512-bit vector of `u64`s (two
/// 256-bit ones).
pub(crate) const INNER_PAD: usize = 8;

/// The inner quadrant placements of one column split. Padding entries are never kept:
/// the inner loops mask them off ([`InnerParts::valid_lanes`]).
#[derive(Default)]
pub(crate) struct InnerParts {
    /// Local diagonals, [`packed`].
    pub(super) diagonals: Vec<u64>,
    /// The join pattern (no tag).
    pub(super) pattern: Vec<u64>,
    /// The local diagonal that sets an inner part's own flag, [`packed`]: a sum
    /// diagonal for south parts (the anti flag), a difference diagonal for north parts
    /// (the main flag), or 0.
    pub(super) flag: u64,
    /// The entries in use (a multiple of [`INNER_PAD`]); the vectors may be longer.
    len: usize,
    /// The entries that are placements (the rest of `len` is padding).
    placements: usize,
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
        if self.diagonals.len() < padded {
            // Grow only; the values past `padded` are never read.
            self.diagonals.resize(padded, 0);
            self.pattern.resize(padded, 0);
        }
        self.len = padded;
        self.placements = list.len();
        // A global diagonal `d` of the inner part is local `d >> shift`; the flag's
        // diagonal below the frame is one no inner part reaches.
        self.flag = if inner_is_north {
            packed(0, spec.main_diff >> place.diff_shift)
        } else {
            packed(spec.anti_sum >> place.sum_shift, 0)
        };
        let diagonals = &mut self.diagonals[..list.len()];
        let patterns = &mut self.pattern[..list.len()];
        let (sum_shift, diff_shift) = (place.sum_shift, place.diff_shift);
        for k in 0..list.len() {
            let (sum, diff) = (u64::from(list[k].sum), u64::from(list[k].diff));
            diagonals[k] = packed(sum, diff);
            patterns[k] = layout.pattern(sum << sum_shift, diff << diff_shift);
        }
        self.diagonals[list.len()..padded].fill(0);
        self.pattern[list.len()..padded].fill(0);
    }

    /// The number of entries, padding included.
    pub(super) fn padded_len(&self) -> usize {
        self.len
    }

    /// The entries from `start` on that are placements, one bit each from bit 0, for
    /// the [`INNER_PAD`] entries from `start` (the rest of the padded list is padding).
    #[inline(always)]
    #[allow(clippy::inline_always, reason = "called in the vector inner loops")]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn valid_lanes(&self, start: usize) -> u8 {
        let real = self.placements.saturating_sub(start).min(INNER_PAD);
        u8::try_from((1u16 << real) - 1).expect("at most 8 lanes")
    }

    /// Whether the inner part of [`packed`] local diagonals `diagonals` has its own
    /// flag.
    #[inline(always)]
    #[allow(clippy::inline_always, reason = "called in the portable inner loop")]
    pub(super) fn has_flag(&self, diagonals: u64) -> bool {
        diagonals & self.flag != 0
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
        for i in 0..inner.placements {
            let diagonals = inner.diagonals[i];
            let flag = usize::from(inner.has_flag(diagonals));
            let disjoint = outer.avoid & diagonals == 0;
            buffer[len] = outer.tagged[flag] | inner.pattern[i];
            len += usize::from(disjoint) & usize::from(outer.keep[flag] != 0);
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_diagonals_meet_exactly_when_one_of_their_masks_does() {
        // Local diagonals of a quadrant of the largest side (16: 31 bits each) against
        // masks with bits anywhere (an outer part's, shifted into the inner frame).
        let side = crate::join::quadrants::MAX_SIDE;
        let local = (1u64 << (2 * side - 1)) - 1;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..10_000 {
            let (sum, diff) = (next() & local & next(), next() & local & next());
            let (avoid_sum, avoid_diff) = (next() & next(), next() & next());
            let separate = (sum & avoid_sum) | (diff & avoid_diff) != 0;
            let together = packed(sum, diff) & packed(avoid_sum, avoid_diff) != 0;
            assert_eq!(
                separate, together,
                "{sum:x} {diff:x} {avoid_sum:x} {avoid_diff:x}"
            );
        }
        // The top local diagonal of each kind.
        let top = 1u64 << (2 * side - 2);
        assert_ne!(packed(top, 0) & packed(top, 0), 0);
        assert_ne!(packed(0, top) & packed(0, top), 0);
        assert_eq!(packed(top, 0) & packed(0, top), 0);
    }

    #[test]
    fn valid_lanes_mark_the_placements_of_every_group() {
        for placements in 1..=24 {
            let parts = InnerParts {
                placements,
                len: placements.div_ceil(INNER_PAD) * INNER_PAD,
                ..InnerParts::default()
            };
            // Every start the vector loops use: groups of 8 (AVX-512) and of 4 (AVX2).
            for start in (0..parts.padded_len()).step_by(4) {
                let lanes = parts.valid_lanes(start);
                for lane in 0..INNER_PAD {
                    let expected = start + lane < placements;
                    assert_eq!(
                        lanes >> lane & 1 == 1,
                        expected,
                        "{placements} {start} {lane}"
                    );
                }
            }
        }
    }
}
