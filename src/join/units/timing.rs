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
use crate::engine::TimedUnit;
use crate::join::halves::{generate, HalfCursor};
use crate::join::pairs::{count_prepared, prepare, PairCounts};
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
    let path = tables.path;
    // The stored side, whole: its first piece kept, the others generated into the item
    // buffer and dropped.
    let begun = CpuClock::start();
    let (mut pieces, mut stored_len) = (0u64, 0usize);
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
        stored_len += buffer.len();
    }
    let stored_seconds = begun.seconds();
    let first_len = scratch.stored.len();
    if first_len == 0 {
        return TimedUnit {
            seconds: stored_seconds,
            work: 0.0,
            whole: true,
        };
    }
    // The items, whole, for their time and length.
    let begun = CpuClock::start();
    let mut items_len = 0usize;
    let mut cursor = HalfCursor::default();
    while !cursor.is_done() {
        scratch.items.clear();
        generate(
            path,
            &tables.piece(&sides.items, tables.caps.items),
            &mut cursor,
            &mut scratch.items,
        );
        items_len += scratch.items.len();
    }
    let items_seconds = begun.seconds();
    // Every `step`-th chunk of items counted against the first stored piece.
    let pairs = items_len as u64 * first_len as u64;
    let step = usize::try_from(pairs.div_ceil(TARGET_PAIRS).max(1)).unwrap_or(usize::MAX);
    let (mut prepare_seconds, mut count_seconds) = (0.0, 0.0);
    let mut counted = PairCounts::default();
    let mut prepared = false;
    let mut chunk_number = 0usize;
    let scale = step as f64;
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
            prepare_seconds = begun.seconds();
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
        count_seconds += overhead + scale * (seconds - overhead);
        counted.pairs = counted.pairs.saturating_add(counts.pairs);
    }
    let per_piece = prepare_seconds + items_seconds + count_seconds;
    TimedUnit {
        seconds: stored_seconds + pieces as f64 * per_piece,
        work: pieces as f64 * scale * counted.pairs as f64 * stored_len as f64
            / (pieces as f64 * first_len as f64),
        whole: step == 1 && pieces == 1,
    }
}
