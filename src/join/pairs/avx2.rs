//! The AVX2 counting loop: the preparation (with BMI2 `pext`) and the count compiled
//! with AVX2, BMI2 and POPCNT; 256-bit ORs of the chunk tables and a nibble-table
//! popcount. Every `unsafe` block relies on the [`Avx2`] token (`crate::cpu`), which
//! only `Avx2::detect` makes, after finding those features.

#![allow(
    clippy::inline_always,
    reason = "the helpers must inline into the count compiled with the AVX2 features"
)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_castsi256_pd,
    _mm256_cmpeq_epi64, _mm256_load_si256, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256,
    _mm256_permutevar8x32_epi32, _mm256_sad_epu8, _mm256_set1_epi64x, _mm256_set1_epi8,
    _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    _mm256_storeu_si256, _pext_u64,
};

use super::blocks::FILTER_SLACK;
use super::blocks::{BlockInfo, BlockTables, FilteredItems, Lane, Prepared};
use super::chunks::{chunk_lane, match_layout, ChunkLayout};
use super::split::{bit_counts, partition_by_mask, SplitOps};
use super::walk::BlockClock;
use super::{PairCounts, CLASS_COUNT, LANE_WORDS};
use crate::cpu::x86_64::Avx2;

/// The 256-bit halves of a lane.
const HALVES: usize = LANE_WORDS / 4;
/// The items per byte-counter flush: each adds at most `8 * HALVES` to a byte.
const FLUSH_ITEMS: usize = 255 / (8 * HALVES);

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
    (budget, depth): (usize, usize),
) {
    prepared.split(part, spare, samples, budget, depth, &Ops(token));
}

/// The splits' bit operations on this path: `pext`, the portable partition and bit
/// counts, and the recursion through [`split_with_features`].
struct Ops(Avx2);

impl SplitOps for Ops {
    #[inline(always)]
    fn pext(&self, value: u64, mask: u64) -> u64 {
        pext(self.0, value, mask)
    }

    #[inline(always)]
    fn partition(&self, values: &mut [u64], spare: &mut [u64], mask: u64, set: bool) -> usize {
        partition_by_mask(values, spare, mask, set)
    }

    #[inline(always)]
    fn count_bits(&self, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
        bit_counts(patterns, step, bits)
    }

    fn split(
        &self,
        prepared: &mut Prepared,
        part: &mut [u64],
        spare: &mut [u64],
        samples: &mut [u64],
        budget: usize,
        depth: usize,
    ) {
        let sizes = (budget, depth);
        // SAFETY: the token proves the features `split_with_features` is compiled with.
        unsafe { split_with_features(self.0, prepared, part, spare, samples, sizes) }
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
    let class_ends = prepared.sort_classes(items, partition_by_mask);
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
    // SAFETY: the token proves AVX2.
    let mut set_bits = [unsafe { _mm256_setzero_si256() }; CLASS_COUNT];
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
            // SAFETY: `token` proves the features `count_block` is compiled with.
            unsafe { count_block(token, block, tables, visiting, &mut set_bits[class]) }
        },
    );
    // `per_class` holds the evaluated slots so far (below 2^61); the conflicts are some
    // of them.
    for (count, conflicts) in counts.per_class.iter_mut().zip(set_bits) {
        *count -= horizontal_sum(token, conflicts);
    }
    counts
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

/// [`super::walk::filter_into`] with 256-bit vectors: four items tested at once, the
/// kept ones moved to the front by a permutation from [`PACK`] and stored whole (the
/// slack takes the rest).
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn filter(token: Avx2, source: &[u64], mask: u64, out: &mut [u64]) -> Option<usize> {
    let cap = out.len().checked_sub(FILTER_SLACK)?;
    let mut len = 0;
    let mut groups = source.chunks_exact(4);
    for group in &mut groups {
        if len > cap {
            return None;
        }
        let (packed, kept) = pack_four(token, group, mask);
        store_four(token, &mut out[len..len + 4], packed);
        len += kept;
    }
    for &item in groups.remainder() {
        if len > cap {
            return None;
        }
        out[len] = item;
        len += usize::from(item & mask == 0);
    }
    (len <= cap).then_some(len)
}

/// The items of `four` with no bit of `mask`, moved to the front of a vector, and their
/// number.
#[inline(always)]
fn pack_four(_: Avx2, four: &[u64], mask: u64) -> (__m256i, usize) {
    assert_eq!(four.len(), 4);
    // SAFETY: the token proves AVX2; `four` is 32 readable bytes (unaligned load), and
    // `PACK` rows are 32 readable bytes.
    unsafe {
        let values = _mm256_loadu_si256(four.as_ptr().cast());
        let masked = _mm256_and_si256(values, _mm256_set1_epi64x(mask.cast_signed()));
        let clear = _mm256_cmpeq_epi64(masked, _mm256_setzero_si256());
        let kept = _mm256_movemask_pd(_mm256_castsi256_pd(clear)).cast_unsigned() as usize;
        let order = _mm256_loadu_si256(PACK[kept].as_ptr().cast());
        (
            _mm256_permutevar8x32_epi32(values, order),
            kept.count_ones() as usize,
        )
    }
}

/// Stores a vector into four items.
#[inline(always)]
fn store_four(_: Avx2, four: &mut [u64], value: __m256i) {
    assert_eq!(four.len(), 4);
    // SAFETY: the token proves AVX2; `four` is 32 writable bytes (unaligned store).
    unsafe { _mm256_storeu_si256(four.as_mut_ptr().cast(), value) }
}

/// Counts `block` with its chunk tables `tables` against `items`: the conflicts go to
/// `set_bits` (in 64-bit lanes).
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn count_block(
    token: Avx2,
    block: &BlockInfo,
    tables: &[Lane],
    items: &[u64],
    set_bits: &mut __m256i,
) {
    let pass = Pass { block, tables };
    macro_rules! run {
        ($chunks:literal, $wide:literal, $narrow:literal) => {
            pass.run::<$chunks, $wide, $narrow>(token, items, set_bits)
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
    /// Counts the block against `items`, with `CHUNKS` table lookups per item, the
    /// first `WIDE` of them wide (`NARROW + 1` bits), the others of `NARROW` bits: the
    /// conflicts go to `set_bits` (in 64-bit lanes).
    #[inline(always)]
    fn run<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx2,
        items: &[u64],
        set_bits: &mut __m256i,
    ) {
        let lanes = ChunkLayout {
            chunks: CHUNKS,
            wide: WIDE,
            narrow: NARROW,
        }
        .lanes();
        let tables = &self.tables[..lanes];
        let varying = self.block.varying;
        let padding = load_halves(token, &self.block.padding);
        for batch in items.chunks(FLUSH_ITEMS) {
            // SAFETY: the token proves AVX2.
            let mut bytes = unsafe { _mm256_setzero_si256() };
            for &item in batch {
                let compact = pext(token, item, varying);
                let mut acc = padding;
                for chunk in 0..CHUNKS {
                    let index = chunk_lane(compact, NARROW, WIDE, chunk);
                    let entry = load_halves(token, &tables[index]);
                    for half in 0..HALVES {
                        acc[half] = or(token, acc[half], entry[half]);
                    }
                }
                for half in acc {
                    bytes = add_byte_popcounts(token, bytes, half);
                }
            }
            // SAFETY: the token proves AVX2.
            *set_bits = unsafe {
                let sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
                _mm256_add_epi64(*set_bits, sums)
            };
        }
    }
}
