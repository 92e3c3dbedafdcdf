//! Item tiles: a count with many items walks the blocks once per tile of them, so that
//! the survivor lists its walk filters stay in the cache (see the parent module).
//!
//! A walk filters each split's survivors from the list of the split around it, and each
//! block's from its split's list: every list is read several times. With tens of
//! millions of items (n >= 24) the lists outgrow the L3 cache and those reads come from
//! memory: on a Zen 4 a filter takes 0.16 ns an item from the cache and 0.40 to 0.55 ns
//! from memory, and the filter was 40% of a shard of n = 26. A tile of about a million
//! items keeps its lists (at most one and a half times its length) in the cache, at the
//! price of building each block's chunk tables once per tile instead of once; the
//! preparation chooses each block's chunk layout for the items of one tile
//! ([`Prepared::sample_tiles`](super::blocks::Prepared)), so the blocks that a tile's
//! few items meet take small tables.
//!
//! [`tile_count`] decides how many tiles a count's items make; [`tile_ranges`] cuts
//! them; [`tile_class_ends`] gives a tile the ends of its classes.

use super::CLASS_COUNT;

/// The fewest items of a tile: about 8 MB of items and 12 MB of lists, inside an L3.
pub(super) const TILE_ITEMS: usize = 1 << 20;

/// The fewest items per block and tile: below this, building every block's tables once
/// more per tile costs more than the reads from memory it saves (a unit of n = 28 with
/// 25 million items and 199,000 blocks is counted whole; one with 111 million items
/// and 55,000 blocks took 0.909 of the time in 20 tiles that it took in 8).
pub(super) const TILE_ITEMS_PER_BLOCK: usize = 100;

/// The number of tiles for `items` items against `blocks` blocks: one per
/// [`TILE_ITEMS`] whole, but no more than leave [`TILE_ITEMS_PER_BLOCK`] items per
/// block in each; at least 1.
pub(super) fn tile_count(items: usize, blocks: usize) -> usize {
    let by_size = items / TILE_ITEMS;
    let by_blocks = items / blocks.max(1).saturating_mul(TILE_ITEMS_PER_BLOCK);
    by_size.min(by_blocks).max(1)
}

/// The tile length for `items` items in `tiles` tiles (`tiles >= 1`): the items are
/// cut into tiles as even as whole items allow, none longer than this.
pub(super) fn tile_len(items: usize, tiles: usize) -> usize {
    items.div_ceil(tiles.max(1))
}

/// The ranges of the tiles of `len` items, each `tile` long (`0`: one tile) but the
/// last; one empty range for no items.
pub(super) fn tile_ranges(len: usize, tile: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let tile = if tile == 0 { len.max(1) } else { tile };
    let tiles = len.div_ceil(tile).max(1);
    (0..tiles).map(move |index| (index * tile).min(len)..((index + 1) * tile).min(len))
}

/// The class ends of the items `range` of a list sorted by class whose classes end at
/// `class_ends`, counted from the start of the range.
pub(super) fn tile_class_ends(
    class_ends: [usize; CLASS_COUNT],
    range: &std::ops::Range<usize>,
) -> [usize; CLASS_COUNT] {
    class_ends.map(|end| end.clamp(range.start, range.end) - range.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_come_from_the_items_and_the_blocks() {
        // Fewer than two tiles' worth: one.
        assert_eq!(tile_count(0, 0), 1);
        assert_eq!(tile_count(TILE_ITEMS, 1), 1);
        assert_eq!(tile_count(2 * TILE_ITEMS - 1, 1), 1);
        // A shard of n = 26: 25,302,978 items against 2,964 blocks.
        assert_eq!(tile_count(25_302_978, 2_964), 24);
        // A heavy unit of n = 28: 110,856,395 items against 54,721 blocks, limited by
        // the blocks.
        assert_eq!(tile_count(110_856_395, 54_721), 20);
        // The unit of n = 28 above: too many blocks for its items to pay.
        assert_eq!(tile_count(24_897_548, 199_117), 1);
        assert_eq!(tile_count(usize::MAX, usize::MAX), 1);
    }

    #[test]
    fn the_ranges_cover_the_items_once_in_order() {
        for (len, tiles) in [(0, 1), (1, 1), (10, 3), (10, 10), (1_000, 7), (999, 1)] {
            let tile = tile_len(len, tiles);
            let ranges: Vec<_> = tile_ranges(len, tile).collect();
            assert!(ranges.len() <= tiles.max(1), "{len} in {tiles}");
            let mut next = 0;
            for range in &ranges {
                assert_eq!(range.start, next);
                assert!(range.len() <= tile.max(1));
                next = range.end;
            }
            assert_eq!(next, len);
        }
        let one_tile = |len| tile_ranges(len, 0).map(|range| (range.start, range.end));
        assert_eq!(one_tile(5).collect::<Vec<_>>(), [(0, 5)]);
        assert_eq!(one_tile(0).collect::<Vec<_>>(), [(0, 0)]);
    }

    #[test]
    fn a_tile_has_the_part_of_each_class_it_holds() {
        let ends = [3, 3, 8, 12];
        assert_eq!(tile_class_ends(ends, &(0..4)), [3, 3, 4, 4]);
        assert_eq!(tile_class_ends(ends, &(4..9)), [0, 0, 4, 5]);
        assert_eq!(tile_class_ends(ends, &(9..12)), [0, 0, 0, 3]);
        assert_eq!(tile_class_ends(ends, &(0..12)), ends);
    }
}
