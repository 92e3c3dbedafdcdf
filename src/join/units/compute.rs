//! One unit's computation: generate its half-boards, join them, weigh the pairs.
//!
//! A unit joins one *stored* side (its east half-boards; for an odd board's arms unit,
//! those of every middle-row column, each with its guard) with one *item* side (its
//! west half-boards, tagged with their weights). Each side is generated in pieces of at
//! most the plan's caps ([`Caps`]): for each stored piece, prepared once, the item side
//! is generated piece by piece and counted against it. With caps larger than the lists
//! (the usual case) that is one piece a side.

use super::list::UnitKind;
use super::{Tables, UnitOutcome};
use crate::join::halves::{generate, Cells, HalfBoards, HalfCursor, HalfSpec, Piece};
use crate::join::pairs::{
    count_prepared_weighted, prepare, tagged, PairScratch, WeightedPairs, MAX_COUNT_LEN,
};
use crate::join::weights::{west_weight, Start, StartShape};

/// The most half-boards a piece of each side holds (each may pass it by one inner
/// list, at most `(q/2)!` half-boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Caps {
    /// The stored side's pieces (east half-boards).
    pub(crate) stored: usize,
    /// The item side's pieces (west half-boards).
    pub(crate) items: usize,
}

/// The buffers of one unit, reused by the next unit on the same worker.
#[derive(Default)]
pub(crate) struct UnitScratch {
    /// The stored half-boards (east) of the current piece.
    stored: HalfBoards,
    /// The item half-boards (west, tagged) of the current piece.
    items: HalfBoards,
    /// The pair counter's buffers.
    pairs: PairScratch,
    /// The longest half-board list generated with these buffers (for the memory
    /// model's tests).
    #[cfg(test)]
    pub(crate) longest_list: usize,
}

/// Computes unit `kind` from the shared tables.
pub(crate) fn run(tables: &Tables, kind: UnitKind, scratch: &mut UnitScratch) -> UnitOutcome {
    match kind {
        UnitKind::Rows { start, east_rows } => run_rows(tables, start, east_rows, scratch),
        UnitKind::ArmsRow { row, west_rows } => run_arms_row(tables, row, west_rows, scratch),
    }
}

/// The long diagonals of board size `n`: sum `n - 1` (anti-diagonal) and difference
/// `n - 1` (main).
fn long_diagonal(n: u32) -> u64 {
    1u64 << (n - 1)
}

/// The east half of `shape` with the rows `east_rows`; for even `n` without the long
/// diagonals (see `join::weights`).
fn east_spec(tables: &Tables, shape: &StartShape, east_rows: u64) -> HalfSpec {
    let long = if shape.uses_diagonal_symmetry() {
        long_diagonal(tables.layout.n)
    } else {
        0
    };
    HalfSpec {
        rows: east_rows,
        columns: shape.east_columns,
        col0: tables.layout.far0,
        blocked_sum: shape.blocked_sum | long,
        blocked_diff: shape.blocked_diff | long,
        main_diff: 0,
        anti_sum: 0,
        tags: [0; 4],
        keep: [true; 4],
    }
}

/// One stored half: its spec and the guard ORed into its patterns.
type StoredHalf = (HalfSpec, u64);

/// Joins the stored halves `stored` with the item half `items`, piece by piece.
fn join(tables: &Tables, stored: &[StoredHalf], items: &HalfSpec, scratch: &mut UnitScratch) -> UnitOutcome {
    let mut sum = WeightedPairs::default();
    let (mut half, mut cursor) = (0, HalfCursor::default());
    while half < stored.len() {
        scratch.stored.clear();
        while half < stored.len() {
            let (spec, guard) = &stored[half];
            let from = scratch.stored.len();
            let piece = tables.piece(spec, tables.caps.stored);
            generate(tables.path, &piece, &mut cursor, &mut scratch.stored);
            if *guard != 0 {
                scratch.stored.or_from(from, *guard);
            }
            if !cursor.is_done() {
                break;
            }
            (half, cursor) = (half + 1, HalfCursor::default());
        }
        if scratch.stored.len() > 0 {
            count_items(tables, items, scratch, &mut sum);
        }
    }
    #[cfg(test)]
    note_longest(scratch);
    UnitOutcome {
        weighted: sum.weighted,
        pairs: sum.pairs,
    }
}

/// Counts the item half `items`, piece by piece, against the stored piece in
/// `scratch`, into `sum`.
fn count_items(tables: &Tables, items: &HalfSpec, scratch: &mut UnitScratch, sum: &mut WeightedPairs) {
    let mut cursor = HalfCursor::default();
    let mut prepared = false;
    while !cursor.is_done() {
        scratch.items.clear();
        let piece = tables.piece(items, tables.caps.items);
        generate(tables.path, &piece, &mut cursor, &mut scratch.items);
        if scratch.items.len() == 0 {
            continue;
        }
        #[cfg(test)]
        note_longest(scratch);
        if !prepared {
            prepare(
                tables.path,
                scratch.stored.as_slice(),
                scratch.items.as_slice(),
                &mut scratch.pairs,
            );
            prepared = true;
        }
        let counts = count_prepared_weighted(
            tables.path,
            scratch.items.as_slice(),
            MAX_COUNT_LEN,
            &mut scratch.pairs,
        );
        // Each sum stays below 2^126 (see `WeightedPairs::add`).
        sum.weighted = sum.weighted.checked_add(counts.weighted).expect("below 2^126");
        sum.pairs = sum.pairs.checked_add(counts.pairs).expect("below 2^126");
    }
}

impl Tables {
    /// A piece of `spec` of at most `cap` half-boards, with this plan's cells.
    fn piece<'a>(&'a self, spec: &'a HalfSpec, cap: usize) -> Piece<'a> {
        Piece {
            layout: &self.layout,
            cells: self.quadrants.as_ref().map_or(Cells::OnDemand, Cells::Table),
            spec,
            cap,
        }
    }
}

/// A `Rows` unit: one start, one east row set.
fn run_rows(
    tables: &Tables,
    start: Start,
    east_rows: u64,
    scratch: &mut UnitScratch,
) -> UnitOutcome {
    let layout = &tables.layout;
    let n = layout.n;
    let shape = StartShape::new(layout, start);
    let west_rows = shape.free_rows & !east_rows;
    let (north_south, east_west) = shape.row_weights(n, east_rows);
    let diagonal_symmetry = shape.uses_diagonal_symmetry();

    let east = east_spec(tables, &shape, east_rows);

    // The west half-boards, tagged with their weight class.
    let mut tags = [0u64; 4];
    let mut keep = [false; 4];
    for flags in 0..4 {
        let weight = if diagonal_symmetry {
            west_weight(flags & 2 != 0, flags & 1 != 0, north_south, east_west)
        } else {
            north_south * east_west
        };
        if weight != 0 {
            tags[flags] = tagged(0, weight.trailing_zeros() as usize);
            keep[flags] = true;
        }
    }
    let long = if diagonal_symmetry {
        long_diagonal(n)
    } else {
        0
    };
    let west = HalfSpec {
        rows: west_rows,
        columns: shape.west_columns,
        col0: 0,
        blocked_sum: shape.blocked_sum,
        blocked_diff: shape.blocked_diff,
        main_diff: long,
        anti_sum: long,
        tags,
        keep,
    };
    join(tables, &[(east, 0)], &west, scratch)
}

/// An `ArmsRow` unit: the middle-column queen at `(row, h)`, the west rows fixed;
/// every middle-row queen column `h < col < row`, weight 8.
fn run_arms_row(
    tables: &Tables,
    row: u32,
    west_rows: u64,
    scratch: &mut UnitScratch,
) -> UnitOutcome {
    let layout = &tables.layout;
    let h = layout.half;
    // The west half-boards avoid the (row, h) queen's diagonals; those of the (h, col)
    // queen are handled column by column below.
    let (row_queen_sum, row_queen_diff) = layout.diagonals_of(row, h);
    let west = HalfSpec {
        rows: west_rows,
        columns: layout.west_columns(),
        col0: 0,
        blocked_sum: row_queen_sum,
        blocked_diff: row_queen_diff,
        main_diff: 0,
        anti_sum: 0,
        tags: [tagged(0, 3); 4],
        keep: [true; 4],
    };
    // Every column's east half-boards, each with its guard, are stored together and
    // joined in one count: a pair counts for a column exactly when the west half-board
    // avoids both that column's east half-board and its guard.
    let stored: Vec<StoredHalf> = (h + 1..row)
        .map(|col| {
            let shape = StartShape::new(layout, Start::Arms { col, row });
            let east_rows = shape.free_rows & !west_rows;
            // A west half-board on a diagonal of the (h, col) queen must not count:
            // those diagonals, added to every east pattern, make it conflict with all
            // of them. They always lie in the cross window (sum 2h+1..=3h-1,
            // difference h+1..=2h-1 for h < col < 2h).
            let (col_queen_sum, col_queen_diff) = layout.diagonals_of(h, col);
            let guard = layout.pattern(col_queen_sum, col_queen_diff);
            debug_assert_eq!(guard.count_ones(), 2);
            (east_spec(tables, &shape, east_rows), guard)
        })
        .collect();
    join(tables, &stored, &west, scratch)
}

/// Records the longer of the current lists in `scratch.longest_list`.
#[cfg(test)]
fn note_longest(scratch: &mut UnitScratch) {
    let now = scratch.stored.len().max(scratch.items.len());
    scratch.longest_list = scratch.longest_list.max(now);
}
