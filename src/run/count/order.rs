//! The order in which a pass starts its tasks: every task once, spread evenly over the
//! list instead of front to back.
//!
//! An engine's units are listed by how they are built, and neighbours in that list
//! cost alike: an odd board's join lists its centre units first and then its arms
//! units row by row, each segment with its own cost. Run front to back, a run's early
//! rate says little about its late one (the progress bar's ETA ran early by half at
//! n = 19), and a segment of heavy units at the end leaves threads idle. Started in a
//! spread order instead, every stretch of the run is a fair sample of the whole list:
//! the rate is steady from the first tasks on, and the last tasks are of average cost.
//!
//! Neighbours also share what is in the processor's caches (a join unit's neighbours
//! read the same table cells), and taking them one by one from all over the list cost
//! 6% more CPU at n = 19. So the list is cut into [`SpreadBlocks`] of up to
//! [`MAX_BLOCK`] neighbours, and it is the blocks that are spread; a worker runs a
//! block's tasks in turn.
//!
//! The order is a Weyl sequence: position `p` runs the block `p * stride mod len`, with
//! `stride` the integer nearest `len` times the golden ratio's fraction (0.618...) that
//! is coprime with `len`, so that the map is a bijection; successive positions land
//! far apart and any run of positions covers the list about evenly. It needs no
//! memory and no knowledge of the tasks' costs; which task a record names does not
//! change, so checkpoints, shards and merges are as before.

/// The most neighbouring tasks run in turn by one worker.
pub(crate) const MAX_BLOCK: usize = 64;

/// The fewest blocks a list is cut into, where it has that many tasks: enough for an
/// even spread.
const MIN_BLOCKS: usize = 1024;

/// A list of tasks cut into blocks of neighbours, the blocks in [`SpreadOrder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SpreadBlocks {
    /// The number of tasks.
    tasks: usize,
    /// The tasks of a block (the last one may have fewer).
    size: usize,
    /// The order of the blocks.
    order: SpreadOrder,
}

impl SpreadBlocks {
    /// The blocks of `tasks` tasks: at most [`MAX_BLOCK`] tasks each, and at least
    /// [`MIN_BLOCKS`] blocks where there are that many tasks.
    pub(crate) fn new(tasks: usize) -> SpreadBlocks {
        let size = (tasks / MIN_BLOCKS).clamp(1, MAX_BLOCK);
        SpreadBlocks {
            tasks,
            size,
            order: SpreadOrder::new(tasks.div_ceil(size)),
        }
    }

    /// The number of blocks.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// The tasks of the block run at `position` (below [`SpreadBlocks::len`]).
    pub(crate) fn at(&self, position: usize) -> std::ops::Range<usize> {
        let first = self.order.at(position) * self.size;
        first..(first + self.size).min(self.tasks)
    }
}

/// The golden ratio's fraction, `(sqrt(5) - 1) / 2`, as a 64-bit binary fraction.
const GOLDEN_FRACTION: u128 = 0x9e37_79b9_7f4a_7c15;

/// A bijection of `0..len` onto itself that spreads successive positions evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SpreadOrder {
    /// The number of tasks.
    len: usize,
    /// The step between successive positions, coprime with `len` (1 for a list of at
    /// most two).
    stride: usize,
}

impl SpreadOrder {
    /// The spread order of `len` tasks.
    pub(crate) fn new(len: usize) -> SpreadOrder {
        if len <= 2 {
            return SpreadOrder { len, stride: 1 };
        }
        // The nearest integer to len * 0.618..., then the nearest coprime to len; one
        // is found within a few steps (len - 1 is always coprime with len).
        let near =
            usize::try_from((len as u128 * GOLDEN_FRACTION + (1 << 63)) >> 64).expect("below len");
        let near = near.clamp(1, len - 1);
        let stride = (0..len)
            .flat_map(|d| [near.checked_sub(d), near.checked_add(d)])
            .flatten()
            .find(|&s| (1..len).contains(&s) && gcd(s, len) == 1)
            .expect("len - 1 is coprime with len");
        SpreadOrder { len, stride }
    }

    /// The number of tasks.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The task started at `position` (below [`SpreadOrder::len`]).
    pub(crate) fn at(&self, position: usize) -> usize {
        debug_assert!(position < self.len, "position {position} of {}", self.len);
        let product = position as u128 * self.stride as u128 % self.len as u128;
        usize::try_from(product).expect("below len")
    }
}

/// The greatest common divisor of `a` and `b`.
fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_starts_once() {
        for len in 0..600 {
            let order = SpreadOrder::new(len);
            let mut seen = vec![false; len];
            for position in 0..len {
                let task = order.at(position);
                assert!(!seen[task], "len {len}: task {task} twice");
                seen[task] = true;
            }
        }
    }

    #[test]
    fn blocks_hold_every_task_once() {
        for tasks in (0..3000).chain([65_535, 65_536, 65_537, 206_763]) {
            let blocks = SpreadBlocks::new(tasks);
            assert!(blocks.size <= MAX_BLOCK);
            assert!(blocks.len() >= tasks.min(MIN_BLOCKS), "{tasks} tasks");
            let mut seen = vec![false; tasks];
            for position in 0..blocks.len() {
                let block = blocks.at(position);
                assert!(!block.is_empty() && block.len() <= blocks.size);
                for task in block {
                    assert!(!seen[task], "{tasks} tasks: task {task} twice");
                    seen[task] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "{tasks} tasks: one left out");
        }
    }

    #[test]
    fn lists_too_long_for_a_test_to_walk_still_map_one_to_one() {
        // Around 2^31 (the join's most units) and near usize's top: the stride is
        // coprime with the length, and positions map inside the list.
        for len in [
            (1usize << 31) - 1,
            1 << 31,
            3 * 5 * 7 * 11 * 13 * 17 * 19 * 23,
            usize::MAX,
        ] {
            let order = SpreadOrder::new(len);
            assert_eq!(gcd(order.stride, len), 1, "len {len}");
            for position in [0, 1, len / 2, len - 1] {
                assert!(order.at(position) < len);
            }
        }
    }

    #[test]
    fn any_stretch_of_positions_samples_the_list_evenly() {
        // A list of ten equal segments: every stretch of 100 positions takes 10 from
        // each, give or take 2.
        let len = 10_000;
        let order = SpreadOrder::new(len);
        for start in (0..len - 100).step_by(977) {
            let mut per_segment = [0; 10];
            for position in start..start + 100 {
                per_segment[order.at(position) / 1000] += 1;
            }
            assert!(
                per_segment.iter().all(|&k| (8..=12).contains(&k)),
                "positions {start}..{}: {per_segment:?}",
                start + 100
            );
        }
    }
}
