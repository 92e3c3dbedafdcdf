//! Quadrant cells made on demand: the placements of one cell (a row set and a column
//! set of a quadrant, of the same size), enumerated when a half-board walk needs them,
//! for boards whose table of every placement (`join::quadrants`) would not fit the
//! memory budget.
//!
//! A placement is given as the table gives it ([`QuadrantEntry`]): its local sum and
//! difference diagonals. A [`CellWalk`] enumerates a cell in a fixed order, depth
//! first without recursion, and can stop after any number of placements and go on
//! later, so a cell is held in pieces of a bounded length. A cell of `k` rows holds at
//! most `k!` placements ([`max_cell_len`]).
//!
//! This module uses the quadrant entry type and nothing else of the crate.

use crate::join::quadrants::QuadrantEntry;

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
