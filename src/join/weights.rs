//! The symmetry reduction: which sub-problems are solved, and with what weight.
//!
//! **Starts ([`Start`]).** Even `n` has one start, [`Start::Empty`]. For odd
//! `n = 2h + 1` the queens of the middle row and middle column are placed first: either
//! one queen sits at the centre ([`Start::Center`]), or the middle-row queen is at
//! column `h + x` and the middle-column queen at row `h + y` ([`Start::Arms`]), with
//! `x, y` non-zero and `|x| != |y|` (equal offsets would share a diagonal). The eight
//! symmetries of the square act freely on these `(x, y)` (`(±x, ±y)`, `(±y, ±x)`), so
//! only `1 <= x < y <= h` is solved, with weight 8.
//!
//! **Row sets.** A sub-problem is split by the set `E` of free rows whose queen is in
//! the east half. The top-bottom flip `τ` maps `E` to its reversal `rev(E)`, the
//! left-right mirror `μ` to its complement `comp(E)` within the free rows. For the
//! starts both keep (Empty, Center) only the `E <= rev(E)` are solved, with the
//! *north-south weight* `ns(E)` = 2 if `E < rev(E)`, 1 if equal, 0 if greater. The
//! *east-west weight* `ew(E)` picks one of `E` and `comp(rev(E))`: with `eq` the free
//! rows where `E` and `rev(E)` agree, `ew` = 1 if `eq` is empty (then
//! `E = comp(rev(E))`), else 2 if the lowest row of `eq` is in `E`, else 0. Over each
//! orbit `{E, rev E, comp E, comp rev E}` the products `ns * ew` add up to the orbit's
//! size, so `sum over E of ns(E) * ew(E) * count(E)` is the total.
//!
//! **Long diagonals (even `n`).** The main diagonal `D` (`r = c`) crosses the NW and SE
//! quadrants, the anti-diagonal `A` (`r + c = n - 1`) the NE and SW ones. The
//! anti-transpose maps the solutions with their `D` queen in the west to those with it
//! in the east and keeps the `A` queen where it is; the transpose does the same for
//! `A`. So only east half-boards with no queen on `D` or `A` are joined, and a west
//! half-board gets the weight `2^(its queens on D or A)`. A west half-board on neither
//! (so the whole solution avoids both) is weighted by `ew(E)` instead, as `τ` and `μ`
//! keep that class. `τ` keeps the `2^(...)` weight (it maps a west `D` queen to a west
//! `A` queen), so `ns(E)` multiplies every west weight. Center: the centre queen uses
//! both long diagonals; every pair weighs `ns * ew`. Arms: weight 8.

use crate::join::bits::reverse_low_bits;
use crate::join::layout::Layout;

/// The queens placed before the join (odd `n` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Start {
    /// Even `n`: nothing placed.
    Empty,
    /// Odd `n`: one queen at the centre `(h, h)`.
    Center,
    /// Odd `n`: queens at `(h, col)` and `(row, h)`, with `h < col < row`.
    Arms {
        /// The column of the middle-row queen.
        col: u32,
        /// The row of the middle-column queen.
        row: u32,
    },
}

/// What a start fixes for the join: the free rows, the half columns, the blocked
/// diagonals, and how the symmetry weights apply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StartShape {
    /// The start.
    pub(crate) start: Start,
    /// The rows without a placed queen.
    pub(crate) free_rows: u64,
    /// The free west columns.
    pub(crate) west_columns: u64,
    /// The free east columns.
    pub(crate) east_columns: u64,
    /// The sum diagonals of the placed queens.
    pub(crate) blocked_sum: u64,
    /// The difference diagonals of the placed queens.
    pub(crate) blocked_diff: u64,
    /// The number of east queens, `|E|`.
    pub(crate) east_queens: u32,
}

impl StartShape {
    /// The shape of `start` on the board of `layout`.
    pub(crate) fn new(layout: &Layout, start: Start) -> StartShape {
        let h = layout.half;
        let mut shape = StartShape {
            start,
            free_rows: layout.all_rows(),
            west_columns: layout.west_columns(),
            east_columns: layout.east_columns(),
            blocked_sum: 0,
            blocked_diff: 0,
            east_queens: h,
        };
        let mut place = |row: u32, col: u32| {
            shape.free_rows &= !(1u64 << row);
            shape.east_columns &= !(1u64 << col);
            let (sum, diff) = layout.diagonals_of(row, col);
            shape.blocked_sum |= sum;
            shape.blocked_diff |= diff;
        };
        match start {
            Start::Empty => {}
            Start::Center => place(h, h),
            Start::Arms { col, row } => {
                place(h, col);
                place(row, h);
            }
        }
        shape.east_queens = shape.east_columns.count_ones();
        shape
    }

    /// Whether the row-set weights `ns` and `ew` apply (Empty and Center).
    pub(crate) fn uses_row_symmetry(&self) -> bool {
        !matches!(self.start, Start::Arms { .. })
    }

    /// Whether the long-diagonal reduction applies (Empty).
    pub(crate) fn uses_diagonal_symmetry(&self) -> bool {
        self.start == Start::Empty
    }

    /// `(ns(E), ew(E))` of the east row set `east` on the board of size `n` (see the
    /// module docs); `(8, 1)` for Arms, the start's own orbit weight.
    pub(crate) fn row_weights(&self, n: u32, east: u64) -> (u32, u32) {
        if !self.uses_row_symmetry() {
            return (8, 1);
        }
        let reversed = reverse_low_bits(east, n);
        let north_south = match east.cmp(&reversed) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        };
        let agree = !(east ^ reversed) & self.free_rows;
        let east_west = if agree == 0 {
            1
        } else if east & agree & agree.wrapping_neg() != 0 {
            2
        } else {
            0
        };
        (north_south, east_west)
    }
}

/// The weight of a west half-board for even `n`, from its use of the long diagonals
/// and the unit's `(ns, ew)`: `ns * 2^(diagonals used)`, or `ns * ew` if it uses
/// neither.
pub(crate) fn west_weight(on_main: bool, on_anti: bool, north_south: u32, east_west: u32) -> u32 {
    match (on_main, on_anti) {
        (false, false) => north_south * east_west,
        (true, true) => north_south * 4,
        _ => north_south * 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orbit of a row set under the flip and the mirror (within `free`).
    fn orbit(east: u64, n: u32, free: u64) -> Vec<u64> {
        let rev = reverse_low_bits(east, n);
        let mut list = vec![east, rev, !east & free, !rev & free];
        list.sort_unstable();
        list.dedup();
        list
    }

    #[test]
    fn row_weights_sum_to_orbit_sizes_on_odd_and_even_boards() {
        for n in 6u32..=11 {
            let layout = Layout::new(n);
            let start = if n % 2 == 0 {
                Start::Empty
            } else {
                Start::Center
            };
            let shape = StartShape::new(&layout, start);
            let free = shape.free_rows;
            for east in 0..1u64 << n {
                if east & !free != 0 || east.count_ones() != shape.east_queens {
                    continue;
                }
                let members = orbit(east, n, free);
                let total: u32 = members
                    .iter()
                    .map(|&e| {
                        let (ns, ew) = shape.row_weights(n, e);
                        ns * ew
                    })
                    .sum();
                assert_eq!(total as usize, members.len(), "n = {n}, E = {east:b}");
                // `ns` alone sums to the size of the flip orbit.
                let rev = reverse_low_bits(east, n);
                let ns_sum = shape.row_weights(n, east).0 + shape.row_weights(n, rev).0;
                assert_eq!(ns_sum, 2);
            }
        }
    }

    #[test]
    fn arms_orbits_are_free_and_each_covered_once() {
        // Every (x, y) with x, y != 0 and |x| != |y| is the image of exactly one solved
        // start under exactly one of the 8 symmetries.
        for h in 2i32..=6 {
            let solved: Vec<(i32, i32)> = (1..=h)
                .flat_map(|x| (x + 1..=h).map(move |y| (x, y)))
                .collect();
            for x in -h..=h {
                for y in -h..=h {
                    if x == 0 || y == 0 || x.abs() == y.abs() {
                        continue;
                    }
                    let hits: usize = solved
                        .iter()
                        .map(|&(a, b)| {
                            let images = [
                                (a, b),
                                (-a, b),
                                (a, -b),
                                (-a, -b),
                                (b, a),
                                (-b, a),
                                (b, -a),
                                (-b, -a),
                            ];
                            images.iter().filter(|&&p| p == (x, y)).count()
                        })
                        .sum();
                    assert_eq!(hits, 1, "h = {h}, ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn west_weights() {
        assert_eq!(west_weight(false, false, 2, 0), 0);
        assert_eq!(west_weight(false, false, 1, 2), 2);
        assert_eq!(west_weight(true, false, 2, 0), 4);
        assert_eq!(west_weight(true, true, 2, 1), 8);
    }
}
