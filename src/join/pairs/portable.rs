//! The portable counting loop over prepared blocks (any architecture), with or
//! without the stored side's classes ([`super::classes`]).

use super::blocks::{BlockInfo, BlockTables, FilteredItems, Lane, Prepared};
use super::chunks::{chunk_lane, ChunkLayout};
use super::split::{partition_by_mask, portable_ops};
use super::walk::{filter_into, BlockClock};
use super::{PairCounts, CLASS_COUNT};
use crate::join::bits::extract_bits;

/// Prepares the blocks of `stored` (at most `2^30` patterns) for items like `sample`.
pub(super) fn prepare(stored: &mut [u64], sample: &[u64], prepared: &mut Prepared) {
    prepared.prepare_stored(stored, sample, &portable_ops(extract_bits));
}

/// Counts the disjoint pairs of the tagged `items` (at most `2^30`; sorted by class on
/// the way) and the prepared blocks.
pub(super) fn count(
    items: &mut [u64],
    prepared: &mut Prepared,
    clock: &mut impl BlockClock,
) -> PairCounts {
    let class_ends = prepared.sort_classes(items, partition_by_mask);
    let mut tables = std::mem::take(&mut prepared.tables);
    let mut filtered = std::mem::take(&mut prepared.filtered);
    let counts = count_blocks(
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

/// Counts every selected block against the items that share none of its common bits
/// ([`Prepared::walk`]), building each block's chunk tables in `table_buffer` when it
/// first has items.
fn count_blocks(
    prepared: &Prepared,
    items: &[u64],
    class_ends: [usize; CLASS_COUNT],
    table_buffer: &mut BlockTables,
    filtered: &mut FilteredItems,
    clock: &mut impl BlockClock,
) -> PairCounts {
    let mut conflicts = [0u64; CLASS_COUNT];
    let mut by_stored_class = [0u64; CLASS_COUNT];
    let buffers = (filtered, table_buffer);
    let mut counts = prepared.walk_with_tables(
        items,
        class_ends,
        buffers,
        (
            filter_into,
            |tables: &mut BlockTables, prepared: &Prepared, block: &BlockInfo| {
                tables.build(prepared, block, |without, with, slice| {
                    for (to, from) in with.iter_mut().zip(without) {
                        *to = from.or(slice);
                    }
                });
            },
        ),
        clock,
        |block, tables, class, visiting| {
            if prepared.classed {
                // The slot masks of the classes with positions.
                let mut masks = [(0, Lane::default()); CLASS_COUNT];
                let mut classes = 0;
                for class in block.classes.with_positions() {
                    masks[classes] = (class, Lane(block.classes.slot_mask(class)));
                    classes += 1;
                }
                let mut by_class = [0u64; CLASS_COUNT];
                for &item in visiting {
                    let lane = item_lane(block, tables, item);
                    for &(class, mask) in &masks[..classes] {
                        by_class[class] += u64::from(lane.and(mask).count_ones());
                    }
                }
                block
                    .classes
                    .add_disjoint(visiting, &by_class, &mut by_stored_class);
                return;
            }
            for &item in visiting {
                conflicts[class] += u64::from(item_lane(block, tables, item).count_ones());
            }
        },
    );
    if prepared.classed {
        counts.per_class = by_stored_class;
        return counts;
    }
    // The conflicts are some of the evaluated slots.
    for (count, conflicts) in counts.per_class.iter_mut().zip(conflicts) {
        *count -= conflicts;
    }
    counts
}

/// The lane of `item` against `block` with its chunk tables `tables`: the OR of its
/// entries (a set slot is a conflict).
#[inline]
fn item_lane(block: &BlockInfo, tables: &[Lane], item: u64) -> Lane {
    let compact = extract_bits(item, block.varying);
    let ChunkLayout {
        chunks,
        wide,
        narrow,
    } = block.layout;
    // The first chunk's entries hold the padding slots.
    let mut acc: Lane = if chunks == 0 {
        block.padding
    } else {
        tables[chunk_lane(compact, narrow, wide, 0)]
    };
    for chunk in 1..chunks {
        acc = acc.or(tables[chunk_lane(compact, narrow, wide, chunk)]);
    }
    acc
}
