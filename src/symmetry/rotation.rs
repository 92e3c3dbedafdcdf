//! Solutions fixed by a rotation, and the fundamental count by Burnside's lemma.
//!
//! A solution fixed by the half turn (or the quarter turn) is a union of orbits of
//! squares under that rotation, so it is enough to choose the queens of the first free
//! row and place their whole orbit at once: the search only decides about half (or a
//! quarter) of the queens, and is tiny next to the full count.
//!
//! For n >= 2 no solution is fixed by a reflection, so Burnside's lemma over the 8
//! symmetries of the square gives the number of classes ("fundamental" solutions,
//! OEIS A002562) as `(total + P + 2R) / 8`, where `P` (A032522) counts the solutions fixed
//! by the half turn (those fixed by the quarter turn included) and `R` (A033148) those
//! fixed by the quarter turn.

use rayon::prelude::*;

use crate::error::Error;
use crate::model::d4::Transform;

/// A rotation group: the half turn alone, or all quarter turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// `{identity, half turn}`.
    HalfTurn,
    /// `{identity, quarter turn, half turn, three-quarter turn}`.
    QuarterTurn,
}

impl Rotation {
    fn transforms(self) -> &'static [Transform] {
        match self {
            Rotation::HalfTurn => &[Transform::Rotate180],
            Rotation::QuarterTurn => &[
                Transform::Rotate90,
                Transform::Rotate180,
                Transform::Rotate270,
            ],
        }
    }
}

/// The number of solutions of the n x n board fixed by `rotation` (n <= 32).
///
/// ```
/// use nqueens::internals::{fixed_by, Rotation};
/// assert_eq!(fixed_by(8, Rotation::HalfTurn), 4);
/// assert_eq!(fixed_by(12, Rotation::QuarterTurn), 8);
/// ```
///
/// The orbits of the row-0 queen are searched in parallel on the current rayon pool.
///
/// # Panics
/// If `n > 32`.
pub fn fixed_by(n: usize, rotation: Rotation) -> u128 {
    assert!(n <= crate::model::constraints::MAX_N);
    let empty = OrbitBoard {
        n,
        rotation,
        row_taken: 0,
        cols: 0,
        diagonals: 0,
        anti_diagonals: 0,
    };
    if n == 0 {
        return 1;
    }
    (0..n)
        .into_par_iter()
        .map(|col| {
            let mut board = empty;
            if board.place_orbit(0, col) {
                board.count_from(1)
            } else {
                0
            }
        })
        .sum()
}

/// The number of fundamental solutions (classes under the 8 symmetries) from the total
/// and the rotation-fixed counts, or `None` if they are inconsistent (not divisible, or
/// too large to add up).
pub(crate) fn fundamental(n: usize, total: u128, rot180: u128, rot90: u128) -> Option<u128> {
    if n < 2 {
        // The empty board and the single queen are fixed by every symmetry.
        return Some(total);
    }
    let sum = total
        .checked_add(rot180)?
        .checked_add(rot90.checked_mul(2)?)?;
    sum.is_multiple_of(8).then_some(sum / 8)
}

/// The fundamental count of a board and the rotation-fixed counts it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fundamental {
    /// Classes under the 8 symmetries (A002562).
    pub(crate) unique: u128,
    /// Solutions fixed by the half turn (A032522).
    pub(crate) rot180: u128,
    /// Solutions fixed by the quarter turn (A033148).
    pub(crate) rot90: u128,
}

/// The solutions of the n x n board fixed by the half turn and by the quarter turn,
/// searched in parallel on the current pool.
pub(crate) fn rotation_fixed(n: usize) -> (u128, u128) {
    rayon::join(
        || fixed_by(n, Rotation::HalfTurn),
        || fixed_by(n, Rotation::QuarterTurn),
    )
}

/// The fundamental count of a board of size `n` with `total` solutions: the
/// rotation-fixed solutions are searched (in parallel on the current pool) and the
/// classes follow by Burnside's lemma. A total that gives no whole number of classes is
/// [`Error::Inconsistent`].
pub(crate) fn fundamental_counts(n: usize, total: u128) -> Result<Fundamental, Error> {
    let (rot180, rot90) = rotation_fixed(n);
    let unique = fundamental(n, total, rot180, rot90).ok_or(Error::Inconsistent {
        n,
        total,
        rot180,
        rot90,
    })?;
    Ok(Fundamental {
        unique,
        rot180,
        rot90,
    })
}

/// A partial board built from whole orbits.
#[derive(Clone, Copy)]
struct OrbitBoard {
    n: usize,
    rotation: Rotation,
    row_taken: u32,
    cols: u32,
    /// Bit `r + c`.
    diagonals: u64,
    /// Bit `r + n - 1 - c`.
    anti_diagonals: u64,
}

impl OrbitBoard {
    fn count_from(&mut self, mut row: usize) -> u128 {
        while row < self.n && self.row_taken & (1 << row) != 0 {
            row += 1;
        }
        if row == self.n {
            return 1;
        }
        let mut found = 0;
        for col in 0..self.n {
            let saved = (
                self.row_taken,
                self.cols,
                self.diagonals,
                self.anti_diagonals,
            );
            if self.place_orbit(row, col) {
                found += self.count_from(row + 1);
            }
            (
                self.row_taken,
                self.cols,
                self.diagonals,
                self.anti_diagonals,
            ) = saved;
        }
        found
    }

    /// Places the queen (row, col) and its images; false if any of them is attacked.
    fn place_orbit(&mut self, row: usize, col: usize) -> bool {
        if !self.place(row, col) {
            return false;
        }
        for t in self.rotation.transforms() {
            let (r, c) = t.apply(self.n, (row, col));
            if (r, c) == (row, col) {
                continue; // the centre: its own image
            }
            if !self.place(r, c) {
                return false;
            }
        }
        true
    }

    fn place(&mut self, r: usize, c: usize) -> bool {
        let d = 1u64 << (r + c);
        let a = 1u64 << (r + self.n - 1 - c);
        if self.row_taken & (1 << r) != 0
            || self.cols & (1 << c) != 0
            || self.diagonals & d != 0
            || self.anti_diagonals & a != 0
        {
            return false;
        }
        self.row_taken |= 1 << r;
        self.cols |= 1 << c;
        self.diagonals |= d;
        self.anti_diagonals |= a;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::published::published;

    #[test]
    fn fixed_counts_match_the_published_values() {
        for n in 0..=14 {
            let p = published(n).unwrap();
            assert_eq!(fixed_by(n, Rotation::HalfTurn), p.rot180, "P, n = {n}");
            assert_eq!(fixed_by(n, Rotation::QuarterTurn), p.rot90, "R, n = {n}");
        }
    }

    #[test]
    fn fundamental_by_burnside() {
        for n in 0..=14 {
            let p = published(n).unwrap();
            assert_eq!(
                fundamental(n, p.total, p.rot180, p.rot90),
                Some(p.unique),
                "n = {n}"
            );
        }
        assert_eq!(fundamental(8, 93, 4, 0), None);
    }

    #[test]
    fn agrees_with_checking_every_solution() {
        for n in 4..=9 {
            let (mut half, mut quarter) = (0, 0);
            crate::naive::for_each_solution(n, |p| {
                half += u128::from(Transform::Rotate180.apply_to_columns(p) == p);
                quarter += u128::from(Transform::Rotate90.apply_to_columns(p) == p);
            });
            assert_eq!(fixed_by(n, Rotation::HalfTurn), half);
            assert_eq!(fixed_by(n, Rotation::QuarterTurn), quarter);
        }
    }
}
