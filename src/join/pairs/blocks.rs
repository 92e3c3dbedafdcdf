//! The prepared data every vector path shares (see the parent module): the blocks the
//! splits ([`super::split`]) make, with each block's bit slices and chunk tables, the
//! splits themselves, the item lists a count's walk ([`super::walk`]) keeps, and the
//! selection of blocks a timing sample counts. The algorithms that fill them live in
//! those two modules, which depend on this one and not the other way.

#![allow(
    clippy::inline_always,
    reason = "the preparation must inline into the count compiled with the AVX2 features, whose `pext` it calls"
)]

use super::chunks::{chunk_entries, chunk_shift, ChunkLayout, MAX_BLOCK_LANES};
use super::classes::{arrange, BlockClasses};
use super::{BLOCK_SLOTS, CLASS_COUNT, LANE_WORDS, PATTERN_MASK};

/// The most bit slices of one block (one per varying bit: a pattern has at most 62).
const MAX_SLICES: usize = 62;
/// The entries a filter or a vector partition may write past the last one it keeps
/// (its buffers are that much longer).
pub(super) const FILTER_SLACK: usize = 8;

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

    /// The bitwise AND.
    #[inline(always)]
    pub(super) fn and(self, other: Lane) -> Lane {
        let mut out = self;
        for (word, other_word) in out.0.iter_mut().zip(other.0) {
            *word &= other_word;
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
    pub(super) common: u64,
    /// The slots that hold no pattern (always conflicting): past the end of the
    /// block's patterns, or (class mode) those no class takes.
    pub(super) padding: Lane,
    /// The positions of each class, when the stored side carries classes
    /// ([`super::classes`]).
    pub(super) classes: BlockClasses,
}

/// The blocks a timing sample counts: every `stride`-th from `first` on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Selection {
    /// The first block counted.
    pub(super) first: usize,
    /// The distance between two counted blocks (at least 1).
    pub(super) stride: usize,
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
    pub(super) fn counts(self, index: usize) -> bool {
        index >= self.first && (index - self.first).is_multiple_of(self.stride)
    }
}

/// Everything a counting loop needs.
#[derive(Default)]
pub(crate) struct Prepared {
    /// The evenly spaced sample of the items the splits are weighed with (tags
    /// removed).
    pub(super) item_sample: Vec<u64>,
    /// The items each sampled item stands for.
    pub(super) items_per_sample: u64,
    /// The most items a count walks the blocks with at a time (0: all of them; see
    /// [`super::tiles`]).
    pub(super) tile_len: usize,
    /// The tiles the items of the preparation's sample make: the chunk layouts are
    /// chosen for the visits of one.
    pub(super) sample_tiles: u64,
    /// Whether the stored patterns carry weight classes ([`super::classes`]): then
    /// each block is arranged by class, and a count gives its pairs per stored class.
    pub(super) classed: bool,
    /// The blocks, in split order.
    pub(super) blocks: Vec<BlockInfo>,
    /// The splits, each before the splits inside it.
    pub(super) splits: Vec<Split>,
    /// The blocks a count takes (all but in a timing sample).
    pub(super) selection: Selection,
    /// The bit slices of every block: lane `b` of a block has slot `j` set when its
    /// pattern `j` has its varying bit `b`.
    pub(super) slices: Vec<Lane>,
    /// The bit slices of the block being built, all 64 bits.
    pub(super) transposed: Vec<Lane>,
    /// The chunk tables of the block being counted (taken out while a count runs).
    pub(super) tables: BlockTables,
    /// The item lists of a count (taken out while a count runs).
    pub(super) filtered: FilteredItems,
}

/// A split of the stored patterns: the blocks `first_block..end_block`, all of whose
/// patterns have the bits `common`. The items a split's blocks may meet are filtered
/// once for all of them when that pays (`Prepared::walk`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Split {
    /// The bits set in every pattern of the split's blocks.
    pub(super) common: u64,
    /// Its first block.
    pub(super) first_block: usize,
    /// One past its last block.
    pub(super) end_block: usize,
}

/// The item lists of a count: the survivors of the open splits, one after the other
/// (together at most one and a half times the items), and one chunk filtered for a
/// block.
#[derive(Default)]
pub(crate) struct FilteredItems {
    /// The survivor lists, back to back.
    pub(super) lists: Vec<u64>,
    /// The open lists: the split's end block, and where each class's items end in
    /// `lists` (class `c` from the previous end).
    pub(super) open: Vec<OpenList>,
    /// The chunk of items filtered for the block being counted.
    pub(super) chunk: Vec<u64>,
}

/// One survivor list of [`FilteredItems`].
#[derive(Clone, Copy, Debug)]
pub(super) struct OpenList {
    /// The end block of the split it was filtered for.
    pub(super) end_block: usize,
    /// The bits its items do not have.
    pub(super) mask: u64,
    /// True for the items themselves (not a list of `lists`).
    pub(super) in_items: bool,
    /// Where it starts in the lists.
    pub(super) start: usize,
    /// Where each class's items end.
    pub(super) class_ends: [usize; CLASS_COUNT],
}

/// Makes `values` (the item lists' buffer of [`FilteredItems`], or the splits' spare
/// room) at least `len` long (new entries 0; never shorter): the lists grow as they are
/// used, so that no page is touched that a count does not need.
pub(super) fn grow_to(values: &mut Vec<u64>, len: usize) {
    if values.len() < len {
        values.resize(len, 0);
    }
}

/// The chunk tables of one block, built from its bit slices when the block is counted
/// (so that only one block's tables, at most [`MAX_BLOCK_LANES`] lanes, are held).
#[derive(Default)]
pub(super) struct BlockTables {
    /// The lanes of the tables, chunk after chunk (the buffer only grows).
    lanes: Vec<Lane>,
    /// The lanes of the tables last built.
    built: usize,
}

impl BlockTables {
    /// Builds the chunk tables of `block` of `prepared`: for each chunk, the ORs of the
    /// bit slices of every subset of its bits, those of the first chunk OR the
    /// block's padding slots (so that an item's lane is the OR of its entries alone,
    /// when the block has a chunk). A chunk's table doubles bit by bit: the
    /// subsets with bit `k` are those without it, each with slice `k` added (OR), so each lane
    /// is one load, OR and store: `or_into(without, with, slice)` sets each lane of
    /// `with` to the same lane of `without` OR `slice` (each path passes its own,
    /// and calls this from a function compiled with its features).
    #[inline(always)]
    pub(super) fn build(
        &mut self,
        prepared: &Prepared,
        block: &BlockInfo,
        or_into: impl Fn(&[Lane], &mut [Lane], Lane),
    ) {
        let varying = block.varying.count_ones() as usize;
        let slices = &prepared.slices[block.slice_start..block.slice_start + varying];
        let layout = block.layout;
        let lanes = layout.lanes();
        if self.lanes.len() < lanes {
            self.lanes.resize(lanes, Lane::default());
        }
        let mut base = 0;
        for chunk in 0..layout.chunks {
            let entries = chunk_entries(layout.narrow, layout.wide, chunk);
            let shift = chunk_shift(layout.narrow, layout.wide, chunk);
            let table = &mut self.lanes[base..base + entries];
            // The first chunk's subsets all start from the padding slots, so its every
            // entry has them set and a count need not OR them in.
            table[0] = if chunk == 0 {
                block.padding
            } else {
                Lane::default()
            };
            let mut filled = 1;
            while filled < entries {
                let bit = shift + filled.trailing_zeros() as usize;
                let slice = slices.get(bit).copied().unwrap_or_default();
                let (without, with) = table.split_at_mut(filled);
                or_into(without, &mut with[..filled], slice);
                filled *= 2;
            }
            base += entries;
        }
        debug_assert_eq!(base, lanes);
        self.built = lanes;
    }

    /// The tables last built.
    #[inline(always)]
    pub(super) fn lanes(&self) -> &[Lane] {
        &self.lanes[..self.built]
    }
}

impl Prepared {
    /// Makes room for the bit slices of up to `len` stored patterns
    /// (62 lanes a block at most), the survivor lists of up to `len` items, the samples
    /// and one block's chunk tables, or [`crate::error::Error::OutOfMemory`].
    pub(super) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        use crate::join::alloc::reserve;
        let during = "reserving the pair counter's buffers";
        self.filtered.try_reserve(len)?;
        self.reserve_item_sample()?;
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
    /// [`super::count_sample`]), and gives their number.
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

    /// Makes a block of `block` (at most [`BLOCK_SLOTS`] patterns) and keeps its bit
    /// slices (its chunk tables are built when it is counted: [`BlockTables`]); in
    /// class mode, with its patterns arranged by class ([`super::classes`]). Its
    /// chunk layout is the one for the items of a tile it will meet as the sampled
    /// items `samples` predict ([`ChunkLayout::for_visits`]).
    #[inline(always)]
    pub(super) fn push_block(
        &mut self,
        block: &[u64],
        samples: &[u64],
        pext: &impl Fn(u64, u64) -> u64,
    ) {
        let (all, any) = common_and_any(block);
        let varying = any & !all;
        if self.classed {
            let mut slots = [0; BLOCK_SLOTS];
            let (padding, classes) = arrange(block, &mut slots);
            let padding = Lane(padding);
            let slot_pattern = |slot: usize| pext(slots[slot], varying);
            self.push_slots(all, varying, (padding, classes), samples, slot_pattern);
        } else {
            let mut padding = Lane::default();
            for slot in block.len()..BLOCK_SLOTS {
                padding.0[slot / 64] |= 1u64 << (slot % 64);
            }
            let slot_pattern = |slot: usize| block.get(slot).map_or(0, |&p| pext(p, varying));
            let arrangement = (padding, BlockClasses::default());
            self.push_slots(all, varying, arrangement, samples, slot_pattern);
        }
    }

    /// Keeps the bit slices of a block whose slot `j` holds the compacted pattern
    /// `slot_pattern(j)` (0 for a padding slot), with the common bits `all`, the
    /// varying bits `varying`, and its padding slots and classes.
    #[inline(always)]
    fn push_slots(
        &mut self,
        all: u64,
        varying: u64,
        (padding, classes): (Lane, BlockClasses),
        samples: &[u64],
        slot_pattern: impl Fn(usize) -> u64,
    ) {
        let visiting = samples.iter().filter(|&&item| item & all == 0).count() as u64;
        // The visits of one tile: the tables are built once per tile.
        let visits = visiting.saturating_mul(self.items_per_sample) / self.sample_tiles.max(1);
        // Lane `b`, slot `j`: bit `b` of compacted pattern `j` (every word written, the
        // padding slots' with 0, so no clearing pass first). Before the transpose, word
        // `w` of row `r` holds slot `64 w + r`: the rows are written whole, in order.
        for (row, lane) in self.transposed[..64].iter_mut().enumerate() {
            *lane = Lane(std::array::from_fn(|word| slot_pattern(word * 64 + row)));
        }
        transpose_64(&mut self.transposed);
        let slice_start = self.slices.len();
        self.slices
            .extend_from_slice(&self.transposed[..varying.count_ones() as usize]);
        self.blocks.push(BlockInfo {
            slice_start,
            layout: ChunkLayout::for_visits(varying.count_ones() as usize, visits),
            varying,
            common: all,
            padding,
            classes,
        });
    }
}

/// The bits every one of `patterns` has and the bits any of them has, in one pass,
/// both within [`PATTERN_MASK`] (a classed side's tags are neither).
#[inline(always)]
pub(super) fn common_and_any(patterns: &[u64]) -> (u64, u64) {
    patterns.iter().fold((PATTERN_MASK, 0), |(all, any), &p| {
        (all & p, any | p & PATTERN_MASK)
    })
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
    fn a_block_and_its_split_take_the_records_the_memory_model_counts() {
        let records = size_of::<BlockInfo>() + size_of::<Split>();
        let counted = crate::join::memory::BLOCK_RECORD_BYTES - 62 * 64;
        assert!(records as u64 <= counted, "{records} bytes");
    }

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
