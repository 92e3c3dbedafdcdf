//! The table of every partial queen placement on a `q x q` quadrant.
//!
//! A *cell* is a pair (row set `R`, column set `C`) of the quadrant with `|R| = |C|`.
//! For each cell the table lists every way to put one queen in each row of `R`, using
//! each column of `C` once, with no two queens on a common diagonal. A placement is
//! stored only as its two diagonal masks in local coordinates (sum `i + j` and
//! difference `i - j + q - 1`, `2q - 1` bits each), which is all the join needs.
//!
//! The same table serves all four quadrants: a [`QuadrantPlace`] shifts local diagonals
//! to global ones. Cells are numbered by the row set and the colex rank of the column
//! set, so lookups need no hash map. The table is built on the run's threads, in
//! parts of consecutive row sets.
//!
//! [`QuadrantPlace`]: crate::join::layout::QuadrantPlace

use crate::error::Error;
use crate::join::alloc::filled;
use crate::join::bits::{binomial, colex_rank_fast};
use rayon::iter::{IntoParallelIterator, ParallelIterator};

/// One partial placement: its local diagonal masks. In C layout, so that on a
/// little-endian machine its eight bytes read as one `u64` are `sum | diff << 32` (the
/// packed diagonals of `join::halves`, which the AVX-512 path loads eight at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct QuadrantEntry {
    /// Local sum diagonals (`i + j`).
    pub(crate) sum: u32,
    /// Local difference diagonals (`i - j + q - 1`).
    pub(crate) diff: u32,
}

/// Bytes of one stored placement.
pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<QuadrantEntry>() as u64;
const _: () = assert!(ENTRY_BYTES == 8, "a placement is two u32 without padding");

/// The largest quadrant side (local diagonal masks are `u32`s of `2q - 1` bits).
pub(crate) const MAX_SIDE: u32 = 16;

/// The most parts the table's placements are cut into (see [`QuadrantTable::try_new`]).
pub(crate) const MAX_PARTS: usize = 64;
/// The parts per thread that builds the table: enough for the threads to share the
/// work evenly, few enough that their vectors' last pages, half used on average, do
/// not add up (one thread makes one part).
const PARTS_PER_THREAD: usize = 4;
const _: () = assert!(MAX_PARTS <= 256, "a part number fits in a byte");

/// Every partial placement of a `q x q` quadrant, grouped by cell.
pub(crate) struct QuadrantTable {
    /// The first cell number of each row set.
    row_base: Vec<usize>,
    /// The part of each row set.
    part_of: Vec<u8>,
    /// Where each cell's placements start, counted over all the cells before it
    /// (`offsets[cell]..offsets[cell + 1]`; one entry more than there are cells).
    offsets: Vec<Offset>,
    /// The placements, cell after cell, in parts of consecutive row sets: the cell
    /// `c` of part `p` is at `offsets[c] - starts[p]..` in `parts[p]`.
    parts: Vec<Vec<QuadrantEntry>>,
    /// The offset of each part's first placement.
    starts: Vec<usize>,
}

/// A placement's place in the table: a table of at most [`MAX_TABLE_SIDE`] rows holds
/// fewer than `2^32` placements (633,443,407 at 12), so 4 bytes a cell suffice.
type Offset = u32;

/// The largest side a table is built for: the memory model builds one only where its
/// size is known exactly (`join::memory`), and its offsets fit [`Offset`].
pub(crate) const MAX_TABLE_SIDE: u32 = 12;

impl QuadrantTable {
    /// [`QuadrantTable::try_new`], for the tests.
    ///
    /// # Panics
    /// If memory runs out.
    #[cfg(test)]
    pub(crate) fn new(side: u32) -> QuadrantTable {
        QuadrantTable::try_new(side, 2).expect("memory for the quadrant table")
    }

    /// Enumerates every partial placement of a `side x side` quadrant
    /// (`1 <= side <= MAX_TABLE_SIDE`) on `threads` threads (at least 1). Two passes, a
    /// counting sort into cell order, both parallel over the row sets (a row set's
    /// cells are consecutive, so its placements are too): count the placements of each
    /// row set's cells (in `offsets`, one place ahead) and sum them into the cells'
    /// starts; then cut the row sets into runs of about an equal share of the
    /// placements ([`PARTS_PER_THREAD`] a thread, at most [`MAX_PARTS`]), and fill each
    /// run's vector, cell after cell, each cell in enumeration order, with a cursor per
    /// cell. A leaf finds its cell from its column set's colex rank (a table lookup).
    /// A row set's writes stay close together, and the threads share the memory's
    /// first touch.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when its arrays cannot be had, [`Error::ThreadPool`] when
    /// the threads cannot start.
    pub(crate) fn try_new(side: u32, threads: usize) -> Result<QuadrantTable, Error> {
        assert!((1..=MAX_TABLE_SIDE).contains(&side), "quadrant side {side}");
        let row_sets = 1usize << side;
        let mut row_base = Vec::with_capacity(row_sets + 1);
        let mut cells = 0usize;
        for rows in 0..row_sets {
            row_base.push(cells);
            cells += cell_count(side, rows.count_ones());
        }
        row_base.push(cells);
        let pool = match threads {
            0 | 1 => None,
            _ => Some(crate::pool::build_pool(threads)?),
        };
        let mut offsets: Vec<Offset> = filled(cells + 1, 0, "building the quadrant table")?;
        let counts = split_by_row_set(&mut offsets[1..], &row_base);
        each_task(pool.as_ref(), counts, |(rows, counts)| {
            enumerate_row_set(side, rows, |columns, _| {
                let count = &mut counts[as_index(colex_rank_fast(columns))];
                *count = count.checked_add(1).expect(FEWER_THAN_2_32);
                true
            });
        });
        // `offsets[cell]` becomes the cell's start: the sum of the counts before it.
        for cell in 1..=cells {
            offsets[cell] = offsets[cell]
                .checked_add(offsets[cell - 1])
                .expect(FEWER_THAN_2_32);
        }
        let bounds = part_bounds(
            &row_base,
            &offsets,
            PARTS_PER_THREAD.saturating_mul(threads).clamp(1, MAX_PARTS),
        );
        let parts = each_task(pool.as_ref(), bounds.windows(2).collect(), |ends| {
            fill_part(side, ends[0]..ends[1], &row_base, &offsets)
        })
        .into_iter()
        .collect::<Result<Vec<_>, Error>>()?;
        let starts = bounds[..bounds.len() - 1]
            .iter()
            .map(|&rows| at(offsets[row_base[rows]]))
            .collect();
        let mut part_of = filled(row_sets, 0u8, "building the quadrant table")?;
        for (part, ends) in bounds.windows(2).enumerate() {
            part_of[ends[0]..ends[1]].fill(u8::try_from(part).expect("at most MAX_PARTS parts"));
        }
        row_base.pop();
        Ok(QuadrantTable {
            row_base,
            part_of,
            offsets,
            parts,
            starts,
        })
    }

    /// The number of stored placements.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    /// The length of its largest cell.
    #[cfg(test)]
    pub(crate) fn largest_cell(&self) -> usize {
        self.offsets
            .windows(2)
            .map(|w| at(w[1] - w[0]))
            .max()
            .unwrap_or(0)
    }

    /// The heap bytes the table holds.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        let words = self.row_base.len() + self.starts.len();
        let vectors = self.parts.len() * size_of::<Vec<QuadrantEntry>>();
        (self.len() as u64) * ENTRY_BYTES
            + (self.offsets.len() * size_of::<Offset>()) as u64
            + words as u64 * 8
            + vectors as u64
            + self.part_of.len() as u64
    }

    /// The placements of the cell with local row set `rows` and the column set of colex
    /// rank `column_rank` among the subsets of size `|rows|`.
    #[inline]
    pub(crate) fn cell_at(&self, rows: u64, column_rank: u64) -> &[QuadrantEntry] {
        let rows = as_index(rows);
        let cell = self.row_base[rows] + as_index(column_rank);
        let part = usize::from(self.part_of[rows]);
        let start = self.starts[part];
        &self.parts[part][at(self.offsets[cell]) - start..at(self.offsets[cell + 1]) - start]
    }

    /// The placements of the cell (local row set `rows`, local column set `columns`);
    /// empty when the sizes differ.
    #[cfg(test)]
    pub(crate) fn cell(&self, rows: u64, columns: u64) -> &[QuadrantEntry] {
        if rows.count_ones() == columns.count_ones() {
            self.cell_at(rows, crate::join::bits::colex_rank(columns))
        } else {
            &[]
        }
    }
}

/// The number of cells of a row set of `queens` rows: `C(side, queens)` column sets.
fn cell_count(side: u32, queens: u32) -> usize {
    as_index(binomial(side, queens))
}

/// An [`Offset`] as an index.
#[inline]
fn at(offset: Offset) -> usize {
    as_index(u64::from(offset))
}

/// Why the placements' offsets fit [`Offset`].
const FEWER_THAN_2_32: &str = "a table of at most 12 rows holds fewer than 2^32 placements";

/// `value` as an index. Every index of the table addresses memory the table holds, so
/// it fits in `usize`.
#[inline]
fn as_index(value: u64) -> usize {
    usize::try_from(value).expect("a table index addresses memory, so it fits in usize")
}

/// `run` of each task, in order: on the threads of `pool`, or on this thread without
/// one (so that one thread starts no other).
fn each_task<T: Send, R: Send>(
    pool: Option<&rayon::ThreadPool>,
    tasks: Vec<T>,
    run: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    match pool {
        Some(pool) => pool.install(|| tasks.into_par_iter().map(run).collect()),
        None => tasks.into_iter().map(run).collect(),
    }
}

/// The row sets where each part of the table starts, and the end (the number of row
/// sets): at most `most` runs of consecutive row sets, each of about an equal share of
/// the placements, from the row sets' first cells `row_base` (and the end) and the
/// cells' starts `offsets`.
fn part_bounds(row_base: &[usize], offsets: &[Offset], most: usize) -> Vec<usize> {
    let row_sets = row_base.len() - 1;
    let total = at(offsets[row_base[row_sets]]);
    let share = total.div_ceil(most).max(1);
    let mut bounds = vec![0];
    for rows in 1..row_sets {
        let since = at(offsets[row_base[rows]] - offsets[row_base[bounds[bounds.len() - 1]]]);
        if since >= share && bounds.len() < most {
            bounds.push(rows);
        }
    }
    bounds.push(row_sets);
    bounds
}

/// The placements of the row sets `row_sets` (one part of the table), cell after cell,
/// each cell in enumeration order; `row_base` and `offsets` as for [`part_bounds`].
///
/// # Errors
/// [`Error::OutOfMemory`] when the part's vector cannot be had.
fn fill_part(
    side: u32,
    row_sets: std::ops::Range<usize>,
    row_base: &[usize],
    offsets: &[Offset],
) -> Result<Vec<QuadrantEntry>, Error> {
    let start = at(offsets[row_base[row_sets.start]]);
    let len = at(offsets[row_base[row_sets.end]]) - start;
    let mut part = filled(len, QuadrantEntry::default(), "building the quadrant table")?;
    let mut cursors = Vec::new();
    for rows in row_sets {
        cursors.clear();
        let cells = &offsets[row_base[rows]..row_base[rows + 1]];
        cursors.extend(cells.iter().map(|&cell_start| at(cell_start) - start));
        let rows = u32::try_from(rows).expect("at most 2^16 row sets");
        enumerate_row_set(side, rows, |columns, entry| {
            let cursor = &mut cursors[as_index(colex_rank_fast(columns))];
            part[*cursor] = entry;
            *cursor += 1;
            true
        });
    }
    Ok(part)
}

/// Cuts `values` into the consecutive parts of each row set: row set `rows` takes
/// `bounds[rows]..bounds[rows + 1]` (`bounds` has one more entry than there are row
/// sets, and starts at 0).
fn split_by_row_set<'a, T>(mut values: &'a mut [T], bounds: &[usize]) -> Vec<(u32, &'a mut [T])> {
    let mut parts = Vec::with_capacity(bounds.len().saturating_sub(1));
    for (rows, ends) in bounds.windows(2).enumerate() {
        let (part, rest) = values.split_at_mut(ends[1] - ends[0]);
        parts.push((u32::try_from(rows).expect("at most 2^16 row sets"), part));
        values = rest;
    }
    parts
}

/// Calls `visit(columns, entry)` for every placement on the rows `rows` of a
/// `side x side` quadrant (one queen in each row of `rows`, none elsewhere), row by row
/// and each row's columns in increasing order, until `visit` gives `false`; tells
/// whether every placement was visited.
pub(crate) fn enumerate_row_set(
    side: u32,
    rows: u32,
    mut visit: impl FnMut(u64, QuadrantEntry) -> bool,
) -> bool {
    /// The walk before the rows `rows` still to fill: the columns used, and the
    /// diagonals.
    #[derive(Clone, Copy)]
    struct Partial {
        rows: u32,
        columns: u32,
        sum: u32,
        diff: u32,
    }
    fn go(side: u32, at: Partial, visit: &mut impl FnMut(u64, QuadrantEntry) -> bool) -> bool {
        if at.rows == 0 {
            let entry = QuadrantEntry {
                sum: at.sum,
                diff: at.diff,
            };
            return visit(u64::from(at.columns), entry);
        }
        let row = at.rows.trailing_zeros();
        // Column `col` uses difference bit `row + side - 1 - col`.
        let diff_blocked = (at.diff >> row).reverse_bits() >> (32 - side);
        let mut free = !(at.columns | (at.sum >> row) | diff_blocked) & (u32::MAX >> (32 - side));
        if at.rows.is_power_of_two() {
            // The last row: its placements are visited here, without a call each.
            while free != 0 {
                let col = free.trailing_zeros();
                free &= free - 1;
                let entry = QuadrantEntry {
                    sum: at.sum | 1 << (row + col),
                    diff: at.diff | 1 << (row + side - 1 - col),
                };
                if !visit(u64::from(at.columns | 1 << col), entry) {
                    return false;
                }
            }
            return true;
        }
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            let next = Partial {
                rows: at.rows & (at.rows - 1),
                columns: at.columns | 1 << col,
                sum: at.sum | 1 << (row + col),
                diff: at.diff | 1 << (row + side - 1 - col),
            };
            if !go(side, next, visit) {
                return false;
            }
        }
        true
    }
    let start = Partial {
        rows,
        columns: 0,
        sum: 0,
        diff: 0,
    };
    go(side, start, &mut visit)
}

/// The number of placements `QuadrantTable::new(side)` stores, for the memory
/// prediction without building the table. Exact for `side <= 12` (counted by
/// enumeration; `placement_counts_are_exact` rechecks the small ones); above, a bound
/// extrapolated with growth factor 11 per side (the measured ratios grow slowly: 8.2,
/// 8.9, 9.5 for sides 10..12).
pub(crate) fn placement_count(side: u32) -> u64 {
    const EXACT: [u64; 13] = [
        1,
        2,
        5,
        18,
        87,
        462,
        2635,
        16870,
        118_969,
        915_442,
        7_535_369,
        66_807_234,
        633_443_407,
    ];
    let last = EXACT.len() - 1;
    match EXACT.get(side as usize) {
        Some(&exact) => exact,
        None => (last..side as usize).fold(EXACT[last], |count, _| count.saturating_mul(11)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every placement of the cell, by trying each column in each row.
    fn brute_cell(q: u32, rows: u64, columns: u64) -> Vec<QuadrantEntry> {
        fn place(q: u32, rows: &[u32], free: u64, at: QuadrantEntry, out: &mut Vec<QuadrantEntry>) {
            let Some((&row, rest)) = rows.split_first() else {
                out.push(at);
                return;
            };
            for col in (0..q).filter(|c| free >> c & 1 == 1) {
                let (s, d) = (1u32 << (row + col), 1u32 << (row + q - 1 - col));
                if at.sum & s == 0 && at.diff & d == 0 {
                    let next = QuadrantEntry {
                        sum: at.sum | s,
                        diff: at.diff | d,
                    };
                    place(q, rest, free & !(1 << col), next, out);
                }
            }
        }
        let row_list: Vec<u32> = (0..q).filter(|r| rows >> r & 1 == 1).collect();
        let mut out = Vec::new();
        place(q, &row_list, columns, QuadrantEntry::default(), &mut out);
        out
    }

    #[test]
    fn cells_match_brute_force() {
        let q = 5;
        let table = QuadrantTable::new(q);
        for rows in 0..1u64 << q {
            for columns in 0..1u64 << q {
                let got = table.cell(rows, columns).to_vec();
                let want = if rows.count_ones() == columns.count_ones() {
                    brute_cell(q, rows, columns)
                } else {
                    Vec::new()
                };
                // The same placements in the same order: rows in increasing order,
                // each row's columns in increasing order.
                assert_eq!(got, want, "rows {rows:b} columns {columns:b}");
            }
        }
    }

    #[test]
    fn the_table_is_the_same_on_any_number_of_threads() {
        let side = 8;
        let one = QuadrantTable::try_new(side, 1).unwrap();
        for threads in [2, 3] {
            let many = QuadrantTable::try_new(side, threads).unwrap();
            assert_eq!(many.row_base, one.row_base);
            assert_eq!(many.offsets, one.offsets);
            assert_eq!(
                many.parts.len(),
                (PARTS_PER_THREAD * threads).min(1 << side)
            );
            assert_eq!(many.parts.concat(), one.parts.concat(), "{threads} threads");
            for rows in 0..1u64 << side {
                for rank in 0..binomial(side, rows.count_ones()) {
                    assert_eq!(many.cell_at(rows, rank), one.cell_at(rows, rank));
                }
            }
        }
    }

    #[test]
    fn the_parts_cover_the_row_sets_in_about_equal_shares() {
        let table = QuadrantTable::try_new(10, 16).unwrap();
        let total = table.len();
        let (parts, largest) = (table.parts.len(), table.parts.iter().map(Vec::len).max());
        assert!(
            (MAX_PARTS / 2..=MAX_PARTS).contains(&parts),
            "{parts} parts"
        );
        assert!(
            largest.unwrap() <= 2 * total / MAX_PARTS,
            "{largest:?} of {total}"
        );
        assert!(table
            .part_of
            .windows(2)
            .all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(
            usize::from(table.part_of[table.part_of.len() - 1]),
            parts - 1
        );
    }

    #[test]
    fn a_side_of_one_has_the_empty_and_the_single_placement() {
        let table = QuadrantTable::try_new(1, 1).unwrap();
        assert_eq!(table.cell(0, 0), &[QuadrantEntry::default()]);
        assert_eq!(table.cell(1, 1), &[QuadrantEntry { sum: 1, diff: 1 }]);
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn placement_counts_are_exact() {
        for side in 1..=9 {
            let stored = QuadrantTable::new(side).len() as u64;
            assert_eq!(stored, placement_count(side), "side {side}");
        }
        assert_eq!(placement_count(13), 633_443_407 * 11);
    }
}
