//! Stored sides that carry weight classes ("class mode"). A unit whose west half-boards
//! far outnumber its east ones stores the west side, each pattern tagged with its
//! weight class ([`super::tagged`]), and counts the east half-boards against it
//! (`join::units::orientation` decides). A count then gives the disjoint pairs per
//! *stored* class.
//!
//! **Arrangement.** A block's slots are paired into [`POSITIONS`] positions: position
//! `p` is slots `p` and `p + POSITIONS`, the two 256-bit halves of a lane, which the
//! AVX2 path adds up in its adder tree. Each class takes a run of positions, both slots
//! of each holding one of its patterns (in the slot order `p, p + 256, p + 1, ...`), so
//! the conflicts of a class are the set bits under its positions, on every path. A
//! class with an odd number of patterns in the block keeps its last one apart (a
//! *single*, at most one per class), counted against the block's items one by one; its
//! slot is padding. The positions no class takes are padding (always conflicting, and
//! under no class).
//!
//! The block's common bits are those of all its patterns, singles included, so an item
//! with one of them meets none of them; the work measure counts the block's slots as
//! in a count without classes.

#![allow(
    clippy::inline_always,
    reason = "the arrangement and the masks must inline into the preparation and counts compiled with the vector features"
)]

use super::{class_of, BLOCK_SLOTS, CLASS_COUNT, LANE_WORDS, PATTERN_MASK};

/// The positions of a block: position `p` is slots `p` and `p + POSITIONS`.
pub(super) const POSITIONS: usize = BLOCK_SLOTS / 2;
/// The 64-bit words of a position mask (half a lane).
pub(super) const POSITION_WORDS: usize = LANE_WORDS / 2;

/// The classes of one block of a classed stored side: the positions of each, and the
/// patterns counted apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct BlockClasses {
    /// Where each class's positions end: class `c` has positions `ends[c - 1]..ends[c]`
    /// (class 0 from position 0).
    ends: [u16; CLASS_COUNT],
    /// One bit per class with a single.
    singles: u8,
    /// The single of each class in `singles` (its pattern, tag removed).
    single_patterns: [u64; CLASS_COUNT],
}

impl BlockClasses {
    /// The positions of class `class`.
    #[inline(always)]
    pub(super) fn positions(&self, class: usize) -> std::ops::Range<usize> {
        let start = if class == 0 { 0 } else { self.ends[class - 1] };
        usize::from(start)..usize::from(self.ends[class])
    }

    /// The classes with positions, at most [`CLASS_COUNT`], in order.
    #[inline(always)]
    pub(super) fn with_positions(&self) -> impl Iterator<Item = usize> + '_ {
        (0..CLASS_COUNT).filter(|&class| !self.positions(class).is_empty())
    }

    /// The mask of the positions of class `class` (bit `p` of word `p / 64`).
    #[inline(always)]
    pub(super) fn position_mask(&self, class: usize) -> [u64; POSITION_WORDS] {
        let positions = self.positions(class);
        std::array::from_fn(|word| {
            let low = (word * 64).clamp(positions.start, positions.end);
            let high = (word * 64 + 64).clamp(positions.start, positions.end);
            bits_between(low - word * 64, high - word * 64)
        })
    }

    /// The mask of the slots of class `class` (the words of a lane): its positions in
    /// both halves.
    #[inline(always)]
    pub(super) fn slot_mask(&self, class: usize) -> [u64; LANE_WORDS] {
        let half = self.position_mask(class);
        std::array::from_fn(|word| half[word % POSITION_WORDS])
    }

    /// Adds to `by_class` the disjoint pairs of the block and `items`, from the
    /// conflicts each class's slots had (`conflicts[c]`, at most two per item and
    /// position of class `c`), and counts the singles against the items.
    #[inline(always)]
    pub(super) fn add_disjoint(
        &self,
        items: &[u64],
        conflicts: &[u64; CLASS_COUNT],
        by_class: &mut [u64; CLASS_COUNT],
    ) {
        for class in 0..CLASS_COUNT {
            let slots = 2 * self.positions(class).len() as u64;
            // At most 2^30 items: every term is below 2^40.
            by_class[class] += items.len() as u64 * slots - conflicts[class];
            if self.singles >> class & 1 == 1 {
                let single = self.single_patterns[class];
                let disjoint = items.iter().filter(|&&item| item & single == 0).count();
                by_class[class] += disjoint as u64;
            }
        }
    }
}

/// The bits `low..high` of a word (`low <= high <= 64`).
#[inline(always)]
fn bits_between(low: usize, high: usize) -> u64 {
    let below = |bit: usize| {
        if bit >= 64 {
            u64::MAX
        } else {
            (1u64 << bit) - 1
        }
    };
    below(high) & !below(low)
}

/// Arranges the tagged patterns of `block` (at most [`BLOCK_SLOTS`]) by class into
/// `slots` (tags removed; padding slots 0), and gives the padding slots (the words of
/// a lane) and the block's classes.
#[inline(always)]
pub(super) fn arrange(
    block: &[u64],
    slots: &mut [u64; BLOCK_SLOTS],
) -> ([u64; LANE_WORDS], BlockClasses) {
    debug_assert!(block.len() <= BLOCK_SLOTS);
    let mut per_class = [0usize; CLASS_COUNT];
    for &pattern in block {
        per_class[class_of(pattern)] += 1;
    }
    let mut classes = BlockClasses::default();
    let mut first_position = [0usize; CLASS_COUNT];
    let mut end = 0;
    for class in 0..CLASS_COUNT {
        first_position[class] = end;
        end += per_class[class] / 2;
        classes.ends[class] = u16::try_from(end).expect("at most 256 positions");
    }
    *slots = [0; BLOCK_SLOTS];
    let mut filled = [0u64; LANE_WORDS];
    let mut placed = [0usize; CLASS_COUNT];
    for &tagged in block {
        let class = class_of(tagged);
        let pattern = tagged & PATTERN_MASK;
        let index = placed[class];
        placed[class] += 1;
        if index / 2 == per_class[class] / 2 {
            // The odd last pattern of its class.
            classes.singles |= 1 << class;
            classes.single_patterns[class] = pattern;
            continue;
        }
        let slot = first_position[class] + index / 2 + POSITIONS * (index % 2);
        slots[slot] = pattern;
        filled[slot / 64] |= 1 << (slot % 64);
    }
    (filled.map(|word| !word), classes)
}

#[cfg(test)]
mod tests {
    use super::super::tagged;
    use super::*;

    /// `len` tagged patterns of the classes `class(i)`, pattern `i + 1`.
    fn block(len: usize, class: impl Fn(usize) -> usize) -> Vec<u64> {
        (0..len).map(|i| tagged(i as u64 + 1, class(i))).collect()
    }

    #[test]
    fn each_class_takes_both_slots_of_its_positions_and_keeps_its_odd_last_apart() {
        for (len, class) in [
            (512usize, (|i| i % 4) as fn(usize) -> usize),
            (512, |i| usize::from(i % 7 == 0)),
            (511, |i| i % 3),
            (5, |_| 2),
            (1, |_| 3),
            (0, |_| 0),
            (300, |i| if i < 3 { 1 } else { 3 }),
        ] {
            let patterns = block(len, class);
            let mut slots = [0; BLOCK_SLOTS];
            let (padding, classes) = arrange(&patterns, &mut slots);
            let mut seen: Vec<u64> = Vec::new();
            let mut covered = [0u64; LANE_WORDS];
            for c in 0..CLASS_COUNT {
                let mask = classes.slot_mask(c);
                for (slot, &pattern) in slots.iter().enumerate() {
                    let in_class = mask[slot / 64] >> (slot % 64) & 1 == 1;
                    let is_padding = padding[slot / 64] >> (slot % 64) & 1 == 1;
                    if in_class {
                        assert!(!is_padding, "{len}: class {c}, slot {slot}");
                        let original = patterns.iter().find(|&&p| p & PATTERN_MASK == pattern);
                        assert_eq!(original.map(|&p| class_of(p)), Some(c), "{len}: {slot}");
                        seen.push(pattern);
                        covered[slot / 64] |= 1 << (slot % 64);
                    }
                }
                if classes.singles >> c & 1 == 1 {
                    seen.push(classes.single_patterns[c]);
                }
                let in_class = patterns.iter().filter(|&&p| class_of(p) == c).count();
                assert_eq!(classes.positions(c).len(), in_class / 2, "{len}: class {c}");
                assert_eq!(usize::from(classes.singles >> c & 1), in_class % 2);
            }
            // Every pattern once, and every other slot padding.
            seen.sort_unstable();
            let mut want: Vec<u64> = patterns.iter().map(|p| p & PATTERN_MASK).collect();
            want.sort_unstable();
            assert_eq!(seen, want, "{len}");
            let ones = |words: [u64; LANE_WORDS]| words.iter().map(|w| w.count_ones()).sum::<u32>();
            assert_eq!(ones(covered), 512 - ones(padding), "{len}");
            for (c, p) in covered.iter().zip(padding) {
                assert_eq!(c & p, 0, "{len}: a slot both in a class and padding");
            }
        }
    }

    #[test]
    fn position_masks_cover_word_boundaries() {
        let classes = BlockClasses {
            ends: [63, 64, 200, 256],
            ..BlockClasses::default()
        };
        let ones: Vec<u32> = (0..CLASS_COUNT)
            .map(|c| {
                classes
                    .position_mask(c)
                    .iter()
                    .map(|w| w.count_ones())
                    .sum()
            })
            .collect();
        assert_eq!(ones, [63, 1, 136, 56]);
        assert_eq!(classes.position_mask(1), [1 << 63, 0, 0, 0]);
        assert_eq!(classes.position_mask(3), [0, 0, 0, !((1 << 8) - 1)]);
        assert_eq!(classes.with_positions().collect::<Vec<_>>(), [0, 1, 2, 3]);
        let empty = BlockClasses {
            ends: [0, 10, 10, 10],
            ..BlockClasses::default()
        };
        assert_eq!(empty.with_positions().collect::<Vec<_>>(), [1]);
        let ones: u32 = empty.slot_mask(1).iter().map(|w| w.count_ones()).sum();
        assert_eq!(ones, 20);
        assert_eq!(empty.slot_mask(0), [0; LANE_WORDS]);
    }
}
