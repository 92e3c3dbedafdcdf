//! The list of work units of one board size: fixed, in an order that depends on `n`
//! alone, so a unit is known by its index.
//!
//! - [`UnitKind::Rows`] (even `n`, and the centre start of odd `n`): one east row set
//!   `E`. Only the `E` whose weight can be non-zero are listed (`ns(E) > 0`; for the
//!   centre also `ew(E) > 0`; see `join::weights`).
//! - [`UnitKind::ArmsWest`] (odd `n`): the west row set `W`; the unit covers every
//!   middle-column queen `(row, h)` with `h + 2 <= row < 2h` outside `W`, and for each
//!   every column `h < col < row` of the middle-row queen, so the west half-boards of
//!   `W` are generated once for all of them;
//! - [`UnitKind::ArmsRow`] (odd `n`): the middle-column queen at `(2h, h)` and the
//!   west row set `W`; the unit covers every column `h < col < 2h` of the middle-row
//!   queen. (That queen's difference diagonal meets no east queen, so its west
//!   half-boards differ from those of the other rows.)
//!
//! Units come segment by segment (even `n`: one; odd `n`: the centre, then the
//! `ArmsWest` units, then the `ArmsRow` ones), and within a segment by the colex rank
//! of the row set among the subsets of the free rows. The centre's and even `n`'s row
//! sets are stored (8 bytes each); an arms unit's row set is unranked on demand.

use crate::join::bits::{binomial, colex_unrank, deposit_bits, next_same_popcount};
use crate::join::layout::Layout;
use crate::join::weights::{Start, StartShape};

/// What one unit computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum UnitKind {
    /// Start `start` (Empty or Center) with the east row set `east_rows`.
    Rows {
        /// The placed queens.
        start: Start,
        /// The rows whose queen is in the east half (bit `r` for row `r`).
        east_rows: u64,
    },
    /// Odd `n`: the west row set `west_rows` (all but the middle row may be in it),
    /// with the middle-column queen in every row `h + 2 <= row < 2h` outside it, and
    /// for each such row the middle-row queen in every column `h < col < row`. Those
    /// rows' diagonals lie in the cross window, so one item list serves them all.
    ArmsWest {
        /// The rows whose queen is in the west half.
        west_rows: u64,
    },
    /// Odd `n`: the middle-column queen at `(row, h)` (`row = 2h`, whose difference
    /// diagonal meets no east queen), the west row set `west_rows`, every middle-row
    /// queen column `h < col < row`.
    ArmsRow {
        /// The row of the middle-column queen.
        row: u32,
        /// The rows whose queen is in the west half.
        west_rows: u64,
    },
}

/// The row sets of one segment.
enum RowSets {
    /// The listed east row sets of a start.
    Listed {
        /// The start (Empty or Center).
        start: Start,
        /// The row sets, in colex order.
        east_rows: Vec<u64>,
    },
    /// Every `size`-subset of `free_rows`, in colex order, as the west rows of
    /// [`UnitKind::ArmsWest`] units.
    ArmsWest {
        /// The rows without a placed queen (all but the middle row).
        free_rows: u64,
        /// The number of west queens.
        size: u32,
    },
    /// Every `size`-subset of `free_rows`, in colex order, as the west rows.
    ArmsRow {
        /// The row of the middle-column queen.
        row: u32,
        /// The rows without a placed queen.
        free_rows: u64,
        /// The number of west queens.
        size: u32,
    },
}

/// A run of consecutive units.
struct Segment {
    /// The index of its first unit.
    first_unit: usize,
    /// Its number of units.
    count: usize,
    /// Its row sets.
    sets: RowSets,
}

/// The units of one board size.
pub(crate) struct UnitList {
    /// The segments, in order.
    segments: Vec<Segment>,
    /// The number of units.
    len: usize,
}

impl UnitList {
    /// The units of the board of `layout`.
    pub(crate) fn new(layout: &Layout) -> UnitList {
        let mut list = UnitList {
            segments: Vec::new(),
            len: 0,
        };
        if layout.n.is_multiple_of(2) {
            list.push_listed(layout, Start::Empty);
        } else {
            list.push_listed(layout, Start::Center);
            let h = layout.half;
            if h + 2 < 2 * h {
                list.push(RowSets::ArmsWest {
                    free_rows: layout.all_rows() & !(1u64 << h),
                    size: h,
                });
            }
            let row = 2 * h;
            list.push(RowSets::ArmsRow {
                row,
                free_rows: layout.all_rows() & !(1u64 << h) & !(1u64 << row),
                size: h,
            });
        }
        list
    }

    /// Lists the row sets of a start with row symmetry, leaving out those whose
    /// weights are all zero.
    fn push_listed(&mut self, layout: &Layout, start: Start) {
        let shape = StartShape::new(layout, start);
        let free_count = shape.free_rows.count_ones();
        let mut east_rows = Vec::new();
        let mut compact = (1u64 << shape.east_queens) - 1;
        while compact < 1u64 << free_count {
            let east = deposit_bits(compact, shape.free_rows);
            let (north_south, east_west) = shape.row_weights(layout.n, east);
            let useful = if shape.uses_diagonal_symmetry() {
                north_south > 0
            } else {
                north_south * east_west > 0
            };
            if useful {
                east_rows.push(east);
            }
            compact = next_same_popcount(compact);
        }
        self.push(RowSets::Listed { start, east_rows });
    }

    /// Appends a segment.
    fn push(&mut self, sets: RowSets) {
        let count = match &sets {
            RowSets::Listed { east_rows, .. } => east_rows.len(),
            RowSets::ArmsWest { free_rows, size }
            | RowSets::ArmsRow {
                free_rows, size, ..
            } => usize::try_from(binomial(free_rows.count_ones(), *size))
                .expect("at most C(29, 15) < 2^27 units in a segment"),
        };
        self.segments.push(Segment {
            first_unit: self.len,
            count,
            sets,
        });
        // At most C(32, 16) / 2 + 15 C(29, 15) < 2^31 units in all.
        self.len += count;
    }

    /// The number of units.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Unit `index` (below [`UnitList::len`]).
    ///
    /// # Panics
    /// If `index` is out of range.
    pub(crate) fn unit(&self, index: usize) -> UnitKind {
        assert!(index < self.len, "unit {index} of {}", self.len);
        let position = self
            .segments
            .partition_point(|s| s.first_unit + s.count <= index);
        let segment = &self.segments[position];
        let offset = index - segment.first_unit;
        match &segment.sets {
            RowSets::Listed { start, east_rows } => UnitKind::Rows {
                start: *start,
                east_rows: east_rows[offset],
            },
            RowSets::ArmsWest { free_rows, size } => UnitKind::ArmsWest {
                west_rows: deposit_bits(colex_unrank(offset as u64, *size), *free_rows),
            },
            RowSets::ArmsRow {
                row,
                free_rows,
                size,
            } => UnitKind::ArmsRow {
                row: *row,
                west_rows: deposit_bits(colex_unrank(offset as u64, *size), *free_rows),
            },
        }
    }
}

/// The middle-column queen rows an `ArmsWest` unit of west rows `west_rows` covers, on
/// a board of quadrant side `h`: `h + 2 <= row < 2h`, outside `west_rows`.
pub(crate) fn arms_west_rows(h: u32, west_rows: u64) -> impl Iterator<Item = u32> {
    (h + 2..2 * h).filter(move |row| west_rows >> row & 1 == 0)
}

/// The predicted bytes of the stored row sets of board size `n` (an upper bound): even
/// `n` lists at most `C(n, n/2) / 2 + 2^(n/2)` row sets (the `E <= rev(E)`), odd `n` at
/// most `C(n - 1, (n - 1)/2) / 2 + 2^(n/2)`.
pub(crate) fn list_bytes(n: u32) -> u64 {
    let free = n - n % 2;
    8 * (binomial(free, free / 2) / 2 + (1 << (n / 2)))
}

/// The most units board size `n` (`MIN_N..=MAX_N`) can have, from the segments of
/// [`UnitList::new`]: the listed row sets (at most those with `E <= rev(E)`, as in
/// [`list_bytes`]) and, for odd `n`, the arms segments exactly.
pub(crate) fn max_len(n: u32) -> u64 {
    let free = n - n % 2;
    let listed = binomial(free, free / 2) / 2 + (1 << (n / 2));
    if n.is_multiple_of(2) {
        return listed;
    }
    let h = n / 2;
    // `ArmsWest`: the subsets of size h of the 2h rows but the middle one (when there
    // is a row h + 2 <= row < 2h); `ArmsRow`: those of the 2h - 1 rows but the middle
    // one and row 2h.
    let west = if h + 2 < 2 * h { binomial(2 * h, h) } else { 0 };
    listed + west + binomial(2 * h - 1, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_len_bounds_every_list() {
        for n in 4u32..=18 {
            let len = UnitList::new(&Layout::new(n)).len() as u64;
            assert!(
                len <= max_len(n),
                "n = {n}: {len} units, bound {}",
                max_len(n)
            );
        }
        for n in [19u32, 21, 23] {
            let len = UnitList::new(&Layout::new(n)).len() as u64;
            assert!(len <= max_len(n), "n = {n}: {len} units");
        }
    }

    #[test]
    fn units_are_distinct_and_fixed_by_n() {
        for n in [8u32, 9, 14, 15] {
            let layout = Layout::new(n);
            let (a, b) = (UnitList::new(&layout), UnitList::new(&layout));
            assert_eq!(a.len(), b.len());
            let mut seen = std::collections::HashSet::new();
            for i in 0..a.len() {
                assert_eq!(a.unit(i), b.unit(i));
                assert!(seen.insert(a.unit(i)), "n = {n}: unit {i} repeats");
            }
            let listed = match &a.segments[0].sets {
                RowSets::Listed { east_rows, .. } => east_rows.len() as u64 * 8,
                RowSets::ArmsWest { .. } | RowSets::ArmsRow { .. } => {
                    unreachable!("the first segment is listed")
                }
            };
            assert!(listed <= list_bytes(n), "n = {n}");
        }
    }
}
