//! A unit timed for an estimate (on the thread's CPU clock), run in part when it is
//! long: its sides generated whole (timed, their lengths noted), its first stored
//! piece prepared, and every item counted against a sample of that piece's blocks:
//! every `k`-th, so that about [`TARGET_PAIRS`] pairs are counted, and at least
//! [`MIN_SAMPLED_BLOCKS`] blocks, and besides them every block whose items come from a
//! long list (counted for certain: see `join::pairs::BlockClock`). The blocks are timed
//! one by one, apart from the items' class sort and the splits' filtering, which a
//! sample does whole as a run does: the certain blocks' time is taken as it is, the
//! selected ones' scaled up by the other blocks over the selected ones, and the whole
//! by the number of stored pieces. A short unit is run whole (`k = 1`, one piece).
//!
//! The sample is of blocks, not of items: a sample of the items would shorten the
//! lists each block meets, and make each item dearer (the blocks' tables cost the same),
//! so the estimate would run high.

use super::compute::UnitScratch;
use super::list::UnitKind;
use super::sides;
use super::stored::StoredWalk;
use super::Tables;
use crate::engine::interface::TimedUnit;
use crate::join::halves::{generate, HalfCursor};
use crate::join::pairs::{
    count_sample, keep_without, prepare, prepare_classed, prepared_blocks, BlockClock, CountedBlock,
};
use crate::sampling::cpu_clock::CpuClock;

/// How much of a long unit a timing counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    /// The pairs (item x stored slot) to count.
    pub(crate) pairs: u64,
    /// The fewest blocks to count (when the piece has that many).
    pub(crate) min_blocks: usize,
}

/// The target in use: [`TARGET_PAIRS`] pairs and at least [`MIN_SAMPLED_BLOCKS`]
/// blocks.
pub(crate) const TARGET: Target = Target {
    pairs: TARGET_PAIRS,
    min_blocks: MIN_SAMPLED_BLOCKS,
};

/// The pairs (item x stored slot) a timed unit counts: about a second's work.
const TARGET_PAIRS: u64 = 20_000_000_000;

/// The fewest blocks a sample counts (when the piece has that many). A few blocks
/// cost much more than the rest (those that filter their items from a long list), so
/// a small sample misjudges a unit: at n = 28, counting 4 blocks of tens of thousands
/// put units at 0.44 to 1.51 times what 256 blocks said, and their pairs at up to 36
/// times fewer. With every block of seven units timed, the time of 4 blocks scaled up
/// was off by 1 to 7.5 times the true one (standard deviation over the sample's
/// offsets), of 1,024 blocks by up to 39%, and by up to 13% with the certain blocks
/// counted. 1,024 blocks cost a few seconds at most there, against a minute or more
/// for the unit's generation and filters.
const MIN_SAMPLED_BLOCKS: usize = 1024;

/// The measured, or scaled-up, time and work of unit `kind`, counting about
/// `target.pairs` pairs ([`TARGET`] in use), shared evenly by its groups, and at
/// least `target.min_blocks` blocks.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of counts and lengths is all it needs"
)]
pub(super) fn time(
    tables: &Tables,
    kind: UnitKind,
    scratch: &mut UnitScratch,
    target: Target,
) -> TimedUnit {
    let sides = sides::of(tables, kind);
    let (items_seconds, items_len, items_pieces) = time_items(tables, &sides, scratch);
    let mut unit = TimedUnit {
        seconds: items_seconds,
        work: 0.0,
        whole: true,
    };
    let groups = u64::try_from(sides.groups.len().max(1)).unwrap_or(u64::MAX);
    for group in &sides.groups {
        let stored = time_stored(tables, group, scratch);
        unit.seconds += stored.seconds;
        let first_len = scratch.stored.len();
        if first_len == 0 {
            continue;
        }
        // The group's items counted against every `step`-th block of its first stored
        // piece.
        let pairs = items_len as u64 * first_len as u64;
        let step = pairs.div_ceil((target.pairs / groups).max(1)).max(1);
        let step = usize::try_from(step).unwrap_or(usize::MAX);
        let step = Step {
            blocks: step,
            min_blocks: target.min_blocks,
        };
        let counted = time_counts(tables, &sides, group.item_guard, scratch, step);
        let pieces = stored.pieces as f64;
        // Items in one piece are generated once for the unit (above); in more, again
        // for every stored piece.
        let items_again = if items_pieces == 1 {
            0.0
        } else {
            items_seconds
        };
        let per_piece = counted.prepare_seconds + items_again + counted.count_seconds;
        unit.seconds += pieces * per_piece;
        unit.work += counted.pairs * stored.len as f64 / first_len as f64;
        unit.whole &= counted.whole && stored.pieces == 1;
    }
    unit
}

/// The stored side of a group, generated whole.
struct StoredSide {
    /// Its time.
    seconds: f64,
    /// The pieces it is cut into.
    pieces: u64,
    /// Its half-boards, all pieces.
    len: usize,
}

/// Generates the stored side of `group` whole: its first piece kept in
/// `scratch.stored`, the others generated into the item buffer and dropped.
fn time_stored(tables: &Tables, group: &sides::Group, scratch: &mut UnitScratch) -> StoredSide {
    let begun = CpuClock::start();
    let (mut pieces, mut len) = (0u64, 0usize);
    let mut stored = StoredWalk::new(tables, &group.stored);
    scratch.stored.clear();
    while !stored.is_done() {
        let buffer = if pieces == 0 {
            &mut scratch.stored
        } else {
            &mut scratch.items
        };
        buffer.clear();
        stored.next_piece(buffer);
        pieces += 1;
        len += buffer.len();
    }
    StoredSide {
        seconds: begun.seconds(),
        pieces,
        len,
    }
}

/// Generates the items whole, for their time, length and number of pieces.
fn time_items(
    tables: &Tables,
    sides: &sides::Sides,
    scratch: &mut UnitScratch,
) -> (f64, usize, u64) {
    let begun = CpuClock::start();
    let (mut len, mut pieces) = (0usize, 0u64);
    let mut cursor = HalfCursor::default();
    while !cursor.is_done() {
        scratch.items.clear();
        generate(
            tables.path,
            &tables.piece(&sides.items, tables.caps.items),
            &mut cursor,
            &mut scratch.items,
        );
        len += scratch.items.len();
        pieces += 1;
    }
    (begun.seconds(), len, pieces)
}

/// The sampled count of one stored piece against the items.
struct SampledCount {
    /// The time to prepare the stored piece (again after a piece of items stored in
    /// its place).
    prepare_seconds: f64,
    /// The count's time, scaled up to every block.
    count_seconds: f64,
    /// The pairs counted, scaled up to every block.
    pairs: f64,
    /// Whether every block was counted.
    whole: bool,
}

/// Which blocks a timing selects: every `blocks`-th, or more often so that at least
/// `min_blocks` are selected.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The stride asked for.
    blocks: usize,
    /// The fewest blocks to select.
    min_blocks: usize,
}

impl Step {
    /// The stride over a stored side of `blocks` blocks (at least 1).
    fn stride(self, blocks: usize) -> usize {
        self.blocks
            .min(blocks.div_ceil(self.min_blocks.max(1)))
            .max(1)
    }
}

/// Counts the items without a bit of `guard` against the blocks `step` selects of the
/// first stored piece, and those counted for certain (see [`BlockClock`]), and scales
/// the counted blocks' time and pairs up to every block ([`BlockSeconds::scaled_up`]).
/// A piece of items the plan's orientation stores instead is prepared and sampled the
/// same way, the stored piece's half-boards counted against its blocks.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of counts is all it needs"
)]
fn time_counts(
    tables: &Tables,
    sides: &sides::Sides,
    guard: u64,
    scratch: &mut UnitScratch,
    step: Step,
) -> SampledCount {
    let path = tables.path;
    let mut out = SampledCount {
        prepare_seconds: 0.0,
        count_seconds: 0.0,
        pairs: 0.0,
        whole: true,
    };
    let mut chosen = None;
    let mut cursor = HalfCursor::default();
    while !cursor.is_done() {
        scratch.items.clear();
        generate(
            path,
            &tables.piece(&sides.items, tables.caps.items),
            &mut cursor,
            &mut scratch.items,
        );
        let begun = CpuClock::start();
        let kept = keep_without(
            path,
            scratch.items.as_mut_slice(),
            guard,
            &mut scratch.pairs,
        );
        let guard_seconds = begun.seconds();
        if kept == 0 {
            continue;
        }
        let west_stored = tables.orientation.stores_west(kept, scratch.stored.len());
        let stride = if west_stored {
            // As the count does: the items stored, for this piece alone (its time is
            // the count's), and the stored piece prepared again after it.
            chosen = None;
            let begun = CpuClock::start();
            prepare_classed(
                path,
                &mut scratch.items.as_mut_slice()[..kept],
                scratch.stored.as_slice(),
                &mut scratch.pairs,
            );
            out.count_seconds += begun.seconds();
            step.stride(prepared_blocks(&scratch.pairs))
        } else {
            *chosen.get_or_insert_with(|| {
                let begun = CpuClock::start();
                prepare(
                    path,
                    scratch.stored.as_mut_slice(),
                    &scratch.items.as_slice()[..kept],
                    &mut scratch.pairs,
                );
                out.prepare_seconds += begun.seconds();
                step.stride(prepared_blocks(&scratch.pairs))
            })
        };
        // A sample sorts the items by class and filters every split's items whole, as
        // the count does, and counts every stride-th block: the blocks' work is timed
        // block by block (within the same run) and scaled up to every block, the rest
        // taken as it is. (Scaling it all made `estimate 26` 20 times too high; timing
        // the splits one by one instead left the clock's own cost among the blocks,
        // scaled up hundreds of times.)
        //
        // A count of every block is timed whole: no clock per block, whose reads (a
        // system call each for a thread's CPU clock) would add to the time measured.
        let begun = CpuClock::start();
        let items = if west_stored {
            scratch.stored.as_mut_slice()
        } else {
            &mut scratch.items.as_mut_slice()[..kept]
        };
        let mut sampled = BlockSeconds::default();
        let (counts, counted, blocks) = if stride == 1 {
            count_sample(path, items, &mut scratch.pairs, stride, &mut ())
        } else {
            count_sample(path, items, &mut scratch.pairs, stride, &mut sampled)
        };
        let seconds = begun.seconds();
        out.whole &= counted == blocks;
        let fixed_seconds = (seconds - sampled.certain_seconds - sampled.sampled_seconds).max(0.0);
        let (block_seconds, slots_scale) = sampled.scaled_up();
        out.count_seconds += guard_seconds + fixed_seconds + block_seconds;
        out.pairs += slots_scale * counts.pairs as f64;
    }
    out
}

/// The CPU seconds and slots of the blocks a sample counts: those counted for certain
/// (see [`BlockClock`]) and the selected others, and how many others it passed.
#[derive(Default)]
struct BlockSeconds {
    /// The clock of the block under way.
    clock: Option<CpuClock>,
    /// The seconds of the blocks counted for certain.
    certain_seconds: f64,
    /// Their slots.
    certain_slots: f64,
    /// The blocks counted for certain.
    certain: u64,
    /// The seconds of the selected blocks.
    sampled_seconds: f64,
    /// Their slots.
    sampled_slots: f64,
    /// The selected blocks.
    sampled: u64,
    /// The blocks passed.
    passed: u64,
}

impl BlockSeconds {
    /// The blocks' seconds scaled up to every block (the certain ones as they are, the
    /// selected ones over the share of the others they are), and the factor that
    /// scales the counted slots up to every block's. A sample whose selection met only
    /// certain blocks scales those up instead, as one stratum.
    #[allow(
        clippy::cast_precision_loss,
        reason = "an estimate: block counts far below 2^52"
    )]
    fn scaled_up(&self) -> (f64, f64) {
        let counted_slots = self.certain_slots + self.sampled_slots;
        let (seconds, slots) = if self.sampled > 0 {
            let others = (self.sampled + self.passed) as f64 / self.sampled as f64;
            (
                self.certain_seconds + others * self.sampled_seconds,
                self.certain_slots + others * self.sampled_slots,
            )
        } else if self.certain > 0 {
            // No selected block among the others (a selection of at least
            // MIN_SAMPLED_BLOCKS blocks, all certain): the certain ones stand for all,
            // which if anything overstates the others.
            let all = (self.certain + self.passed) as f64 / self.certain as f64;
            (all * self.certain_seconds, all * self.certain_slots)
        } else {
            (self.certain_seconds, counted_slots)
        };
        let factor = if counted_slots > 0.0 {
            slots / counted_slots
        } else {
            1.0
        };
        (seconds, factor)
    }
}

impl BlockClock for BlockSeconds {
    fn samples(&self) -> bool {
        true
    }

    fn start(&mut self) {
        self.clock = Some(CpuClock::start());
    }

    fn stop(&mut self, block: CountedBlock) {
        let seconds = self.clock.take().map_or(0.0, |clock| clock.seconds());
        #[allow(clippy::cast_precision_loss, reason = "an estimate")]
        let slots = block.slots as f64;
        if block.certain {
            self.certain_seconds += seconds;
            self.certain_slots += slots;
            self.certain += 1;
        } else {
            self.sampled_seconds += seconds;
            self.sampled_slots += slots;
            self.sampled += 1;
        }
    }

    fn pass(&mut self) {
        self.passed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Kernel;
    use crate::join::memory::inner_len;
    use crate::join::{JoinPlan, Orientation};

    /// The unit of `plan` with the most pairs, and its pairs.
    fn largest_unit(plan: &JoinPlan) -> (usize, u128) {
        (0..plan.len())
            .map(|index| (index, plan.run_unit(index).pairs))
            .max_by_key(|&(_, pairs)| pairs)
            .expect("a plan has units")
    }

    /// Times unit `index` of `plan` with the target `target_pairs` pairs and at least
    /// 4 blocks.
    fn timed(plan: &JoinPlan, index: usize, target_pairs: u64) -> TimedUnit {
        let target = Target {
            pairs: target_pairs,
            min_blocks: 4,
        };
        let mut scratch = UnitScratch::default();
        let inner = usize::try_from(inner_len(plan.tables.layout.half)).unwrap();
        scratch.try_reserve(plan.tables.caps, inner).unwrap();
        time(&plan.tables, plan.units.unit(index), &mut scratch, target)
    }

    #[test]
    #[allow(
        clippy::cast_precision_loss,
        clippy::float_cmp,
        reason = "the pairs are far below 2^53, so the f64 of a whole unit's work is exact"
    )]
    fn a_unit_timed_whole_or_on_a_sample_of_its_blocks() {
        // The largest unit of n = 18 has dozens of blocks of stored patterns, and a
        // west side longer than its east one: each orientation times it its way.
        let level = Kernel::Auto.level().expect("the auto level");
        let mut works = Vec::new();
        for orientation in [
            Orientation::ByLength,
            Orientation::EastStored,
            Orientation::LongerStored,
        ] {
            let plan = JoinPlan::new(18, level).with_orientation(orientation);
            let (index, pairs) = largest_unit(&plan);
            let whole = timed(&plan, index, u64::MAX);
            assert!(whole.whole, "{orientation:?}");
            assert_eq!(whole.work, pairs as f64, "{orientation:?}");
            assert!(whole.seconds > 0.0);
            // A tiny target: the fewest blocks a sample counts.
            let sampled = timed(&plan, index, 1);
            assert!(!sampled.whole, "{orientation:?}");
            let ratio = sampled.work / pairs as f64;
            assert!(
                (0.5..2.0).contains(&ratio),
                "{orientation:?}: work {} of {pairs}",
                sampled.work
            );
            assert!(sampled.seconds > 0.0);
            works.push(pairs);
        }
        assert_ne!(works[2], works[1], "the west side stored");
    }
}
