//! The AVX2 counting loop: the preparation (with BMI2 `pext`) and the count compiled
//! with AVX2, BMI2 and POPCNT; 256-bit ORs of the chunk tables, their conflicts added
//! up eight items at a time by a carry-save adder tree and counted by a nibble-table
//! popcount; the splits' partitions and bit counts on vectors too. Every `unsafe`
//! block relies on the [`Avx2`] token (`crate::cpu`), which only `Avx2::detect` makes,
//! after finding those features.

#![allow(
    clippy::inline_always,
    reason = "the helpers must inline into the count compiled with the AVX2 features"
)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_castsi256_pd,
    _mm256_cmpeq_epi64, _mm256_cmpeq_epi8, _mm256_load_si256, _mm256_loadu_si256,
    _mm256_movemask_pd, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_sad_epu8,
    _mm256_set1_epi64x, _mm256_set1_epi8, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sll_epi64, _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi8,
    _mm256_xor_si256, _mm_cvtsi32_si128, _pext_u64,
};

use super::blocks::FILTER_SLACK;
use super::blocks::{BlockInfo, BlockTables, FilteredItems, Lane, Prepared};
use super::chunks::{chunk_lane, match_layout, ChunkLayout};
use super::split::{finish_partition, partition_by_mask, Parent, SplitOps};
use super::walk::BlockClock;
use super::{PairCounts, CLASS_COUNT, LANE_WORDS};
use crate::cpu::x86_64::Avx2;

/// The 256-bit halves of a lane.
const HALVES: usize = LANE_WORDS / 4;
/// The groups of eight items per flush of the byte counts of their carried bits of
/// weight 16: each adds at most 8 to a byte.
const SIXTEENS_FLUSH_GROUPS: usize = 255 / 8;

/// Prepares the blocks of `stored` (at most `2^30` patterns) for items like `sample`;
/// `token` proves the features.
pub(super) fn prepare(token: Avx2, stored: &mut [u64], sample: &[u64], prepared: &mut Prepared) {
    // SAFETY: `token` proves AVX2, BMI2 and POPCNT (`Avx2::detect`), the features `prepare_with_features` is compiled
    // with.
    unsafe { prepare_with_features(token, stored, sample, prepared) }
}

/// Counts the disjoint pairs of the tagged `items` (at most `2^30`; sorted by class on
/// the way) and the prepared blocks; `token` proves the features.
pub(super) fn count(
    token: Avx2,
    items: &mut [u64],
    prepared: &mut Prepared,
    clock: &mut impl BlockClock,
) -> PairCounts {
    // SAFETY: `token` proves AVX2, BMI2 and POPCNT (`Avx2::detect`), the features `count_with_features` is compiled
    // with.
    unsafe { count_with_features(token, items, prepared, clock) }
}

/// The filter of this path ([`filter`]) for the tests; `token` proves the features.
#[cfg(test)]
pub(super) fn filter_items(
    token: Avx2,
    source: &[u64],
    mask: u64,
    out: &mut [u64],
) -> Option<usize> {
    // SAFETY: `token` proves the features `filter` is compiled with.
    unsafe { filter(token, source, mask, out) }
}

/// Moves the entries of `values` with no bit of `mask` to the front, with `spare`
/// (see [`partition`]), and gives their number; `token` proves the features.
pub(super) fn keep_without(token: Avx2, values: &mut [u64], spare: &mut [u64], mask: u64) -> usize {
    // SAFETY: `token` proves AVX2, BMI2 and POPCNT (`Avx2::detect`), the features
    // `partition` is compiled with.
    unsafe { partition(token, values, spare, mask, false) }
}

/// The preparation, with hardware `pext`, compiled with the features.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn prepare_with_features(token: Avx2, stored: &mut [u64], sample: &[u64], prepared: &mut Prepared) {
    prepared.prepare_stored(stored, sample, &Ops(token));
}

/// One split of the preparation ([`Prepared::split`]), compiled with the features.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn split_with_features(
    token: Avx2,
    prepared: &mut Prepared,
    part: &mut [u64],
    spare: &mut [u64],
    samples: &mut [u64],
    parent: Parent<'_>,
) -> usize {
    prepared.split(part, spare, samples, parent, &Ops(token))
}

/// The splits' bit operations on this path: `pext`, the vector partition and bit
/// counts, and the recursion through [`split_with_features`].
pub(super) struct Ops(pub(super) Avx2);

impl SplitOps for Ops {
    #[inline(always)]
    fn pext(&self, value: u64, mask: u64) -> u64 {
        pext(self.0, value, mask)
    }

    #[inline(always)]
    fn partition(&self, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize {
        // SAFETY: the token proves the features `partition` is compiled with.
        unsafe { partition(self.0, values, spare, mask, set) }
    }

    #[inline(always)]
    fn count_bits(&self, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
        // SAFETY: the token proves the features `bit_counts` is compiled with.
        unsafe { bit_counts(self.0, patterns, step, bits) }
    }

    fn split(
        &self,
        prepared: &mut Prepared,
        part: &mut [u64],
        spare: &mut [u64],
        samples: &mut [u64],
        parent: Parent<'_>,
    ) -> usize {
        // SAFETY: the token proves the features `split_with_features` is compiled with.
        unsafe { split_with_features(self.0, prepared, part, spare, samples, parent) }
    }
}

/// The counting loop, compiled with the features.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn count_with_features(
    token: Avx2,
    items: &mut [u64],
    prepared: &mut Prepared,
    clock: &mut impl BlockClock,
) -> PairCounts {
    let partition = |values: &mut [u64], spare: &mut [u64], mask: u64, set: bool| {
        partition(token, values, spare, mask, set)
    };
    let class_ends = prepared.sort_classes(items, partition);
    let mut tables = std::mem::take(&mut prepared.tables);
    let mut filtered = std::mem::take(&mut prepared.filtered);
    let counts = count_blocks(
        token,
        prepared,
        items,
        class_ends,
        &mut tables,
        &mut filtered,
        clock,
    );
    prepared.tables = tables;
    prepared.filtered = filtered;
    counts
}

/// BMI2 `pext`.
#[inline(always)]
fn pext(_: Avx2, value: u64, mask: u64) -> u64 {
    // SAFETY: the token proves BMI2.
    unsafe { _pext_u64(value, mask) }
}

/// `bytes` plus the number of set bits of each byte of `value` (nibble table).
#[inline(always)]
fn add_byte_popcounts(_: Avx2, bytes: __m256i, value: __m256i) -> __m256i {
    // SAFETY: the token proves AVX2.
    unsafe {
        let table = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low_nibbles = _mm256_set1_epi8(0x0f);
        let low = _mm256_and_si256(value, low_nibbles);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(value), low_nibbles);
        let counts = _mm256_add_epi8(
            _mm256_shuffle_epi8(table, low),
            _mm256_shuffle_epi8(table, high),
        );
        _mm256_add_epi8(bytes, counts)
    }
}

/// The sum of the four 64-bit lanes of `value`.
#[inline(always)]
fn horizontal_sum(_: Avx2, value: __m256i) -> u64 {
    let mut lanes = [0u64; 4];
    // SAFETY: the token proves AVX2; `lanes` is 32 writable bytes, stored unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), value) };
    lanes.iter().sum()
}

/// The 256-bit halves of `lane`.
#[inline(always)]
fn load_halves(_: Avx2, lane: &Lane) -> [__m256i; HALVES] {
    let base: *const __m256i = lane.0.as_ptr().cast();
    // SAFETY: the token proves AVX2; a `Lane` is `HALVES * 32` readable bytes aligned to
    // 32 bytes, so each half is an aligned load inside it.
    std::array::from_fn(|half| unsafe { _mm256_load_si256(base.add(half)) })
}

/// `a | b`.
#[inline(always)]
fn or(_: Avx2, a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the token proves AVX2.
    unsafe { _mm256_or_si256(a, b) }
}

/// Counts every selected block against the items that share none of its common bits
/// ([`Prepared::walk`]), building each block's chunk tables in `table_buffer` when it
/// first has items.
#[inline(always)]
fn count_blocks(
    token: Avx2,
    prepared: &Prepared,
    items: &[u64],
    class_ends: [usize; CLASS_COUNT],
    table_buffer: &mut BlockTables,
    filtered: &mut FilteredItems,
    clock: &mut impl BlockClock,
) -> PairCounts {
    let mut conflicts = [Conflicts::new(token); CLASS_COUNT];
    let mut by_stored_class = [0u64; CLASS_COUNT];
    let filter = |source: &[u64], mask: u64, out: &mut [u64]| {
        // SAFETY: `token` proves the features `filter` is compiled with (a closure does
        // not inherit them from the function it is written in).
        unsafe { filter(token, source, mask, out) }
    };
    let build = |tables: &mut BlockTables, prepared: &Prepared, block: &BlockInfo| {
        // SAFETY: `token` proves the features `build_tables` is compiled with.
        unsafe { build_tables(token, tables, prepared, block) }
    };
    let buffers = (filtered, table_buffer);
    let mut counts = prepared.walk_with_tables(
        items,
        class_ends,
        buffers,
        (filter, build),
        clock,
        |block, tables, class, visiting| {
            if prepared.classed {
                // SAFETY: `token` proves the features `count_block_by_class` is
                // compiled with.
                unsafe {
                    count_block_by_class(token, block, tables, visiting, &mut by_stored_class);
                }
                return;
            }
            // SAFETY: `token` proves the features `count_block` is compiled with.
            unsafe { count_block(token, block, tables, visiting, &mut conflicts[class]) }
        },
    );
    if prepared.classed {
        counts.per_class = by_stored_class;
        return counts;
    }
    // `per_class` holds the evaluated slots so far (below 2^61); the conflicts are some
    // of them.
    for (count, conflicts) in counts.per_class.iter_mut().zip(conflicts) {
        *count -= conflicts.total(token);
    }
    counts
}

/// The conflicts (set bits of the items' lanes) of one class so far, added up by a
/// carry-save adder tree (Harley and Seal): eight items' lanes (sixteen vectors) fold
/// into one vector of weight 16, and only that one is popcounted. The bits of weight 1
/// to 8 still in the tree are counted at the end.
#[derive(Clone, Copy)]
struct Conflicts {
    /// The bits of weight 1, 2, 4 and 8 not yet counted.
    ones: __m256i,
    /// See `ones`.
    twos: __m256i,
    /// See `ones`.
    fours: __m256i,
    /// See `ones`.
    eights: __m256i,
    /// The conflicts counted, in 64-bit lanes.
    counted: __m256i,
}

impl Conflicts {
    /// No conflicts.
    #[inline(always)]
    fn new(token: Avx2) -> Self {
        let zero = splat(token, 0);
        Conflicts {
            ones: zero,
            twos: zero,
            fours: zero,
            eights: zero,
            counted: zero,
        }
    }

    /// Adds the lanes of the eight items of `group` to the tree, and gives the bits of
    /// weight 16 they carry out. (`lanes` is a trait, not a closure: a closure would
    /// not be compiled with the path's features.)
    #[inline(always)]
    fn add_eight(&mut self, token: Avx2, lanes: &impl ItemLanes, group: &[u64]) -> __m256i {
        let low = self.add_four(token, lanes, &group[..4]);
        let high = self.add_four(token, lanes, &group[4..8]);
        let sixteens;
        (sixteens, self.eights) = carry_save(token, self.eights, low, high);
        sixteens
    }

    /// Adds the lanes of the four items of `group`, and gives the bits of weight 8
    /// they carry out.
    #[inline(always)]
    fn add_four(&mut self, token: Avx2, lanes: &impl ItemLanes, group: &[u64]) -> __m256i {
        let low = self.add_two(token, lanes, group[0], group[1]);
        let high = self.add_two(token, lanes, group[2], group[3]);
        let eights;
        (eights, self.fours) = carry_save(token, self.fours, low, high);
        eights
    }

    /// Adds the lanes of items `a` and `b`, and gives the bits of weight 4 they carry
    /// out.
    #[inline(always)]
    fn add_two(&mut self, token: Avx2, lanes: &impl ItemLanes, a: u64, b: u64) -> __m256i {
        let (low, high, fours);
        let [a0, a1] = lanes.lane(token, a);
        (low, self.ones) = carry_save(token, self.ones, a0, a1);
        let [b0, b1] = lanes.lane(token, b);
        (high, self.ones) = carry_save(token, self.ones, b0, b1);
        (fours, self.twos) = carry_save(token, self.twos, low, high);
        fours
    }

    /// Adds `bytes` (byte counts, weight `1 << shift` each) to the counted conflicts.
    #[inline(always)]
    fn count_bytes(&mut self, _: Avx2, bytes: __m256i, shift: i32) {
        // SAFETY: the token proves AVX2.
        self.counted = unsafe {
            let sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
            _mm256_add_epi64(
                self.counted,
                _mm256_sll_epi64(sums, _mm_cvtsi32_si128(shift)),
            )
        };
    }

    /// All the conflicts: those counted and those still in the tree.
    #[inline(always)]
    fn total(mut self, token: Avx2) -> u64 {
        let zero = splat(token, 0);
        for (shift, bits) in [self.ones, self.twos, self.fours, self.eights]
            .into_iter()
            .enumerate()
        {
            let shift = i32::try_from(shift).expect("below 4");
            self.count_bytes(token, add_byte_popcounts(token, zero, bits), shift);
        }
        horizontal_sum(token, self.counted)
    }
}

/// The lane of an item against a block: the OR of its chunk tables' entries (a set bit
/// is a conflict).
trait ItemLanes {
    /// The lane of `item`.
    fn lane(&self, token: Avx2, item: u64) -> [__m256i; HALVES];
}

/// A block's chunk tables as [`ItemLanes`], with `CHUNKS` table lookups per item, the
/// first `WIDE` of them wide (`NARROW + 1` bits), the others of `NARROW` bits.
struct ChunkLanes<'a, const CHUNKS: usize, const WIDE: usize, const NARROW: usize> {
    /// The tables.
    tables: &'a [Lane],
    /// The block's varying bits.
    varying: u64,
    /// The block's padding slots (set), for a block with no chunk (otherwise the
    /// first chunk's entries hold them).
    padding: [__m256i; HALVES],
}

impl<const CHUNKS: usize, const WIDE: usize, const NARROW: usize> ItemLanes
    for ChunkLanes<'_, CHUNKS, WIDE, NARROW>
{
    #[inline(always)]
    fn lane(&self, token: Avx2, item: u64) -> [__m256i; HALVES] {
        let compact = pext(token, item, self.varying);
        // The first chunk's entries hold the padding slots.
        let mut acc = if CHUNKS == 0 {
            self.padding
        } else {
            load_halves(token, &self.tables[chunk_lane(compact, NARROW, WIDE, 0)])
        };
        for chunk in 1..CHUNKS {
            let index = chunk_lane(compact, NARROW, WIDE, chunk);
            let entry = load_halves(token, &self.tables[index]);
            for half in 0..HALVES {
                acc[half] = or(token, acc[half], entry[half]);
            }
        }
        acc
    }
}

/// A carry-save adder: the bits where at least two of `a`, `b` and `c` are set (the
/// carries), and their sum's low bits.
#[inline(always)]
fn carry_save(_: Avx2, a: __m256i, b: __m256i, c: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the token proves AVX2.
    unsafe {
        let odd = _mm256_xor_si256(a, b);
        let carries = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(odd, c));
        (carries, _mm256_xor_si256(odd, c))
    }
}

/// For each 4-bit mask of kept lanes, the 32-bit lane indices that move the kept 64-bit
/// lanes to the front, in order (`vpermd`).
const PACK: [[i32; 8]; 16] = pack_table();

/// Builds [`PACK`].
const fn pack_table() -> [[i32; 8]; 16] {
    let mut table = [[0i32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut to = 0;
        let mut lane: i32 = 0;
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                table[mask][2 * to] = 2 * lane;
                table[mask][2 * to + 1] = 2 * lane + 1;
                to += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// [`BlockTables::build`] compiled with the features, a lane a vector OR.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn build_tables(token: Avx2, tables: &mut BlockTables, prepared: &Prepared, block: &BlockInfo) {
    tables.build(prepared, block, |without, with, slice| {
        let slice = load_halves(token, &slice);
        for (to, from) in with.iter_mut().zip(without) {
            let from = load_halves(token, from);
            for (half, words) in to.0.chunks_exact_mut(4).enumerate() {
                store_four(token, words, or(token, from[half], slice[half]));
            }
        }
    });
}

/// [`super::walk::filter_into`] with 256-bit vectors: eight items a step, two vectors
/// tested at once, the kept ones of each moved to the front by a permutation from
/// [`PACK`] and stored whole, the second where the first one's kept ones end (the
/// slack takes the rest). One bound check a step: measured 19% faster than four items
/// a step on a list in L2, 23% in L3.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn filter(token: Avx2, source: &[u64], mask: u64, out: &mut [u64]) -> Option<usize> {
    const _: () = assert!(FILTER_SLACK >= 8, "a step stores eight entries");
    let cap = out.len().checked_sub(FILTER_SLACK)?;
    let masks = splat(token, mask);
    let mut len = 0;
    let mut eights = source.chunks_exact(8);
    for eight in &mut eights {
        if len > cap {
            return None;
        }
        let (low, high) = (load_four(token, &eight[..4]), load_four(token, &eight[4..]));
        let (keep_low, keep_high) = (untouched(token, low, masks), untouched(token, high, masks));
        let window: &mut [u64; 8] = (&mut out[len..len + 8])
            .try_into()
            .expect("len <= cap leaves room for eight");
        let at = keep_low.count_ones() as usize;
        store_four(token, &mut window[..4], compress(token, keep_low, low));
        store_four(
            token,
            &mut window[at..at + 4],
            compress(token, keep_high, high),
        );
        len += at + keep_high.count_ones() as usize;
    }
    for &item in eights.remainder() {
        if len > cap {
            return None;
        }
        out[len] = item;
        len += usize::from(item & mask == 0);
    }
    (len <= cap).then_some(len)
}

/// [`super::split::partition_by_mask`] with 256-bit vectors: eight entries a step, two
/// vectors tested at once, the kept ones moved to the front of `values` by a
/// permutation from [`PACK`], the others to `spare` by the complementary one, then
/// copied back after them. Falls back to the portable partition when `spare` is
/// shorter than `values` and [`FILTER_SLACK`].
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn partition(token: Avx2, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize {
    const _: () = assert!(FILTER_SLACK >= 8, "a step stores eight entries");
    let len = values.len();
    if spare.len() < len + FILTER_SLACK {
        return partition_by_mask(values, spare, mask, set);
    }
    let masks = splat(token, mask);
    let flip = if set { 0b1111 } else { 0 };
    let (mut front, mut back, mut read) = (0, 0, 0);
    while read + 8 <= len {
        let (low, high) = (
            load_four(token, &values[read..read + 4]),
            load_four(token, &values[read + 4..read + 8]),
        );
        let keep_low = untouched(token, low, masks) ^ flip;
        let keep_high = untouched(token, high, masks) ^ flip;
        let (kept_low, kept_high) = (
            keep_low.count_ones() as usize,
            keep_high.count_ones() as usize,
        );
        // `front <= read`: the packed stores overwrite only entries already read (all
        // eight are loaded first).
        let kept: &mut [u64; 8] = (&mut values[front..front + 8])
            .try_into()
            .expect("front + 8 <= read + 8 <= len");
        store_four(token, &mut kept[..4], compress(token, keep_low, low));
        store_four(
            token,
            &mut kept[kept_low..kept_low + 4],
            compress(token, keep_high, high),
        );
        let others: &mut [u64; 8] = (&mut spare[back..back + 8])
            .try_into()
            .expect("back + 8 <= read + 8 <= len < spare's length");
        store_four(
            token,
            &mut others[..4],
            compress(token, keep_low ^ 0b1111, low),
        );
        store_four(
            token,
            &mut others[4 - kept_low..8 - kept_low],
            compress(token, keep_high ^ 0b1111, high),
        );
        front += kept_low + kept_high;
        back += 8 - kept_low - kept_high;
        read += 8;
    }
    finish_partition(values, spare, (mask, set), (front, back, read))
}

/// [`super::split::bit_counts`] with 256-bit vectors: each pattern's 64 bits are spread
/// to 64 bytes (`0xff` where set, [`bit_bytes`]) and subtracted from byte counters,
/// which are added up before they can overflow.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn bit_counts(token: Avx2, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
    let mut totals = [0u64; 64];
    let zero = splat(token, 0);
    let mut bytes = [zero; 2];
    let mut pending = 0;
    for &pattern in patterns.iter().step_by(step) {
        for (counter, set) in bytes.iter_mut().zip(bit_bytes(token, pattern & bits)) {
            *counter = _mm256_sub_epi8(*counter, set);
        }
        pending += 1;
        if pending == u8::MAX {
            add_bytes(token, bytes, &mut totals);
            (bytes, pending) = ([zero; 2], 0);
        }
    }
    add_bytes(token, bytes, &mut totals);
    totals
}

/// The bits of `value` as 64 bytes: byte `b` (of the low vector for `b < 32`, else of
/// the high one) is `0xff` when bit `b` is set, else 0.
#[inline(always)]
fn bit_bytes(_: Avx2, value: u64) -> [__m256i; 2] {
    // SAFETY: the token proves AVX2.
    unsafe {
        // Every 128-bit lane holds the value's 8 bytes (twice), so a byte shuffle can
        // copy byte `b / 8` of the value to byte `b` of each vector.
        let spread = _mm256_set1_epi64x(value.cast_signed());
        let low = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        );
        let high = _mm256_setr_epi8(
            4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7,
            7, 7, 7,
        );
        // Byte `b` keeps bit `b % 8` of its copy.
        let select = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64.cast_signed());
        [low, high].map(|order| {
            let copies = _mm256_shuffle_epi8(spread, order);
            _mm256_cmpeq_epi8(_mm256_and_si256(copies, select), select)
        })
    }
}

/// Adds the 64 byte counters of `bytes` to `totals`.
#[inline(always)]
fn add_bytes(token: Avx2, bytes: [__m256i; 2], totals: &mut [u64; 64]) {
    let mut words = [0u64; 8];
    store_four(token, &mut words[..4], bytes[0]);
    store_four(token, &mut words[4..], bytes[1]);
    for (byte, total) in words.iter().flat_map(|word| word.to_le_bytes()).zip(totals) {
        *total += u64::from(byte);
    }
}

/// `value` in every 64-bit lane.
#[inline(always)]
fn splat(_: Avx2, value: u64) -> __m256i {
    // SAFETY: the token proves AVX2.
    unsafe { _mm256_set1_epi64x(value.cast_signed()) }
}

/// Loads four items.
#[inline(always)]
fn load_four(_: Avx2, four: &[u64]) -> __m256i {
    assert_eq!(four.len(), 4);
    // SAFETY: the token proves AVX2; `four` is 32 readable bytes (unaligned load).
    unsafe { _mm256_loadu_si256(four.as_ptr().cast()) }
}

/// The lanes of `values` with no bit of `masks`, as a 4-bit mask (bit `i`: lane `i`).
#[inline(always)]
fn untouched(_: Avx2, values: __m256i, masks: __m256i) -> usize {
    // SAFETY: the token proves AVX2.
    unsafe {
        let clear = _mm256_cmpeq_epi64(_mm256_and_si256(values, masks), _mm256_setzero_si256());
        _mm256_movemask_pd(_mm256_castsi256_pd(clear)).cast_unsigned() as usize
    }
}

/// The lanes of `values` selected by the 4-bit mask `keep`, moved to the front in order
/// (a permutation from [`PACK`]).
#[inline(always)]
fn compress(_: Avx2, keep: usize, values: __m256i) -> __m256i {
    let order = &PACK[keep];
    // SAFETY: the token proves AVX2; a `PACK` row is 32 readable bytes (unaligned load).
    unsafe { _mm256_permutevar8x32_epi32(values, _mm256_loadu_si256(order.as_ptr().cast())) }
}

/// Stores a vector into four items.
#[inline(always)]
fn store_four(_: Avx2, four: &mut [u64], value: __m256i) {
    assert_eq!(four.len(), 4);
    // SAFETY: the token proves AVX2; `four` is 32 writable bytes (unaligned store).
    unsafe { _mm256_storeu_si256(four.as_mut_ptr().cast(), value) }
}

/// Counts `block` with its chunk tables `tables` against `items`: the conflicts go to
/// `conflicts`.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn count_block(
    token: Avx2,
    block: &BlockInfo,
    tables: &[Lane],
    items: &[u64],
    conflicts: &mut Conflicts,
) {
    let pass = Pass { block, tables };
    macro_rules! run {
        ($chunks:literal, $wide:literal, $narrow:literal) => {
            pass.run::<$chunks, $wide, $narrow>(token, items, conflicts)
        };
    }
    match_layout!(block.layout, run);
}

/// One block and its tables.
struct Pass<'a> {
    /// The block.
    block: &'a BlockInfo,
    /// Its chunk tables.
    tables: &'a [Lane],
}

impl Pass<'_> {
    /// The block's chunk tables as [`ItemLanes`].
    #[inline(always)]
    fn chunk_lanes<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx2,
    ) -> ChunkLanes<'_, CHUNKS, WIDE, NARROW> {
        let lanes = ChunkLayout {
            chunks: CHUNKS,
            wide: WIDE,
            narrow: NARROW,
        }
        .lanes();
        ChunkLanes {
            tables: &self.tables[..lanes],
            varying: self.block.varying,
            padding: load_halves(token, &self.block.padding),
        }
    }

    /// Counts the block against `items`, with `CHUNKS` table lookups per item, the
    /// first `WIDE` of them wide (`NARROW + 1` bits), the others of `NARROW` bits: the
    /// conflicts go to `conflicts`, eight items at a time through its adder tree, the
    /// rest counted directly.
    #[inline(always)]
    fn run<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx2,
        items: &[u64],
        conflicts: &mut Conflicts,
    ) {
        let lanes = self.chunk_lanes::<CHUNKS, WIDE, NARROW>(token);
        let zero = splat(token, 0);
        let (grouped, rest) = items.split_at(items.len() / 8 * 8);
        for batch in grouped.chunks(8 * SIXTEENS_FLUSH_GROUPS) {
            let mut sixteens = zero;
            for group in batch.chunks_exact(8) {
                let carried = conflicts.add_eight(token, &lanes, group);
                sixteens = add_byte_popcounts(token, sixteens, carried);
            }
            conflicts.count_bytes(token, sixteens, 4);
        }
        let mut ones = zero;
        for &item in rest {
            for half in lanes.lane(token, item) {
                ones = add_byte_popcounts(token, ones, half);
            }
        }
        conflicts.count_bytes(token, ones, 0);
    }
}

/// Counts `block` of a classed stored side ([`super::classes`]) with its chunk tables
/// `tables` against `items`: the disjoint pairs of each stored class go to `by_class`.
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn count_block_by_class(
    token: Avx2,
    block: &BlockInfo,
    tables: &[Lane],
    items: &[u64],
    by_class: &mut [u64; CLASS_COUNT],
) {
    let pass = Pass { block, tables };
    macro_rules! run {
        ($chunks:literal, $wide:literal, $narrow:literal) => {
            pass.run_by_class::<$chunks, $wide, $narrow>(token, items)
        };
    }
    let conflicts = match_layout!(block.layout, run);
    block.classes.add_disjoint(items, &conflicts, by_class);
}

/// `a & b`.
#[inline(always)]
fn and(_: Avx2, a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the token proves AVX2.
    unsafe { _mm256_and_si256(a, b) }
}

/// `counted` plus the byte counts `bytes` (weight `1 << shift` each), in 64-bit lanes.
#[inline(always)]
fn add_bytes_shifted(_: Avx2, counted: __m256i, bytes: __m256i, shift: i32) -> __m256i {
    // SAFETY: the token proves AVX2.
    unsafe {
        let sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
        _mm256_add_epi64(counted, _mm256_sll_epi64(sums, _mm_cvtsi32_si128(shift)))
    }
}

impl Pass<'_> {
    /// [`Pass::run`] on a block of a classed stored side: the lanes added up by a tree
    /// of its own, whose carried bits and last bits are counted per class under the
    /// class's positions (the tree adds a lane's two halves, slots `p` and `p + 256`:
    /// position `p`). Gives the conflicts of each class.
    #[inline(always)]
    fn run_by_class<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx2,
        items: &[u64],
    ) -> [u64; CLASS_COUNT] {
        let lanes = self.chunk_lanes::<CHUNKS, WIDE, NARROW>(token);
        let zero = splat(token, 0);
        // The classes with positions, and their position masks.
        let mut present = [(0usize, zero); CLASS_COUNT];
        let mut classes = 0;
        for class in self.block.classes.with_positions() {
            let mask = self.block.classes.position_mask(class);
            // SAFETY: the token proves AVX2; `mask` is 32 readable bytes (unaligned
            // load).
            present[classes] = (class, unsafe { _mm256_loadu_si256(mask.as_ptr().cast()) });
            classes += 1;
        }
        let present = &present[..classes];
        let mut tree = Conflicts::new(token);
        let mut counted = [zero; CLASS_COUNT];
        let (grouped, rest) = items.split_at(items.len() / 8 * 8);
        for batch in grouped.chunks(8 * SIXTEENS_FLUSH_GROUPS) {
            let mut sixteens = [zero; CLASS_COUNT];
            for group in batch.chunks_exact(8) {
                let carried = tree.add_eight(token, &lanes, group);
                for (bytes, &(_, mask)) in sixteens.iter_mut().zip(present) {
                    *bytes = add_byte_popcounts(token, *bytes, and(token, carried, mask));
                }
            }
            for (sum, &bytes) in counted.iter_mut().zip(&sixteens[..classes]) {
                *sum = add_bytes_shifted(token, *sum, bytes, 4);
            }
        }
        // The bits left in the tree (weights 1 to 8), and the last items' lanes
        // (weight 1).
        let mut ones = [zero; CLASS_COUNT];
        for &item in rest {
            for half in lanes.lane(token, item) {
                for (bytes, &(_, mask)) in ones.iter_mut().zip(present) {
                    *bytes = add_byte_popcounts(token, *bytes, and(token, half, mask));
                }
            }
        }
        for (sum, &bytes) in counted.iter_mut().zip(&ones[..classes]) {
            *sum = add_bytes_shifted(token, *sum, bytes, 0);
        }
        for (shift, plane) in [tree.ones, tree.twos, tree.fours, tree.eights]
            .into_iter()
            .enumerate()
        {
            let shift = i32::try_from(shift).expect("below 4");
            for (sum, &(_, mask)) in counted.iter_mut().zip(present) {
                let bytes = add_byte_popcounts(token, zero, and(token, plane, mask));
                *sum = add_bytes_shifted(token, *sum, bytes, shift);
            }
        }
        let mut conflicts = [0u64; CLASS_COUNT];
        for (&sum, &(class, _)) in counted.iter().zip(present) {
            conflicts[class] = horizontal_sum(token, sum);
        }
        conflicts
    }
}
