//! The portable counting loop over prepared blocks (any architecture).

use super::blocks::{BlockTables, Lane, Prepared};
use super::chunks::chunk_lane;
use super::{PairCounts, BLOCK_SLOTS, CLASS_COUNT};
use crate::join::bits::{extract_bits, for_each_submask};

/// Prepares the blocks of `stored` (at most `2^30` patterns) for items like `sample`.
pub(super) fn prepare(stored: &[u64], sample: &[u64], prepared: &mut Prepared) {
    prepared.prepare_stored(stored, sample, extract_bits);
}

/// Groups the tagged `items` (at most `2^30`) for the prepared blocks.
pub(super) fn group(items: &[u64], prepared: &mut Prepared) {
    prepared.group(items, extract_bits);
}

/// Counts the disjoint pairs of the tagged `items` (at most `2^30`), grouped last
/// ([`group`]), and the prepared blocks.
pub(super) fn count_grouped(items: &[u64], prepared: &mut Prepared) -> PairCounts {
    let mut tables = std::mem::take(&mut prepared.tables);
    let counts = count_blocks(prepared, prepared.grouped_items(items), &mut tables);
    prepared.tables = tables;
    counts
}

/// Counts every block against its compatible item groups, building each block's chunk
/// tables in `table_buffer`.
fn count_blocks(prepared: &Prepared, items: &[u64], table_buffer: &mut BlockTables) -> PairCounts {
    let mut counts = PairCounts::default();
    for block in &prepared.blocks {
        let tables = table_buffer.build(prepared, block);
        let free_keys = !block.common_key & prepared.key_mask;
        for_each_submask(u64::from(free_keys), |key| {
            let key = u32::try_from(key).expect("a submask of a u32");
            for class in 0..CLASS_COUNT {
                let range = prepared.group_range(key, class);
                let mut conflicts = 0u64;
                for &item in &items[range.clone()] {
                    let compact = extract_bits(item, block.varying);
                    let mut acc: Lane = block.padding;
                    for chunk in 0..block.layout.chunks {
                        acc = acc.or(tables[chunk_lane(compact, block.layout.wide, chunk)]);
                    }
                    conflicts += u64::from(acc.count_ones());
                }
                // At most 2^30 items and 2^30 + BLOCK_SLOTS slots: below 2^61.
                let evaluated = (range.len() * BLOCK_SLOTS) as u64;
                counts.per_class[class] += evaluated - conflicts;
                counts.pairs += evaluated;
            }
        });
    }
    counts
}
