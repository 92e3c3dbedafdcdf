//! A unit timed for an estimate (on the thread's CPU clock), run in part when it is
//! long: its sides generated
//! whole (timed, their lengths noted), its first stored piece prepared, and the item
//! half-boards counted against it in sampled chunks, every `k`-th, so that about
//! [`TARGET_PAIRS`] pairs are counted; the count's time (less the cost of a count of
//! no items, which a run pays once a piece) is scaled by `k`, and the whole by the
//! number of stored pieces. A short unit is run whole (`k = 1`, one piece).

use super::compute::UnitScratch;
use super::list::UnitKind;
use super::sides;
use super::Tables;
use crate::engine::interface::TimedUnit;
use crate::join::halves::{generate, HalfCursor};
use crate::join::pairs::{count_prepared, prepare};
use crate::sampling::cpu_clock::CpuClock;

/// The pairs (item x stored slot) a timed unit counts: about a second's work.
pub(crate) const TARGET_PAIRS: u64 = 20_000_000_000;

/// The items of one sampled chunk.
const CHUNK: usize = 4096;

/// The measured, or scaled-up, time and work of unit `kind`.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of counts and lengths is all it needs"
)]
pub(super) fn time(tables: &Tables, kind: UnitKind, scratch: &mut UnitScratch) -> TimedUnit {
    let sides = sides::of(tables, kind);
    let stored = time_stored(tables, &sides, scratch);
    let first_len = scratch.stored.len();
    if first_len == 0 {
        return TimedUnit {
            seconds: stored.seconds,
            work: 0.0,
            whole: true,
        };
    }
    let (items_seconds, items_len) = time_items(tables, &sides, scratch);
    // Every `step`-th chunk of items counted against the first stored piece.
    let pairs = items_len as u64 * first_len as u64;
    let step = usize::try_from(pairs.div_ceil(TARGET_PAIRS).max(1)).unwrap_or(usize::MAX);
    let counted = time_counts(tables, &sides, scratch, step);
    let pieces = stored.pieces as f64;
    let per_piece = counted.prepare_seconds + items_seconds + counted.count_seconds;
    TimedUnit {
        seconds: stored.seconds + pieces * per_piece,
        work: step as f64 * counted.pairs as f64 * stored.len as f64 / first_len as f64,
        whole: step == 1 && stored.pieces == 1,
    }
}

/// The stored side of a unit, generated whole.
struct StoredSide {
    /// Its time.
    seconds: f64,
    /// The pieces it is cut into.
    pieces: u64,
    /// Its half-boards, all pieces.
    len: usize,
}

/// Generates the stored side whole: its first piece kept in `scratch.stored`, the
/// others generated into the item buffer and dropped.
fn time_stored(tables: &Tables, sides: &sides::Sides, scratch: &mut UnitScratch) -> StoredSide {
    let path = tables.path;
    let begun = CpuClock::start();
    let (mut pieces, mut len) = (0u64, 0usize);
    let (mut half, mut cursor) = (0, HalfCursor::default());
    while half < sides.stored.len() {
        let buffer = if pieces == 0 {
            &mut scratch.stored
        } else {
            &mut scratch.items
        };
        buffer.clear();
        while half < sides.stored.len() {
            let (spec, guard) = &sides.stored[half];
            let from = buffer.len();
            generate(
                path,
                &tables.piece(spec, tables.caps.stored),
                &mut cursor,
                buffer,
            );
            if *guard != 0 {
                buffer.or_from(from, *guard);
            }
            if !cursor.is_done() {
                break;
            }
            (half, cursor) = (half + 1, HalfCursor::default());
        }
        pieces += 1;
        len += buffer.len();
    }
    StoredSide {
        seconds: begun.seconds(),
        pieces,
        len,
    }
}

/// Generates the items whole, for their time and length.
fn time_items(tables: &Tables, sides: &sides::Sides, scratch: &mut UnitScratch) -> (f64, usize) {
    let begun = CpuClock::start();
    let mut len = 0usize;
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
    }
    (begun.seconds(), len)
}

/// The sampled count of one stored piece against the items.
struct SampledCount {
    /// The time to prepare the stored piece.
    prepare_seconds: f64,
    /// The count's time, scaled up to every item.
    count_seconds: f64,
    /// The pairs the sampled items counted.
    pairs: u64,
}

/// Counts every `step`-th chunk of the items against the first stored piece, and
/// scales its time by `step`.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of a step is all it needs"
)]
fn time_counts(
    tables: &Tables,
    sides: &sides::Sides,
    scratch: &mut UnitScratch,
    step: usize,
) -> SampledCount {
    let path = tables.path;
    let scale = step as f64;
    let mut out = SampledCount {
        prepare_seconds: 0.0,
        count_seconds: 0.0,
        pairs: 0,
    };
    let mut prepared = false;
    let mut chunk_number = 0usize;
    let mut sample = Vec::new();
    let mut cursor = HalfCursor::default();
    while !cursor.is_done() {
        scratch.items.clear();
        generate(
            path,
            &tables.piece(&sides.items, tables.caps.items),
            &mut cursor,
            &mut scratch.items,
        );
        if scratch.items.len() == 0 {
            continue;
        }
        if !prepared {
            let begun = CpuClock::start();
            prepare(
                path,
                scratch.stored.as_slice(),
                scratch.items.as_slice(),
                &mut scratch.pairs,
            );
            out.prepare_seconds = begun.seconds();
            prepared = true;
        }
        // The sampled chunks, gathered, counted in one call (as a run counts a piece).
        sample.clear();
        let items = scratch.items.as_slice();
        if step == 1 {
            sample.extend_from_slice(items);
        } else {
            for chunk in items.chunks(CHUNK) {
                if chunk_number.is_multiple_of(step) {
                    sample.extend_from_slice(chunk);
                }
                chunk_number += 1;
            }
        }
        let begun = CpuClock::start();
        let counts = count_prepared(path, &sample, &mut scratch.pairs);
        let seconds = begun.seconds();
        // A count has a cost of its own, whatever its items (its walk over the blocks
        // and their key groups): paid once per piece in a run, so it is not scaled.
        let overhead = if step == 1 {
            0.0
        } else {
            let begun = CpuClock::start();
            count_prepared(path, &[], &mut scratch.pairs);
            begun.seconds().min(seconds)
        };
        out.count_seconds += overhead + scale * (seconds - overhead);
        out.pairs = out.pairs.saturating_add(counts.pairs);
    }
    out
}
