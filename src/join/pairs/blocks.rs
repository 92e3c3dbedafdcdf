//! The preparation every vector path shares (see the parent module): the key choice,
//! the sorts, the item groups, and each block's bit slices and chunk tables.

#![allow(
    clippy::inline_always,
    reason = "the preparation must inline into the count compiled with the AVX2 features, whose `pext` it calls"
)]

use super::chunks::{chunk_entries, chunk_shift, ChunkLayout, MAX_BLOCK_LANES};
use super::key_size::least_cost_key;
use super::sort::{counting_sort, SortScratch};
use super::{class_of, BLOCK_SLOTS, CLASS_COUNT, LANE_WORDS, PATTERN_MASK};

/// The most bit slices of one block (one per varying bit: a pattern has at most 62).
const MAX_SLICES: usize = 62;

/// The most key bits (item groups: `2^MAX_KEY_BITS * CLASS_COUNT`): `log2(blocks)` up
/// to 8 Mi stored patterns. It was 10, which stopped the sieve from n = 25 on (n = 26,
/// a shard of 14 units: 0.80 of the time with 14 bits, the same counts).
pub(super) const MAX_KEY_BITS: u32 = 14;
/// The most bytes the item grouping's buffers take whatever the lists' lengths: the
/// sort's counters ([`super::sort::STREAMS`] `u32` per group) and the group starts.
pub(crate) const MAX_GROUP_BYTES: u64 =
    ((super::sort::STREAMS + 1) * CLASS_COUNT * 4) as u64 * (1 << MAX_KEY_BITS);
/// From this many blocks on, the key is the one of least predicted cost
/// ([`least_cost_key`]), of at most `log2(blocks) + 1` bits; below, it has
/// `log2(blocks)` bits.
const KEY_SEARCH_BLOCKS: usize = 64;
/// The patterns sampled on each side to choose the key.
const KEY_SAMPLE: usize = 128;

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

/// One block of up to [`BLOCK_SLOTS`] sorted stored patterns.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BlockInfo {
    /// The first of the block's bit slices in [`Prepared::slices`] (one lane per
    /// varying bit).
    slice_start: usize,
    /// How the varying bits are cut into chunks.
    pub(super) layout: ChunkLayout,
    /// The varying bits, compacted with `pext` before the table lookups.
    pub(super) varying: u64,
    /// The key bits set in every pattern of the block (in key space).
    pub(super) common_key: u32,
    /// The slots past the end of the stored set (always conflicting).
    pub(super) padding: Lane,
}

/// Everything a counting loop needs.
#[derive(Default)]
pub(crate) struct Prepared {
    /// The key bit positions (a pattern's key is `pext(pattern, key_positions)`).
    key_positions: u64,
    /// `2^k - 1` for `k` key bits.
    pub(super) key_mask: u32,
    /// The stored patterns sorted by key.
    sorted: Vec<u64>,
    /// The key groups of `sorted` (unused beyond the sort).
    sorted_starts: Vec<u32>,
    /// The sort's buffers.
    sort_scratch: SortScratch,
    /// The item patterns sorted by (key, class), tags removed; empty when
    /// `items_borrowed`.
    items: Vec<u64>,
    /// True when no grouping was needed (no key, one class): the caller's items are
    /// used as they are (the loops ignore the tag bits).
    items_borrowed: bool,
    /// `group_starts[key * CLASS_COUNT + class]` is the first item of that group; one
    /// more entry closes the last group.
    group_starts: Vec<u32>,
    /// The blocks, in sorted order.
    pub(super) blocks: Vec<BlockInfo>,
    /// The bit slices of every block: lane `b` of a block has slot `j` set when its
    /// pattern `j` has its varying bit `b`.
    slices: Vec<Lane>,
    /// The bit slices of the block being built, all 64 bits.
    transposed: Vec<Lane>,
    /// The chunk tables of the block being counted (taken out while a count runs).
    pub(super) tables: BlockTables,
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
}

impl Prepared {
    /// Makes room for the sorted copies and bit slices of up to `len` patterns a side
    /// (62 lanes a block at most) and for one block's chunk tables, or
    /// [`crate::error::Error::OutOfMemory`].
    pub(super) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        use crate::join::alloc::reserve;
        let during = "reserving the pair counter's buffers";
        reserve(&mut self.sorted, len, during)?;
        reserve(&mut self.items, len, during)?;
        let slices = len.div_ceil(BLOCK_SLOTS).saturating_mul(MAX_SLICES);
        reserve(&mut self.slices, slices, during)?;
        reserve(&mut self.tables.lanes, MAX_BLOCK_LANES, during)
    }

    /// The number of prepared blocks.
    pub(super) fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Keeps only every `stride`-th block (`stride >= 1`), from block `(stride - 1) / 2`
    /// on, or the last one when there are no more (see
    /// [`super::GroupedItems::count_sample`]), and gives back all of them (for
    /// [`Prepared::restore_blocks`]): a timing sample counts against these.
    pub(super) fn sample_blocks(&mut self, stride: usize) -> Vec<BlockInfo> {
        let all = std::mem::take(&mut self.blocks);
        let stride = stride.max(1);
        let first = ((stride - 1) / 2).min(all.len().saturating_sub(1));
        self.blocks = all.iter().skip(first).step_by(stride).copied().collect();
        all
    }

    /// Puts back the blocks [`Prepared::sample_blocks`] gave.
    pub(super) fn restore_blocks(&mut self, all: Vec<BlockInfo>) {
        self.blocks = all;
    }

    /// Builds the blocks of `stored` (at most `2^30` patterns), with a key chosen for
    /// items like `sample`, and `pext` any correct bit extract. Items are grouped for
    /// them afterwards ([`Prepared::group`]), as many times as wanted.
    #[inline(always)]
    pub(super) fn prepare_stored(
        &mut self,
        stored: &[u64],
        sample: &[u64],
        pext: impl Fn(u64, u64) -> u64,
    ) {
        self.choose_key(stored, sample, &pext);
        self.sort_stored(stored, &pext);
        self.build_blocks(&pext);
    }

    /// Groups the tagged `items` (at most `2^30`) for the prepared blocks, with `pext`
    /// any correct bit extract.
    #[inline(always)]
    pub(super) fn group(&mut self, items: &[u64], pext: impl Fn(u64, u64) -> u64) {
        self.group_items(items, &pext);
    }

    /// Ranks the bits by (item frequency x stored frequency), from evenly spaced
    /// samples, and takes the first `log2(blocks)` of them; from [`KEY_SEARCH_BLOCKS`]
    /// blocks on, the key of least predicted cost instead ([`least_cost_key`]: its
    /// size, and for long counts its bits' order). A single block gets no key.
    #[inline(always)]
    fn choose_key(&mut self, stored: &[u64], items: &[u64], pext: &impl Fn(u64, u64) -> u64) {
        self.key_positions = 0;
        self.key_mask = 0;
        let block_count = stored.len().div_ceil(BLOCK_SLOTS);
        if block_count <= 1 {
            return;
        }
        let stored_freq = bit_frequencies(stored);
        let item_freq = bit_frequencies(items);
        // `log2(blocks)`: more bits measured slower on small counts (their item groups
        // cost more to visit than the blocks they skip); the search tries one more.
        let wanted = (usize::BITS - (block_count - 1).leading_zeros()).min(MAX_KEY_BITS);
        let mut candidates: Vec<(u64, u32)> = (0..PATTERN_BITS)
            .map(|bit| (stored_freq[bit as usize] * item_freq[bit as usize], bit))
            .filter(|&(score, _)| score > 0)
            .collect();
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let ranked: Vec<u32> = candidates.iter().map(|&(_, bit)| bit).collect();
        let (order, bits) = if block_count >= KEY_SEARCH_BLOCKS {
            let widest = (wanted + 1).min(MAX_KEY_BITS);
            least_cost_key(ranked, widest, stored, items, pext)
        } else {
            (ranked, wanted)
        };
        for &bit in order.iter().take(bits as usize) {
            self.key_positions |= 1u64 << bit;
        }
        self.key_mask = (1u32 << self.key_positions.count_ones()) - 1;
    }

    /// The counting sort of the stored patterns by key.
    #[inline(always)]
    fn sort_stored(&mut self, stored: &[u64], pext: &impl Fn(u64, u64) -> u64) {
        if self.key_mask == 0 {
            self.sorted.clear();
            self.sorted.extend_from_slice(stored);
            return;
        }
        let key_positions = self.key_positions;
        counting_sort(
            stored,
            self.key_mask as usize + 1,
            |pattern| key_of(pext(pattern, key_positions)),
            |pattern| pattern,
            &mut self.sort_scratch,
            &mut self.sorted,
            &mut self.sorted_starts,
        );
    }

    /// The counting sort of the items by (key, class), tags removed; or, with no key
    /// and a single class, the items borrowed as they are.
    #[inline(always)]
    fn group_items(&mut self, items: &[u64], pext: &impl Fn(u64, u64) -> u64) {
        if self.key_mask == 0 {
            if let Some(&first) = items.first() {
                let class = class_of(first);
                if items.iter().all(|&item| class_of(item) == class) {
                    self.items_borrowed = true;
                    self.items.clear();
                    self.group_starts.clear();
                    self.group_starts.resize(CLASS_COUNT + 1, 0);
                    let len = u32::try_from(items.len()).expect("at most 2^30 items");
                    for later in class + 1..=CLASS_COUNT {
                        self.group_starts[later] = len;
                    }
                    return;
                }
            }
        }
        self.items_borrowed = false;
        let key_positions = self.key_positions;
        counting_sort(
            items,
            (self.key_mask as usize + 1) * CLASS_COUNT,
            |item| item_group(key_of(pext(item & PATTERN_MASK, key_positions)), item),
            |item| item & PATTERN_MASK,
            &mut self.sort_scratch,
            &mut self.items,
            &mut self.group_starts,
        );
    }

    /// Cuts the sorted patterns into blocks and keeps their bit slices (their chunk
    /// tables are built when they are counted: [`BlockTables`]).
    #[inline(always)]
    fn build_blocks(&mut self, pext: &impl Fn(u64, u64) -> u64) {
        self.blocks.clear();
        self.slices.clear();
        self.transposed.resize(64, Lane::default());
        let sorted = std::mem::take(&mut self.sorted);
        for block in sorted.chunks(BLOCK_SLOTS) {
            let all = block.iter().fold(u64::MAX, |acc, &p| acc & p);
            let any = block.iter().fold(0u64, |acc, &p| acc | p);
            let varying = any & !(all & self.key_positions);
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
                common_key: key_of(pext(all, self.key_positions)),
                padding,
            });
        }
        self.sorted = sorted;
    }

    /// The grouped items: `items` itself when borrowed, else the sorted copy.
    #[inline(always)]
    pub(super) fn grouped_items<'a>(&'a self, items: &'a [u64]) -> &'a [u64] {
        if self.items_borrowed {
            items
        } else {
            &self.items
        }
    }

    /// The item range of group (`key`, `class`).
    #[inline(always)]
    pub(super) fn group_range(&self, key: u32, class: usize) -> std::ops::Range<usize> {
        let g = key as usize * CLASS_COUNT + class;
        self.group_starts[g] as usize..self.group_starts[g + 1] as usize
    }
}

/// The bits a pattern may use, as a count.
const PATTERN_BITS: u32 = PATTERN_MASK.count_ones();

/// A key (at most [`MAX_KEY_BITS`] extracted bits) as a group number.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "a key has at most MAX_KEY_BITS (14) bits"
)]
fn key_of(extracted: u64) -> u32 {
    extracted as u32
}

/// The group of an item with key `key`: `key * CLASS_COUNT + class`.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "CLASS_COUNT is 4 and a class is below 4"
)]
fn item_group(key: u32, item: u64) -> u32 {
    key * CLASS_COUNT as u32 + class_of(item) as u32
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

/// How often each bit is set in an evenly spaced sample of about [`KEY_SAMPLE`]
/// patterns (tags ignored).
#[inline(always)]
fn bit_frequencies(patterns: &[u64]) -> [u64; 64] {
    let mut freq = [0u64; 64];
    let step = patterns.len().div_ceil(KEY_SAMPLE).max(1);
    for &pattern in patterns.iter().step_by(step) {
        let mut rest = pattern & PATTERN_MASK;
        while rest != 0 {
            freq[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    freq
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
