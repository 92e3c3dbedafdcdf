//! A count's walk over the blocks (see the parent module): the items each block meets,
//! filtered by the blocks' and the splits' common bits, in lists kept for a split's
//! blocks when they fit.

#![allow(
    clippy::inline_always,
    reason = "the walk must inline into the counts compiled with the vector features"
)]

use super::blocks::{
    grow_to, BlockInfo, BlockTables, FilteredItems, Lane, OpenList, Prepared, Split, FILTER_SLACK,
};
use super::tiles::{tile_class_ends, tile_ranges};
use super::{PairCounts, BLOCK_SLOTS, CLASS_COUNT, CLASS_SHIFT};

/// The items filtered at a time for a block: the filtered chunk stays in L1.
pub(super) const FILTER_CHUNK: usize = 1024;

impl FilteredItems {
    /// Makes room for the lists of up to `len` items and the filtered chunk, or
    /// [`crate::error::Error::OutOfMemory`].
    pub(super) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        use crate::join::alloc::reserve;
        let during = "reserving the pair counter's item lists";
        reserve(&mut self.lists, lists_len(len), during)?;
        reserve(&mut self.chunk, FILTER_CHUNK + FILTER_SLACK, during)
    }
}

/// What a walk tells of the blocks of a timing sample: the estimate's timing measures
/// the blocks' work apart from the rest (the class sort, the splits' filtering), which
/// a sample of the blocks does whole.
///
/// A few blocks cost far more than the rest: those that filter their items from a long
/// list (at n = 28, the top 1% of a unit's blocks took 24% to 35% of its block time).
/// A clock that [`BlockClock::samples`] has every block whose source list holds at
/// least one [`CERTAIN_SHARE`]th of the items counted for certain, besides the
/// selection, so that the selection is scaled up over the other blocks only.
pub(crate) trait BlockClock {
    /// Whether the walk is a timing sample (certain blocks counted, every block told).
    fn samples(&self) -> bool;
    /// Called before a block's work (its filtering, tables and count).
    fn start(&mut self);
    /// Called after it: whether it was counted for certain, and the slots it
    /// evaluated.
    fn stop(&mut self, block: CountedBlock);
    /// Called, when [`BlockClock::samples`], for each block passed without a count.
    fn pass(&mut self);
}

/// A counted block, as a walk tells its clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CountedBlock {
    /// Counted because its source list is long, not because it was selected.
    pub(crate) certain: bool,
    /// The slots it evaluated ([`BLOCK_SLOTS`] per item it met).
    pub(crate) slots: u64,
}

/// A block whose source list holds at least one `CERTAIN_SHARE`th of the items is
/// counted for certain in a timing sample (see [`BlockClock`]): in the five largest
/// of seven units of n = 28 whose blocks were all timed, they were 4 to 81 of 19,000 to
/// 96,000 blocks and 1% to 13% of the block time, and counting them cut the spread of
/// a 1,024-block sample's time over its offsets from 5%-24% to 5%-13%.
pub(crate) const CERTAIN_SHARE: usize = 64;

/// No clock (a count).
impl BlockClock for () {
    #[inline(always)]
    fn samples(&self) -> bool {
        false
    }

    #[inline(always)]
    fn start(&mut self) {}

    #[inline(always)]
    fn stop(&mut self, _: CountedBlock) {}

    #[inline(always)]
    fn pass(&mut self) {}
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
}

/// Copies the items of `source` with no bit of `mask` to the front of `out`, and gives
/// their number, or `None` when `out` has no room for them and [`FILTER_SLACK`] more
/// (then `out` holds some of them). Branch-free but for that bound.
#[inline(always)]
pub(super) fn filter_into(source: &[u64], mask: u64, out: &mut [u64]) -> Option<usize> {
    let cap = out.len().checked_sub(FILTER_SLACK)?;
    let mut len = 0;
    for &item in source {
        out[len.min(cap)] = item;
        len += usize::from(item & mask == 0);
        if len > cap {
            return None;
        }
    }
    Some(len)
}

impl Prepared {
    /// Sorts the tagged `items` (at most `2^30`) by class in place for a count, with
    /// `partition` any correct [`super::split::partition_by_mask`], and gives where each
    /// class ends.
    pub(crate) fn sort_classes(
        &mut self,
        items: &mut [u64],
        partition: impl Fn(&mut [u64], &mut [u64], u64, bool) -> usize,
    ) -> [usize; CLASS_COUNT] {
        let spare = &mut self.filtered.lists;
        grow_to(spare, items.len() + FILTER_SLACK);
        partition_classes(items, spare, &partition)
    }

    /// Spare room for `len` items and [`FILTER_SLACK`]: the item lists, free between
    /// counts (reserved for the longest item list).
    pub(super) fn spare_items(&mut self, len: usize) -> &mut [u64] {
        grow_to(&mut self.filtered.lists, len + FILTER_SLACK);
        &mut self.filtered.lists
    }

    /// Walks the selected blocks in order and gives `visit(block, class, items)` the
    /// items of each class that share no bit with the block's common bits, in chunks
    /// of at most [`FILTER_CHUNK`]. `items` (at most `2^30`) are sorted by class, class
    /// `c` ending at `class_ends[c]` ([`partition_classes`]). On entering a split, its
    /// survivors are filtered into a list of their own when they fit (the lists take
    /// at most one and a half times the items; the outer splits come first), and its
    /// blocks filter from that shorter list (also when a timing sample counts none of
    /// them: the splits are filtered whole; `clock` times each block counted). `filter`
    /// is [`filter_into`] or a faster equal.
    #[inline(always)]
    pub(super) fn walk(
        &self,
        items: &[u64],
        class_ends: [usize; CLASS_COUNT],
        filtered: &mut FilteredItems,
        filter: impl Fn(&[u64], u64, &mut [u64]) -> Option<usize>,
        clock: &mut impl BlockClock,
        mut visit: impl FnMut(usize, usize, &[u64]),
    ) {
        let FilteredItems { lists, open, chunk } = filtered;
        chunk.resize(FILTER_CHUNK + FILTER_SLACK, 0);
        open.clear();
        open.push(OpenList {
            end_block: usize::MAX,
            mask: 0,
            in_items: true,
            start: 0,
            class_ends,
        });
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
                let top = open.last().expect("the items are always open");
                if split.common & !top.mask != 0 {
                    open.extend(filter_list(items, lists, top, split, &filter));
                }
            }
            let certain = clock.samples() && {
                let top = open.last().expect("the items are always open");
                let source = top.class_ends[CLASS_COUNT - 1] - top.start;
                source.saturating_mul(CERTAIN_SHARE) >= items.len()
            };
            if !certain && !selection.counts(index) {
                if clock.samples() {
                    clock.pass();
                }
                continue;
            }
            clock.start();
            let top = open.last().expect("the items are always open");
            let source = if top.in_items { items } else { &lists[..] };
            let mut met = 0usize;
            for class in 0..CLASS_COUNT {
                let class_items = &source[top.class_range(class)];
                if block.common & !top.mask == 0 {
                    if !class_items.is_empty() {
                        met += class_items.len();
                        visit(index, class, class_items);
                    }
                    continue;
                }
                for piece in class_items.chunks(FILTER_CHUNK) {
                    let kept = filter(piece, block.common, chunk).expect("a chunk holds a piece");
                    if kept > 0 {
                        met += kept;
                        visit(index, class, &chunk[..kept]);
                    }
                }
            }
            clock.stop(CountedBlock {
                certain,
                slots: (met * BLOCK_SLOTS) as u64,
            });
        }
    }
}

impl Prepared {
    /// [`Prepared::walk`], once per item tile ([`super::tiles`]), with each block's chunk
    /// tables built in `tables` when the block first has items in the tile: gives
    /// `count(block, its tables, class, items)`, and returns the slots evaluated
    /// ([`BLOCK_SLOTS`] per item and block visited, per class and in all), from which
    /// the caller subtracts the conflicts it counts. The path's `filter` and `build`
    /// (which calls [`BlockTables::build`] compiled with its features) filter the items
    /// and build the tables.
    #[inline(always)]
    pub(super) fn walk_with_tables(
        &self,
        items: &[u64],
        class_ends: [usize; CLASS_COUNT],
        buffers: (&mut FilteredItems, &mut BlockTables),
        (filter, build): (
            impl Fn(&[u64], u64, &mut [u64]) -> Option<usize>,
            impl Fn(&mut BlockTables, &Prepared, &BlockInfo),
        ),
        clock: &mut impl BlockClock,
        mut count: impl FnMut(&BlockInfo, &[Lane], usize, &[u64]),
    ) -> PairCounts {
        let (filtered, tables) = buffers;
        let mut evaluated = PairCounts::default();
        for range in tile_ranges(items.len(), self.tile_len) {
            let tile_ends = tile_class_ends(class_ends, &range);
            let mut tables_of = usize::MAX;
            self.walk(
                &items[range],
                tile_ends,
                filtered,
                &filter,
                clock,
                |index, class, visiting| {
                    let block = &self.blocks[index];
                    if tables_of != index {
                        build(tables, self, block);
                        tables_of = index;
                    }
                    count(block, tables.lanes(), class, visiting);
                    // At most 2^30 items and 2^30 + BLOCK_SLOTS slots: below 2^61.
                    let slots = (visiting.len() * BLOCK_SLOTS) as u64;
                    evaluated.per_class[class] += slots;
                    evaluated.pairs += slots;
                },
            );
        }
        evaluated
    }
}

/// The length of the survivor lists for `items` items: one and a half times theirs,
/// and the filter's slack.
fn lists_len(items: usize) -> usize {
    items + items / 2 + FILTER_SLACK
}

/// Sorts the tagged `items` by class in place, with `spare` (as long) and `partition`,
/// and gives where each class ends. A pass sorts only what needs it: no class, or one,
/// on either side of it, takes none.
fn partition_classes(
    items: &mut [u64],
    spare: &mut [u64],
    partition: &impl Fn(&mut [u64], &mut [u64], u64, bool) -> usize,
) -> [usize; CLASS_COUNT] {
    // One bit per class present; `u64` shifts, so that the loop vectorizes (with `u8`
    // it ran one item at a time: 1.4% of n = 20's time).
    let present = items
        .iter()
        .fold(0u64, |present, &item| present | 1 << (item >> CLASS_SHIFT));
    let (low_classes, high_classes) = (present & 0b0011, present & 0b1100);
    let high = match (low_classes, high_classes) {
        (0, _) => 0,
        (_, 0) => items.len(),
        _ => partition(items, spare, 1 << (CLASS_SHIFT + 1), false),
    };
    let (low, upper) = items.split_at_mut(high);
    let low_bit = 1 << CLASS_SHIFT;
    let first = match low_classes {
        0b0011 => partition(low, spare, low_bit, false),
        0b0001 => high,
        _ => 0,
    };
    let third = high
        + match high_classes {
            0b1100 => partition(upper, spare, low_bit, false),
            0b0100 => upper.len(),
            _ => 0,
        };
    [first, high, third, items.len()]
}

/// The survivors of `split`, per class, from the innermost open list `from`, written
/// after it in `lists` with `filter`; or `None` when they do not fit in one and a half
/// times the items (`lists` grows to what they may need within that).
#[inline(always)]
fn filter_list(
    items: &[u64],
    lists: &mut Vec<u64>,
    from: &OpenList,
    split: &Split,
    filter: &impl Fn(&[u64], u64, &mut [u64]) -> Option<usize>,
) -> Option<OpenList> {
    let start = if from.in_items {
        0
    } else {
        from.class_ends[CLASS_COUNT - 1]
    };
    let source_len = from.class_ends[CLASS_COUNT - 1] - from.class_range(0).start;
    grow_to(
        lists,
        (start + source_len + FILTER_SLACK).min(lists_len(items.len())),
    );
    let mut class_ends = [start; CLASS_COUNT];
    let mut end = start;
    for (class, class_end) in class_ends.iter_mut().enumerate() {
        // The source lies before `start` (or in the items), the new list from `end` on.
        let (before, after) = lists.split_at_mut(end);
        let source = if from.in_items { items } else { before };
        end += filter(&source[from.class_range(class)], split.common, after)?;
        *class_end = end;
    }
    Some(OpenList {
        end_block: split.end_block,
        mask: split.common,
        in_items: false,
        start,
        class_ends,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::bits::extract_bits;
    use crate::join::pairs::split::{partition_by_mask, portable_ops};
    use crate::join::pairs::{random_patterns, tagged};

    /// `len` values over `bits` bits from a fixed seed, each bit set with probability
    /// 1/4.
    fn values(len: usize, bits: u32, seed: u64) -> Vec<u64> {
        random_patterns(len, bits, seed, |_| 4)
    }

    #[test]
    fn the_filter_keeps_the_items_without_the_mask_in_order_or_says_it_has_no_room() {
        let source = values(100, 10, 1);
        let want: Vec<u64> = source.iter().copied().filter(|&v| v & 0b101 == 0).collect();
        let mut out = vec![0; want.len() + FILTER_SLACK];
        assert_eq!(filter_into(&source, 0b101, &mut out), Some(want.len()));
        assert_eq!(&out[..want.len()], &want[..]);
        let mut short = vec![0; want.len() - 1 + FILTER_SLACK];
        assert_eq!(filter_into(&source, 0b101, &mut short), None);
        assert_eq!(filter_into(&source, 0, &mut []), None);
    }

    #[test]
    fn classes_are_sorted_in_place() {
        let items: Vec<u64> = values(1_000, 20, 2)
            .into_iter()
            .enumerate()
            .map(|(i, v)| tagged(v, (i * 7 + i / 3) % CLASS_COUNT))
            .collect();
        let mut sorted = items.clone();
        let ends = partition_classes(&mut sorted, &mut vec![0; 1_000], &partition_by_mask);
        let mut from = 0;
        for (class, &end) in ends.iter().enumerate() {
            assert!(sorted[from..end]
                .iter()
                .all(|&v| (v >> CLASS_SHIFT) as usize == class));
            let count = items
                .iter()
                .filter(|&&v| (v >> CLASS_SHIFT) as usize == class)
                .count();
            assert_eq!(end - from, count);
            from = end;
        }
    }

    /// A clock that counts its calls, as a timing sample's (`sampling`) or not.
    #[derive(Default)]
    struct CallCount {
        sampling: bool,
        starts: usize,
        stops: usize,
        certain: usize,
        passed: usize,
    }

    impl BlockClock for CallCount {
        fn samples(&self) -> bool {
            self.sampling
        }

        fn start(&mut self) {
            assert_eq!(self.starts, self.stops, "started twice");
            self.starts += 1;
        }

        fn stop(&mut self, block: CountedBlock) {
            assert!(self.sampling || !block.certain, "certain only in a sample");
            self.certain += usize::from(block.certain);
            self.stops += 1;
            assert_eq!(self.starts, self.stops, "stopped unstarted");
        }

        fn pass(&mut self) {
            assert!(self.sampling, "passes told only in a sample");
            self.passed += 1;
        }
    }

    /// For every selected block of `prepared` and every class, the items the walk gives
    /// against those that share no bit with the block's common bits; and the clock
    /// timed each selected block once. In a timing sample (`sampling`), the blocks
    /// counted for certain also get their items, and every block is counted or passed.
    fn walk_gives_the_right_items(prepared: &Prepared, items: &[u64], sampling: bool) {
        let mut sorted = items.to_vec();
        let ends = partition_classes(&mut sorted, &mut vec![0; items.len()], &partition_by_mask);
        let blocks = prepared.blocks.len();
        let mut seen: Vec<Vec<Vec<u64>>> = vec![vec![Vec::new(); CLASS_COUNT]; blocks];
        let mut filtered = FilteredItems::default();
        let mut clock = CallCount {
            sampling,
            ..CallCount::default()
        };
        prepared.walk(
            &sorted,
            ends,
            &mut filtered,
            filter_into,
            &mut clock,
            |block, class, given| {
                seen[block][class].extend_from_slice(given);
            },
        );
        let selected = (0..blocks)
            .filter(|&index| prepared.selection.counts(index))
            .count();
        if sampling {
            // The first block meets all the items: it is counted for certain.
            assert!(clock.certain >= 1);
            assert_eq!(clock.stops + clock.passed, blocks);
            assert!(clock.stops >= selected && clock.stops <= selected + clock.certain);
        } else {
            assert_eq!((clock.starts, clock.stops), (selected, selected));
        }
        for (index, block) in prepared.blocks.iter().enumerate() {
            // A block counted for certain though not selected gets its items too.
            let counted = prepared.selection.counts(index)
                || (sampling && seen[index].iter().any(|given| !given.is_empty()));
            for (class, given) in seen[index].iter_mut().enumerate() {
                let mut want: Vec<u64> = if counted {
                    items
                        .iter()
                        .copied()
                        .filter(|&v| (v >> CLASS_SHIFT) as usize == class)
                        .filter(|&v| v & block.common == 0)
                        .collect()
                } else {
                    Vec::new()
                };
                given.sort_unstable();
                want.sort_unstable();
                assert_eq!(*given, want, "block {index} class {class}");
            }
        }
    }

    #[test]
    fn the_walk_gives_each_block_the_items_it_must_meet() {
        for (stored_len, item_len, bits) in [(40_000usize, 30_000usize, 30u32), (6_000, 20_000, 40)]
        {
            let stored = values(stored_len, bits, 3);
            let items: Vec<u64> = values(item_len, bits, 4)
                .into_iter()
                .enumerate()
                .map(|(i, v)| tagged(v, i % CLASS_COUNT))
                .collect();
            let mut prepared = Prepared::default();
            prepared.prepare_stored(&mut stored.clone(), &items, &portable_ops(extract_bits));
            assert!(!prepared.splits.is_empty());
            walk_gives_the_right_items(&prepared, &items, false);
            for stride in [2, 5, 1000] {
                prepared.select_blocks(stride);
                walk_gives_the_right_items(&prepared, &items, false);
                walk_gives_the_right_items(&prepared, &items, true);
            }
            prepared.select_all_blocks();
        }
    }

    #[test]
    fn a_list_that_does_not_fit_is_not_kept() {
        let items: Vec<u64> = (0..100u64)
            .map(|i| tagged(i << 4, (i % 4) as usize))
            .collect();
        let mut sorted = items.clone();
        let ends = partition_classes(&mut sorted, &mut vec![0; 100], &partition_by_mask);
        let root = OpenList {
            end_block: usize::MAX,
            mask: 0,
            in_items: true,
            start: 0,
            class_ends: ends,
        };
        let split = Split {
            common: 0b1,
            first_block: 0,
            end_block: 2,
        };
        // Every item survives: 100 fit in the one and a half times 100 the lists may
        // take, and a list of them (100 more) after the first no longer does.
        let mut lists = Vec::new();
        let list = filter_list(&sorted, &mut lists, &root, &split, &filter_into).unwrap();
        assert_eq!(
            lists.len(),
            100 + FILTER_SLACK,
            "grown to what the list may need"
        );
        let inner = Split {
            common: 0b11,
            first_block: 0,
            end_block: 1,
        };
        assert!(filter_list(&sorted, &mut lists, &list, &inner, &filter_into).is_none());
        assert_eq!(lists.len(), lists_len(100));
        assert_eq!(list.class_ends, ends);
        assert_eq!(&lists[..100], &sorted[..]);
    }
}
