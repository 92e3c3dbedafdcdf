//! The preparation every vector path shares (see the parent module): the key choice,
//! the sorts, the item groups, and each block's bit slices and chunk tables.

#![allow(
    clippy::inline_always,
    reason = "the preparation must inline into the count compiled with the AVX2 features, whose `pext` it calls"
)]

use super::chunks::{chunk_entries, chunk_shift, ChunkLayout, MAX_BLOCK_LANES};
use super::{BLOCK_SLOTS, CLASS_COUNT, CLASS_SHIFT, LANE_WORDS, PATTERN_MASK};

/// The most bit slices of one block (one per varying bit: a pattern has at most 62).
const MAX_SLICES: usize = 62;
/// The stored patterns of a split node sampled (evenly spaced) for its bits'
/// frequencies.
const STORED_SAMPLE: usize = 128;
/// The items sampled (evenly spaced) to weigh the splits.
pub(super) const ITEM_SAMPLE: usize = 256;
/// The items filtered at a time for a block: the filtered chunk stays in L1.
pub(super) const FILTER_CHUNK: usize = 1024;
/// The deepest split: past it, a node is cut into blocks as it stands. Each split
/// either takes a varying bit from both sides or a whole number of blocks from the
/// ones side, so real lists stop far above it; it bounds the recursion.
const MAX_SPLIT_DEPTH: usize = 64;
/// The tag bits of an item (its class).
const TAG_MASK: u64 = !PATTERN_MASK;

/// One bit per block slot ([`LANE_WORDS`] words), aligned for 512-bit loads.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Lane(pub(super) [u64; LANE_WORDS]);

impl Lane {
    /// The bitwise OR.
    #[inline(always)]
    pub(super) fn or(self, other: Lane) -> Lane {
        let mut out = self;
        for (word, other_word) in out.0.iter_mut().zip(other.0) {
            *word |= other_word;
        }
        out
    }

    /// The number of set slots.
    #[inline(always)]
    pub(super) fn count_ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// One block of up to [`BLOCK_SLOTS`] stored patterns.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BlockInfo {
    /// The first of the block's bit slices in [`Prepared::slices`] (one lane per
    /// varying bit).
    slice_start: usize,
    /// How the varying bits are cut into chunks.
    pub(super) layout: ChunkLayout,
    /// The varying bits, compacted with `pext` before the table lookups.
    pub(super) varying: u64,
    /// The bits set in every pattern of the block: an item with one of them conflicts
    /// with the whole block, and is filtered out before the block is counted.
    common: u64,
    /// The slots past the end of the block's patterns (always conflicting).
    pub(super) padding: Lane,
}

/// A split of the stored patterns: the blocks `first_block..end_block`, all of whose
/// patterns have the bits `common`. The items a split's blocks may meet are filtered
/// once for all of them when that pays ([`Prepared::walk`]).
#[derive(Clone, Copy, Debug)]
struct Split {
    /// The bits set in every pattern of the split's blocks.
    common: u64,
    /// Its first block.
    first_block: usize,
    /// One past its last block.
    end_block: usize,
}

/// The blocks a timing sample counts: every `stride`-th from `first` on.
#[derive(Clone, Copy, Debug)]
struct Selection {
    /// The first block counted.
    first: usize,
    /// The distance between two counted blocks (at least 1).
    stride: usize,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection {
            first: 0,
            stride: 1,
        }
    }
}

impl Selection {
    /// True when block `index` is counted.
    #[inline(always)]
    fn counts(self, index: usize) -> bool {
        index >= self.first && (index - self.first).is_multiple_of(self.stride)
    }

    /// True when a block of `first..end` is counted.
    #[inline(always)]
    fn counts_within(self, first: usize, end: usize) -> bool {
        let next = if first <= self.first {
            self.first
        } else {
            self.first + (first - self.first).div_ceil(self.stride) * self.stride
        };
        next < end
    }
}

/// Everything a counting loop needs.
#[derive(Default)]
pub(crate) struct Prepared {
    /// The stored patterns, reordered by the splits.
    sorted: Vec<u64>,
    /// The evenly spaced sample of the items the splits are weighed with (tags
    /// removed).
    item_sample: Vec<u64>,
    /// The blocks, in split order.
    pub(super) blocks: Vec<BlockInfo>,
    /// The splits, each before the splits inside it.
    splits: Vec<Split>,
    /// The blocks a count takes (all but in a timing sample).
    selection: Selection,
    /// The bit slices of every block: lane `b` of a block has slot `j` set when its
    /// pattern `j` has its varying bit `b`.
    slices: Vec<Lane>,
    /// The bit slices of the block being built, all 64 bits.
    transposed: Vec<Lane>,
    /// The chunk tables of the block being counted (taken out while a count runs).
    pub(super) tables: BlockTables,
    /// The item lists of a count (taken out while a count runs).
    pub(super) filtered: FilteredItems,
}

/// The item lists of a count: the survivors of the splits being counted, one after the
/// other, each at most half as long as the list it was filtered from (so together no
/// longer than the items), and one chunk filtered for a block.
#[derive(Default)]
pub(crate) struct FilteredItems {
    /// The survivor lists, back to back.
    lists: Vec<u64>,
    /// The open lists: the split's end block, and where each class's items end in
    /// `lists` (class `c` from the previous end).
    open: Vec<OpenList>,
    /// The chunk of items filtered for the block being counted.
    chunk: Vec<u64>,
}

/// One survivor list of [`FilteredItems`].
#[derive(Clone, Copy, Debug)]
struct OpenList {
    /// The end block of the split it was filtered for.
    end_block: usize,
    /// The bits its items do not have.
    mask: u64,
    /// Where it starts in the lists.
    start: usize,
    /// Where each class's items end.
    class_ends: [usize; CLASS_COUNT],
}

impl OpenList {
    /// The items of class `class`.
    #[inline(always)]
    fn class_range(&self, class: usize) -> std::ops::Range<usize> {
        let from = if class == 0 {
            self.start
        } else {
            self.class_ends[class - 1]
        };
        from..self.class_ends[class]
    }

    /// Its length.
    #[inline(always)]
    fn len(&self) -> usize {
        self.class_ends[CLASS_COUNT - 1] - self.start
    }
}

/// Copies the items of `source` with `item & mask == want` to the front of `out`, and
/// gives their number, or `None` when there are more than `out.len() - 1` (then `out`
/// holds some of them). Branch-free but for that bound.
#[inline(always)]
pub(super) fn filter_into(source: &[u64], mask: u64, want: u64, out: &mut [u64]) -> Option<usize> {
    let cap = out.len().checked_sub(1)?;
    let mut len = 0;
    for &item in source {
        out[len.min(cap)] = item;
        len += usize::from(item & mask == want);
        if len > cap {
            return None;
        }
    }
    Some(len)
}

/// The chunk tables of one block, built from its bit slices when the block is counted
/// (so that only one block's tables, at most [`MAX_BLOCK_LANES`] lanes, are held).
#[derive(Default)]
pub(super) struct BlockTables {
    /// The lanes of the tables, chunk after chunk.
    lanes: Vec<Lane>,
}

impl BlockTables {
    /// Builds the chunk tables of `block` of `prepared` and gives them: for each chunk,
    /// the ORs of the bit slices of every subset of its bits.
    #[inline(always)]
    pub(super) fn build(&mut self, prepared: &Prepared, block: &BlockInfo) -> &[Lane] {
        let varying = block.varying.count_ones() as usize;
        let slices = &prepared.slices[block.slice_start..block.slice_start + varying];
        let layout = block.layout;
        self.lanes.clear();
        for chunk in 0..layout.chunks {
            let base = self.lanes.len();
            self.lanes.push(Lane::default());
            for subset in 1..chunk_entries(layout.wide, chunk) {
                let lowest = subset.trailing_zeros() as usize;
                let rest = self.lanes[base + (subset & (subset - 1))];
                let bit = chunk_shift(layout.wide, chunk) + lowest;
                let slice = slices.get(bit).copied().unwrap_or_default();
                self.lanes.push(rest.or(slice));
            }
        }
        debug_assert_eq!(self.lanes.len(), layout.lanes());
        &self.lanes
    }

    /// The tables last built.
    #[inline(always)]
    pub(super) fn lanes(&self) -> &[Lane] {
        &self.lanes
    }
}

impl Prepared {
    /// Makes room for the reordered copy and bit slices of up to `len` stored patterns
    /// (62 lanes a block at most), the survivor lists of up to `len` items, the samples
    /// and one block's chunk tables, or [`crate::error::Error::OutOfMemory`].
    pub(super) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        use crate::join::alloc::reserve;
        let during = "reserving the pair counter's buffers";
        reserve(&mut self.sorted, len, during)?;
        reserve(&mut self.filtered.lists, lists_len(len), during)?;
        reserve(&mut self.filtered.chunk, FILTER_CHUNK + 1, during)?;
        reserve(&mut self.item_sample, ITEM_SAMPLE, during)?;
        let blocks = len.div_ceil(BLOCK_SLOTS);
        reserve(&mut self.slices, blocks.saturating_mul(MAX_SLICES), during)?;
        reserve(&mut self.blocks, blocks, during)?;
        reserve(&mut self.splits, blocks, during)?;
        reserve(&mut self.tables.lanes, MAX_BLOCK_LANES, during)
    }

    /// The number of prepared blocks.
    pub(super) fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Counts only every `stride`-th block (`stride >= 1`) from now on, from block
    /// `(stride - 1) / 2` on, or the last one when there are no more (see
    /// [`super::GroupedItems::count_sample`]), and gives their number.
    pub(super) fn select_blocks(&mut self, stride: usize) -> usize {
        let stride = stride.max(1);
        let blocks = self.blocks.len();
        let first = ((stride - 1) / 2).min(blocks.saturating_sub(1));
        self.selection = Selection { first, stride };
        (blocks - first).div_ceil(stride)
    }

    /// Counts every block again (after [`Prepared::select_blocks`]).
    pub(super) fn select_all_blocks(&mut self) {
        self.selection = Selection::default();
    }

    /// Builds the blocks of `stored` (at most `2^30` patterns), split for items like
    /// `sample`, with `pext` any correct bit extract.
    ///
    /// The patterns are split in two again and again, each time by the bit that a
    /// model of the count says saves the most item visits: the side with the bit has
    /// it in common, so the items with that bit skip all of its blocks. The model
    /// weighs each block a side will need by the sampled items that would still visit
    /// it. A split never raises the number of blocks above `ceil(len / 512)`: where the
    /// side with the bit does not fill whole blocks and the two sides would need one
    /// more, that side keeps a whole number of blocks and the rest joins the other
    /// side. A side of at most [`BLOCK_SLOTS`] patterns is a block.
    #[inline(always)]
    pub(super) fn prepare_stored(
        &mut self,
        stored: &[u64],
        sample: &[u64],
        pext: impl Fn(u64, u64) -> u64,
    ) {
        self.blocks.clear();
        self.slices.clear();
        self.splits.clear();
        self.selection = Selection::default();
        self.transposed.resize(64, Lane::default());
        let mut sorted = std::mem::take(&mut self.sorted);
        sorted.clear();
        sorted.extend_from_slice(stored);
        let mut item_sample = std::mem::take(&mut self.item_sample);
        item_sample.clear();
        let step = sample.len().div_ceil(ITEM_SAMPLE).max(1);
        item_sample.extend(sample.iter().step_by(step).map(|&item| item & PATTERN_MASK));
        let budget = sorted.len().div_ceil(BLOCK_SLOTS);
        self.split(&mut sorted, &mut item_sample, budget, 0, &pext);
        debug_assert!(self.blocks.len() <= budget);
        self.sorted = sorted;
        self.item_sample = item_sample;
    }

    /// Splits `part` (at most `budget` blocks' worth, `budget >= ceil(len / 512)`)
    /// into at most `budget` blocks; `samples` are the sampled items that visit it (the
    /// function reorders them).
    fn split(
        &mut self,
        part: &mut [u64],
        samples: &mut [u64],
        budget: usize,
        depth: usize,
        pext: &impl Fn(u64, u64) -> u64,
    ) {
        let len = part.len();
        if len <= BLOCK_SLOTS {
            if len > 0 {
                self.push_block(part, pext);
            }
            return;
        }
        let all = part.iter().fold(PATTERN_MASK, |acc, &p| acc & p);
        let any = part.iter().fold(0u64, |acc, &p| acc | p);
        let visiting = partition_front(samples, |item| item & all == 0);
        let samples = &mut samples[..visiting];
        let chosen = if depth >= MAX_SPLIT_DEPTH || visiting == 0 {
            None
        } else {
            best_split(part, samples, any & !all, budget)
        };
        let Some(ones) = chosen.and_then(|bit| {
            let with_bit = partition_front(part, |p| p >> bit & 1 == 1);
            let ones = fitting_side(with_bit, len, budget);
            (ones > 0).then_some(ones)
        }) else {
            for block in part.chunks(BLOCK_SLOTS) {
                self.push_block(block, pext);
            }
            return;
        };
        let index = self.splits.len();
        self.splits.push(Split {
            common: all,
            first_block: self.blocks.len(),
            end_block: 0,
        });
        let rest_blocks = (len - ones).div_ceil(BLOCK_SLOTS);
        let share = usize::try_from(budget as u64 * ones as u64 / len as u64)
            .expect("below the budget");
        let ones_budget = share.clamp(ones.div_ceil(BLOCK_SLOTS), budget - rest_blocks);
        let (with_bit, rest) = part.split_at_mut(ones);
        self.split(with_bit, samples, ones_budget, depth + 1, pext);
        self.split(rest, samples, budget - ones_budget, depth + 1, pext);
        self.splits[index].end_block = self.blocks.len();
    }

    /// Makes a block of `block` (at most [`BLOCK_SLOTS`] patterns) and keeps its bit
    /// slices (its chunk tables are built when it is counted: [`BlockTables`]).
    #[inline(always)]
    fn push_block(&mut self, block: &[u64], pext: &impl Fn(u64, u64) -> u64) {
        let all = block.iter().fold(PATTERN_MASK, |acc, &p| acc & p);
        let any = block.iter().fold(0u64, |acc, &p| acc | p);
        let varying = any & !all;
        // Lane `b`, slot `j`: bit `b` of compacted pattern `j`.
        self.transposed.fill(Lane::default());
        for (slot, &pattern) in block.iter().enumerate() {
            self.transposed[slot % 64].0[slot / 64] = pext(pattern, varying);
        }
        transpose_64(&mut self.transposed);
        let mut padding = Lane::default();
        for slot in block.len()..BLOCK_SLOTS {
            padding.0[slot / 64] |= 1u64 << (slot % 64);
        }
        let slice_start = self.slices.len();
        self.slices
            .extend_from_slice(&self.transposed[..varying.count_ones() as usize]);
        self.blocks.push(BlockInfo {
            slice_start,
            layout: ChunkLayout::for_bits(varying.count_ones() as usize),
            varying,
            common: all,
            padding,
        });
    }

    /// Walks the selected blocks in order and gives `visit(block, class, items)` the
    /// tagged `items` (at most `2^30`) of each class that share no bit with the block's
    /// common bits, in chunks of at most [`FILTER_CHUNK`]. On entering a split, its
    /// survivors are filtered into a list of their own when they are at most half of
    /// the list they come from (so the lists stay within the items' length), and its
    /// blocks filter from that shorter list.
    #[inline(always)]
    pub(super) fn walk(
        &self,
        items: &[u64],
        filtered: &mut FilteredItems,
        mut visit: impl FnMut(usize, usize, &[u64]),
    ) {
        let FilteredItems { lists, open, chunk } = filtered;
        lists.resize(lists_len(items.len()), 0);
        chunk.resize(FILTER_CHUNK + 1, 0);
        open.clear();
        let selection = self.selection;
        let mut next_split = 0;
        for (index, block) in self.blocks.iter().enumerate() {
            while open.last().is_some_and(|list| list.end_block <= index) {
                open.pop();
            }
            while let Some(split) = self.splits.get(next_split) {
                if split.first_block != index {
                    break;
                }
                next_split += 1;
                let narrower = open.last().map_or(split.common != 0, |list| {
                    split.common & !list.mask != 0
                });
                if narrower && selection.counts_within(split.first_block, split.end_block) {
                    if let Some(list) = filter_list(items, lists, open.last(), split) {
                        open.push(list);
                    }
                }
            }
            if !selection.counts(index) {
                continue;
            }
            for class in 0..CLASS_COUNT {
                let (source, mask, want) = match open.last() {
                    Some(list) => (&lists[list.class_range(class)], block.common, 0),
                    None => (items, block.common | TAG_MASK, (class as u64) << CLASS_SHIFT),
                };
                for piece in source.chunks(FILTER_CHUNK) {
                    let kept = filter_into(piece, mask, want, chunk)
                        .expect("a chunk holds a piece");
                    if kept > 0 {
                        visit(index, class, &chunk[..kept]);
                    }
                }
            }
        }
    }
}

/// The length of the survivor lists for `items` items: one and a half times theirs.
fn lists_len(items: usize) -> usize {
    items + items / 2 + 1
}

/// The survivors of `split`, per class, from the innermost open list `from` (or the
/// tagged `items` when none is open), written after it in `lists`; or `None` when
/// they do not fit.
#[inline(always)]
fn filter_list(
    items: &[u64],
    lists: &mut [u64],
    from: Option<&OpenList>,
    split: &Split,
) -> Option<OpenList> {
    let start = from.map_or(0, |list| list.class_ends[CLASS_COUNT - 1]);
    let cap = lists.len() - 1;
    let mut class_ends = [start; CLASS_COUNT];
    let mut end = start;
    for (class, class_end) in class_ends.iter_mut().enumerate() {
        // The source lies before `start`, the new list from `end` on.
        let (before, after) = lists.split_at_mut(end);
        let (source, mask, want) = match from {
            Some(open) => (&before[open.class_range(class)], split.common, 0),
            None => (items, split.common | TAG_MASK, (class as u64) << CLASS_SHIFT),
        };
        let room = cap - end;
        end += filter_into(source, mask, want, &mut after[..=room])?;
        *class_end = end;
    }
    Some(OpenList {
        end_block: split.end_block,
        mask: split.common,
        start,
        class_ends,
    })
}

/// Moves the entries of `values` for which `keep` holds to the front, and gives their
/// number.
fn partition_front(values: &mut [u64], keep: impl Fn(u64) -> bool) -> usize {
    let mut front = 0;
    for index in 0..values.len() {
        if keep(values[index]) {
            values.swap(front, index);
            front += 1;
        }
    }
    front
}

/// The patterns the side with the split bit keeps, of `with_bit` that have it among
/// `len` within `budget` blocks: all of them when both sides fit, else whole blocks of
/// them (the rest join the other side; 0 when they fill none).
fn fitting_side(with_bit: usize, len: usize, budget: usize) -> usize {
    if with_bit.div_ceil(BLOCK_SLOTS) + (len - with_bit).div_ceil(BLOCK_SLOTS) <= budget {
        with_bit
    } else {
        with_bit / BLOCK_SLOTS * BLOCK_SLOTS
    }
}

/// The bit of `varying` whose split of `part` (into at most `budget` blocks) leaves
/// the fewest predicted item visits, from samples of the patterns and of the visiting
/// items `samples`: each side's blocks times the sampled items that would visit them
/// (the side with the bit loses the items that have it). `None` without a varying bit.
fn best_split(part: &[u64], samples: &[u64], varying: u64, budget: usize) -> Option<u32> {
    let len = part.len();
    let step = len.div_ceil(STORED_SAMPLE).max(1);
    let sampled = len.div_ceil(step) as u64;
    let stored_freq = bit_frequencies(part.iter().step_by(step), varying);
    let item_freq = bit_frequencies(samples.iter(), varying);
    let visiting = samples.len() as u64;
    let blocks = |patterns: u64| patterns.div_ceil(BLOCK_SLOTS as u64);
    let mut best: Option<(u64, u32)> = None;
    let mut bits = varying;
    while bits != 0 {
        let bit = bits.trailing_zeros();
        bits &= bits - 1;
        let estimate = stored_freq[bit as usize] * len as u64 / sampled;
        let with_bit = usize::try_from(estimate.clamp(1, len as u64 - 1)).expect("below len");
        let ones = fitting_side(with_bit, len, budget) as u64;
        if ones == 0 {
            continue;
        }
        let cost = blocks(ones) * (visiting - item_freq[bit as usize])
            + blocks(len as u64 - ones) * visiting;
        if best.is_none_or(|(least, _)| cost < least) {
            best = Some((cost, bit));
        }
    }
    best.map(|(_, bit)| bit)
}

/// How often each bit of `bits` is set in `patterns`.
#[inline(always)]
fn bit_frequencies<'a>(patterns: impl Iterator<Item = &'a u64>, bits: u64) -> [u64; 64] {
    let mut freq = [0u64; 64];
    for &pattern in patterns {
        let mut rest = pattern & bits;
        while rest != 0 {
            freq[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    freq
}

/// Transposes [`LANE_WORDS`] 64x64 bit matrices at once: afterwards, bit `i` of word
/// `w` of `rows[j]` is what bit `j` of word `w` of `rows[i]` was.
#[inline(always)]
pub(super) fn transpose_64(rows: &mut [Lane]) {
    assert_eq!(rows.len(), 64);
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let (low, high) = rows.split_at_mut(k + width);
            let (a, b) = (&mut low[k], &mut high[0]);
            for w in 0..LANE_WORDS {
                let t = ((a.0[w] >> width) ^ b.0[w]) & mask;
                a.0[w] ^= t << width;
                b.0[w] ^= t;
            }
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_matches_the_definition() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut rows = vec![Lane::default(); 64];
        for lane in &mut rows {
            for value in &mut lane.0 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *value = state;
            }
        }
        let original = rows.clone();
        transpose_64(&mut rows);
        for (i, before) in original.iter().enumerate() {
            for (j, after) in rows.iter().enumerate() {
                for w in 0..LANE_WORDS {
                    assert_eq!(after.0[w] >> i & 1, before.0[w] >> j & 1);
                }
            }
        }
    }
}
