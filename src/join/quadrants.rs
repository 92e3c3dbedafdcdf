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
//! set, so lookups need no hash map.
//!
//! [`QuadrantPlace`]: crate::join::layout::QuadrantPlace

use crate::error::Error;
use crate::join::alloc::filled;
use crate::join::bits::{binomial, colex_rank_fast};

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

/// Every partial placement of a `q x q` quadrant, grouped by cell.
pub(crate) struct QuadrantTable {
    /// The first cell number of each row set.
    row_base: Vec<usize>,
    /// `offsets[cell]..offsets[cell + 1]` indexes `entries`.
    offsets: Vec<usize>,
    /// The placements, cell after cell.
    entries: Vec<QuadrantEntry>,
}

impl QuadrantTable {
    /// [`QuadrantTable::try_new`], for the tests.
    ///
    /// # Panics
    /// If memory runs out.
    #[cfg(test)]
    pub(crate) fn new(side: u32) -> QuadrantTable {
        QuadrantTable::try_new(side).expect("memory for the quadrant table")
    }

    /// Enumerates every partial placement of a `side x side` quadrant
    /// (`1 <= side <= MAX_SIDE`). Two passes, a counting sort into cell order: count
    /// the placements of each cell (in `offsets`, one place ahead), sum them into the
    /// cells' starts, then fill each cell in enumeration order with its offset as the
    /// cursor, which leaves it at the next cell's start, and shift the offsets back. A
    /// leaf finds its cell from its row set's base and its column set's colex rank (a
    /// table lookup), so nothing beyond the table is allocated.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when its arrays cannot be had.
    pub(crate) fn try_new(side: u32) -> Result<QuadrantTable, Error> {
        assert!((1..=MAX_SIDE).contains(&side), "quadrant side {side}");
        let row_sets = 1usize << side;
        let mut row_base = Vec::with_capacity(row_sets);
        let mut cells = 0usize;
        for rows in 0..row_sets {
            row_base.push(cells);
            cells += cell_count(side, rows.count_ones());
        }
        let cell_of =
            |rows: u64, columns: u64| row_base[as_index(rows)] + as_index(colex_rank_fast(columns));
        let mut offsets = filled(cells + 1, 0usize, "building the quadrant table")?;
        enumerate(side, |rows, columns, _| {
            offsets[cell_of(rows, columns) + 1] += 1;
        });
        // `offsets[cell]` becomes the cell's start: the sum of the counts before it.
        for cell in 1..=cells {
            offsets[cell] += offsets[cell - 1];
        }
        let mut entries = filled(
            offsets[cells],
            QuadrantEntry::default(),
            "building the quadrant table",
        )?;
        // `offsets[cell]` is the cell's cursor, and ends at the next cell's start.
        enumerate(side, |rows, columns, entry| {
            let cursor = &mut offsets[cell_of(rows, columns)];
            entries[*cursor] = entry;
            *cursor += 1;
        });
        offsets.rotate_right(1);
        offsets[0] = 0;
        Ok(QuadrantTable {
            row_base,
            offsets,
            entries,
        })
    }

    /// The number of stored placements.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The length of its largest cell.
    #[cfg(test)]
    pub(crate) fn largest_cell(&self) -> usize {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }

    /// The heap bytes the table holds.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        let words = self.offsets.len() + self.row_base.len();
        (self.entries.len() as u64) * ENTRY_BYTES + words as u64 * 8
    }

    /// The placements of the cell with local row set `rows` and the column set of colex
    /// rank `column_rank` among the subsets of size `|rows|`.
    #[inline]
    pub(crate) fn cell_at(&self, rows: u64, column_rank: u64) -> &[QuadrantEntry] {
        let cell = self.row_base[as_index(rows)] + as_index(column_rank);
        &self.entries[self.offsets[cell]..self.offsets[cell + 1]]
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

/// `value` as an index. Every index of the table addresses memory the table holds, so
/// it fits in `usize`.
#[inline]
fn as_index(value: u64) -> usize {
    usize::try_from(value).expect("a table index addresses memory, so it fits in usize")
}

/// Calls `visit(rows, columns, entry)` for every placement of a `side x side` quadrant,
/// row by row: each row is either left empty or given a queen on a free column and
/// free diagonals.
fn enumerate(side: u32, mut visit: impl FnMut(u64, u64, QuadrantEntry)) {
    /// The walk after rows `0..row`: the rows and columns used, and the diagonals.
    #[derive(Clone, Copy)]
    struct Partial {
        row: u32,
        rows: u32,
        columns: u32,
        sum: u32,
        diff: u32,
    }
    fn go(side: u32, at: Partial, visit: &mut impl FnMut(u64, u64, QuadrantEntry)) {
        if at.row == side {
            let entry = QuadrantEntry {
                sum: at.sum,
                diff: at.diff,
            };
            visit(u64::from(at.rows), u64::from(at.columns), entry);
            return;
        }
        let row = at.row;
        go(side, Partial { row: row + 1, ..at }, visit);
        // Column `col` uses difference bit `row + side - 1 - col`.
        let diff_blocked = (at.diff >> row).reverse_bits() >> (32 - side);
        let mut free = !(at.columns | (at.sum >> row) | diff_blocked) & (u32::MAX >> (32 - side));
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            let next = Partial {
                row: row + 1,
                rows: at.rows | 1 << row,
                columns: at.columns | 1 << col,
                sum: at.sum | 1 << (row + col),
                diff: at.diff | 1 << (row + side - 1 - col),
            };
            go(side, next, visit);
        }
    }
    let start = Partial {
        row: 0,
        rows: 0,
        columns: 0,
        sum: 0,
        diff: 0,
    };
    go(side, start, &mut visit);
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
                let mut got = table.cell(rows, columns).to_vec();
                let mut want = if rows.count_ones() == columns.count_ones() {
                    brute_cell(q, rows, columns)
                } else {
                    Vec::new()
                };
                got.sort_by_key(|e| (e.sum, e.diff));
                want.sort_by_key(|e| (e.sum, e.diff));
                assert_eq!(got, want, "rows {rows:b} columns {columns:b}");
            }
        }
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
