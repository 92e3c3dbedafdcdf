//! The geometry of the board split.
//!
//! Rows and columns are numbered `0..n`. With `h = n / 2`, the board minus (for odd
//! `n`) its middle row and middle column is cut into four `h x h` quadrants: north rows
//! `0..h`, south rows `n-h..n`, west columns `0..h`, east columns `n-h..n`. For odd `n`
//! the middle row and column (index `h`) belong to no quadrant: their queens are placed
//! first (see `join::weights`).
//!
//! Diagonals are global: the sum diagonal of square `(r, c)` is `r + c`, the difference
//! diagonal `r - c + n - 1`, both in `0..2n-1`, kept as `u64` masks (`n <= 32`). The
//! quadrant table stores diagonals in local coordinates; a [`QuadrantPlace`] holds the
//! shifts that make them global.
//!
//! Only the diagonals that both a west and an east queen can reach matter when the two
//! halves are joined: [`Layout::pattern`] packs those (the *cross window*, `n - 1` bits
//! per direction for even `n`, `n - 2` for odd) into one `u64` of at most 62 bits.

use crate::join::bits::low_mask;

/// Where a quadrant sits on the board: the shifts from its local diagonal indices to
/// global ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QuadrantPlace {
    /// Global sum diagonal = local sum diagonal + `sum_shift`.
    pub(crate) sum_shift: u32,
    /// Global difference diagonal = local difference diagonal + `diff_shift`.
    pub(crate) diff_shift: u32,
}

/// The join pattern of a quadrant placement from its local diagonals (its
/// [`LocalPattern::of`] is [`Layout::pattern`] of its global ones): each kind shifted up
/// to global, down to its window, masked to the window's width, and the difference
/// diagonals moved above the sum ones. The fields are public for the vector paths,
/// which compute the same in lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalPattern {
    /// Global sum diagonal = local + `sum_up`.
    pub(crate) sum_up: u32,
    /// The lowest sum diagonal of the window.
    pub(crate) sum_down: u32,
    /// The window's sum diagonals, from bit 0.
    pub(crate) sum_mask: u64,
    /// Global difference diagonal = local + `diff_up`.
    pub(crate) diff_up: u32,
    /// The lowest difference diagonal of the window.
    pub(crate) diff_down: u32,
    /// The window's difference diagonals, from bit 0.
    pub(crate) diff_mask: u64,
    /// Where the difference diagonals start in the pattern.
    pub(crate) diff_offset: u32,
}

impl LocalPattern {
    /// The join pattern of local diagonals `(sum, diff)`.
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "called per placement in the walk compiled with the vector features"
    )]
    pub(crate) fn of(self, sum: u64, diff: u64) -> u64 {
        ((sum << self.sum_up >> self.sum_down) & self.sum_mask)
            | ((diff << self.diff_up >> self.diff_down) & self.diff_mask) << self.diff_offset
    }
}

/// The board geometry for one `n`.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The board size.
    pub(crate) n: u32,
    /// The quadrant side, `n / 2`.
    pub(crate) half: u32,
    /// The first south row and the first east column, `n - h`.
    pub(crate) far0: u32,
    /// The lowest sum diagonal of the cross window.
    sum_window_lo: u32,
    /// The number of sum diagonals in the cross window.
    sum_window_width: u32,
    /// The lowest difference diagonal of the cross window.
    diff_window_lo: u32,
    /// The number of difference diagonals in the cross window.
    diff_window_width: u32,
}

impl Layout {
    /// The geometry of board size `n`, `4 <= n <= 32` (checked by the caller).
    pub(crate) fn new(n: u32) -> Layout {
        debug_assert!((4..=32).contains(&n), "n = {n} out of the join's range");
        let half = n / 2;
        let far0 = n - half;
        let mut layout = Layout {
            n,
            half,
            far0,
            sum_window_lo: 0,
            sum_window_width: 0,
            diff_window_lo: 0,
            diff_window_width: 0,
        };
        let (west_sum, west_diff) = layout.reachable(layout.west_columns());
        let (east_sum, east_diff) = layout.reachable(layout.east_columns());
        let sum_window = west_sum & east_sum;
        let diff_window = west_diff & east_diff;
        layout.sum_window_lo = sum_window.trailing_zeros();
        layout.sum_window_width = sum_window.count_ones();
        layout.diff_window_lo = diff_window.trailing_zeros();
        layout.diff_window_width = diff_window.count_ones();
        // Both windows are runs of consecutive diagonals.
        debug_assert_eq!(
            sum_window >> layout.sum_window_lo,
            low_mask(layout.sum_window_width)
        );
        debug_assert_eq!(
            diff_window >> layout.diff_window_lo,
            low_mask(layout.diff_window_width)
        );
        layout
    }

    /// All rows `0..n`.
    pub(crate) fn all_rows(&self) -> u64 {
        low_mask(self.n)
    }

    /// The west columns `0..h`.
    pub(crate) fn west_columns(&self) -> u64 {
        low_mask(self.half)
    }

    /// The east columns `n-h..n`.
    pub(crate) fn east_columns(&self) -> u64 {
        low_mask(self.half) << self.far0
    }

    /// The north rows `0..h`.
    pub(crate) fn north_rows(&self) -> u64 {
        low_mask(self.half)
    }

    /// The south rows `n-h..n`.
    pub(crate) fn south_rows(&self) -> u64 {
        low_mask(self.half) << self.far0
    }

    /// The place of the quadrant whose first row is `row0` and first column `col0`.
    pub(crate) fn place(&self, row0: u32, col0: u32) -> QuadrantPlace {
        QuadrantPlace {
            sum_shift: row0 + col0,
            diff_shift: row0 + self.n - self.half - col0,
        }
    }

    /// The sum and difference diagonals of square `(row, col)`, as one-bit masks.
    pub(crate) fn diagonals_of(&self, row: u32, col: u32) -> (u64, u64) {
        (1u64 << (row + col), 1u64 << (row + self.n - 1 - col))
    }

    /// The diagonals reachable from any quadrant square in `columns`.
    fn reachable(&self, columns: u64) -> (u64, u64) {
        let rows = self.north_rows() | self.south_rows();
        let (mut sum, mut diff) = (0, 0);
        for row in (0..self.n).filter(|r| rows >> r & 1 == 1) {
            for col in (0..self.n).filter(|c| columns >> c & 1 == 1) {
                let (s, d) = self.diagonals_of(row, col);
                sum |= s;
                diff |= d;
            }
        }
        (sum, diff)
    }

    /// The number of bits of a packed join pattern (at most 62).
    #[cfg(test)]
    pub(crate) fn pattern_bits(&self) -> u32 {
        self.sum_window_width + self.diff_window_width
    }

    /// The join pattern of the placements at `place`, as shifts and masks of their
    /// local diagonals.
    pub(crate) fn local_pattern(&self, place: QuadrantPlace) -> LocalPattern {
        LocalPattern {
            sum_up: place.sum_shift,
            sum_down: self.sum_window_lo,
            sum_mask: low_mask(self.sum_window_width),
            diff_up: place.diff_shift,
            diff_down: self.diff_window_lo,
            diff_mask: low_mask(self.diff_window_width),
            diff_offset: self.sum_window_width,
        }
    }

    /// The join pattern of the global diagonal masks `(sum, diff)`: the cross-window
    /// sum diagonals in the low bits, the difference diagonals above them.
    #[inline]
    pub(crate) fn pattern(&self, sum: u64, diff: u64) -> u64 {
        ((sum >> self.sum_window_lo) & low_mask(self.sum_window_width))
            | (((diff >> self.diff_window_lo) & low_mask(self.diff_window_width))
                << self.sum_window_width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_have_the_documented_width() {
        for n in 4..=32 {
            let layout = Layout::new(n);
            let per_direction = if n % 2 == 0 { n - 1 } else { n - 2 };
            assert_eq!(layout.pattern_bits(), 2 * per_direction, "n = {n}");
            assert!(layout.pattern_bits() <= 62);
        }
    }

    #[test]
    fn local_patterns_are_the_patterns_of_the_global_diagonals() {
        for n in [4, 9, 12, 20, 27, 32] {
            let layout = Layout::new(n);
            let q = layout.half;
            for (row0, col0) in [
                (0, 0),
                (0, layout.far0),
                (layout.far0, 0),
                (layout.far0, layout.far0),
            ] {
                let place = layout.place(row0, col0);
                let local = layout.local_pattern(place);
                for i in 0..q {
                    for j in 0..q {
                        let (sum, diff) = (1u64 << (i + j), 1u64 << (i + q - 1 - j));
                        let (global_sum, global_diff) = layout.diagonals_of(row0 + i, col0 + j);
                        assert_eq!(
                            local.of(sum, diff),
                            layout.pattern(global_sum, global_diff),
                            "n {n} place ({row0}, {col0}) square ({i}, {j})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn place_shifts_map_local_to_global_diagonals() {
        let layout = Layout::new(11);
        let (row0, col0) = (layout.far0, 0);
        let place = layout.place(row0, col0);
        let q = layout.half;
        for i in 0..q {
            for j in 0..q {
                let (s, d) = layout.diagonals_of(row0 + i, col0 + j);
                assert_eq!(s, 1u64 << (i + j + place.sum_shift));
                assert_eq!(d, 1u64 << (i + q - 1 - j + place.diff_shift));
            }
        }
    }
}
