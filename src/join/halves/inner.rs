//! The inner side of a column split: the longer quadrant list, prepared once as a
//! structure of arrays in two runs padded to the path's join width
//! ([`InnerLoop::PAD`]), and the portable inner loop.
//!
//! The preparation writes two plain arrays: the local sum and difference diagonals
//! packed in one word ([`packed`]), and the join pattern. So a pair's conflict is one
//! test of the inner word against the outer part's packed diagonals. It drops the
//! placements on a blocked diagonal (they could never be kept), and it puts those
//! without the inner part's own flag in one run and those with it in another
//! ([`InnerParts::run`]): the flag decides the half-board's weight class and whether it
//! is kept, so an outer part joins each run it keeps with one tag, and no inner loop
//! looks at flags.
//!
//! Each run is padded with [`PAD_DIAGONALS`], a packed word that meets every outer
//! part's mask (its bit is no local diagonal, and every mask has it), so the vector
//! loops test whole vectors and never keep a padding entry.
//!
//! The preparation writes the runs from the two ends of the arrays, in one pass with
//! the path's [`InnerLoop::split_runs`]: one placement at a time
//! ([`split_runs_portable`]), or a vector at a time, left-packed into each run, on the
//! vector paths (all keep the same order within a run, so every path makes the same
//! lists).

use super::{HalfSpec, InnerLoop};
use crate::join::layout::{Layout, LocalPattern, QuadrantPlace};
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
    2 * crate::join::quadrants::MAX_SIDE - 1 < 32,
    "a quadrant's local diagonals fit in 31 bits, below the padding bit"
);

/// The packed diagonals of a padding entry: local sum diagonal 31, which no placement
/// has. Every outer part's mask includes it ([`InnerParts::mask`]), so a padding entry
/// always conflicts.
pub(super) const PAD_DIAGONALS: u64 = 1 << 31;

/// The most entries a path's join or preparation takes at a time (one 512-bit vector
/// of `u64`s): the room of the runs and the slack of the output lists are counted in
/// it. Each path pads its runs to its own [`InnerLoop::PAD`], at most this.
pub(crate) const INNER_PAD: usize = 8;

/// The inner quadrant placements of one column split, in two runs: without the inner
/// part's own flag and with it, each a multiple of the path's [`InnerLoop::PAD`] long.
#[derive(Default)]
pub(crate) struct InnerParts {
    /// Local diagonals, [`packed`].
    diagonals: Vec<u64>,
    /// The join pattern (no tag).
    pattern: Vec<u64>,
    /// The entries of the runs without and with the flag, padding included.
    runs: [std::ops::Range<usize>; 2],
}

/// One run of inner parts: packed diagonals and join patterns, of the same length, a
/// multiple of the path's [`InnerLoop::PAD`].
#[derive(Clone, Copy)]
pub(crate) struct Run<'a> {
    /// Local diagonals, [`packed`] (padding: [`PAD_DIAGONALS`]).
    pub(super) diagonals: &'a [u64],
    /// The join patterns (padding: 0).
    pub(super) patterns: &'a [u64],
}

/// What the preparation of an inner list needs to know of its place and half.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// The join pattern of a placement from its local diagonals.
    pub(super) pattern: LocalPattern,
    /// The blocked diagonals in the inner frame, [`packed`]: placements on one are
    /// dropped.
    pub(super) blocked: u64,
    /// The diagonal of the inner parts' own flag in the inner frame, [`packed`] (0:
    /// none).
    pub(super) flag: u64,
}

impl Frame {
    /// Whether the placement of packed diagonals `diagonals` is kept (off the blocked
    /// diagonals), and whether it has the flag.
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "called per placement in the preparation"
    )]
    pub(super) fn classify(&self, diagonals: u64) -> (bool, bool) {
        (diagonals & self.blocked == 0, diagonals & self.flag != 0)
    }
}

/// The packed diagonals of `entry` ([`packed`]).
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "called per placement in the preparation"
)]
pub(super) fn packed_entry(entry: QuadrantEntry) -> u64 {
    packed(u64::from(entry.sum), u64::from(entry.diff))
}

/// The portable preparation: writes each placement of `list` off the blocked diagonals
/// of `frame` into its run, and returns where the runs stand. The run without the flag
/// grows up from `next[0]` (the next position), the run with it down from `next[1]`
/// (its lowest entry; the next one goes just below), so it holds its placements in the
/// list's reverse order. A placement that is dropped is written too, at its run's next
/// position, where a later one or the padding overwrites it.
#[inline(always)]
#[allow(clippy::inline_always, reason = "inlined into each path's preparation")]
pub(super) fn split_runs_portable(
    list: &[QuadrantEntry],
    frame: &Frame,
    diagonals: &mut [u64],
    patterns: &mut [u64],
    mut next: [usize; 2],
) -> [usize; 2] {
    for &entry in list {
        let packed_diagonals = packed_entry(entry);
        let (open, flagged) = frame.classify(packed_diagonals);
        let at = if flagged { next[1] - 1 } else { next[0] };
        diagonals[at] = packed_diagonals;
        patterns[at] = frame
            .pattern
            .of(u64::from(entry.sum), u64::from(entry.diff));
        if flagged {
            next[1] -= usize::from(open);
        } else {
            next[0] += usize::from(open);
        }
    }
    next
}

impl InnerParts {
    /// Prepares `list` (placed at `place`) as the inner side, without the placements on
    /// a diagonal `spec` blocks, with the preparation of `inner_loop`. `inner_is_north`
    /// tells which flag the inner entries carry (north: main, south: anti).
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "the preparation inlines into the walk compiled with the vector features"
    )]
    pub(super) fn fill<L: InnerLoop>(
        &mut self,
        inner_loop: L,
        layout: &Layout,
        spec: &HalfSpec,
        list: &[QuadrantEntry],
        place: QuadrantPlace,
        inner_is_north: bool,
    ) {
        let (sum_shift, diff_shift) = (place.sum_shift, place.diff_shift);
        // A global diagonal `d` of the inner part is local `d >> shift`; a blocked or
        // flag diagonal below the frame is one no inner part reaches.
        let frame = Frame {
            pattern: layout.local_pattern(place),
            blocked: packed(
                spec.blocked_sum >> sum_shift,
                spec.blocked_diff >> diff_shift,
            ),
            flag: if inner_is_north {
                packed(0, spec.main_diff >> diff_shift)
            } else {
                packed(spec.anti_sum >> sum_shift, 0)
            },
        };
        // The run without the flag grows up from 0 and the one with it down from the
        // end of the room. A vector store passes its run's next position by up to
        // `INNER_PAD - 1` entries, into the free room between the runs, which is at
        // least `2 * INNER_PAD` long.
        let room = (list.len() + 2 * INNER_PAD).next_multiple_of(INNER_PAD);
        if self.diagonals.len() < room {
            // Grow only; the values past the room are never read.
            self.diagonals.resize(room, 0);
            self.pattern.resize(room, 0);
        }
        let (diagonals, patterns) = (&mut self.diagonals[..room], &mut self.pattern[..room]);
        let [without, with_low] =
            inner_loop.split_runs(list, &frame, diagonals, patterns, [0, room]);
        let without_end = without.next_multiple_of(L::PAD);
        let with_start = room - (room - with_low).next_multiple_of(L::PAD);
        for (from, to) in [(without, without_end), (with_start, with_low)] {
            diagonals[from..to].fill(PAD_DIAGONALS);
            patterns[from..to].fill(0);
        }
        self.runs = [0..without_end, with_start..room];
    }

    /// The number of entries of both runs, padding included: at most the list's length
    /// plus `2 * (PAD - 1)` of the path that filled them.
    pub(super) fn padded_len(&self) -> usize {
        self.runs[0].len() + self.runs[1].len()
    }

    /// The run of the inner parts without (`with_flag` false) or with their own flag.
    #[inline(always)]
    #[allow(clippy::inline_always, reason = "called in the outer loop")]
    pub(super) fn run(&self, with_flag: bool) -> Run<'_> {
        let range = self.runs[usize::from(with_flag)].clone();
        Run {
            diagonals: &self.diagonals[range.clone()],
            patterns: &self.pattern[range],
        }
    }

    /// The mask an outer part tests the inner runs against: its diagonals `avoid`
    /// (packed, in the inner frame), and the padding bit.
    #[inline(always)]
    #[allow(clippy::inline_always, reason = "called in the outer loop")]
    pub(super) fn mask(avoid: u64) -> u64 {
        avoid | PAD_DIAGONALS
    }
}

/// The portable inner loop, one pair at a time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl InnerLoop for Portable {
    /// One entry at a time: no padding.
    const PAD: usize = 1;

    #[inline]
    fn join(self, mask: u64, tag: u64, run: Run<'_>, buffer: &mut [u64], mut len: usize) -> usize {
        for (&diagonals, &pattern) in run.diagonals.iter().zip(run.patterns) {
            buffer[len] = tag | pattern;
            len += usize::from(diagonals & mask == 0);
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

    /// The portable loop with the widest padding, to check the padding as the widest
    /// vector path makes it.
    #[derive(Clone, Copy)]
    struct Padded;

    impl InnerLoop for Padded {
        const PAD: usize = INNER_PAD;

        fn join(self, mask: u64, tag: u64, run: Run<'_>, buffer: &mut [u64], len: usize) -> usize {
            Portable.join(mask, tag, run, buffer, len)
        }
    }

    #[test]
    fn fill_keeps_the_unblocked_placements_in_their_flag_runs_and_pads_them() {
        fill_keeps_the_unblocked_placements_padded(Portable);
        fill_keeps_the_unblocked_placements_padded(Padded);
    }

    /// The test above, with `inner_loop`'s padding.
    fn fill_keeps_the_unblocked_placements_padded<L: InnerLoop>(inner_loop: L) {
        // North parts of the west half of n = 12 (side 6), with blocked diagonals and
        // the main-diagonal flag; every placement of rows {0, 2, 5} in columns
        // {0, 1, 3}.
        let layout = Layout::new(12);
        let place = layout.place(0, 0);
        let spec = HalfSpec {
            rows: 0,
            columns: 0,
            col0: 0,
            blocked_sum: 1 << 3,
            blocked_diff: 1 << 9,
            main_diff: 1 << 11,
            anti_sum: 0,
            tags: [0; 4],
            keep: [true; 4],
        };
        let rows = [0u32, 2, 5];
        let mut list = Vec::new();
        for (a, b, c) in [
            (0, 1, 3),
            (0, 3, 1),
            (1, 0, 3),
            (1, 3, 0),
            (3, 0, 1),
            (3, 1, 0),
        ] {
            let queens = [(rows[0], a), (rows[1], b), (rows[2], c)];
            let (mut sum, mut diff) = (0u32, 0u32);
            for (i, j) in queens {
                sum |= 1 << (i + j);
                diff |= 1 << (i + layout.half - 1 - j);
            }
            list.push(QuadrantEntry { sum, diff });
        }
        let mut parts = InnerParts::default();
        parts.fill(inner_loop, &layout, &spec, &list, place, true);
        let blocked = packed(1 << 3, 1 << 9 >> place.diff_shift);
        let flag = packed(0, 1 << 11 >> place.diff_shift);
        let mut real_entries = 0;
        for with_flag in [false, true] {
            let run = parts.run(with_flag);
            assert_eq!(run.diagonals.len() % L::PAD, 0);
            assert_eq!(run.diagonals.len(), run.patterns.len());
            let mut expected: Vec<u64> = list
                .iter()
                .map(|entry| packed(entry.sum.into(), entry.diff.into()))
                .filter(|&d| d & blocked == 0 && (d & flag != 0) == with_flag)
                .collect();
            // The run with the flag holds the list's reverse order, its padding first.
            if with_flag {
                expected.reverse();
            }
            let padding = run.diagonals.len() - expected.len();
            let (pads, placements) = if with_flag {
                (&run.diagonals[..padding], &run.diagonals[padding..])
            } else {
                (
                    &run.diagonals[expected.len()..],
                    &run.diagonals[..expected.len()],
                )
            };
            assert!(padding < L::PAD);
            assert!(pads
                .iter()
                .all(|&d| d == PAD_DIAGONALS && InnerParts::mask(0) & d != 0));
            assert_eq!(placements, expected, "flag {with_flag}");
            let real: Vec<u64> = run
                .diagonals
                .iter()
                .copied()
                .filter(|&d| d != PAD_DIAGONALS)
                .collect();
            assert_eq!(real, expected, "flag {with_flag}");
            assert!(!real.is_empty(), "the list has placements of each run");
            real_entries += real.len();
        }
        assert!(real_entries < list.len(), "the list has blocked placements");
        assert!(parts.padded_len() <= list.len() + 2 * (L::PAD - 1));
        // The runs do not overlap.
        assert!(parts.runs[0].end < parts.runs[1].start);
    }
}
