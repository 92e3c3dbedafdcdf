//! The two sides of a unit (see `join::weights` for the starts and weights): the
//! *stored* side, its east half-boards in one or more groups (for an odd board's arms
//! units, those of every middle-row column, each with its guard, as one
//! [`GroupSpec`], and a group for each middle-column row), and the *item* side, its
//! west half-boards, tagged with their weights: one list for every group, each group
//! counting those without its item guard.

use super::list::{arms_west_rows, UnitKind};
use super::Tables;
use crate::join::halves::{GroupSpec, HalfSpec, Missing};
use crate::join::pairs::tagged;
use crate::join::weights::{west_weight, Start, StartShape};

/// The stored half-boards of a group.
pub(super) enum Stored {
    /// One half.
    Half(HalfSpec),
    /// The halves of every middle-row queen column, each with its guard.
    Columns(GroupSpec),
}

/// A group of a unit's stored halves, and the items it meets.
pub(super) struct Group {
    /// The stored halves.
    pub(super) stored: Stored,
    /// The pattern bits that exclude an item from the group's counts (0: none).
    pub(super) item_guard: u64,
}

/// A unit's two sides.
pub(super) struct Sides {
    /// The groups of stored halves.
    pub(super) groups: Vec<Group>,
    /// The item half.
    pub(super) items: HalfSpec,
}

/// The sides of unit `kind`.
pub(super) fn of(tables: &Tables, kind: UnitKind) -> Sides {
    match kind {
        UnitKind::Rows { start, east_rows } => rows(tables, start, east_rows),
        UnitKind::ArmsWest { west_rows } => arms_west(tables, west_rows),
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
        groups: vec![Group {
            stored: Stored::Half(east),
            item_guard: 0,
        }],
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
    Sides {
        items: arms_west_spec(tables, west_rows, row_queen_sum, row_queen_diff),
        groups: vec![Group {
            stored: middle_row_halves(tables, row, west_rows),
            item_guard: 0,
        }],
    }
}

/// The west half of an arms unit: the rows `west_rows`, off the diagonals
/// `blocked_sum` and `blocked_diff`, every half-board weighing 8.
fn arms_west_spec(
    tables: &Tables,
    west_rows: u64,
    blocked_sum: u64,
    blocked_diff: u64,
) -> HalfSpec {
    HalfSpec {
        rows: west_rows,
        columns: tables.layout.west_columns(),
        col0: 0,
        blocked_sum,
        blocked_diff,
        main_diff: 0,
        anti_sum: 0,
        tags: [tagged(0, 3); 4],
        keep: [true; 4],
    }
}

/// The east halves of the arms start with the middle-column queen at `(row, h)`, for
/// every column `h < col < row` of the middle-row queen, each with its guard: stored
/// together and joined in one count, a pair counts for a column exactly when the west
/// half-board avoids both that column's east half-board and its guard. As a group, they
/// share the rows, the east columns but the middle-row queen's, and the diagonals of
/// the middle-column queen; each blocks its middle-row queen's diagonals.
fn middle_row_halves(tables: &Tables, row: u32, west_rows: u64) -> Stored {
    let layout = &tables.layout;
    let h = layout.half;
    let (row_queen_sum, row_queen_diff) = layout.diagonals_of(row, h);
    let rows = layout.all_rows() & !west_rows & !(1u64 << h) & !(1u64 << row);
    let half = HalfSpec {
        rows,
        columns: layout.east_columns(),
        col0: layout.far0,
        blocked_sum: row_queen_sum,
        blocked_diff: row_queen_diff,
        main_diff: 0,
        anti_sum: 0,
        tags: [0; 4],
        keep: [true; 4],
    };
    let missing = (h + 1..row)
        .map(|col| {
            // A west half-board on a diagonal of the (h, col) queen must not count:
            // those diagonals, added to every east pattern, make it conflict with all
            // of them. They always lie in the cross window (sum 2h+1..=3h-1,
            // difference h+1..=2h-1 for h < col < 2h).
            let (col_queen_sum, col_queen_diff) = layout.diagonals_of(h, col);
            let guard = layout.pattern(col_queen_sum, col_queen_diff);
            debug_assert_eq!(guard.count_ones(), 2);
            Missing {
                column: col,
                blocked_sum: col_queen_sum,
                blocked_diff: col_queen_diff,
                guard,
            }
        })
        .collect();
    let group = GroupSpec { half, missing };
    debug_assert!(group.halves().zip(h + 1..row).all(|((spec, _), col)| {
        let shape = StartShape::new(layout, Start::Arms { col, row });
        let east = east_spec(tables, &shape, shape.free_rows & !west_rows);
        (
            spec.rows,
            spec.columns,
            spec.col0,
            spec.blocked_sum,
            spec.blocked_diff,
        ) == (
            east.rows,
            east.columns,
            east.col0,
            east.blocked_sum,
            east.blocked_diff,
        )
    }));
    Stored::Columns(group)
}

/// The sides of an `ArmsWest` unit: the west rows fixed, a group for every
/// middle-column queen row `h + 2 <= row < 2h` outside them (each with every middle-row
/// queen column `h < col < row`), weight 8. The west half-boards are generated once,
/// free of any middle-column queen: both diagonals of `(row, h)` lie in the cross
/// window for such a row (each reaches a west quadrant square, `(row + 1, h - 1)` or
/// `(row - 1, h - 1)`, and an east one, `(row - 1, h + 1)` or `(row + 1, h + 1)`), so
/// the group's item guard leaves out exactly the west half-boards that queen attacks.
fn arms_west(tables: &Tables, west_rows: u64) -> Sides {
    let layout = &tables.layout;
    let h = layout.half;
    let groups = arms_west_rows(h, west_rows)
        .map(|row| {
            let (row_queen_sum, row_queen_diff) = layout.diagonals_of(row, h);
            let item_guard = layout.pattern(row_queen_sum, row_queen_diff);
            debug_assert_eq!(item_guard.count_ones(), 2);
            Group {
                stored: middle_row_halves(tables, row, west_rows),
                item_guard,
            }
        })
        .collect();
    Sides {
        groups,
        items: arms_west_spec(tables, west_rows, 0, 0),
    }
}
