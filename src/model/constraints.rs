//! Per-row column constraints of a search.
//!
//! Every search in this crate runs on an n x n board (n <= 32, column `c` is bit `c`
//! of a `u32`) where each row may additionally be limited to a subset of its columns.
//! Plain counting allows every column everywhere; symmetry reduction and pre-placed
//! queens express themselves as narrower row masks, so that a single kernel serves them
//! all.

pub(crate) use crate::limits::MAX_N;

/// The board size and, for each row, the columns a queen may take there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constraints {
    n: usize,
    allowed: [u32; MAX_N],
}

impl Constraints {
    /// A board of size `n` with no constraint beyond the board itself.
    ///
    /// # Panics
    /// If `n > MAX_N`.
    pub fn new(n: usize) -> Self {
        assert!(n <= MAX_N, "board size {n} exceeds {MAX_N}");
        let mut allowed = [0; MAX_N];
        allowed[..n].fill(full_mask(n));
        Constraints { n, allowed }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The mask of the columns of row `row` where a queen may stand.
    pub fn allowed(&self, row: usize) -> u32 {
        self.allowed[row]
    }

    /// All row masks, indexed by row (rows `>= n` are 0).
    pub fn rows(&self) -> &[u32; MAX_N] {
        &self.allowed
    }

    /// Forbids the columns in `mask` on row `row`.
    pub fn forbid(&mut self, row: usize, mask: u32) {
        self.allowed[row] &= !mask;
    }

    /// Restricts row `row` to the columns in `mask`.
    pub fn restrict(&mut self, row: usize, mask: u32) {
        self.allowed[row] &= mask;
    }
}

/// The column of the lowest set bit of `bits` (a queen's column bit), as a board
/// stores it; 32 when `bits` is 0.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the trailing zeros of a u32 number at most 32, which fits a u8"
)]
pub(crate) fn column_of(bits: u32) -> u8 {
    bits.trailing_zeros() as u8
}

/// A row or column of a board, or its size (at most [`MAX_N`]), as the byte a board
/// stores.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "boards are at most MAX_N = 32 wide (checked in debug builds), so the index fits a u8"
)]
pub(crate) fn index_byte(index: usize) -> u8 {
    debug_assert!(index <= MAX_N, "board index {index} over {MAX_N}");
    index as u8
}

/// The mask with the low `n` bits set: every column of an n-wide board.
pub(crate) fn full_mask(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_masks() {
        assert_eq!(full_mask(0), 0);
        assert_eq!(full_mask(1), 1);
        assert_eq!(full_mask(8), 0xff);
        assert_eq!(full_mask(32), u32::MAX);
    }

    #[test]
    fn forbid_and_restrict() {
        let mut c = Constraints::new(4);
        c.forbid(1, 0b0011);
        c.restrict(2, 0b0110);
        assert_eq!(c.allowed(0), 0b1111);
        assert_eq!(c.allowed(1), 0b1100);
        assert_eq!(c.allowed(2), 0b0110);
        assert_eq!(c.allowed(4), 0);
    }
}
