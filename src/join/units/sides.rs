//! The two sides of a unit (see `join::weights` for the starts and weights): the
//! *stored* side, its east half-boards (for an odd board's arms unit, those of every
//! middle-row column, each with its guard), and the *item* side, its west
//! half-boards, tagged with their weights.

use super::list::UnitKind;
use super::Tables;
use crate::join::halves::HalfSpec;
use crate::join::pairs::tagged;
use crate::join::weights::{west_weight, Start, StartShape};

/// One stored half: its spec and the guard added (OR) to its patterns.
pub(super) type StoredHalf = (HalfSpec, u64);

/// A unit's two sides.
pub(super) struct Sides {
    /// The stored halves, in order.
    pub(super) stored: Vec<StoredHalf>,
    /// The item half.
    pub(super) items: HalfSpec,
}

/// The sides of unit `kind`.
pub(super) fn of(tables: &Tables, kind: UnitKind) -> Sides {
    match kind {
        UnitKind::Rows { start, east_rows } => rows(tables, start, east_rows),
        UnitKind::ArmsRow { row, west_rows } => arms_row(tables, row, west_rows),
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

/// The sides of a `Rows` unit: one start, one east row set.
fn rows(tables: &Tables, start: Start, east_rows: u64) -> Sides {
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
    Sides {
        stored: vec![(east, 0)],
        items: west,
    }
}

/// The sides of an `ArmsRow` unit: the middle-column queen at `(row, h)`, the west
/// rows fixed; every middle-row queen column `h < col < row`, weight 8.
fn arms_row(tables: &Tables, row: u32, west_rows: u64) -> Sides {
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
    Sides {
        stored,
        items: west,
    }
}
