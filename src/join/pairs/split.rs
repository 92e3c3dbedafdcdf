//! The splits that make a count's blocks (see the parent module): the stored patterns
//! are split in two again and again, each time on the bit that a model of the count
//! says saves the most item visits, into `ceil(len / 512)` blocks, all full but the
//! last. The patterns of a side that fill no whole block there go back to the other
//! side of the split above, so that they may still share bits with other patterns.

#![allow(
    clippy::inline_always,
    reason = "the splits must inline into the preparation compiled with the vector features, whose `pext` they call"
)]

use super::blocks::{common_and_any, grow_to, Lane, Prepared, Selection, Split, FILTER_SLACK};
use super::tiles::{tile_count, tile_len};
use super::{BLOCK_SLOTS, PATTERN_MASK};

/// The stored patterns of a split node sampled (evenly spaced) for its bits'
/// frequencies.
const STORED_SAMPLE: usize = 256;
/// The most stored patterns a split samples: from `64 * STORED_SAMPLE` patterns on, a
/// split samples one in 64, up to this many (a large split's choice pays for them).
const MAX_STORED_SAMPLE: usize = 4096;
/// The items sampled (evenly spaced) to weigh the splits.
pub(super) const ITEM_SAMPLE: usize = 256;
/// The most items sampled: from `64 * ITEM_SAMPLE` items on, one in 64, up to this
/// many.
pub(super) const MAX_ITEM_SAMPLE: usize = 4096;
/// The fixed cost of choosing a split (its samples' histograms), in item visits.
const SPLIT_FIXED_VISITS: u64 = 500;
/// The deepest split: past it, a node is cut into blocks as it stands. Each split
/// takes a varying bit from the side with it, which holds a block's worth of patterns
/// or more, so real lists stop far above it; it bounds the recursion.
const MAX_SPLIT_DEPTH: usize = 64;

/// The splits' bit operations from functions: a correct bit extract, a correct
/// [`partition_by_mask`] and a correct [`bit_counts`] (the portable path and the
/// tests; the vector paths implement [`SplitOps`] on their tokens' `Ops`).
pub(super) struct PathOps<E, P, C> {
    /// The bit extract (`pext`).
    pub(super) pext: E,
    /// The partition.
    pub(super) partition: P,
    /// The bit counts.
    pub(super) count_bits: C,
}

/// The bit operations of a path, as the splits use them.
pub(super) trait SplitOps {
    /// The bit extract (`pext`).
    fn pext(&self, value: u64, mask: u64) -> u64;
    /// [`partition_by_mask`].
    fn partition(&self, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize;
    /// [`bit_counts`].
    fn count_bits(&self, patterns: &[u64], step: usize, bits: u64) -> [u64; 64];

    /// [`Prepared::split`] with these operations: the splits' recursion. A vector path
    /// calls a function compiled with its features, which inlines [`Prepared::split`]
    /// (so its folds, partitions and block slices run as that path's code).
    fn split(
        &self,
        prepared: &mut Prepared,
        part: &mut [u64],
        spare: &mut [u64],
        samples: &mut [u64],
        parent: Parent<'_>,
    ) -> usize
    where
        Self: Sized,
    {
        prepared.split(part, spare, samples, parent, self)
    }
}

impl<E, P, C> SplitOps for PathOps<E, P, C>
where
    E: Fn(u64, u64) -> u64,
    P: Fn(&mut [u64], &mut [u64], u64, bool) -> usize,
    C: Fn(&[u64], usize, u64) -> [u64; 64],
{
    #[inline(always)]
    fn pext(&self, value: u64, mask: u64) -> u64 {
        (self.pext)(value, mask)
    }

    #[inline(always)]
    fn partition(&self, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize {
        (self.partition)(values, spare, mask, set)
    }

    #[inline(always)]
    fn count_bits(&self, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
        (self.count_bits)(patterns, step, bits)
    }
}

/// The portable [`PathOps`] of a bit extract `pext`.
pub(super) fn portable_ops(pext: impl Fn(u64, u64) -> u64) -> impl SplitOps {
    PathOps {
        pext,
        partition: partition_by_mask,
        count_bits: bit_counts,
    }
}

/// What a split passes to the splits of its two sides: their depth, and its own common
/// bits with the bit counts of its visiting sampled items, which a side with the same
/// common bits (so the same visiting items) takes instead of counting them again.
#[derive(Clone, Copy)]
pub(super) struct Parent<'a> {
    /// The depth of the sides (0 at the top).
    pub(super) depth: usize,
    /// The split's common bits and its visiting items' bit counts (`None` at the top).
    pub(super) items: Option<(u64, &'a [u64; 64])>,
}

impl Parent<'_> {
    /// What the whole stored side is split with.
    pub(super) const TOP: Parent<'static> = Parent {
        depth: 0,
        items: None,
    };
}

impl Prepared {
    /// Builds the blocks of `stored` (at most `2^30` patterns), split for items like
    /// `sample`, with the path's bit operations `ops`. The splits reorder `stored` in
    /// place (block after block), so no copy of it is held.
    ///
    /// The patterns are split in two again and again, each time by the bit that a
    /// model of the count says saves the most item visits: the side with the bit has
    /// it in common, so the items with that bit skip all of its blocks. The model
    /// weighs the blocks' worth of patterns that have a bit by the sampled items that
    /// have it too. Every block but the last is full: the patterns of the side with
    /// the bit that fill no whole block there go back to the other side (and so up,
    /// split after split), and the last patterns left make the last block. So there are
    /// `ceil(len / 512)` blocks. A sample of many items sets the count's item tiles
    /// ([`super::tiles`]), and the blocks' chunk layouts are chosen for one tile.
    #[inline(always)]
    pub(super) fn prepare_stored(
        &mut self,
        stored: &mut [u64],
        sample: &[u64],
        ops: &impl SplitOps,
    ) {
        self.blocks.clear();
        self.slices.clear();
        self.splits.clear();
        self.selection = Selection::default();
        self.transposed.resize(64, Lane::default());
        let mut item_sample = std::mem::take(&mut self.item_sample);
        item_sample.clear();
        let wanted = (sample.len() / 64).clamp(ITEM_SAMPLE, MAX_ITEM_SAMPLE);
        let step = sample.len().div_ceil(wanted).max(1);
        item_sample.extend(sample.iter().step_by(step).map(|&item| item & PATTERN_MASK));
        self.items_per_sample = sample.len() as u64 / (item_sample.len() as u64).max(1);
        let tiles = tile_count(sample.len(), stored.len().div_ceil(BLOCK_SLOTS));
        self.sample_tiles = tiles as u64;
        self.tile_len = if tiles > 1 {
            tile_len(sample.len(), tiles)
        } else {
            0
        };
        // The item lists' buffer is free until the count: it serves the splits'
        // partitions (reserved for at least as many items as stored patterns). It only
        // grows: cut to this side's length, it was filled with zeros again up to the
        // items' length by every count (1.2% of n = 20's time in `memset`).
        let mut spare = std::mem::take(&mut self.filtered.lists);
        grow_to(&mut spare, stored.len() + FILTER_SLACK);
        let left = ops.split(self, stored, &mut spare, &mut item_sample, Parent::TOP);
        if left > 0 {
            let last = &stored[stored.len() - left..];
            self.push_block(last, &item_sample, &|value, mask| ops.pext(value, mask));
        }
        debug_assert_eq!(self.blocks.len(), stored.len().div_ceil(BLOCK_SLOTS));
        self.filtered.lists = spare;
        self.item_sample = item_sample;
    }

    /// Makes room for the splits' item sample, or
    /// [`crate::error::Error::OutOfMemory`].
    pub(super) fn reserve_item_sample(&mut self) -> Result<(), crate::error::Error> {
        let during = "reserving the pair counter's item sample";
        crate::join::alloc::reserve(&mut self.item_sample, MAX_ITEM_SAMPLE, during)
    }

    /// Splits `part` into full blocks, made from its front, with `spare` to partition
    /// it (when as long), and gives the number of its patterns left at its end, fewer
    /// than a block's worth, for the caller to join to another side; `samples` are the
    /// sampled items that visit the split above (the function reorders them, those
    /// that visit `part` first), and `parent` gives the depth and that split's counts
    /// of their bits. The side with the split bit is split first, by
    /// [`SplitOps::split`]; what it leaves joins the other side, split next. A part of
    /// a block's worth or more makes a block at least.
    #[inline(always)]
    pub(super) fn split(
        &mut self,
        part: &mut [u64],
        spare: &mut [u64],
        samples: &mut [u64],
        parent: Parent<'_>,
        ops: &impl SplitOps,
    ) -> usize {
        let len = part.len();
        if len < BLOCK_SLOTS {
            return len;
        }
        let (all, any) = common_and_any(part);
        let varying = any & !all;
        // The sampled items that meet this part: those with none of its common bits.
        // With the split's own common bits, that is all of the split's, and their bit
        // counts (over its varying bits, which a side can only lose) are the split's.
        let inherited = parent
            .items
            .filter(|&(common, _)| common == all)
            .map(|(_, counts)| counts);
        let visiting = if inherited.is_some() {
            samples.len()
        } else {
            ops.partition(samples, spare, all, false)
        };
        let samples = &mut samples[..visiting];
        let mut item_freq = [0; 64];
        let chosen = if len == BLOCK_SLOTS || parent.depth >= MAX_SPLIT_DEPTH || visiting == 0 {
            None
        } else {
            item_freq = match inherited {
                Some(counts) => *counts,
                None => ops.count_bits(samples, 1, varying),
            };
            best_split(part, &item_freq, varying, ops)
                .filter(|&(_, saved)| {
                    let items = visiting as u64 * self.items_per_sample;
                    saved * self.items_per_sample >= split_cost(len, items)
                })
                .map(|(bit, _)| bit)
        };
        // The side with the bit comes first; it must fill a block.
        let Some(ones) = chosen
            .map(|bit| ops.partition(part, spare, 1 << bit, true))
            .filter(|&ones| ones >= BLOCK_SLOTS)
        else {
            let whole = len / BLOCK_SLOTS * BLOCK_SLOTS;
            for block in part[..whole].chunks(BLOCK_SLOTS) {
                self.push_block(block, samples, &|value, mask| ops.pext(value, mask));
            }
            return len - whole;
        };
        let index = self.splits.len();
        let first_block = self.blocks.len();
        self.splits.push(Split {
            common: all,
            first_block,
            end_block: 0,
        });
        let sides = Parent {
            depth: parent.depth + 1,
            items: Some((all, &item_freq)),
        };
        // The sides are split one after the other, each with all of `spare`; what the
        // first leaves at its end lies just before the second.
        let left = ops.split(self, &mut part[..ones], spare, samples, sides);
        let left = ops.split(self, &mut part[ones - left..], spare, samples, sides);
        // The side with the bit holds a block's worth, so it made a block at least.
        debug_assert!(self.blocks.len() > first_block);
        self.splits[index].end_block = self.blocks.len();
        left
    }
}

/// Moves the entries of `values` with (`set`) or without the bits of `mask` to the
/// front, with `spare` as [`partition_with`] does: the portable partition of the
/// splits and the class sort (the vector paths have faster equals).
#[inline(always)]
pub(super) fn partition_by_mask(
    values: &mut [u64],
    spare: &mut [u64],
    mask: u64,
    set: bool,
) -> usize {
    partition_with(values, spare, |value| (value & mask != 0) == set)
}

/// Finishes a vector path's partition of `values` by `mask` and `set` (as
/// [`partition_by_mask`]), whose vectors moved the first `read` entries: `front` kept
/// at the front of `values`, `back` others at the front of `spare`; gives the number
/// kept. (Only the x86-64 vector paths use it.)
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn finish_partition(
    values: &mut [u64],
    spare: &mut [u64],
    (mask, set): (u64, bool),
    moved: (usize, usize, usize),
) -> usize {
    partition_from(values, spare, |value| (value & mask != 0) == set, moved)
}

/// Moves the entries of `values` for which `keep` holds to the front, with `spare` for
/// the others, and gives their number. Branch-free (the outcome of `keep` is not
/// predictable); with `spare` at least as long as `values`, each entry is written where
/// no later read waits for it, else the in-place [`partition_front`] does it.
#[inline(always)]
fn partition_with(values: &mut [u64], spare: &mut [u64], keep: impl Fn(u64) -> bool) -> usize {
    let Some(spare) = spare.get_mut(..values.len()) else {
        return partition_front(values, keep);
    };
    partition_from(values, spare, keep, (0, 0, 0))
}

/// The partition of [`partition_with`] from entry `read` on, the entries before it
/// moved already (`front` kept at the front of `values`, `back` others at the front of
/// `spare`): the rest one at a time, then the others copied back after the kept ones.
#[inline(always)]
fn partition_from(
    values: &mut [u64],
    spare: &mut [u64],
    keep: impl Fn(u64) -> bool,
    (mut front, mut back, read): (usize, usize, usize),
) -> usize {
    for index in read..values.len() {
        let value = values[index];
        let kept = keep(value);
        values[front] = value;
        spare[back] = value;
        front += usize::from(kept);
        back += usize::from(!kept);
    }
    values[front..].copy_from_slice(&spare[..back]);
    front
}

/// Moves the entries of `values` for which `keep` holds to the front, and gives their
/// number (branch-free: the outcome of `keep` is not predictable).
#[inline(always)]
fn partition_front(values: &mut [u64], keep: impl Fn(u64) -> bool) -> usize {
    let mut front = 0;
    for index in 0..values.len() {
        let kept = keep(values[index]);
        values.swap(front, index);
        front += usize::from(kept);
    }
    front
}

/// The bit of `varying` whose split of `part` saves the most predicted item visits,
/// and the sampled visits it saves, from samples of the patterns and of the visiting
/// items `samples`: the blocks' worth of patterns with the bit times the sampled items
/// with it (they skip those blocks). Only a bit that a block's worth of patterns has
/// may split. `None` without such a bit.
fn best_split(
    part: &[u64],
    item_freq: &[u64; 64],
    varying: u64,
    ops: &impl SplitOps,
) -> Option<(u32, u64)> {
    let len = part.len();
    let wanted = (len / 64).clamp(STORED_SAMPLE, MAX_STORED_SAMPLE);
    let step = len.div_ceil(wanted).max(1);
    let stored_count = len.div_ceil(step) as u64;
    let stored_freq = ops.count_bits(part, step, varying);
    let mut best: Option<(u64, u32)> = None;
    let mut bits = varying;
    while bits != 0 {
        let bit = bits.trailing_zeros();
        bits &= bits - 1;
        let with_bit = stored_freq[bit as usize] * len as u64 / stored_count;
        if with_bit < BLOCK_SLOTS as u64 {
            continue;
        }
        let saved = with_bit * item_freq[bit as usize] / BLOCK_SLOTS as u64;
        if best.is_none_or(|(most, _)| saved > most) {
            best = Some((saved, bit));
        }
    }
    best.map(|(saved, bit)| (bit, saved))
}

/// What a split of `len` patterns that `items` items visit costs, in item visits
/// (about 7 cycles each): its partition and folds (under 2 cycles a pattern, a quarter
/// of a visit), the list of its surviving items the count filters (about a quarter of
/// a visit an item) and its samples' histograms.
fn split_cost(len: usize, items: u64) -> u64 {
    len as u64 / 4 + items / 4 + SPLIT_FIXED_VISITS
}

/// How often each bit of `bits` is set in every `step`-th of `patterns` (`step >= 1`),
/// from the first: the portable bit counts of the splits' choice (the vector paths have
/// faster equals).
pub(super) fn bit_counts(patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
    let mut freq = [0u64; 64];
    for &pattern in patterns.iter().step_by(step) {
        let mut rest = pattern & bits;
        while rest != 0 {
            freq[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    freq
}

/// Checks that `ops` partitions and counts bits exactly as the portable operations do:
/// the same entries in the same order, the same counts, for lists of every length to
/// 40 and a long one, with room to spare and without.
#[cfg(test)]
pub(super) fn assert_ops_match_portable(ops: &impl SplitOps, name: &str) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for len in (0..=40).chain([1000, 1021]) {
        let values: Vec<u64> = (0..len).map(|_| next() & next()).collect();
        for bits in [0, u64::MAX, next() & next(), 1 << (next() % 64)] {
            for step in [1, 3, 7] {
                assert_eq!(
                    ops.count_bits(&values, step, bits),
                    bit_counts(&values, step, bits),
                    "{name}: bit counts of {len} values, step {step}, bits {bits:#x}"
                );
            }
        }
        for (mask, set) in [(1u64 << (next() % 64), true), (next() & next(), false)] {
            let mut want = values.clone();
            let kept = partition_by_mask(&mut want, &mut vec![0; len], mask, set);
            for spare_len in [0, len, len + FILTER_SLACK] {
                let mut moved = values.clone();
                let got = ops.partition(&mut moved, &mut vec![0; spare_len], mask, set);
                let case = format!("{name}: {len} values, mask {mask:#x}, set {set}");
                assert_eq!(got, kept, "{case}");
                if spare_len >= len {
                    assert_eq!(moved, want, "{case}: the order of a stable partition");
                } else {
                    assert_eq!(moved[..got], want[..kept], "{case}: the kept entries");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::bits::extract_bits;
    use crate::join::pairs::random_patterns;

    /// `len` patterns over `bits` bits from a fixed seed, with bits of different
    /// frequencies (bit `b` set with probability about `(b % 7 + 1) / 16`).
    fn patterns(len: usize, bits: u32, seed: u64) -> Vec<u64> {
        random_patterns(len, bits, seed, |bit| u64::from(bit % 7) + 1)
    }

    /// The patterns of each block of `prepared`, from `stored` as its preparation
    /// reordered them.
    fn block_patterns(prepared: &Prepared, stored: &[u64]) -> Vec<Vec<u64>> {
        let mut from = 0;
        prepared
            .blocks
            .iter()
            .map(|block| {
                let len = BLOCK_SLOTS - block.padding.count_ones() as usize;
                from += len;
                stored[from - len..from].to_vec()
            })
            .collect()
    }

    #[test]
    fn splits_keep_every_pattern_in_the_fewest_blocks_with_their_common_bits() {
        for (len, bits) in [(100_000usize, 38u32), (30_000, 50), (5_000, 20), (513, 30)] {
            let stored = patterns(len, bits, len as u64);
            let items = patterns(20_000, bits, 7);
            let mut prepared = Prepared::default();
            let mut reordered = stored.clone();
            prepared.prepare_stored(&mut reordered, &items, &portable_ops(extract_bits));
            assert_eq!(prepared.blocks.len(), len.div_ceil(BLOCK_SLOTS), "{len}");
            let mut sorted = reordered.clone();
            let mut original = stored.clone();
            sorted.sort_unstable();
            original.sort_unstable();
            assert_eq!(
                sorted, original,
                "{len}: the patterns are reordered, not changed"
            );
            let blocks = block_patterns(&prepared, &reordered);
            let (last, full) = blocks.split_last().expect("one block at least");
            assert!(full.iter().all(|block| block.len() == BLOCK_SLOTS));
            assert_eq!(last.len(), len - full.len() * BLOCK_SLOTS);
            for (block, patterns) in prepared.blocks.iter().zip(&blocks) {
                let all = patterns.iter().fold(PATTERN_MASK, |acc, &p| acc & p);
                assert_eq!(block.common, all);
            }
            if len > 4 * BLOCK_SLOTS {
                assert!(!prepared.splits.is_empty(), "{len}: the splits pay");
            }
            for split in &prepared.splits {
                assert!(split.first_block < split.end_block);
                for block in &prepared.blocks[split.first_block..split.end_block] {
                    assert_eq!(block.common & split.common, split.common);
                }
            }
            // Each split comes before the splits inside it, and two splits are nested or
            // apart.
            for (i, outer) in prepared.splits.iter().enumerate() {
                for inner in &prepared.splits[i + 1..] {
                    let nested = inner.first_block >= outer.first_block
                        && inner.end_block <= outer.end_block;
                    let apart = inner.first_block >= outer.end_block;
                    assert!(nested || apart);
                }
            }
        }
    }

    #[test]
    fn splits_stop_at_the_depth_limit() {
        let stored = patterns(3_000, 30, 1);
        let items = patterns(100_000, 30, 2);
        let mut prepared = Prepared::default();
        prepared.prepare_stored(&mut stored.clone(), &items, &portable_ops(extract_bits));
        assert!(!prepared.splits.is_empty());
        // The same patterns from the deepest split on: cut as they stand.
        let mut part = stored.clone();
        let mut samples = items.clone();
        let mut at_limit = Prepared {
            items_per_sample: 1,
            ..Prepared::default()
        };
        at_limit
            .transposed
            .resize(64, super::super::blocks::Lane::default());
        let ops = portable_ops(extract_bits);
        let deepest = Parent {
            depth: MAX_SPLIT_DEPTH,
            items: None,
        };
        let left = at_limit.split(&mut part, &mut [], &mut samples, deepest, &ops);
        assert!(at_limit.splits.is_empty());
        assert_eq!((at_limit.blocks.len(), left), (5, 3_000 - 5 * BLOCK_SLOTS));
        assert_eq!(part, stored);
    }

    #[test]
    fn partitions_keep_what_they_should_with_and_without_spare() {
        let values = patterns(1_000, 20, 3);
        let keep = |v: u64| v & 0b1001 == 0b1000;
        let want = values.iter().filter(|&&v| keep(v)).count();
        for spare_len in [0, 999, 1_000, 2_000] {
            let mut moved = values.clone();
            let mut spare = vec![0; spare_len];
            let kept = partition_with(&mut moved, &mut spare, keep);
            assert_eq!(kept, want);
            assert!(moved[..kept].iter().all(|&v| keep(v)));
            assert!(moved[kept..].iter().all(|&v| !keep(v)));
            let (mut a, mut b) = (moved.clone(), values.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_best_split_takes_the_bit_the_items_lack_least_often_where_it_is_common() {
        // Half the patterns have bit 0, the other half bit 1 (1,024 each); every item
        // has bit 0 and none bit 1: splitting on bit 0 lets every item skip its side.
        let part: Vec<u64> = (0..2_048u64)
            .map(|i| if i < 1_024 { 1 } else { 2 })
            .collect();
        let samples = vec![1u64; 100];
        let item_freq = bit_counts(&samples, 1, 0b11);
        let (bit, saved) =
            best_split(&part, &item_freq, 0b11, &portable_ops(extract_bits)).unwrap();
        assert_eq!(bit, 0);
        assert_eq!(saved, 2 * 100);
        assert_eq!(split_cost(2_048, 400), 512 + 100 + SPLIT_FIXED_VISITS);
    }

    /// Portable operations that count the item histograms they make, and, when `fresh`,
    /// make every split count its items again instead of taking its split's counts.
    struct Counting {
        fresh: bool,
        item_counts: std::cell::Cell<usize>,
    }

    impl SplitOps for Counting {
        fn pext(&self, value: u64, mask: u64) -> u64 {
            extract_bits(value, mask)
        }

        fn partition(&self, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize {
            partition_by_mask(values, spare, mask, set)
        }

        fn count_bits(&self, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
            if step == 1 {
                self.item_counts.set(self.item_counts.get() + 1);
            }
            bit_counts(patterns, step, bits)
        }

        fn split(
            &self,
            prepared: &mut Prepared,
            part: &mut [u64],
            spare: &mut [u64],
            samples: &mut [u64],
            parent: Parent<'_>,
        ) -> usize {
            let parent = if self.fresh {
                Parent {
                    items: None,
                    ..parent
                }
            } else {
                parent
            };
            prepared.split(part, spare, samples, parent, self)
        }
    }

    #[test]
    fn a_side_with_its_splits_common_bits_takes_its_item_counts_and_splits_alike() {
        // Bits of every frequency, so that splits happen at many depths, some sides
        // keeping their split's common bits and some gaining more.
        let frequency = |bit: u32| u64::from(bit % 9 + 2);
        let stored = crate::join::pairs::random_patterns(40_000, 40, 7, frequency);
        let items = crate::join::pairs::random_patterns(9_000, 40, 8, frequency);
        let prepare = |fresh: bool| {
            let ops = Counting {
                fresh,
                item_counts: std::cell::Cell::new(0),
            };
            let mut prepared = Prepared::default();
            let mut order = stored.clone();
            prepared.prepare_stored(&mut order, &items, &ops);
            (prepared, order, ops.item_counts.get())
        };
        let (taken, taken_order, taken_counts) = prepare(false);
        let (fresh, fresh_order, fresh_counts) = prepare(true);
        assert!(taken.splits.len() > 20, "{} splits", taken.splits.len());
        assert!(
            taken_counts < fresh_counts,
            "{taken_counts} item histograms against {fresh_counts}"
        );
        assert_eq!(taken_order, fresh_order);
        assert_eq!(taken.slices, fresh.slices);
        let blocks = |prepared: &Prepared| -> Vec<_> {
            prepared
                .blocks
                .iter()
                .map(|b| (b.layout, b.varying, b.common, b.padding))
                .collect()
        };
        assert_eq!(blocks(&taken), blocks(&fresh));
        let splits = |prepared: &Prepared| -> Vec<_> {
            prepared
                .splits
                .iter()
                .map(|s| (s.common, s.first_block, s.end_block))
                .collect()
        };
        assert_eq!(splits(&taken), splits(&fresh));
    }
}
