//! Pre-placed queens (the "n-queens completion" problem): parsing `R:C[,R:C...]`,
//! validation, and the row [`Constraints`] whose solutions are exactly the completions.
//!
//! A queen fixed on `(r, c)` restricts row `r` to column `c` and forbids, in every
//! other row, the squares it attacks: its column and both its diagonals. The unchanged
//! kernel then counts (and the enumerator lists) the completions. Queens that attack
//! each other are valid input: each forbids the other's only square, so there is no
//! completion.

use std::fmt;

use crate::model::constraints::{full_mask, Constraints, MAX_N};

/// A set of queens fixed on an n x n board, at most one per row, sorted by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    n: usize,
    queens: Vec<(usize, usize)>,
}

/// Why a placement was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// The text is not a comma-separated list of `R:C` pairs.
    #[error("malformed placement '{text}': expected R:C[,R:C...] with 0-based row and column numbers, e.g. 0:1,2:5")]
    Malformed {
        /// The rejected text.
        text: String,
    },
    /// A square outside the board.
    #[error("placed queen {row}:{column} is off the board: for N = {n} rows and columns must be from 0 to {}", n.saturating_sub(1))]
    OffBoard {
        /// The board size.
        n: usize,
        /// The row as written (saturated if it does not fit).
        row: usize,
        /// The column as written (saturated if it does not fit).
        column: usize,
    },
    /// The board of size 0 has no square at all.
    #[error(
        "placed queen {row}:{column} is off the board: the board of size N = 0 has no squares"
    )]
    EmptyBoard {
        /// The row as written.
        row: usize,
        /// The column as written.
        column: usize,
    },
    /// Two queens in the same row (a solution has exactly one per row).
    #[error("two placed queens in row {row} ({row}:{first} and {row}:{second}): place at most one queen per row")]
    SameRow {
        /// The row.
        row: usize,
        /// The column of the first queen.
        first: usize,
        /// The column of the second queen.
        second: usize,
    },
    /// One solution per symmetry class was asked for together with placed queens: the
    /// symmetries of the board do not map completions onto completions, so the classes
    /// are not defined.
    #[error("fundamental (unique) counts and lists cannot be combined with placed queens: symmetry classes are only defined for the whole board")]
    Unique,
    /// The board is larger than the counters accept.
    #[error("board size {n} is out of range: N must be from 0 to {MAX_N}")]
    BoardSize {
        /// The rejected size.
        n: usize,
    },
}

impl Placement {
    /// The placement of `queens` (`(row, column)`, 0-based, in any order) on an n x n
    /// board: every square on the board, at most one queen per row.
    ///
    /// ```
    /// use nqueens::Placement;
    ///
    /// let p = Placement::new(8, &[(3, 4), (0, 0)]).unwrap();
    /// assert_eq!(p.queens(), [(0, 0), (3, 4)]);
    /// assert!(Placement::new(8, &[(8, 0)]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`PlacementError::BoardSize`] for `n` over [`MAX_N`];
    /// [`PlacementError::OffBoard`] (or [`PlacementError::EmptyBoard`] when `n` is 0)
    /// for a queen off the board; [`PlacementError::SameRow`] for two queens in one row.
    pub fn new(n: usize, queens: &[(usize, usize)]) -> Result<Placement, PlacementError> {
        if n > MAX_N {
            return Err(PlacementError::BoardSize { n });
        }
        for &(row, column) in queens {
            if n == 0 {
                return Err(PlacementError::EmptyBoard { row, column });
            }
            if row >= n || column >= n {
                return Err(PlacementError::OffBoard { n, row, column });
            }
        }
        let mut sorted = queens.to_vec();
        sorted.sort_unstable();
        for pair in sorted.windows(2) {
            if pair[0].0 == pair[1].0 {
                return Err(PlacementError::SameRow {
                    row: pair[0].0,
                    first: pair[0].1,
                    second: pair[1].1,
                });
            }
        }
        Ok(Placement { n, queens: sorted })
    }

    /// The placement with no queen: its completions are all the solutions.
    ///
    /// # Errors
    /// [`PlacementError::BoardSize`] for `n` over [`MAX_N`].
    pub fn empty(n: usize) -> Result<Placement, PlacementError> {
        Placement::new(n, &[])
    }

    /// Parses `R:C[,R:C...]` (0-based row and column; spaces around numbers allowed)
    /// for an n x n board.
    ///
    /// ```
    /// use nqueens::Placement;
    ///
    /// let p = Placement::parse(6, "0:1, 2:0").unwrap();
    /// assert_eq!(p.queens(), [(0, 1), (2, 0)]);
    /// assert!(Placement::parse(6, "0-1").is_err());
    /// ```
    ///
    /// # Errors
    /// [`PlacementError::Malformed`] for text that is not such a list; otherwise the
    /// errors of [`Placement::new`].
    pub fn parse(n: usize, text: &str) -> Result<Placement, PlacementError> {
        let malformed = || PlacementError::Malformed {
            text: text.to_string(),
        };
        let mut queens = Vec::new();
        for item in text.split(',') {
            let (row, column) = item.split_once(':').ok_or_else(malformed)?;
            let row = parse_number(row).ok_or_else(malformed)?;
            let column = parse_number(column).ok_or_else(malformed)?;
            queens.push((row, column));
        }
        Placement::new(n, &queens)
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The queens, `(row, column)`, sorted by row.
    pub fn queens(&self) -> &[(usize, usize)] {
        &self.queens
    }

    /// Whether no queen is placed.
    pub fn is_empty(&self) -> bool {
        self.queens.is_empty()
    }

    /// The first two placed queens (in row order) that attack each other, if any; then
    /// there is no completion.
    pub fn conflict(&self) -> Option<((usize, usize), (usize, usize))> {
        for (i, &a) in self.queens.iter().enumerate() {
            for &b in &self.queens[i + 1..] {
                if attack(a, b) {
                    return Some((a, b));
                }
            }
        }
        None
    }

    /// The row constraints whose solutions are the completions of the placement.
    pub fn constraints(&self) -> Constraints {
        let mut constraints = Constraints::new(self.n);
        for &(r, c) in &self.queens {
            for row in 0..self.n {
                if row == r {
                    constraints.restrict(row, 1 << c);
                } else {
                    constraints.forbid(row, attacked_in_row(self.n, r, c, row));
                }
            }
        }
        constraints
    }

    /// Whether a solution (column per row) extends the placement.
    pub fn admits(&self, columns: &[u8]) -> bool {
        self.queens
            .iter()
            .all(|&(r, c)| columns.get(r).is_some_and(|&col| usize::from(col) == c))
    }

    /// Fundamental counts and lists (`unique`) are defined for the whole board only:
    /// with placed queens they are refused.
    ///
    /// # Errors
    /// [`PlacementError::Unique`] when `unique` is asked for and a queen is placed.
    pub fn allow_unique(&self, unique: bool) -> Result<(), PlacementError> {
        if unique && !self.is_empty() {
            Err(PlacementError::Unique)
        } else {
            Ok(())
        }
    }

    /// Whether the left-right mirror maps the placement onto itself (every queen is on
    /// the middle column of an odd board).
    pub fn is_mirror_symmetric(&self) -> bool {
        self.queens.iter().all(|&(_, c)| 2 * c + 1 == self.n)
    }
}

/// `R:C[,R:C...]`, as accepted by [`Placement::parse`].
impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (r, c)) in self.queens.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}:{c}")?;
        }
        Ok(())
    }
}

/// A decimal number; digits only (after trimming spaces), saturating at `usize::MAX`
/// so that a huge number is reported as off the board rather than as malformed.
fn parse_number(text: &str) -> Option<usize> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(usize::MAX))
}

/// Whether queens on squares `a` and `b` attack each other.
fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// The squares of `row` attacked by a queen on `(r, c)` (another row): its column and
/// the two diagonal squares that are on the board.
fn attacked_in_row(n: usize, r: usize, c: usize, row: usize) -> u32 {
    let d = r.abs_diff(row);
    let mut mask = 1u32 << c;
    if c >= d {
        mask |= 1 << (c - d);
    }
    if c + d < n {
        mask |= 1 << (c + d);
    }
    mask & full_mask(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The completions of `p`, by filtering every solution of the textbook search.
    fn completions(p: &Placement) -> usize {
        let mut found = 0;
        crate::naive::for_each_solution(p.n(), |q| {
            let columns: Vec<u8> = q
                .iter()
                .map(|&c| crate::model::constraints::index_byte(c))
                .collect();
            let allowed = (0..p.n()).all(|row| p.constraints().allowed(row) >> q[row] & 1 == 1);
            assert_eq!(allowed, p.admits(&columns), "{q:?}");
            found += usize::from(allowed);
        });
        found
    }

    #[test]
    fn parsing() {
        assert_eq!(
            Placement::parse(8, "3:4,0:0").unwrap().queens(),
            [(0, 0), (3, 4)]
        );
        assert_eq!(Placement::parse(8, " 1 : 2 ").unwrap().queens(), [(1, 2)]);
        for bad in [
            "", "1", "1:", ":1", "a:b", "1:2,", "1:2:3", "-1:2", "1;2", "1:2,,3:4",
        ] {
            assert!(
                matches!(
                    Placement::parse(8, bad),
                    Err(PlacementError::Malformed { .. })
                ),
                "{bad:?}"
            );
        }
        assert_eq!(
            Placement::parse(8, "8:0"),
            Err(PlacementError::OffBoard {
                n: 8,
                row: 8,
                column: 0
            })
        );
        assert!(matches!(
            Placement::parse(8, "0:99999999999999999999999"),
            Err(PlacementError::OffBoard { .. })
        ));
        assert!(matches!(
            Placement::parse(0, "0:0"),
            Err(PlacementError::EmptyBoard { .. })
        ));
        assert_eq!(
            Placement::parse(8, "2:1,2:5"),
            Err(PlacementError::SameRow {
                row: 2,
                first: 1,
                second: 5
            })
        );
        assert!(Placement::parse(8, "2:1,2:1").is_err());
    }

    #[test]
    fn messages_name_the_problem_and_the_range() {
        let e = Placement::parse(8, "0:8").unwrap_err().to_string();
        assert!(e.contains("0:8") && e.contains("from 0 to 7"), "{e}");
        let e = Placement::parse(8, "x").unwrap_err().to_string();
        assert!(e.contains("R:C"), "{e}");
    }

    #[test]
    fn display_round_trips() {
        let p = Placement::parse(9, "4:4,0:7").unwrap();
        assert_eq!(p.to_string(), "0:7,4:4");
        assert_eq!(Placement::parse(9, &p.to_string()).unwrap(), p);
    }

    #[test]
    fn conflicts() {
        assert_eq!(
            Placement::parse(8, "0:0,1:1").unwrap().conflict(),
            Some(((0, 0), (1, 1)))
        );
        assert_eq!(
            Placement::parse(8, "0:0,5:0").unwrap().conflict(),
            Some(((0, 0), (5, 0)))
        );
        assert_eq!(Placement::parse(8, "0:0,1:2").unwrap().conflict(), None);
        let p = Placement::parse(8, "0:0,1:1").unwrap();
        assert_eq!(completions(&p), 0);
    }

    #[test]
    fn constraints_count_the_completions() {
        // Of the 92 solutions of n = 8, 4 have their row-0 queen in column 0.
        let p = Placement::parse(8, "0:0").unwrap();
        assert_eq!(completions(&p), 4);
        let p = Placement::empty(8).unwrap();
        assert_eq!(completions(&p), 92);
        assert_eq!(attacked_in_row(8, 3, 0, 5), 0b101);
        assert_eq!(attacked_in_row(8, 3, 7, 0), 0b1001_0000);
    }

    #[test]
    fn mirror_symmetry() {
        assert!(Placement::empty(8).unwrap().is_mirror_symmetric());
        assert!(Placement::parse(9, "3:4").unwrap().is_mirror_symmetric());
        assert!(!Placement::parse(8, "3:4").unwrap().is_mirror_symmetric());
    }

    #[test]
    fn admits() {
        let p = Placement::parse(4, "0:1").unwrap();
        assert!(p.admits(&[1, 3, 0, 2]));
        assert!(!p.admits(&[2, 0, 3, 1]));
    }
}
