//! Quadrant cells made on demand: the placements of one cell (a row set and a column
//! set of a quadrant, of the same size), enumerated when a half-board walk needs them,
//! for boards whose table of every placement (`join::quadrants`) would not fit the
//! memory budget.
//!
//! A placement is given as the table gives it ([`QuadrantEntry`]): its local sum and
//! difference diagonals. Two ways to make a cell:
//!
//! - [`CellJoin`]: the cell as a join. Its row set is cut into upper and lower rows,
//!   and each part's placements in all columns are held whole ([`RowSetCells`], one
//!   walk over the part, grouped by column set). A cell `(R, S)` is then every upper
//!   placement on a column set `T` within `S` next to every lower one on `S - T` that
//!   shares no diagonal with it. A walk per cell goes through each partial placement
//!   again for every column set that contains its columns (at n = 26, 18 steps a
//!   placement); the join tests a few pairs a placement, and the parts are small. A
//!   part of more than a limit of placements leaves its cells to the walk.
//! - [`CellWalk`]: one cell in a fixed order, depth first without recursion; it can
//!   stop after any number of placements and go on later, so a cell is held in pieces
//!   of a bounded length. A cell of `k` rows holds at most `k!` placements
//!   ([`max_cell_len`]).
//!
//! This module uses the quadrant entry type and enumeration, the bit helpers and the
//! fallible allocation, and nothing else of the crate.

use crate::join::bits::{binomial, colex_rank_fast, deposit_bits, low_mask, next_same_popcount};
use crate::join::quadrants::{enumerate_row_set, QuadrantEntry, ENTRY_BYTES};

/// The most placements of a part of a row set a [`CellJoin`] holds in a count (1 Mi:
/// 8 MiB; a part of 6 of 14 rows holds at most about 560,000, of 6 of 13 about 280,000,
/// so row sets of up to 12 rows are joined at n = 26 to 29; the memory model lowers it
/// where the budget is tight).
pub(crate) const ROW_SET_LIMIT: usize = 1 << 20;

/// The row sets a [`CellJoin`] holds: its upper and lower parts.
pub(crate) const JOIN_PARTS: u64 = 2;

/// The bytes of one [`RowSetCells`] of at most `limit` placements on a quadrant of
/// side at most 16: the placements and a 4-byte start per cell (at most `C(16, 8)`
/// cells) and one more.
pub(crate) fn row_set_bytes(limit: usize) -> u64 {
    let cells = binomial(16, 8) + 1;
    u64::try_from(limit)
        .unwrap_or(u64::MAX)
        .saturating_mul(ENTRY_BYTES)
        .saturating_add(4 * cells)
}

/// Every placement of one row set of a quadrant, grouped by cell: the cells of the
/// column sets of colex rank 0, 1, ... among the subsets of the row set's size, each
/// in the row set's enumeration order. Its buffers are reused by the next row set.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowSetCells {
    /// The row set held, as (quadrant side, local rows), when it is held whole.
    held: Option<(u32, u64)>,
    /// Each cell's first placement in `entries`, and the end.
    starts: Vec<u32>,
    /// The placements, cell after cell.
    entries: Vec<QuadrantEntry>,
}

impl RowSetCells {
    /// Holds every placement of the local row set `rows` of a `side x side` quadrant
    /// (`side <= 16`), unless they number more than `limit` or their memory cannot be
    /// had; tells whether it holds them (at once when it already did).
    pub(crate) fn hold(&mut self, side: u32, rows: u64, limit: usize) -> bool {
        if self.held == Some((side, rows)) {
            return true;
        }
        self.held = None;
        if limit == 0 {
            // Every row set has a placement (the empty one has one).
            return false;
        }
        // The starts are `u32`s.
        let limit = limit.min(u32::MAX as usize - 1);
        let rows = u32::try_from(rows).expect("a quadrant has at most 16 rows");
        let cells = usize::try_from(binomial(side, rows.count_ones())).expect("at most C(16, 8)");
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        // Count each cell's placements (at `starts[rank + 1]`), stopping past `limit`.
        let mut total = 0usize;
        let complete = enumerate_row_set(side, rows, |columns, _| {
            total += 1;
            self.starts[rank_index(columns) + 1] += 1;
            total <= limit
        });
        if !complete || total > limit {
            return false;
        }
        for cell in 1..=cells {
            self.starts[cell] += self.starts[cell - 1];
        }
        self.entries.clear();
        let during = "holding the placements of a quadrant row set";
        if crate::join::alloc::reserve(&mut self.entries, total, during).is_err() {
            return false;
        }
        self.entries.resize(total, QuadrantEntry::default());
        // Fill each cell from its start; `starts[rank]` ends as the cell's end, so the
        // starts are shifted back afterwards.
        enumerate_row_set(side, rows, |columns, entry| {
            let next = &mut self.starts[rank_index(columns)];
            self.entries[*next as usize] = entry;
            *next += 1;
            true
        });
        self.starts.copy_within(0..cells, 1);
        self.starts[0] = 0;
        self.held = Some((side, u64::from(rows)));
        true
    }

    /// The placements of the cell of the held row set whose column set has colex rank
    /// `column_rank` among the subsets of the row set's size.
    pub(crate) fn cell_at(&self, column_rank: u64) -> &[QuadrantEntry] {
        let cell = usize::try_from(column_rank).expect("at most C(16, 8) cells");
        &self.entries[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }
}

/// The cell index of a column set: its colex rank (below `C(16, 8)`).
fn rank_index(columns: u64) -> usize {
    usize::try_from(colex_rank_fast(columns)).expect("below C(16, 8)")
}

/// The cells of one row set made by joining its upper and lower rows' placements (see
/// the module docs). Its buffers are reused by the next row set.
#[derive(Clone, Debug, Default)]
pub(crate) struct CellJoin {
    /// The last row set asked for, as (quadrant side, local rows).
    asked: Option<(u32, u64)>,
    /// Whether both its parts are held.
    joined: bool,
    /// The number of upper rows (the lowest rows of the set).
    upper_size: u32,
    /// The placements of the upper rows.
    upper: RowSetCells,
    /// The placements of the lower rows.
    lower: RowSetCells,
}

impl CellJoin {
    /// Prepares the cells of the local row set `rows` of a `side x side` quadrant
    /// (`side <= 16`): holds both parts' placements, unless one has more than `limit`
    /// or their memory cannot be had; tells whether it holds them. Asked for the same
    /// row set again, it gives the same answer at once, whatever `limit`: a walk that
    /// resumes a split must meet its cells in the order it began with.
    pub(crate) fn hold(&mut self, side: u32, rows: u64, limit: usize) -> bool {
        if self.asked == Some((side, rows)) {
            return self.joined;
        }
        let upper_size = rows.count_ones().div_ceil(2);
        let upper_rows = deposit_bits(low_mask(upper_size), rows);
        self.joined = self.upper.hold(side, upper_rows, limit)
            && self.lower.hold(side, rows & !upper_rows, limit);
        self.upper_size = upper_size;
        self.asked = Some((side, rows));
        self.joined
    }

    /// Appends the placements of the cell of the held row set and the local column set
    /// `columns` to `out` from where `at` stands (a new cursor: the start), while `out`
    /// holds fewer than `limit`; tells whether the cell is done (else `at` says where
    /// to go on). A column set of another size than the row set's has none.
    pub(crate) fn fill(
        &self,
        columns: u64,
        at: &mut JoinCursor,
        out: &mut Vec<QuadrantEntry>,
        limit: usize,
    ) -> bool {
        let rows = match self.asked {
            Some((_, rows)) if self.joined => rows,
            _ => panic!("a row set is held"),
        };
        let size = columns.count_ones();
        if size != rows.count_ones() {
            return true;
        }
        let subsets = binomial(size, self.upper_size);
        if !at.started {
            *at = JoinCursor {
                started: true,
                subset: 0,
                compact: low_mask(self.upper_size),
                upper: 0,
                lower: 0,
            };
        }
        let JoinCursor {
            mut subset,
            mut compact,
            upper: mut next_upper,
            lower: mut next_lower,
            ..
        } = *at;
        while subset < subsets {
            let upper_columns = deposit_bits(compact, columns);
            let upper = self.upper.cell_at(colex_rank_fast(upper_columns));
            let lower = if upper.is_empty() {
                &[][..]
            } else {
                self.lower
                    .cell_at(colex_rank_fast(columns & !upper_columns))
            };
            while next_upper < upper.len() {
                let a = upper[next_upper];
                while next_lower < lower.len() {
                    let b = lower[next_lower];
                    if (a.sum & b.sum) | (a.diff & b.diff) == 0 {
                        if out.len() >= limit {
                            *at = JoinCursor {
                                started: true,
                                subset,
                                compact,
                                upper: next_upper,
                                lower: next_lower,
                            };
                            return false;
                        }
                        out.push(QuadrantEntry {
                            sum: a.sum | b.sum,
                            diff: a.diff | b.diff,
                        });
                    }
                    next_lower += 1;
                }
                next_lower = 0;
                next_upper += 1;
            }
            next_upper = 0;
            subset += 1;
            if compact != 0 {
                compact = next_same_popcount(compact);
            }
        }
        true
    }
}

/// Where a [`CellJoin::fill`] of one cell stands: the subset of the cell's columns
/// that the upper rows take (its index and its compact form, colex order), and the
/// next upper and lower placements to pair. [`JoinCursor::default`] is the start.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JoinCursor {
    /// Whether the fill has begun (the fields below are set).
    started: bool,
    /// The index of the current subset.
    subset: u64,
    /// The current subset, as a subset of the cell's columns' positions.
    compact: u64,
    /// The next upper placement.
    upper: usize,
    /// The next lower placement with it.
    lower: usize,
}

/// The most rows a cell has (the largest quadrant side).
const MAX_ROWS: usize = 16;

/// A depth-first walk over the placements of one cell, resumable.
#[derive(Clone, Debug)]
pub(crate) struct CellWalk {
    /// The quadrant side.
    side: u32,
    /// The cell's columns.
    columns: u32,
    /// The cell's rows, lowest first.
    rows: [u32; MAX_ROWS],
    /// The number of rows.
    queens: usize,
    /// The rows placed so far.
    depth: usize,
    /// For each depth, the columns still to try there.
    candidates: [u32; MAX_ROWS],
    /// For each depth, the columns used above it.
    used: [u32; MAX_ROWS + 1],
    /// For each depth, the sum diagonals used above it.
    sum: [u32; MAX_ROWS + 1],
    /// For each depth, the difference diagonals used above it.
    diff: [u32; MAX_ROWS + 1],
    /// Whether every placement has been given.
    done: bool,
}

impl CellWalk {
    /// The walk over the cell (local `rows`, local `columns`) of a `side x side`
    /// quadrant (`side <= 16`); empty when the two sets differ in size.
    pub(crate) fn new(side: u32, rows: u64, columns: u64) -> CellWalk {
        debug_assert!(side as usize <= MAX_ROWS);
        let mut walk = CellWalk {
            side,
            columns: u32::try_from(columns).expect("a quadrant has at most 16 columns"),
            rows: [0; MAX_ROWS],
            queens: 0,
            depth: 0,
            candidates: [0; MAX_ROWS],
            used: [0; MAX_ROWS + 1],
            sum: [0; MAX_ROWS + 1],
            diff: [0; MAX_ROWS + 1],
            done: rows.count_ones() != columns.count_ones(),
        };
        let mut rest = rows;
        while rest != 0 {
            walk.rows[walk.queens] = rest.trailing_zeros();
            walk.queens += 1;
            rest &= rest - 1;
        }
        if walk.queens > 0 {
            walk.candidates[0] = walk.free_at(0);
        }
        walk
    }

    /// The free columns of the row at `depth`, given the placements above it.
    #[inline]
    fn free_at(&self, depth: usize) -> u32 {
        let row = self.rows[depth];
        // Column `c` of row `row` uses sum bit `row + c` and difference bit
        // `row + side - 1 - c`.
        let sum_blocked = self.sum[depth] >> row;
        let diff_blocked = (self.diff[depth] >> row).reverse_bits() >> (32 - self.side);
        self.columns & !self.used[depth] & !sum_blocked & !diff_blocked
    }

    /// Appends the next placements to `out` until the cell is done or `out` holds
    /// `limit`; tells whether the cell is done.
    pub(crate) fn fill(&mut self, out: &mut Vec<QuadrantEntry>, limit: usize) -> bool {
        if self.done {
            return true;
        }
        if self.queens == 0 {
            // The empty cell has one placement, the empty one.
            if out.len() < limit {
                out.push(QuadrantEntry::default());
                self.done = true;
            }
            return self.done;
        }
        let last = self.queens - 1;
        while out.len() < limit {
            let depth = self.depth;
            let candidates = self.candidates[depth];
            if candidates == 0 {
                if depth == 0 {
                    self.done = true;
                    return true;
                }
                self.depth -= 1;
                continue;
            }
            let col = candidates.trailing_zeros();
            self.candidates[depth] = candidates & (candidates - 1);
            let row = self.rows[depth];
            let sum = self.sum[depth] | 1 << (row + col);
            let diff = self.diff[depth] | 1 << (row + self.side - 1 - col);
            if depth == last {
                out.push(QuadrantEntry { sum, diff });
                continue;
            }
            self.sum[depth + 1] = sum;
            self.diff[depth + 1] = diff;
            self.used[depth + 1] = self.used[depth] | 1 << col;
            self.depth = depth + 1;
            self.candidates[depth + 1] = self.free_at(depth + 1);
        }
        false
    }
}

/// Replaces `out` by every placement of the cell (local `rows`, local `columns`).
#[cfg(test)]
pub(crate) fn fill(side: u32, rows: u64, columns: u64, out: &mut Vec<QuadrantEntry>) {
    out.clear();
    CellWalk::new(side, rows, columns).fill(out, usize::MAX);
}

/// The most placements a cell of `queens` rows holds: `queens!` (one column per row,
/// each used once), saturating.
pub(crate) fn max_cell_len(queens: u32) -> u64 {
    (1..=u64::from(queens)).fold(1u64, u64::saturating_mul)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::quadrants::QuadrantTable;

    #[test]
    fn cells_match_the_table() {
        for side in [4u32, 6, 7] {
            let table = QuadrantTable::new(side);
            let mut got = Vec::new();
            for rows in 0..1u64 << side {
                for columns in 0..1u64 << side {
                    fill(side, rows, columns, &mut got);
                    let mut want = table.cell(rows, columns).to_vec();
                    got.sort_by_key(|e| (e.sum, e.diff));
                    want.sort_by_key(|e| (e.sum, e.diff));
                    assert_eq!(got, want, "side {side} rows {rows:b} columns {columns:b}");
                    assert!(got.len() as u64 <= max_cell_len(rows.count_ones()));
                }
            }
        }
    }

    #[test]
    fn row_sets_held_whole_match_the_table_cell_by_cell() {
        let mut held = RowSetCells::default();
        for side in [1u32, 4, 6, 8] {
            let table = QuadrantTable::new(side);
            for rows in 0..1u64 << side {
                assert!(
                    held.hold(side, rows, usize::MAX),
                    "side {side} rows {rows:b}"
                );
                let cells = binomial(side, rows.count_ones());
                for rank in 0..cells {
                    assert_eq!(
                        held.cell_at(rank),
                        table.cell_at(rows, rank),
                        "side {side} rows {rows:b} cell {rank}"
                    );
                }
                // The cells cover the row set's placements and no more.
                let total: usize = (0..cells).map(|rank| held.cell_at(rank).len()).sum();
                assert_eq!(total, held.entries.len());
            }
        }
    }

    #[test]
    fn a_row_set_past_the_limit_is_not_held() {
        let mut held = RowSetCells::default();
        // 0b1111 of a side-8 quadrant: its placements, counted by the walks per cell.
        let placements: usize = (0..1u64 << 8)
            .filter(|columns: &u64| columns.count_ones() == 4)
            .map(|columns| {
                let mut cell = Vec::new();
                fill(8, 0b1111, columns, &mut cell);
                cell.len()
            })
            .sum();
        assert!(placements > 1);
        assert!(!held.hold(8, 0b1111, placements - 1));
        assert!(held.hold(8, 0b1111, placements));
        assert_eq!(held.entries.len(), placements);
        // Held at once the second time; another row set replaces it, or fails and
        // leaves nothing held.
        assert!(held.hold(8, 0b1111, 0));
        assert!(!held.hold(8, 0b1110, 0));
        assert!(!held.hold(8, 0b1111, 0));
        assert!(held.hold(8, 0, 1));
        assert_eq!(held.cell_at(0), [QuadrantEntry::default()]);
    }

    #[test]
    fn joined_cells_hold_the_table_cells_placements() {
        let mut join = CellJoin::default();
        for side in [1u32, 4, 6, 7] {
            let table = QuadrantTable::new(side);
            for rows in 0..1u64 << side {
                assert!(
                    join.hold(side, rows, usize::MAX),
                    "side {side} rows {rows:b}"
                );
                for columns in 0..1u64 << side {
                    let mut got = Vec::new();
                    let mut at = JoinCursor::default();
                    assert!(join.fill(columns, &mut at, &mut got, usize::MAX));
                    let mut want = table.cell(rows, columns).to_vec();
                    got.sort_by_key(|e| (e.sum, e.diff));
                    want.sort_by_key(|e| (e.sum, e.diff));
                    assert_eq!(got, want, "side {side} rows {rows:b} columns {columns:b}");
                }
            }
        }
    }

    #[test]
    fn a_joined_cell_comes_in_pieces_and_a_large_part_is_not_held() {
        let (rows, columns) = (0b1101_0111u64, 0b1011_1011u64);
        let mut whole = Vec::new();
        fill(8, rows, columns, &mut whole);
        assert!(whole.len() > 3);
        let mut join = CellJoin::default();
        assert!(join.hold(8, rows, usize::MAX));
        let mut all = Vec::new();
        assert!(join.fill(columns, &mut JoinCursor::default(), &mut all, usize::MAX));
        assert_eq!(all.len(), whole.len());
        // In pieces of 1, 2 and 3, going on from the cursor: the same placements in
        // the same order.
        for step in [1, 2, 3] {
            let mut at = JoinCursor::default();
            let mut pieces = Vec::new();
            loop {
                let mut piece = Vec::new();
                let done = join.fill(columns, &mut at, &mut piece, step);
                assert!(piece.len() <= step);
                pieces.extend(piece);
                if done {
                    break;
                }
            }
            assert_eq!(pieces, all, "pieces of {step}");
        }
        // A limit below a part's placements: not held, and the same answer for the
        // same row set (a resumed walk keeps its order); another row set is asked anew.
        assert!(!join.hold(8, 0b0111_0111, 10));
        assert!(!join.hold(8, 0b0111_0111, usize::MAX));
        assert!(join.hold(8, 0b0111_0110, usize::MAX));
        assert!(join.hold(8, 0b0111_0111, usize::MAX));
        assert!(join.hold(8, 0b0111_0111, 0));
    }

    #[test]
    fn a_walk_resumes_where_it_stopped() {
        let mut whole = Vec::new();
        fill(8, 0b1101_0111, 0b1011_1011, &mut whole);
        assert!(whole.len() > 10);
        for step in [1, 3, 7] {
            let mut walk = CellWalk::new(8, 0b1101_0111, 0b1011_1011);
            let mut pieces = Vec::new();
            loop {
                let mut piece = Vec::new();
                let done = walk.fill(&mut piece, step);
                assert!(piece.len() <= step);
                pieces.extend(piece);
                if done {
                    break;
                }
            }
            assert_eq!(pieces, whole, "pieces of {step}");
        }
    }
}
