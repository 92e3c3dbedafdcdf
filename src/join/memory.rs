//! The join's memory: how a plan fits a memory budget, and its peak, known before
//! anything is allocated.
//!
//! A plan chooses, for a budget of `B` bytes on `T` threads ([`fit`]):
//!
//! - the **quadrant table** (every placement of a `q x q` quadrant, `q = n / 2`) when
//!   its exact size is known (`q <= 12`) and it takes at most half the budget; else
//!   cells made on demand (`join::cells`), joined from the parts of their row sets,
//!   each held whole up to [`row_set_limit`] placements (eight a thread: two parts of
//!   the north and south row sets of each side of a unit), whose room the item pieces
//!   give up, so the peak does not grow;
//! - the **caps** of a unit's pieces ([`Caps`]): the most half-boards a piece of each
//!   side holds, from what the budget leaves each thread, never more than the longest
//!   list is expected to be (so a generous budget is not claimed whole).
//!
//! Its peak, in bytes, is then at most ([`Fit::peak`]):
//!
//! - [`BASE_BYTES`] for the program, and the run's own bookkeeping, `units / 4`;
//! - the table: `8 P(q) + 8 (C(2q, q) + 1) + 8 * 2^q` (it is built in place); or
//!   nothing;
//! - the unit list: `join::units::list_bytes(n)`;
//! - per thread: [`STORED_BYTES`] per stored half-board of a piece,
//!   [`ITEM_BYTES`] per item half-board, [`INNER_BYTES`] per entry of the longest
//!   inner cell, the parts of row sets held whole (without the table), and
//!   [`PER_THREAD_FIXED_BYTES`].
//!
//! A piece whose west side is stored instead (`join::units::orientation`: only when
//! it is at least 1.5 times the east side, and that one long) holds its west patterns (8 bytes each), their
//! bit slices and records (as a stored side's), its east patterns (8) and the item
//! lists' buffer, which then serves the splits of the west side (8 per west pattern)
//! and the east side's lists (12 per east pattern, so no more). Each buffer only
//! grows, so over a run it reaches the larger of its uses; the sum stays within the
//! shares above because the stored cap is at least 0.71 times the item cap and at
//! most 2.8 times it (the splits of a stored side use the item lists' buffer, 8 bytes
//! a pattern: [`fit`] holds the stored cap to that where the row sets held whole
//! leave the items little room; `every_buffer_fits_the_thread_share`).
//!
//! The caps bound the lists however long they turn out to be: a longer list comes in
//! more pieces. So the peak holds for every n the join counts; what is estimated
//! (not bounded) is only how long the lists are, which sets the caps and the speed.

use crate::join::bits::binomial;
use crate::join::cells::{max_cell_len, row_set_bytes, JOIN_PARTS, ROW_SET_LIMIT};
use crate::join::halves::CELL_LIMIT;
use crate::join::pairs::{MAX_COUNT_LEN, MAX_FIXED_WALK_BYTES, MAX_TABLE_BYTES};
use crate::join::quadrants::{placement_count, ENTRY_BYTES, MAX_PARTS, MAX_TABLE_SIDE};
use crate::join::units::list::list_bytes;

/// An upper bound on the number of units of board size `n` (for the run's
/// bookkeeping): the listed row sets and, for odd `n`, the arms units.
pub(crate) fn units_bound(n: u32) -> u64 {
    let h = n / 2;
    let listed = list_bytes(n) / 8;
    if n.is_multiple_of(2) {
        listed
    } else {
        listed.saturating_add(u64::from(h).saturating_mul(binomial(n - 2, h)))
    }
}

/// The program image, allocator and runtime.
const BASE_BYTES: u64 = 8 << 20;
/// Per stored half-board of a piece: its pattern (8, which the splits reorder in
/// place), the bit slices of its block (at most 62 lanes of 64 bytes per 512 patterns:
/// 7.75), and the block and split records (at most 256 bytes per 512 patterns:
/// [`BLOCK_RECORD_BYTES`]): 16.25, rounded up to 20. The splits partition with the item lists' buffer (no more
/// memory). The chunk tables are built one block at a time, in the fixed share below.
pub(crate) const STORED_BYTES: u64 = 20;
/// Per item half-board of a piece: its pattern (8), and the lists of the splits'
/// surviving items (at most one and a half times the items: 12).
pub(crate) const ITEM_BYTES: u64 = 20;
/// The bytes of the bit slices and records of a prepared block of 512 patterns, at
/// most: 62 lanes of 64 bytes, and the block's and its split's records.
pub(crate) const BLOCK_RECORD_BYTES: u64 = 62 * 64 + 256;
const _: () = assert!(
    8 + BLOCK_RECORD_BYTES.div_ceil(512) <= STORED_BYTES,
    "a stored pattern, its slices and its records fit its share"
);
/// Per entry of an inner cell, for each side: the prepared inner list (24: two `u64`
/// arrays, 16, and the room between their two runs, at most 23 entries, which the
/// other 8 cover from 46 entries on and the fixed share of a thread below), the cell
/// itself when made on demand (8), and the slack of the list after a piece's cap (8,
/// and three vectors).
pub(crate) const INNER_BYTES: u64 = 2 * (24 + 8 + 8);
/// The fixed scratch per thread (the chunk tables of one block, the splits' item
/// sample, the chunk of items filtered for a block, the bit slices of the block being
/// prepared, stack).
const PER_THREAD_FIXED_BYTES: u64 = 4 << 20;
const _: () = assert!(
    MAX_FIXED_WALK_BYTES + MAX_TABLE_BYTES <= PER_THREAD_FIXED_BYTES / 2,
    "the samples, the filtered chunk and one block's tables must fit the fixed share of a thread"
);
/// The smallest caps worth running with: below them, a unit would come in so many
/// pieces that a count would crawl.
const MIN_CAP: u64 = 4096;

/// The largest cell of the quadrant table of side `q` (exact, counted by enumeration of
/// every placement; `the_largest_cells_are_exact` rechecks the small ones), for
/// `q <= 12`.
const MAX_TABLE_CELL: [u64; 13] = [1, 1, 1, 2, 2, 10, 10, 40, 92, 352, 946, 3571, 15_003];
const _: () = assert!(
    MAX_TABLE_CELL.len() == MAX_TABLE_SIDE as usize + 1,
    "a table is built exactly where its size is known"
);

/// The longest half-board list of one unit, measured for even `n <= 20` (odd `n` never
/// exceeded the even `n` below it); used only to keep the caps no larger than needed.
const MEASURED_LONGEST_LIST: [(u32, u64); 7] = [
    (8, 8),
    (10, 26),
    (12, 106),
    (14, 427),
    (16, 2170),
    (18, 12_510),
    (20, 90_000),
];

/// The longest half-board list of one unit expected at board size `n`: measured up to
/// n = 20, then extrapolated with a growth factor per two board sizes that rises by 0.7
/// per step (measured: 4.0, 5.1, 5.8, about 7), times 1.5; an odd `n` takes the value
/// of `n - 1` (its `ArmsWest` units' item lists run longer, up to 1.72 times measured).
/// An estimate: a longer list is cut into more pieces, so the memory bound does not
/// depend on it.
pub(crate) fn longest_list_estimate(n: u32) -> u64 {
    let even = n & !1;
    if let Some(&(_, value)) = MEASURED_LONGEST_LIST.iter().find(|&&(m, _)| m >= even) {
        return value;
    }
    let (mut value, mut ratio) = (90_000f64, 7.5f64);
    for _ in (22..=even).step_by(2) {
        value *= ratio;
        ratio += 0.7;
    }
    float_to_bytes(value * 1.5)
}

/// A positive count from a float (saturating).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the value is positive, and `as` saturates at u64::MAX"
)]
fn float_to_bytes(value: f64) -> u64 {
    value as u64
}

/// The most half-boards a piece of each side holds (each may pass it by one inner
/// list, at most `(q/2)!` half-boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Caps {
    /// The stored side's pieces (east half-boards).
    pub(crate) stored: usize,
    /// The item side's pieces (west half-boards).
    pub(crate) items: usize,
}

/// How a join of one board size fits its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fit {
    /// Whether the plan holds the quadrant table (else it makes cells on demand).
    pub(crate) table: bool,
    /// The caps of a unit's pieces.
    pub(crate) caps: Caps,
    /// The most placements of a part of a quadrant row set held whole, with cells
    /// made on demand as joins (`join::cells::CellJoin`; 0 with the table).
    pub(crate) row_set_limit: usize,
    /// The peak bytes (an upper bound).
    pub(crate) peak: u64,
}

/// The bytes of the quadrant table of side `q`, when known exactly (`q <= 12`): its
/// placements, a cell offset (4 bytes) per cell and one more, per row set its first
/// cell (and one past the last while it is built) and its part's number, and per part
/// its vector and its first placement. Its building holds no more but a cursor per
/// cell of the row set each thread fills (at most `8 * C(q, q / 2)` bytes a thread,
/// less than a thread's unit buffers, which come after it).
fn table_bytes(q: u32) -> Option<u64> {
    if q as usize >= MAX_TABLE_CELL.len() {
        return None;
    }
    let parts = (MAX_PARTS.min(1 << q) * (size_of::<Vec<u8>>() + 8)) as u64;
    Some(placement_count(q) * ENTRY_BYTES + 4 * (binomial(2 * q, q) + 1) + (9 << q) + 8 + parts)
}

/// The most entries of an inner cell, padded to a vector: the largest cell of the
/// quadrant where it is known (`q <= 12`), else the most a cell made on demand holds
/// whole (`join::halves::CELL_LIMIT`, which covers the cell with fewer queens).
pub(crate) fn inner_len(q: u32) -> u64 {
    let cell = MAX_TABLE_CELL
        .get(q as usize)
        .copied()
        .unwrap_or(CELL_LIMIT as u64)
        .max(max_cell_len(q / 2));
    cell.div_ceil(8) * 8
}

/// The longest item list a piece holds at board size `n`, whose longest list is
/// estimated at `longest`: the same, but on odd boards 1.4 times it. Their `ArmsWest`
/// units' west lists, free of the middle-column queen, run longer (up to 1.72 times
/// measured), and each piece of them is generated again for every middle-column row;
/// the 8 bytes more per item this costs are the 8 bytes per stored half-board the
/// splits in place saved, so the peak does not grow.
fn longest_items(n: u32, longest: u64) -> u64 {
    if n.is_multiple_of(2) {
        longest
    } else {
        longest.saturating_mul(7) / 5
    }
}

/// The bytes a count of board size `n` with `units` units holds whatever its caps:
/// program, bookkeeping, unit list, and the table if `table`.
fn fixed_bytes(n: u32, units: u64, table: bool) -> u64 {
    let q = n / 2;
    let table = match table_bytes(q) {
        Some(bytes) if table => bytes,
        _ => 0,
    };
    BASE_BYTES
        .saturating_add(units / 4)
        .saturating_add(table)
        .saturating_add(list_bytes(n))
}

/// The row sets a thread holds whole when cells are made on demand: the parts of the
/// north and south row sets of each side of a unit.
const ROW_SETS_HELD: u64 = 4 * JOIN_PARTS;

/// The most placements of a quadrant row set of side `q` a thread holds whole when
/// cells are made on demand, in at most `bytes` for all it holds: [`ROW_SET_LIMIT`],
/// or fewer where the whole quadrant has fewer or the bytes do not suffice (0: none).
fn row_set_limit(q: u32, bytes: u64) -> usize {
    // `row_set_bytes(limit)` is `limit` entries and the starts (`row_set_bytes(0)`).
    let room = (bytes / ROW_SETS_HELD).saturating_sub(row_set_bytes(0)) / ENTRY_BYTES;
    usize::try_from(placement_count(q).min(room))
        .unwrap_or(usize::MAX)
        .min(ROW_SET_LIMIT)
}

/// The bytes one thread holds with caps `caps`, inner cells of `inner` entries and
/// `row_sets` bytes of row sets held whole.
fn thread_bytes(caps: Caps, inner: u64, row_sets: u64) -> u64 {
    let stored = u64::try_from(caps.stored).unwrap_or(u64::MAX);
    let items = u64::try_from(caps.items).unwrap_or(u64::MAX);
    stored
        .saturating_mul(STORED_BYTES)
        .saturating_add(items.saturating_mul(ITEM_BYTES))
        .saturating_add(inner.saturating_mul(INNER_BYTES))
        .saturating_add(row_sets)
        .saturating_add(PER_THREAD_FIXED_BYTES)
}

/// The fit of a join of board size `n` with `units` units on `threads` threads in
/// `budget` bytes, or the least budget it would need (`Err`).
pub(crate) fn fit(n: u32, units: u64, threads: usize, budget: u64) -> Result<Fit, u64> {
    let q = n / 2;
    let threads = u64::try_from(threads.max(1)).unwrap_or(u64::MAX);
    let table = table_bytes(q).is_some_and(|bytes| bytes <= budget / 2);
    let inner = inner_len(q);
    let fixed = fixed_bytes(n, units, table);
    // A thread's share, split between the stored side (70%) and the items (30%).
    let share = budget.saturating_sub(fixed) / threads;
    let room = share
        .saturating_sub(inner.saturating_mul(INNER_BYTES))
        .saturating_sub(PER_THREAD_FIXED_BYTES);
    let longest = longest_list_estimate(n).max(MIN_CAP);
    let least = MIN_CAP.min(longest);
    let max_cap = u64::try_from(MAX_COUNT_LEN / 2).unwrap_or(u64::MAX);
    let stored = (room / 10 * 7 / STORED_BYTES).min(longest).min(max_cap);
    let items = (room / 10 * 3 / ITEM_BYTES)
        .min(longest_items(n, longest))
        .min(max_cap);
    // Without the table, the row sets held whole take at most half of what the item
    // pieces hold past the least cap, and the item pieces give it up: the peak does
    // not grow.
    let row_set_limit = if table {
        0
    } else {
        row_set_limit(q, items.saturating_sub(least) * ITEM_BYTES / 2)
    };
    let row_sets = if row_set_limit == 0 {
        0
    } else {
        ROW_SETS_HELD * row_set_bytes(row_set_limit)
    };
    let items = items.saturating_sub(row_sets.div_ceil(ITEM_BYTES));
    // The splits of a stored piece partition in the item lists' buffer (12 bytes an
    // item): past 2.8 items a stored pattern, its 8 bytes would outgrow the share.
    let stored = stored.min(items.saturating_mul(14) / 5);
    if stored < least || items < least {
        // The room that gives both sides `least`, with the 70/30 split and its
        // roundings.
        let room = (least * STORED_BYTES * 10 / 7).max(least * ITEM_BYTES * 10 / 3) + 1024;
        let inner = inner_len(q);
        let thread = room
            .saturating_add(inner.saturating_mul(INNER_BYTES))
            .saturating_add(PER_THREAD_FIXED_BYTES);
        let needed = fixed_bytes(n, units, false).saturating_add(threads.saturating_mul(thread));
        return Err(needed.max(budget.saturating_add(1)));
    }
    let caps = Caps {
        stored: usize::try_from(stored).unwrap_or(usize::MAX),
        items: usize::try_from(items).unwrap_or(usize::MAX),
    };
    let peak = fixed.saturating_add(threads.saturating_mul(thread_bytes(caps, inner, row_sets)));
    Ok(Fit {
        table,
        caps,
        row_set_limit,
        peak,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::quadrants::QuadrantTable;
    use crate::join::units::orientation::{MIN_EAST, MIN_RATIO};

    #[test]
    fn the_largest_cells_are_exact() {
        for q in 1..=8u32 {
            let table = QuadrantTable::new(q);
            let largest = table.largest_cell() as u64;
            assert_eq!(largest, MAX_TABLE_CELL[q as usize], "q = {q}");
        }
    }

    #[test]
    fn the_table_size_covers_the_real_table() {
        for q in [4u32, 6, 8] {
            let table = QuadrantTable::new(q);
            assert!(table_bytes(q).unwrap() >= table.heap_bytes(), "q = {q}");
        }
    }

    #[test]
    fn every_board_fits_four_gib_and_the_peak_stays_under_the_budget() {
        for n in 4u32..=32 {
            for threads in [1, 2, 16] {
                for budget in [4u64 << 30, 16 << 30, 64 << 30] {
                    let units = 1 << 27;
                    if n > 28 && budget == 4 << 30 {
                        continue;
                    }
                    let fit = fit(n, units, threads, budget).unwrap_or_else(|least| {
                        panic!("n = {n}, {threads} threads: needs {least}")
                    });
                    assert!(fit.peak <= budget, "n = {n}: {fit:?} over {budget}");
                }
            }
        }
    }

    #[test]
    fn every_buffer_fits_the_thread_share() {
        // Over a run a thread's buffers reach, at most: the stored and item patterns
        // (8 each a cap), the bit slices and records of the longer cap (a side stored
        // either way), and the item lists' buffer at its larger use (1.5 items' worth
        // of lists, or the splits' spare room of a side stored either way: the west
        // side stored, its lists are the east side's, at most 2/3 as long).
        for n in 8u32..=32 {
            for threads in [1, 2, 16] {
                for budget in [64u64 << 20, 4 << 30, 16 << 30, 64 << 30] {
                    let Ok(fit) = fit(n, 1 << 27, threads, budget) else {
                        continue;
                    };
                    let (stored, items) = (fit.caps.stored as u64, fit.caps.items as u64);
                    // Where no piece of items is long enough to be stored, only the
                    // stored cap is.
                    let least = MIN_EAST * MIN_RATIO.0 / MIN_RATIO.1;
                    let longer = if items < least as u64 {
                        stored
                    } else {
                        stored.max(items)
                    };
                    let reached = 8 * stored
                        + 8 * items
                        + (longer.div_ceil(512) * BLOCK_RECORD_BYTES)
                        + (12 * items).max(8 * longer);
                    let share = stored * STORED_BYTES + items * ITEM_BYTES;
                    assert!(reached <= share, "n = {n}, {threads}, {budget}: {fit:?}");
                }
            }
        }
    }

    #[test]
    fn a_small_budget_makes_cells_on_demand_and_small_caps() {
        let fit = fit(20, 92_504, 2, 20 << 20).unwrap();
        assert!(!fit.table);
        assert!(fit.caps.stored < 90_000);
        assert!(fit.peak <= 20 << 20);
        assert!(fit.caps.stored >= 4096);
        let generous = super::fit(20, 92_504, 2, 16 << 30).unwrap();
        assert!(generous.table);
        assert_eq!(generous.caps.stored, 90_000);
    }

    #[test]
    fn the_row_sets_held_whole_take_their_room_from_the_items() {
        for (n, units) in [(26u32, 5_200_300u64), (27, 18_203_098), (28, 20_060_016)] {
            for (threads, budget) in [(1usize, 64u64 << 30), (2, 16 << 30), (16, 64 << 30)] {
                let fit = fit(n, units, threads, budget).unwrap();
                assert!(!fit.table);
                assert_eq!(fit.row_set_limit, ROW_SET_LIMIT, "n = {n}");
                let held = ROW_SETS_HELD * row_set_bytes(fit.row_set_limit);
                // The same peak as the items given back and no row set held.
                let without = Caps {
                    stored: fit.caps.stored,
                    items: fit.caps.items + usize::try_from(held.div_ceil(ITEM_BYTES)).unwrap(),
                };
                let inner = inner_len(n / 2);
                let fixed = fixed_bytes(n, units, false);
                let threads = threads as u64;
                assert_eq!(
                    fit.peak,
                    fixed + threads * thread_bytes(fit.caps, inner, held)
                );
                assert!(fit.peak <= fixed + threads * thread_bytes(without, inner, 0));
            }
        }
        // A tight budget holds smaller parts, or none.
        let tight = fit(26, 5_200_300, 16, 3 << 30).unwrap();
        assert!(tight.row_set_limit < ROW_SET_LIMIT);
        assert!(fit(20, 92_504, 2, 20 << 20).unwrap().row_set_limit < 1 << 12);
    }

    #[test]
    fn too_small_a_budget_says_the_least_that_would_do() {
        let least = fit(24, 1_352_078, 2, 8 << 20).unwrap_err();
        assert!(least > 8 << 20);
        assert!(fit(24, 1_352_078, 2, least).is_ok());
    }
}
