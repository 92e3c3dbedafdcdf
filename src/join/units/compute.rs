//! One unit's computation: generate its half-boards, join them, weigh the pairs.

use super::list::UnitKind;
use super::{Tables, UnitOutcome};
use crate::join::halves::{generate, HalfBoards, HalfSpec};
use crate::join::pairs::{count_weighted, tagged, PairScratch, MAX_COUNT_LEN};
use crate::join::weights::{west_weight, Start, StartShape};

/// The buffers of one unit, reused by the next unit on the same worker.
#[derive(Default)]
pub(crate) struct UnitScratch {
    /// The east half-boards.
    east: HalfBoards,
    /// The west half-boards (the tagged items).
    west: HalfBoards,
    /// The east patterns with the middle-row queen's diagonals (odd `n`).
    stored: Vec<u64>,
    /// The pair counter's buffers.
    pairs: PairScratch,
    /// The longest half-board list generated with these buffers (for the memory
    /// model's tests).
    #[cfg(test)]
    pub(crate) longest_list: usize,
}

impl UnitScratch {
    /// Makes room for half-board lists of up to `longest` patterns (with the slack
    /// the generator doubles into) and the buffers that follow from them, or
    /// [`crate::error::Error::OutOfMemory`]: done before each unit, so that the
    /// buffers do not grow while it runs.
    pub(crate) fn try_reserve(&mut self, longest: usize) -> Result<(), crate::error::Error> {
        self.east.try_reserve(2 * longest)?;
        self.west.try_reserve(2 * longest)?;
        crate::join::alloc::reserve(&mut self.stored, longest, "reserving the half-board lists")?;
        self.pairs.try_reserve(longest)
    }
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

/// Which of a unit's two half-board lists a half is generated into.
#[derive(Clone, Copy)]
enum Side {
    East,
    West,
}

/// Generates the half-boards of `spec` into the `side` list of `scratch` (replacing
/// what it held), and tells whether there are any.
fn fill_half(tables: &Tables, spec: &HalfSpec, side: Side, scratch: &mut UnitScratch) -> bool {
    let list = match side {
        Side::East => &mut scratch.east,
        Side::West => &mut scratch.west,
    };
    list.clear();
    generate(tables.level, &tables.layout, &tables.quadrants, spec, list);
    let len = list.as_slice().len();
    #[cfg(test)]
    note_longest(scratch);
    len > 0
}

/// Counts the pairs of `stored` (east) and `items` (tagged west) into `outcome`. Its
/// sums stay below `2^100`: at most `h` counts of at most `h! * (h! + 511)` pairs of
/// weight at most 8, with `h! < 2^45`.
fn add_pairs(
    tables: &Tables,
    stored: &[u64],
    items: &[u64],
    scratch: &mut PairScratch,
    outcome: &mut UnitOutcome,
) {
    let counts = count_weighted(tables.level, stored, items, MAX_COUNT_LEN, scratch);
    outcome.weighted = outcome
        .weighted
        .checked_add(counts.weighted)
        .expect("below 2^100: see the bound above");
    outcome.pairs = outcome
        .pairs
        .checked_add(counts.pairs)
        .expect("below 2^100: see the bound above");
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

    let mut outcome = UnitOutcome::default();
    let east = east_spec(tables, &shape, east_rows);
    if !fill_half(tables, &east, Side::East, scratch) {
        return outcome;
    }

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
    fill_half(tables, &west, Side::West, scratch);
    add_pairs(
        tables,
        scratch.east.as_slice(),
        scratch.west.as_slice(),
        &mut scratch.pairs,
        &mut outcome,
    );
    outcome
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
    let mut outcome = UnitOutcome::default();
    if !fill_half(tables, &west, Side::West, scratch) {
        return outcome;
    }
    for col in h + 1..row {
        let shape = StartShape::new(layout, Start::Arms { col, row });
        let east_rows = shape.free_rows & !west_rows;
        let east = east_spec(tables, &shape, east_rows);
        if !fill_half(tables, &east, Side::East, scratch) {
            continue;
        }
        // A west half-board on a diagonal of the (h, col) queen must not count: those
        // diagonals, added to every east pattern, make it conflict with all of them.
        // They always lie in the cross window (sum 2h+1..=3h-1, difference h+1..=2h-1
        // for h < col < 2h).
        let (col_queen_sum, col_queen_diff) = layout.diagonals_of(h, col);
        let guard = layout.pattern(col_queen_sum, col_queen_diff);
        debug_assert_eq!(guard.count_ones(), 2);
        scratch.stored.clear();
        scratch
            .stored
            .extend(scratch.east.as_slice().iter().map(|&p| p | guard));
        add_pairs(
            tables,
            &scratch.stored,
            scratch.west.as_slice(),
            &mut scratch.pairs,
            &mut outcome,
        );
    }
    outcome
}

/// Records the longer of the current lists in `scratch.longest_list`.
#[cfg(test)]
fn note_longest(scratch: &mut UnitScratch) {
    let now = scratch
        .east
        .as_slice()
        .len()
        .max(scratch.west.as_slice().len());
    scratch.longest_list = scratch.longest_list.max(now);
}
