//! Disjoint-pair counting: for tagged items `w` (west half-boards, with a weight class)
//! and stored patterns `s` (east half-boards), count the pairs with `w & s == 0`, per
//! weight class. Patterns use bits 0..62; an item carries its class in bits 62 and 63
//! ([`tagged`]).
//!
//! **Method.** The stored patterns are cut into blocks of at most [`BLOCK_SLOTS`]
//! patterns by *splits* ([`split`]): they are split in two again and again, each time
//! on the bit that a model of the count says saves the most item visits (the side with
//! the bit has it in common, so the items with that bit skip all of its blocks; the
//! model weighs each side's blocks by the sampled items that would still visit them),
//! into `ceil(stored / 512)` blocks, every one full but the last (the patterns a side
//! leaves go back to the other side of the split above). For each block ([`blocks`]):
//! - the bits set in every pattern of the block are its *common bits*: an item with one
//!   of them conflicts with the whole block, so the count ([`walk`]) gives the block
//!   only the items without them, filtered from a list kept for the innermost split
//!   around it (each split's survivors are filtered once for all its blocks, when they
//!   fit in one and a half times the items' length);
//! - the other bits that occur in the block (its *varying* bits) are compacted (`pext`)
//!   and bit-sliced: one [`BLOCK_SLOTS`]-bit lane per bit, slot `j` set when pattern
//!   `j` has the bit;
//! - the varying bits are cut into chunks ([`chunks`]), and for each chunk the ORs of
//!   the lanes of all subsets of its bits are precomputed, so an item needs one lane OR
//!   per chunk; the zeros of the result are its disjoint patterns (padding slots are
//!   set in every entry of the first chunk's table). A block that few items meet (as
//!   the splits' item sample predicts) takes chunks of 7 or 8 bits, one that many meet
//!   chunks of 9 or 10: one load fewer per item for most blocks, for tables four times
//!   as large.
//!
//! The preparation keeps each block's bit slices (8 bytes a pattern); a count builds a
//! block's tables (up to 224 KiB) from them when it comes to the block, and they
//! stay in cache (L1 or L2) while its items pass over them, so only one block's tables
//! are ever held. The items are sorted by class in place first, so that every list is
//! too. Stored sets under [`PLAIN_LOOP_LIMIT`] patterns use a plain loop.
//!
//! **Tiles.** A count of millions of items (n >= 24) walks the blocks once per tile of
//! about a million of them ([`tiles`]), so that the lists the walk filters stay in the
//! cache instead of being read again and again from memory; each block's tables are
//! then built once per tile, and its chunk layout is chosen for one tile's visits.
//!
//! **Vector paths.** The portable path ([`portable`]) runs everywhere (`u64` words,
//! software `pext`, a branch-free scalar filter); the AVX2 path ([`avx2`]) uses 256-bit
//! ORs, BMI2 `pext`, a carry-save adder tree over eight items and a nibble-table
//! popcount; the AVX-512 path ([`avx512`]) ORs three
//! lanes at a time, counts with `vpopcntq` and filters eight items at a time
//! (`vpcompressq`). All use the same prepared blocks and agree exactly. A vector path
//! compiles all of its work with its features: the splits recurse through its own
//! function (`Ops`, [`split::SplitOps`]), and the count builds each block's tables in
//! its own (a closure or a recursive call would otherwise run as baseline code).
//!
//! **Class mode.** A stored side may be the tagged one instead ([`prepare_classed`],
//! [`classes`]): each block then arranges its patterns by class so that every path
//! counts the conflicts of each class under a mask of its slots, and a count gives
//! the pairs per class of the *stored* patterns (its items' tags are ignored). A unit
//! stores its west half-boards this way where they are much the longer
//! (`join::units::orientation`).
//!
//! **Work measure.** `pairs` counts item x slot evaluations: [`BLOCK_SLOTS`] per item
//! and visited block (padding included, skipped blocks excluded), or 1 per pair in the
//! plain loop.
//!
//! **Sizes.** One count takes at most [`MAX_COUNT_LEN`] items and stored patterns, so
//! its sums fit in `u64`; [`count_prepared_weighted`] cuts longer lists into such
//! pieces and sums in `u128`.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod blocks;
mod chunks;
mod classes;
mod portable;
mod split;
mod tiles;
mod walk;

use crate::cpu::Level;
use crate::join::path::Path;
pub(crate) use blocks::Prepared;
pub(crate) use walk::{BlockClock, CountedBlock};

/// The bytes of a count's buffers whatever the lists' lengths: the item sample of the
/// splits and the chunk of items filtered for a block.
pub(crate) const MAX_FIXED_WALK_BYTES: u64 =
    ((split::MAX_ITEM_SAMPLE + walk::FILTER_CHUNK + blocks::FILTER_SLACK) * size_of::<u64>())
        as u64;
/// The bytes of one block's chunk tables at their most.
pub(crate) const MAX_TABLE_BYTES: u64 =
    (chunks::MAX_BLOCK_LANES * size_of::<blocks::Lane>()) as u64;

/// The number of item weight classes (weights 1, 2, 4, 8).
pub const CLASS_COUNT: usize = 4;
/// The 64-bit words of a lane (8: blocks of 512 slots).
const LANE_WORDS: usize = 8;
/// The stored patterns per block (one bit of a lane each).
const BLOCK_SLOTS: usize = 64 * LANE_WORDS;
/// Below this many stored patterns, the plain loop counts.
const PLAIN_LOOP_LIMIT: usize = 24;
/// The most items, and the most stored patterns, one count takes: `2^30`. Then every
/// count is below `2^30 * (2^30 + BLOCK_SLOTS) < 2^61`.
pub const MAX_COUNT_LEN: usize = 1 << 30;

/// The position of the class tag in an item: bits 62 and 63 hold the class `c` (weight
/// `2^c`); patterns use bits 0..62.
const CLASS_SHIFT: u32 = 62;
/// The bits an item's pattern may use.
const PATTERN_MASK: u64 = (1u64 << CLASS_SHIFT) - 1;

/// The item of pattern `pattern` (below `2^62`) in weight class `class` (below 4).
#[inline]
pub fn tagged(pattern: u64, class: usize) -> u64 {
    debug_assert!(pattern <= PATTERN_MASK && class < CLASS_COUNT);
    pattern | (class as u64) << CLASS_SHIFT
}

/// The weight class of a tagged item.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the class is the two top bits of the item, below 4"
)]
fn class_of(item: u64) -> usize {
    (item >> CLASS_SHIFT) as usize
}

/// The result of one count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCounts {
    /// The disjoint pairs of each item class (unweighted).
    pub per_class: [u64; CLASS_COUNT],
    /// The work measure (see the module docs).
    pub pairs: u64,
}

/// The reusable buffers of a count, and the stored side it prepared.
#[derive(Default)]
pub struct PairScratch {
    /// The prepared blocks, and the buffers of a count.
    prepared: Prepared,
    /// The stored patterns when there are fewer than [`PLAIN_LOOP_LIMIT`] (the plain
    /// loop counts them), or `None` when `prepared` holds the blocks.
    small: Option<Vec<u64>>,
    /// Whether the stored patterns carry weight classes ([`prepare_classed`]).
    classed: bool,
}

impl PairScratch {
    /// Makes room for counts of up to `len` patterns a side before a unit runs, or
    /// [`crate::error::Error::OutOfMemory`].
    pub(crate) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        self.prepared.try_reserve(len)
    }
}

/// Counts, per weight class of the tagged `items`, the pairs (item, stored pattern)
/// with no common bit, on the best vector path at or below `level`.
///
/// # Panics
/// If `stored` or `items` is longer than [`MAX_COUNT_LEN`].
pub fn count(level: Level, stored: &[u64], items: &[u64], scratch: &mut PairScratch) -> PairCounts {
    let path = Path::at(level);
    prepare(path, &mut stored.to_vec(), items, scratch);
    count_prepared(path, &mut items.to_vec(), scratch)
}

/// Counts, per weight class of the tagged `stored` patterns (class mode, [`classes`]),
/// the pairs (stored pattern, item) with no common bit, on the best vector path at or
/// below `level`; the items' tags are ignored.
///
/// # Panics
/// If `stored` or `items` is longer than [`MAX_COUNT_LEN`].
pub fn count_by_stored_class(
    level: Level,
    stored: &[u64],
    items: &[u64],
    scratch: &mut PairScratch,
) -> PairCounts {
    let path = Path::at(level);
    prepare_classed(path, &mut stored.to_vec(), items, scratch);
    count_prepared(path, &mut items.to_vec(), scratch)
}

/// Prepares `stored` (at most [`MAX_COUNT_LEN`] patterns) in `scratch`, for counting
/// items like `sample` against it ([`count_prepared`], as often as wanted) on the path
/// `path`; a count gives the pairs per class of its items. It reorders `stored` (the
/// blocks are built from it in place).
///
/// # Panics
/// If `stored` is longer than [`MAX_COUNT_LEN`].
pub(crate) fn prepare(path: Path, stored: &mut [u64], sample: &[u64], scratch: &mut PairScratch) {
    prepare_side(path, stored, sample, false, scratch);
}

/// [`prepare`] for tagged stored patterns (each with its weight class: class mode,
/// [`classes`]): a count gives the pairs per class of the *stored* patterns, and
/// ignores its items' classes.
///
/// # Panics
/// If `stored` is longer than [`MAX_COUNT_LEN`].
pub(crate) fn prepare_classed(
    path: Path,
    stored: &mut [u64],
    sample: &[u64],
    scratch: &mut PairScratch,
) {
    prepare_side(path, stored, sample, true, scratch);
}

/// [`prepare`] or [`prepare_classed`], as `classed` says.
fn prepare_side(
    path: Path,
    stored: &mut [u64],
    sample: &[u64],
    classed: bool,
    scratch: &mut PairScratch,
) {
    assert!(
        stored.len() <= MAX_COUNT_LEN,
        "a count takes at most 2^30 stored patterns"
    );
    scratch.classed = classed;
    if stored.len() < PLAIN_LOOP_LIMIT {
        let small = scratch.small.get_or_insert_with(Vec::new);
        small.clear();
        small.extend_from_slice(stored);
        return;
    }
    scratch.small = None;
    let prepared = &mut scratch.prepared;
    prepared.classed = classed;
    match path {
        Path::Portable => portable::prepare(stored, sample, prepared),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2(token) => avx2::prepare(token, stored, sample, prepared),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(token) => avx512::prepare(token, stored, sample, prepared),
    }
}

/// The plain loop's count of `items` against the small stored side `small`: per
/// class of the items, or of the stored patterns when `classed` (the loop is the
/// same either way round).
fn plain_count_small(small: &[u64], items: &[u64], classed: bool) -> PairCounts {
    if classed {
        plain_count(items, small)
    } else {
        plain_count(small, items)
    }
}

/// Moves the tagged `items` with no bit of `guard` to the front (in some order) and
/// gives their number: the items a group of stored patterns meets (a `guard` of 0 keeps
/// them all, in place). The count's item lists, free between counts, are its spare
/// room; it partitions on the path's vectors.
pub(crate) fn keep_without(
    path: Path,
    items: &mut [u64],
    guard: u64,
    scratch: &mut PairScratch,
) -> usize {
    if guard == 0 {
        return items.len();
    }
    let spare = scratch.prepared.spare_items(items.len());
    match path {
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(token) => avx512::keep_without(token, items, spare, guard),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2(token) => avx2::keep_without(token, items, spare, guard),
        Path::Portable => split::partition_by_mask(items, spare, guard, false),
    }
}

/// Counts, per weight class of the tagged `items` (at most [`MAX_COUNT_LEN`]), their
/// pairs with no common bit with the stored patterns last prepared in `scratch`, on the
/// path `path` (the one they were prepared on).
///
/// # Panics
/// If `items` is longer than [`MAX_COUNT_LEN`].
pub(crate) fn count_prepared(
    path: Path,
    items: &mut [u64],
    scratch: &mut PairScratch,
) -> PairCounts {
    assert!(
        items.len() <= MAX_COUNT_LEN,
        "a count takes at most 2^30 items"
    );
    if let Some(small) = &scratch.small {
        return plain_count_small(small, items, scratch.classed);
    }
    count_blocks(path, items, &mut scratch.prepared, &mut ())
}

/// Counts the tagged `items` (which it sorts by class) against the blocks in
/// `prepared`, on the path `path`: per class of the items, or of the stored patterns
/// in class mode.
fn count_blocks(
    path: Path,
    items: &mut [u64],
    prepared: &mut Prepared,
    clock: &mut impl BlockClock,
) -> PairCounts {
    match path {
        Path::Portable => portable::count(items, prepared, clock),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2(token) => avx2::count(token, items, prepared, clock),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(token) => avx512::count(token, items, prepared, clock),
    }
}

/// [`count_prepared`] on a sample of the blocks last prepared in `scratch`, for the
/// estimate's timing: every `stride`-th block (`stride >= 1`; 1 is every block), from
/// block `(stride - 1) / 2` on (so that the sample sits in the middle of each stretch of
/// `stride`), or the last block when there are no more than that; `clock` times each
/// block counted (the class sort and the splits' filtering are done whole, as in a
/// count). Gives the counts, the number of blocks counted and the number prepared. The
/// counts are the sample's, not the stored side's. The blocks follow the splits, so
/// every `stride`-th of them is a spread over the splits; and each block meets as many
/// items as in the whole count. A stored side small enough for the plain loop counts as
/// one block.
///
/// # Panics
/// If `items` is longer than [`MAX_COUNT_LEN`].
pub(crate) fn count_sample(
    path: Path,
    items: &mut [u64],
    scratch: &mut PairScratch,
    stride: usize,
    clock: &mut impl BlockClock,
) -> (PairCounts, usize, usize) {
    assert!(
        items.len() <= MAX_COUNT_LEN,
        "a count takes at most 2^30 items"
    );
    if let Some(small) = &scratch.small {
        return (plain_count_small(small, items, scratch.classed), 1, 1);
    }
    let prepared = &mut scratch.prepared;
    let counted = prepared.select_blocks(stride);
    let counts = count_blocks(path, items, prepared, clock);
    prepared.select_all_blocks();
    (counts, counted, prepared.block_count())
}

/// The number of blocks the last preparation in `scratch` made (1 for a stored side
/// small enough for the plain loop).
pub(crate) fn prepared_blocks(scratch: &PairScratch) -> usize {
    if scratch.small.is_some() {
        1
    } else {
        scratch.prepared.block_count()
    }
}

/// The widest chunks (bits) of the blocks the last preparation in `scratch` made (0
/// for the plain loop), for tests of the cases that must reach wide chunks.
#[cfg(test)]
pub(crate) fn prepared_widest_chunk(scratch: &PairScratch) -> usize {
    if scratch.small.is_some() {
        return 0;
    }
    scratch
        .prepared
        .blocks
        .iter()
        .map(|block| block.layout.narrow + usize::from(block.layout.wide > 0))
        .max()
        .unwrap_or(0)
}

/// The weighted sum of the disjoint pairs and the work, over any lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WeightedPairs {
    /// The sum over the disjoint pairs of the item's weight.
    pub(crate) weighted: u128,
    /// The work measure.
    pub(crate) pairs: u128,
}

impl WeightedPairs {
    /// Adds the counts of one count, weighted. A count is below 2^61 pairs and weighs
    /// them at most 8 each; a run adds at most 2^62 counts (each takes at least one
    /// item of 8 bytes in memory), so every sum stays below 2^126.
    pub(crate) fn add(&mut self, counts: &PairCounts) {
        let weighted = (0..CLASS_COUNT)
            .map(|class| u128::from(counts.per_class[class]) << class)
            .sum::<u128>();
        self.weighted = self
            .weighted
            .checked_add(weighted)
            .expect("below 2^126: see the bound above");
        self.pairs = self
            .pairs
            .checked_add(u128::from(counts.pairs))
            .expect("below 2^126: see the bound above");
    }
}

/// The weighted count of the tagged `items`, of any length (cut into pieces of at most
/// `piece` entries: [`MAX_COUNT_LEN`] in use, smaller in tests), against the stored
/// patterns last prepared in `scratch`.
pub(crate) fn count_prepared_weighted(
    path: Path,
    items: &mut [u64],
    piece: usize,
    scratch: &mut PairScratch,
) -> WeightedPairs {
    let mut sum = WeightedPairs::default();
    for item_piece in items.chunks_mut(piece.clamp(1, MAX_COUNT_LEN)) {
        sum.add(&count_prepared(path, item_piece, scratch));
    }
    sum
}

/// The plain double loop: tiny stored sets, and the reference of the tests.
pub fn plain_count(stored: &[u64], items: &[u64]) -> PairCounts {
    let mut counts = PairCounts::default();
    for &item in items {
        let pattern = item & PATTERN_MASK;
        let hits = stored.iter().filter(|&&s| s & pattern == 0).count();
        counts.per_class[class_of(item)] += hits as u64;
    }
    counts.pairs = (items.len() * stored.len()) as u64;
    counts
}

/// `len` random patterns over the low `bits` bits from `seed` (xorshift), bit `b` set
/// with probability `sixteenths(b) / 16`: test data with bits of chosen frequencies,
/// and the cases of the kernel check (`join::kernel_check`).
pub(crate) fn random_patterns(
    len: usize,
    bits: u32,
    seed: u64,
    sixteenths: impl Fn(u32) -> u64,
) -> Vec<u64> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..len)
        .map(|_| {
            (0..bits)
                .filter(|&bit| next() % 16 < sixteenths(bit))
                .map(|bit| 1u64 << bit)
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `patterns` as items of the four weight classes in turn.
    fn with_classes(patterns: Vec<u64>) -> Vec<u64> {
        patterns
            .into_iter()
            .enumerate()
            .map(|(i, p)| tagged(p, i % CLASS_COUNT))
            .collect()
    }

    /// `len` patterns of `bits` bits, about half of them set, from a fixed seed.
    fn patterns(len: usize, bits: u32, seed: u64) -> Vec<u64> {
        let mut state = seed;
        (0..len)
            .map(|_| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)) & ((1 << bits) - 1)
            })
            .collect()
    }

    #[test]
    fn block_samples_count_the_blocks_they_name() {
        let stored = patterns(5000, 40, 1);
        let items = with_classes(patterns(700, 40, 2));
        let mut scratch = PairScratch::default();
        prepare(Path::Portable, &mut stored.clone(), &items, &mut scratch);
        let blocks = prepared_blocks(&scratch);
        assert_eq!(blocks, 5000usize.div_ceil(BLOCK_SLOTS));
        let whole = count_prepared(Path::Portable, &mut items.clone(), &mut scratch);
        let sample = |scratch: &mut PairScratch, stride| {
            count_sample(Path::Portable, &mut items.clone(), scratch, stride, &mut ())
        };
        assert_eq!(sample(&mut scratch, 1), (whole, blocks, blocks));
        for stride in [2, 3, blocks, blocks + 5] {
            let (counts, counted, all) = sample(&mut scratch, stride);
            assert_eq!(all, blocks);
            let first = ((stride - 1) / 2).min(blocks - 1);
            assert_eq!(
                counted,
                (blocks - first).div_ceil(stride),
                "stride {stride}"
            );
            assert!(counts.pairs <= whole.pairs && counts.pairs > 0);
            for class in 0..CLASS_COUNT {
                assert!(counts.per_class[class] <= whole.per_class[class]);
            }
        }
        // Every block is counted again: the whole count is unchanged.
        assert_eq!(sample(&mut scratch, 1), (whole, blocks, blocks));
        assert_eq!(
            count_prepared(Path::Portable, &mut items.clone(), &mut scratch),
            whole
        );
    }

    #[test]
    fn heavily_visited_blocks_take_wider_chunks_and_count_the_same() {
        use chunks::{ChunkLayout, FAMILIES};
        // Sparse patterns: every bit varies within a block and none is common, so every
        // item visits every block, and the sample predicts the items' number.
        let sparse = |len, bits, seed| random_patterns(len, bits, seed, |_| 1);
        for bits in [30u32, 32, 35, 44] {
            let stored = sparse(1024, bits, u64::from(bits));
            for (items_len, widest) in [(200usize, false), (60_000, true)] {
                let items = with_classes(sparse(items_len, bits, 7));
                let mut scratch = PairScratch::default();
                prepare(Path::Portable, &mut stored.clone(), &items, &mut scratch);
                let blocks = &scratch.prepared.blocks;
                assert_eq!(blocks.len(), 2);
                for block in blocks {
                    let varying = block.varying.count_ones() as usize;
                    assert_eq!(varying, bits as usize, "every bit varies");
                    let narrowest = ChunkLayout::in_family(varying, FAMILIES[0]);
                    if widest {
                        let visits = items_len as u64;
                        assert_eq!(block.layout, ChunkLayout::for_visits(varying, visits));
                        assert!(block.layout.chunks < narrowest.chunks, "{bits} bits");
                    } else {
                        assert_eq!(block.layout, narrowest, "{bits} bits");
                    }
                }
                let got = count_prepared(Path::Portable, &mut items.clone(), &mut scratch);
                let want = plain_count(&stored, &items);
                assert_eq!(
                    got.per_class, want.per_class,
                    "{bits} bits, {items_len} items"
                );
            }
        }
    }

    #[test]
    fn a_small_stored_side_is_one_block_of_a_sample() {
        let stored = patterns(PLAIN_LOOP_LIMIT - 1, 20, 3);
        let items: Vec<u64> = patterns(50, 20, 4)
            .into_iter()
            .map(|p| tagged(p, 1))
            .collect();
        let mut scratch = PairScratch::default();
        prepare(Path::Portable, &mut stored.clone(), &items, &mut scratch);
        assert_eq!(prepared_blocks(&scratch), 1);
        let whole = plain_count(&stored, &items);
        for stride in [1, 7] {
            assert_eq!(
                count_sample(
                    Path::Portable,
                    &mut items.clone(),
                    &mut scratch,
                    stride,
                    &mut ()
                ),
                (whole, 1, 1)
            );
        }
    }

    #[test]
    fn keep_without_moves_exactly_the_unguarded_items_to_the_front() {
        let level = crate::cpu::Kernel::Auto.level().expect("the auto level");
        let items = with_classes(patterns(10_003, 40, 9));
        for path in [Path::Portable, Path::at(level)] {
            let mut scratch = PairScratch::default();
            for guard in [0u64, 1 << 5, 1 << 3 | 1 << 39, PATTERN_MASK] {
                let mut moved = items.clone();
                let kept = keep_without(path, &mut moved, guard, &mut scratch);
                let mut want: Vec<u64> =
                    items.iter().copied().filter(|&i| i & guard == 0).collect();
                let mut front = moved[..kept].to_vec();
                want.sort_unstable();
                front.sort_unstable();
                assert_eq!(front, want, "{path:?}, guard {guard:#x}");
                moved.sort_unstable();
                let mut all = items.clone();
                all.sort_unstable();
                assert_eq!(moved, all, "{path:?}: the items are moved, not changed");
            }
        }
    }

    #[test]
    fn every_path_splits_as_the_portable_path() {
        for path in Path::available() {
            let name = format!("{path:?}");
            match path {
                Path::Portable => split::assert_ops_match_portable(
                    &split::portable_ops(crate::join::bits::extract_bits),
                    &name,
                ),
                #[cfg(target_arch = "x86_64")]
                Path::Avx2(token) => split::assert_ops_match_portable(&avx2::Ops(token), &name),
                #[cfg(target_arch = "x86_64")]
                Path::Avx512(token) => {
                    split::assert_ops_match_portable(&avx512::Ops(token), &name);
                }
            }
        }
    }

    #[test]
    fn every_path_filters_as_the_portable_filter() {
        let items = with_classes(patterns(1_021, 40, 11));
        for path in Path::available() {
            let filter = |source: &[u64], mask: u64, out: &mut [u64]| match path {
                Path::Portable => walk::filter_into(source, mask, out),
                #[cfg(target_arch = "x86_64")]
                Path::Avx2(token) => avx2::filter_items(token, source, mask, out),
                #[cfg(target_arch = "x86_64")]
                Path::Avx512(token) => avx512::filter_items(token, source, mask, out),
            };
            for len in (0..=70).chain([1_000, 1_021]) {
                let source = &items[..len];
                for mask in [0, 1 << 3, 1 << 3 | 1 << 17 | 1 << 39, PATTERN_MASK] {
                    let want: Vec<u64> =
                        source.iter().copied().filter(|&i| i & mask == 0).collect();
                    let case = format!("{path:?}: {len} items, mask {mask:#x}");
                    // Room for exactly the kept items and the slack, for more, and one short.
                    for room in [want.len(), len] {
                        let mut out = vec![0; room + blocks::FILTER_SLACK];
                        assert_eq!(filter(source, mask, &mut out), Some(want.len()), "{case}");
                        assert_eq!(out[..want.len()], want[..], "{case}: in order");
                    }
                    if let Some(short) = want.len().checked_sub(1) {
                        let mut out = vec![0; short + blocks::FILTER_SLACK];
                        assert_eq!(filter(source, mask, &mut out), None, "{case}: one short");
                    }
                }
            }
            assert_eq!(
                filter(&items, 0, &mut []),
                None,
                "{path:?}: no room for the slack"
            );
        }
    }

    #[test]
    fn every_path_leaves_out_the_padding_slots_of_blocks_with_and_without_chunks() {
        // 100 copies of one pattern: a block with no varying bit, so no chunk (the
        // padding alone makes its lanes); 700 patterns: a full block and a partly
        // filled one, whose first chunk's entries carry the padding.
        let one = vec![0b1010_0000u64; 100];
        let many = patterns(700, 30, 3);
        let items = with_classes(patterns(300, 30, 4));
        for path in Path::available() {
            for stored in [&one, &many] {
                let mut scratch = PairScratch::default();
                prepare(path, &mut stored.clone(), &items, &mut scratch);
                let got = count_prepared(path, &mut items.clone(), &mut scratch);
                let want = plain_count(stored, &items);
                assert_eq!(got.per_class, want.per_class, "{path:?}, {}", stored.len());
                let chunkless = scratch.prepared.blocks.iter().any(|b| b.layout.chunks == 0);
                assert_eq!(chunkless, stored.len() == 100, "{path:?}");
            }
        }
    }

    #[test]
    fn counts_in_tiles_equal_the_whole_count_on_every_path() {
        let stored = patterns(3_000, 30, 11);
        let items = with_classes(patterns(2_500, 30, 12));
        let want = plain_count(&stored, &items);
        for path in Path::available() {
            let mut scratch = PairScratch::default();
            prepare(path, &mut stored.clone(), &items, &mut scratch);
            assert_eq!(scratch.prepared.tile_len, 0, "too few items for tiles");
            let whole = count_prepared(path, &mut items.clone(), &mut scratch);
            assert_eq!(whole.per_class, want.per_class, "{path:?}");
            let (sampled, _, _) = count_sample(path, &mut items.clone(), &mut scratch, 3, &mut ());
            // Tiles of one item, of a few, cutting the classes anywhere, and longer than
            // the items.
            for tile in [1, 7, 100, 625, 1_000, 2_499, 2_500, 10_000] {
                scratch.prepared.tile_len = tile;
                let tiled = count_prepared(path, &mut items.clone(), &mut scratch);
                assert_eq!(tiled, whole, "{path:?}, tiles of {tile}");
                let sample = count_sample(path, &mut items.clone(), &mut scratch, 3, &mut ());
                assert_eq!(sample.0, sampled, "{path:?}, tiles of {tile}, a sample");
            }
        }
    }

    #[test]
    fn many_items_make_tiles_and_layouts_for_one_tile() {
        use chunks::ChunkLayout;
        let stored = patterns(1_024, 30, 13);
        let items = with_classes(patterns(2 * tiles::TILE_ITEMS + 5, 30, 14));
        let mut scratch = PairScratch::default();
        prepare(Path::Portable, &mut stored.clone(), &items, &mut scratch);
        let prepared = &scratch.prepared;
        assert_eq!(prepared.sample_tiles, 2);
        assert_eq!(prepared.tile_len, tiles::TILE_ITEMS + 3);
        // Each block's layout is the one for the visits of one tile.
        for block in &prepared.blocks {
            let visiting = prepared
                .item_sample
                .iter()
                .filter(|&&item| item & block.common == 0)
                .count() as u64;
            let visits = visiting * prepared.items_per_sample / 2;
            let varying = block.varying.count_ones() as usize;
            assert_eq!(block.layout, ChunkLayout::for_visits(varying, visits));
        }
    }

    /// The plain loop's count per class of the tagged `stored` patterns.
    fn plain_by_stored_class(stored: &[u64], items: &[u64]) -> [u64; CLASS_COUNT] {
        let mut want = [0; CLASS_COUNT];
        for &s in stored {
            let hits = items.iter().filter(|&&i| i & s & PATTERN_MASK == 0).count();
            want[class_of(s)] += hits as u64;
        }
        want
    }

    #[test]
    fn class_mode_counts_per_stored_class_on_every_path() {
        let level = crate::cpu::Kernel::Auto.level().expect("the auto level");
        // Tagged stored sides: below the plain loop's limit, one block of one pattern
        // repeated (no chunk), partial and full blocks, odd and even classes, one
        // class alone, and enough items for tiles.
        let mixed = |len, bits, seed| with_classes(patterns(len, bits, seed));
        let one_class = |len, class| -> Vec<u64> {
            patterns(len, 30, 21)
                .into_iter()
                .map(|p| tagged(p, class))
                .collect()
        };
        let cases: Vec<(Vec<u64>, Vec<u64>)> = vec![
            (mixed(PLAIN_LOOP_LIMIT - 1, 20, 1), patterns(100, 20, 2)),
            (vec![tagged(0b1010_0000, 2); 101], patterns(300, 30, 3)),
            (mixed(700, 30, 4), with_classes(patterns(300, 30, 5))),
            (mixed(513, 40, 6), patterns(1000, 40, 7)),
            (one_class(1025, 3), patterns(700, 30, 8)),
            (one_class(511, 1), patterns(20, 30, 9)),
            (mixed(5000, 44, 10), patterns(3000, 44, 11)),
        ];
        for (stored, items) in &cases {
            let want = plain_by_stored_class(stored, items);
            for path in [Path::Portable, Path::at(level)] {
                let mut scratch = PairScratch::default();
                let got = count_by_stored_class(level, stored, items, &mut scratch);
                if path == Path::at(level) {
                    assert_eq!(got.per_class, want, "{path:?}, {} stored", stored.len());
                }
                prepare_classed(path, &mut stored.clone(), items, &mut scratch);
                let got = count_prepared(path, &mut items.clone(), &mut scratch);
                assert_eq!(got.per_class, want, "{path:?}, {} stored", stored.len());
                // Tiles of a few items, and a sample of every block, count the same.
                if scratch.small.is_none() {
                    scratch.prepared.tile_len = 7;
                    let tiled = count_prepared(path, &mut items.clone(), &mut scratch);
                    assert_eq!(tiled, got, "{path:?}, tiles");
                    let sample = count_sample(path, &mut items.clone(), &mut scratch, 1, &mut ());
                    assert_eq!(sample.0, tiled, "{path:?}, a sample of every block");
                }
                // The same scratch, prepared without classes, counts as before.
                prepare(path, &mut stored.clone(), items, &mut scratch);
                let plain = count_prepared(path, &mut items.clone(), &mut scratch);
                let stored_untagged: Vec<u64> = stored.iter().map(|s| s & PATTERN_MASK).collect();
                assert_eq!(
                    plain.per_class,
                    plain_count(&stored_untagged, items).per_class
                );
            }
        }
    }

    #[test]
    fn pieces_sum_to_the_whole() {
        let patterns: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9) & 0xfff)
            .collect();
        let items: Vec<u64> = (0..200u64)
            .map(|i| tagged(i.wrapping_mul(0x85eb_ca6b) & 0xfff, (i % 4) as usize))
            .collect();
        let whole = plain_count(&patterns, &items);
        let expected: u128 = (0..CLASS_COUNT)
            .map(|c| u128::from(whole.per_class[c]) << c)
            .sum();
        let mut scratch = PairScratch::default();
        prepare(Path::Portable, &mut patterns.clone(), &items, &mut scratch);
        for piece in [7, 64, 1000] {
            let sum =
                count_prepared_weighted(Path::Portable, &mut items.clone(), piece, &mut scratch);
            assert_eq!(sum.weighted, expected, "pieces of {piece}");
        }
    }
}
