//! A unit timed for an estimate (on the thread's CPU clock), run in part when it is
//! long: its sides generated whole (timed, their lengths noted), its first stored
//! piece prepared, and every item counted against a sample of that piece's blocks,
//! every `k`-th, so that about [`TARGET_PAIRS`] pairs are counted; the counted blocks'
//! time (timed block by block, apart from the items' class sort and the splits'
//! filtering, which a sample does whole as a run does) is scaled by the blocks prepared
//! over the blocks counted, and the whole by the number of stored pieces. A short unit
//! is run whole (`k = 1`, one piece).
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
use crate::join::pairs::{count_sample, keep_without, prepare, prepared_blocks, BlockClock};
use crate::sampling::cpu_clock::CpuClock;

/// The pairs (item x stored slot) a timed unit counts: about a second's work.
pub(crate) const TARGET_PAIRS: u64 = 20_000_000_000;

/// The fewest blocks a sample counts (when the piece has that many).
const MIN_SAMPLED_BLOCKS: usize = 4;

/// The measured, or scaled-up, time and work of unit `kind`, counting about
/// `target_pairs` pairs ([`TARGET_PAIRS`] in use), shared evenly by its groups.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of counts and lengths is all it needs"
)]
pub(super) fn time(
    tables: &Tables,
    kind: UnitKind,
    scratch: &mut UnitScratch,
    target_pairs: u64,
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
        let step = pairs.div_ceil((target_pairs / groups).max(1)).max(1);
        let step = usize::try_from(step).unwrap_or(usize::MAX);
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
    /// The time to prepare the stored piece.
    prepare_seconds: f64,
    /// The count's time, scaled up to every block.
    count_seconds: f64,
    /// The pairs counted, scaled up to every block.
    pairs: f64,
    /// Whether every block was counted.
    whole: bool,
}

/// Counts the items without a bit of `guard` against every `step`-th block of the
/// first stored piece (at least [`MIN_SAMPLED_BLOCKS`] of them), and scales the counted
/// blocks' time and pairs by the blocks prepared over the blocks counted.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of counts is all it needs"
)]
fn time_counts(
    tables: &Tables,
    sides: &sides::Sides,
    guard: u64,
    scratch: &mut UnitScratch,
    step: usize,
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
        let stride = *chosen.get_or_insert_with(|| {
            let begun = CpuClock::start();
            prepare(
                path,
                scratch.stored.as_mut_slice(),
                &scratch.items.as_slice()[..kept],
                &mut scratch.pairs,
            );
            out.prepare_seconds = begun.seconds();
            let blocks = prepared_blocks(&scratch.pairs);
            step.min(blocks.div_ceil(MIN_SAMPLED_BLOCKS)).max(1)
        });
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
        let items = &mut scratch.items.as_mut_slice()[..kept];
        let mut sampled = BlockSeconds::default();
        let (counts, counted, blocks) = if stride == 1 {
            count_sample(path, items, &mut scratch.pairs, stride, &mut ())
        } else {
            count_sample(path, items, &mut scratch.pairs, stride, &mut sampled)
        };
        let seconds = begun.seconds();
        let scale = blocks as f64 / counted.max(1) as f64;
        out.whole &= counted == blocks;
        let fixed_seconds = (seconds - sampled.seconds).max(0.0);
        out.count_seconds += guard_seconds + fixed_seconds + scale * sampled.seconds;
        out.pairs += scale * counts.pairs as f64;
    }
    out
}

/// The CPU seconds a count spends on the blocks it counts.
#[derive(Default)]
struct BlockSeconds {
    /// The clock of the filtering under way.
    clock: Option<CpuClock>,
    /// The seconds so far.
    seconds: f64,
}

impl BlockClock for BlockSeconds {
    fn start(&mut self) {
        self.clock = Some(CpuClock::start());
    }

    fn stop(&mut self) {
        if let Some(clock) = self.clock.take() {
            self.seconds += clock.seconds();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Kernel;
    use crate::join::memory::inner_len;
    use crate::join::JoinPlan;

    /// The unit of `plan` with the most pairs, and its pairs.
    fn largest_unit(plan: &JoinPlan) -> (usize, u128) {
        (0..plan.len())
            .map(|index| (index, plan.run_unit(index).pairs))
            .max_by_key(|&(_, pairs)| pairs)
            .expect("a plan has units")
    }

    /// Times unit `index` of `plan` with the target `target_pairs`.
    fn timed(plan: &JoinPlan, index: usize, target_pairs: u64) -> TimedUnit {
        let mut scratch = UnitScratch::default();
        let inner = usize::try_from(inner_len(plan.tables.layout.half)).unwrap();
        scratch.try_reserve(plan.tables.caps, inner).unwrap();
        time(
            &plan.tables,
            plan.units.unit(index),
            &mut scratch,
            target_pairs,
        )
    }

    #[test]
    #[allow(
        clippy::cast_precision_loss,
        clippy::float_cmp,
        reason = "the pairs are far below 2^53, so the f64 of a whole unit's work is exact"
    )]
    fn a_unit_timed_whole_or_on_a_sample_of_its_blocks() {
        // The largest unit of n = 18 has dozens of blocks of stored patterns.
        let plan = JoinPlan::new(18, Kernel::Auto.level().expect("the auto level"));
        let (index, pairs) = largest_unit(&plan);
        let whole = timed(&plan, index, u64::MAX);
        assert!(whole.whole);
        assert_eq!(whole.work, pairs as f64);
        assert!(whole.seconds > 0.0);
        // A tiny target: the fewest blocks a sample counts.
        let sampled = timed(&plan, index, 1);
        assert!(!sampled.whole);
        let ratio = sampled.work / pairs as f64;
        assert!(
            (0.5..2.0).contains(&ratio),
            "work {} of {pairs}",
            sampled.work
        );
        assert!(sampled.seconds > 0.0);
    }
}
