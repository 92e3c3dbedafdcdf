//! The AVX-512 counting loop: the preparation (with BMI2 `pext`) and the count compiled
//! with AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and POPCNT. A block's lane is one
//! 512-bit vector: the chunk tables of an item are combined by OR three at a time
//! (`vpternlogq`), and the conflicts are counted with the native vector popcount
//! (`vpopcntq`). Every `unsafe` block relies on the [`Avx512Popcnt`] token
//! (`crate::cpu`), which only `Avx512::popcnt` makes, after finding those
//! features.

#![allow(
    clippy::inline_always,
    reason = "the helpers must inline into the count compiled with the AVX-512 features"
)]

use std::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_load_si512, _mm512_loadu_si512,
    _mm512_mask_add_epi8, _mm512_maskz_compress_epi64, _mm512_or_si512, _mm512_popcnt_epi64,
    _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_set1_epi8, _mm512_setzero_si512,
    _mm512_storeu_si512, _mm512_ternarylogic_epi64, _mm512_testn_epi64_mask, _pext_u64,
};

use super::blocks::FILTER_SLACK;
use super::blocks::{BlockInfo, BlockTables, FilteredItems, Lane, Prepared};
use super::chunks::{match_layout, ChunkLayout, ChunkShifts};
use super::split::{finish_partition, partition_by_mask, Parent, SplitOps};
use super::walk::BlockClock;
use super::{PairCounts, CLASS_COUNT};
use crate::cpu::x86_64::Avx512Popcnt;

/// The `vpternlogq` truth table of `a | b | c`.
const OR3: i32 = 0xFE;

/// Prepares the blocks of `stored` (at most `2^30` patterns) for items like `sample`;
/// `token` proves the features.
pub(super) fn prepare(
    token: Avx512Popcnt,
    stored: &mut [u64],
    sample: &[u64],
    prepared: &mut Prepared,
) {
    // SAFETY: `token` proves AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and POPCNT
    // (`Avx512::popcnt`), the features `prepare_with_features` is compiled
    // with.
    unsafe { prepare_with_features(token, stored, sample, prepared) }
}

/// The filter of this path ([`filter`]) for the tests; `token` proves the features.
#[cfg(test)]
pub(super) fn filter_items(
    token: Avx512Popcnt,
    source: &[u64],
    mask: u64,
    out: &mut [u64],
) -> Option<usize> {
    // SAFETY: `token` proves the features `filter` is compiled with.
    unsafe { filter(token, source, mask, out) }
}

/// Moves the entries of `values` with no bit of `mask` to the front, with `spare`
/// (see [`partition`]), and gives their number; `token` proves the features.
pub(super) fn keep_without(
    token: Avx512Popcnt,
    values: &mut [u64],
    spare: &mut [u64],
    mask: u64,
) -> usize {
    // SAFETY: `token` proves AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and POPCNT
    // (`Avx512::popcnt`), the features `partition` is compiled with.
    unsafe { partition(token, values, spare, mask, false) }
}

/// Counts the disjoint pairs of the tagged `items` (at most `2^30`; sorted by class on
/// the way) and the prepared blocks; `token` proves the features.
pub(super) fn count(
    token: Avx512Popcnt,
    items: &mut [u64],
    prepared: &mut Prepared,
    clock: &mut impl BlockClock,
) -> PairCounts {
    // SAFETY: `token` proves AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and POPCNT
    // (`Avx512::popcnt`), the features `count_with_features` is compiled
    // with.
    unsafe { count_with_features(token, items, prepared, clock) }
}

/// The preparation, with hardware `pext`, compiled with the features.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn prepare_with_features(
    token: Avx512Popcnt,
    stored: &mut [u64],
    sample: &[u64],
    prepared: &mut Prepared,
) {
    prepared.prepare_stored(stored, sample, &Ops(token));
}

/// One split of the preparation ([`Prepared::split`]), compiled with the features.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn split_with_features(
    token: Avx512Popcnt,
    prepared: &mut Prepared,
    part: &mut [u64],
    spare: &mut [u64],
    samples: &mut [u64],
    parent: Parent<'_>,
) -> usize {
    prepared.split(part, spare, samples, parent, &Ops(token))
}

/// The splits' bit operations on this path: `pext`, [`partition`], [`bit_counts`], and
/// the recursion through [`split_with_features`].
pub(super) struct Ops(pub(super) Avx512Popcnt);

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
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn count_with_features(
    token: Avx512Popcnt,
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
fn pext(_: Avx512Popcnt, value: u64, mask: u64) -> u64 {
    // SAFETY: the token proves BMI2.
    unsafe { _pext_u64(value, mask) }
}

/// The lane as one vector.
#[inline(always)]
fn load(_: Avx512Popcnt, lane: &Lane) -> __m512i {
    // SAFETY: the token proves AVX-512F; a `Lane` is 64 readable bytes aligned to 64
    // bytes, so this is an aligned load inside it.
    unsafe { _mm512_load_si512(lane.0.as_ptr().cast()) }
}

/// `a | b | c`.
#[inline(always)]
fn or3(_: Avx512Popcnt, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_ternarylogic_epi64::<OR3>(a, b, c) }
}

/// `a | b`.
#[inline(always)]
fn or(_: Avx512Popcnt, a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_or_si512(a, b) }
}

/// `sums` plus the set bits of each 64-bit lane of `value`.
#[inline(always)]
fn add_popcounts(_: Avx512Popcnt, sums: __m512i, value: __m512i) -> __m512i {
    // SAFETY: the token proves AVX-512F and AVX-512VPOPCNTDQ.
    unsafe { _mm512_add_epi64(sums, _mm512_popcnt_epi64(value)) }
}

/// Counts every selected block against the items that share none of its common bits
/// ([`Prepared::walk`]), building each block's chunk tables in `table_buffer` when it
/// first has items.
#[inline(always)]
fn count_blocks(
    token: Avx512Popcnt,
    prepared: &Prepared,
    items: &[u64],
    class_ends: [usize; CLASS_COUNT],
    table_buffer: &mut BlockTables,
    filtered: &mut FilteredItems,
    clock: &mut impl BlockClock,
) -> PairCounts {
    // SAFETY: the token proves AVX-512F.
    let mut set_bits = [unsafe { _mm512_setzero_si512() }; CLASS_COUNT];
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
            unsafe { count_block(token, block, tables, visiting, &mut set_bits[class]) }
        },
    );
    if prepared.classed {
        counts.per_class = by_stored_class;
        return counts;
    }
    // `per_class` holds the evaluated slots so far (below 2^61); the conflicts are some
    // of them, each lane's sum below 2^61 too.
    for (count, conflicts) in counts.per_class.iter_mut().zip(set_bits) {
        // SAFETY: the token proves AVX-512F.
        let conflicts = unsafe { _mm512_reduce_add_epi64(conflicts) };
        *count -= conflicts.cast_unsigned();
    }
    counts
}

/// [`BlockTables::build`] compiled with the features, a lane a vector OR.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn build_tables(
    token: Avx512Popcnt,
    tables: &mut BlockTables,
    prepared: &Prepared,
    block: &BlockInfo,
) {
    tables.build(prepared, block, |without, with, slice| {
        let slice = load(token, &slice);
        for (to, from) in with.iter_mut().zip(without) {
            store_eight(token, &mut to.0, or(token, load(token, from), slice));
        }
    });
}

/// [`super::walk::filter_into`] with 512-bit vectors: eight items tested at once
/// (`vptestnmq`), the kept ones packed (`vpcompressq`) and stored whole (the slack
/// takes the rest).
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn filter(token: Avx512Popcnt, source: &[u64], mask: u64, out: &mut [u64]) -> Option<usize> {
    let cap = out.len().checked_sub(FILTER_SLACK)?;
    let masks = splat(token, mask);
    let mut len = 0;
    let mut groups = source.chunks_exact(8);
    for group in &mut groups {
        if len > cap {
            return None;
        }
        let values = load_eight(token, group);
        let keep = untouched(token, values, masks);
        store_eight(token, &mut out[len..len + 8], compress(token, keep, values));
        len += keep.count_ones() as usize;
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

/// [`super::split::partition_by_mask`] with 512-bit vectors: eight entries tested at
/// once, the kept ones packed (`vpcompressq`) to the front of `values`, the others to
/// `spare`, then copied back after them. Falls back to the portable partition when
/// `spare` is shorter than `values` and [`FILTER_SLACK`].
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn partition(
    token: Avx512Popcnt,
    values: &mut [u64],
    spare: &mut [u64],
    mask: u64,
    set: bool,
) -> usize {
    let len = values.len();
    if spare.len() < len + FILTER_SLACK {
        return partition_by_mask(values, spare, mask, set);
    }
    let masks = splat(token, mask);
    let (mut front, mut back, mut read) = (0, 0, 0);
    while read + 8 <= len {
        let eight = load_eight(token, &values[read..read + 8]);
        let untouched = untouched(token, eight, masks);
        let keep = if set { !untouched } else { untouched };
        // `front <= read`: the packed store overwrites only entries already read.
        store_eight(
            token,
            &mut values[front..front + 8],
            compress(token, keep, eight),
        );
        store_eight(
            token,
            &mut spare[back..back + 8],
            compress(token, !keep, eight),
        );
        let kept = keep.count_ones() as usize;
        front += kept;
        back += 8 - kept;
        read += 8;
    }
    finish_partition(values, spare, (mask, set), (front, back, read))
}

/// [`super::split::bit_counts`] with 512-bit vectors: each pattern adds 1 to the byte
/// of each of its bits (a masked byte add, `vpaddb` under a 64-bit mask), and the bytes
/// are added up before they can overflow.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn bit_counts(token: Avx512Popcnt, patterns: &[u64], step: usize, bits: u64) -> [u64; 64] {
    let mut totals = [0u64; 64];
    let zero = splat(token, 0);
    let mut bytes = zero;
    let mut pending = 0;
    for &pattern in patterns.iter().step_by(step) {
        bytes = add_one_to_bytes(token, bytes, pattern & bits);
        pending += 1;
        if pending == u8::MAX {
            add_bytes(token, bytes, &mut totals);
            (bytes, pending) = (zero, 0);
        }
    }
    add_bytes(token, bytes, &mut totals);
    totals
}

/// `bytes` with 1 added to byte `b` for each bit `b` of `which`.
#[inline(always)]
fn add_one_to_bytes(_: Avx512Popcnt, bytes: __m512i, which: u64) -> __m512i {
    // SAFETY: the token proves AVX-512F and AVX-512BW.
    unsafe { _mm512_mask_add_epi8(bytes, which, bytes, _mm512_set1_epi8(1)) }
}

/// Adds the 64 bytes of `bytes` to `totals`.
#[inline(always)]
fn add_bytes(token: Avx512Popcnt, bytes: __m512i, totals: &mut [u64; 64]) {
    let mut lanes = [0u64; 8];
    store_eight(token, &mut lanes, bytes);
    for (byte, total) in lanes.iter().flat_map(|lane| lane.to_le_bytes()).zip(totals) {
        *total += u64::from(byte);
    }
}

/// `value` in every 64-bit lane.
#[inline(always)]
fn splat(_: Avx512Popcnt, value: u64) -> __m512i {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_set1_epi64(value.cast_signed()) }
}

/// Eight items as one vector.
#[inline(always)]
fn load_eight(_: Avx512Popcnt, eight: &[u64]) -> __m512i {
    assert_eq!(eight.len(), 8);
    // SAFETY: the token proves AVX-512F; `eight` is 64 readable bytes (unaligned load).
    unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) }
}

/// Stores a vector into eight items.
#[inline(always)]
fn store_eight(_: Avx512Popcnt, eight: &mut [u64], value: __m512i) {
    assert_eq!(eight.len(), 8);
    // SAFETY: the token proves AVX-512F; `eight` is 64 writable bytes (unaligned store).
    unsafe { _mm512_storeu_si512(eight.as_mut_ptr().cast(), value) }
}

/// The lanes of `values` with no bit of `masks`.
#[inline(always)]
fn untouched(_: Avx512Popcnt, values: __m512i, masks: __m512i) -> u8 {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_testn_epi64_mask(values, masks) }
}

/// The lanes of `values` selected by `keep`, packed to the front.
#[inline(always)]
fn compress(_: Avx512Popcnt, keep: u8, values: __m512i) -> __m512i {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_maskz_compress_epi64(keep, values) }
}

/// Counts `block` with its chunk tables `tables` against `items`: the conflicts go to
/// `set_bits` (in 64-bit lanes).
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn count_block(
    token: Avx512Popcnt,
    block: &BlockInfo,
    tables: &[Lane],
    items: &[u64],
    set_bits: &mut __m512i,
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
        token: Avx512Popcnt,
        items: &[u64],
        set_bits: &mut __m512i,
    ) {
        let lanes = self.lanes::<CHUNKS, WIDE, NARROW>(token);
        let mut sums = *set_bits;
        for &item in items {
            sums = add_popcounts(token, sums, lanes.lane::<CHUNKS, WIDE, NARROW>(token, item));
        }
        *set_bits = sums;
    }

    /// The block's tables sliced to the layout, with what every item's lookups share:
    /// made once per block, before its items' loop (the chunk shifts are hidden from
    /// the optimiser, so made per item they would be stored and loaded per item).
    #[inline(always)]
    fn lanes<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx512Popcnt,
    ) -> BlockLanes<'_> {
        let lanes = ChunkLayout {
            chunks: CHUNKS,
            wide: WIDE,
            narrow: NARROW,
        }
        .lanes();
        BlockLanes {
            tables: &self.tables[..lanes],
            varying: self.block.varying,
            padding: load(token, &self.block.padding),
            shifts: ChunkShifts::new(NARROW, WIDE),
        }
    }
}

/// A block's chunk tables ready for its items' lookups ([`Pass::lanes`]).
struct BlockLanes<'a> {
    /// The tables, as many lanes as the layout has.
    tables: &'a [Lane],
    /// The block's varying bits, which `pext` compacts an item to.
    varying: u64,
    /// The padding slots, the lane of a layout with no chunks.
    padding: __m512i,
    /// The chunks' shifts.
    shifts: ChunkShifts,
}

impl BlockLanes<'_> {
    /// The lane of `item` against the block: its chunk tables' entries `OR`ed three at
    /// a time into the first one, whose entries hold the padding slots (a set slot is
    /// a conflict).
    #[inline(always)]
    fn lane<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx512Popcnt,
        item: u64,
    ) -> __m512i {
        if CHUNKS == 0 {
            return self.padding;
        }
        let compact = pext(token, item, self.varying);
        let entry = |chunk: usize| {
            load(
                token,
                &self.tables[self.shifts.lane(compact, NARROW, WIDE, chunk)],
            )
        };
        let mut acc = entry(0);
        let mut chunk = 1;
        while chunk + 2 <= CHUNKS {
            acc = or3(token, acc, entry(chunk), entry(chunk + 1));
            chunk += 2;
        }
        if chunk < CHUNKS {
            acc = or(token, acc, entry(chunk));
        }
        acc
    }
}

/// Counts `block` of a classed stored side ([`super::classes`]) with its chunk tables
/// `tables` against `items`: the disjoint pairs of each stored class go to `by_class`.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,bmi2,popcnt")]
fn count_block_by_class(
    token: Avx512Popcnt,
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
fn and(_: Avx512Popcnt, a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the token proves AVX-512F.
    unsafe { _mm512_and_si512(a, b) }
}

impl Pass<'_> {
    /// [`Pass::run`] on a block of a classed stored side: each item's lane counted
    /// under the slot mask of each class with positions. Gives the conflicts of each
    /// class.
    #[inline(always)]
    fn run_by_class<const CHUNKS: usize, const WIDE: usize, const NARROW: usize>(
        &self,
        token: Avx512Popcnt,
        items: &[u64],
    ) -> [u64; CLASS_COUNT] {
        let zero = splat(token, 0);
        let mut present = [(0usize, zero); CLASS_COUNT];
        let mut classes = 0;
        for class in self.block.classes.with_positions() {
            present[classes] = (
                class,
                load(token, &Lane(self.block.classes.slot_mask(class))),
            );
            classes += 1;
        }
        let present = &present[..classes];
        let lanes = self.lanes::<CHUNKS, WIDE, NARROW>(token);
        let mut sums = [zero; CLASS_COUNT];
        for &item in items {
            let lane = lanes.lane::<CHUNKS, WIDE, NARROW>(token, item);
            for (sum, &(_, mask)) in sums.iter_mut().zip(present) {
                *sum = add_popcounts(token, *sum, and(token, lane, mask));
            }
        }
        let mut conflicts = [0u64; CLASS_COUNT];
        for (&sum, &(class, _)) in sums.iter().zip(present) {
            // SAFETY: the token proves AVX-512F.
            conflicts[class] = unsafe { _mm512_reduce_add_epi64(sum) }.cast_unsigned();
        }
        conflicts
    }
}
