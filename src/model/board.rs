//! A full board: one queen per row, given by its column, with its renderings and its
//! images under the 8 symmetries of the square.
//!
//! The renderings are the classic ones: the AcWing 843 text (rows of `Q` and `.`
//! followed by an empty line), the LeetCode 51 list of row strings, a line of columns
//! and a JSON object. The fast writers of [`crate::model::format`] produce the same bytes.

use std::fmt;

use crate::model::constraints::{index_byte, MAX_N};

pub(crate) use crate::model::d4::Transform;

/// One queen in each row of an n x n board (n <= 32): `column(row)` is the column of
/// the queen of `row`. The queens need not be a solution; [`Board::is_solution`] says.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    n: u8,
    columns: [u8; MAX_N],
}

/// Why a list of columns is not a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// More rows than [`MAX_N`].
    #[error("a board has at most {MAX_N} rows, not {0}")]
    TooLarge(usize),
    /// A column outside `0..n`.
    #[error("row {row} has column {column}, outside 0..{n}")]
    ColumnOutOfRange {
        /// The row.
        row: usize,
        /// Its column.
        column: usize,
        /// The board size.
        n: usize,
    },
}

impl Board {
    /// The board with the queen of row `r` on column `columns[r]`.
    ///
    /// ```
    /// let board = nqueens::Board::new(&[1, 3, 0, 2]).unwrap();
    /// assert!(board.is_solution());
    /// assert_eq!(board.rows(), [".Q..", "...Q", "Q...", "..Q."]);
    /// ```
    ///
    /// # Errors
    /// [`BoardError::TooLarge`] for more than [`MAX_N`] rows,
    /// [`BoardError::ColumnOutOfRange`] for a column outside `0..n`.
    pub fn new(columns: &[usize]) -> Result<Board, BoardError> {
        let n = columns.len();
        if n > MAX_N {
            return Err(BoardError::TooLarge(n));
        }
        let mut board = Board {
            n: index_byte(n),
            columns: [0; MAX_N],
        };
        for (row, &column) in columns.iter().enumerate() {
            if column >= n {
                return Err(BoardError::ColumnOutOfRange { row, column, n });
            }
            board.columns[row] = index_byte(column);
        }
        Ok(board)
    }

    /// The board of `columns`, already known to be in range (as the search yields them).
    pub(crate) fn from_bytes(columns: &[u8]) -> Board {
        debug_assert!(columns.len() <= MAX_N);
        let mut board = Board {
            n: index_byte(columns.len()),
            columns: [0; MAX_N],
        };
        board.columns[..columns.len()].copy_from_slice(columns);
        board
    }

    /// The board size.
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// The column of each row.
    pub fn columns(&self) -> &[u8] {
        &self.columns[..self.n()]
    }

    /// The column of the queen of `row`.
    ///
    /// # Panics
    /// If `row >= n`.
    pub fn column(&self, row: usize) -> usize {
        usize::from(self.columns()[row])
    }

    /// Whether no two queens attack each other (same column or same diagonal).
    pub fn is_solution(&self) -> bool {
        let cols = self.columns();
        (0..cols.len()).all(|a| {
            (a + 1..cols.len())
                .all(|b| cols[a] != cols[b] && usize::from(cols[a].abs_diff(cols[b])) != b - a)
        })
    }

    /// The image of the board under `transform`. The image of a solution is a solution.
    ///
    /// The result has one queen per row only if the board has one per column, as a
    /// solution does; for other boards the rows of missing queens read column 0.
    #[must_use]
    pub fn transformed(&self, transform: Transform) -> Board {
        let n = self.n();
        let mut image = Board {
            n: self.n,
            columns: [0; MAX_N],
        };
        for (row, &column) in self.columns().iter().enumerate() {
            let (r, c) = transform.apply(n, (row, usize::from(column)));
            image.columns[r] = index_byte(c);
        }
        image
    }

    /// Whether the board is the lexicographically smallest of its 8 images (by column
    /// sequence): the representative of its symmetry class listed by `solve --unique`.
    pub fn is_canonical(&self) -> bool {
        is_canonical(self.columns())
    }

    /// The lexicographically smallest of the 8 images of the board.
    #[must_use]
    pub fn canonical(&self) -> Board {
        let images = Transform::ALL.map(|t| self.transformed(t));
        images.into_iter().fold(images[0], Ord::min)
    }

    /// The board in the AcWing 843 text format: n lines of `Q` and `.`, then an empty line.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(self.n() * (self.n() + 1) + 1);
        for row in self.rows() {
            text.push_str(&row);
            text.push('\n');
        }
        text.push('\n');
        text
    }

    /// The rows as strings of `Q` and `.`, as LeetCode 51 returns a board.
    pub fn rows(&self) -> Vec<String> {
        let n = self.n();
        self.columns()
            .iter()
            .map(|&c| {
                (0..n)
                    .map(|i| if i == usize::from(c) { 'Q' } else { '.' })
                    .collect()
            })
            .collect()
    }

    /// The columns separated by single spaces (no line end), e.g. `1 3 0 2`.
    pub fn columns_line(&self) -> String {
        let parts: Vec<String> = self.columns().iter().map(u8::to_string).collect();
        parts.join(" ")
    }

    /// The JSON object of the `jsonl` format (no line end), e.g. `{"columns":[1,3,0,2]}`.
    pub fn to_json(&self) -> String {
        let parts: Vec<String> = self.columns().iter().map(u8::to_string).collect();
        format!("{{\"columns\":[{}]}}", parts.join(","))
    }
}

/// Whether the column sequence of a solution is the lexicographically smallest of its 8
/// images. Each image is built and compared from row 0 on, stopping at the first
/// difference.
pub(crate) fn is_canonical(columns: &[u8]) -> bool {
    let n = columns.len();
    let mut image = [0u8; MAX_N];
    for transform in &Transform::ALL[1..] {
        for (row, &column) in columns.iter().enumerate() {
            let (r, c) = transform.apply(n, (row, usize::from(column)));
            image[r] = index_byte(c);
        }
        if image[..n] < *columns {
            return false;
        }
    }
    true
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board{:?}", self.columns())
    }
}

/// The rows of `Q` and `.`, one per line (the AcWing text without its empty line).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(cols: &[usize]) -> Board {
        Board::new(cols).unwrap()
    }

    #[test]
    fn renderings() {
        let b = board(&[1, 3, 0, 2]);
        assert_eq!(b.to_text(), ".Q..\n...Q\nQ...\n..Q.\n\n");
        assert_eq!(b.to_string(), ".Q..\n...Q\nQ...\n..Q.\n");
        assert_eq!(b.columns_line(), "1 3 0 2");
        assert_eq!(b.to_json(), r#"{"columns":[1,3,0,2]}"#);
        assert_eq!(format!("{b:?}"), "Board[1, 3, 0, 2]");
        assert_eq!(board(&[]).to_text(), "\n");
    }

    #[test]
    fn validation() {
        assert!(board(&[1, 3, 0, 2]).is_solution());
        assert!(!board(&[0, 2, 1, 3]).is_solution());
        assert!(!board(&[0, 0]).is_solution());
        assert!(Board::new(&[0, 2]).is_err());
        assert!(Board::new(&[0; 33]).is_err());
    }

    #[test]
    fn transforms_of_a_solution_are_solutions() {
        let b = board(&[2, 4, 1, 7, 0, 6, 3, 5]);
        let images: Vec<Board> = Transform::ALL.iter().map(|&t| b.transformed(t)).collect();
        assert!(images.iter().all(Board::is_solution));
        assert_eq!(images[0], b);
        // Rotating four times gives the board back; mirrors are involutions.
        let mut r = b;
        for _ in 0..4 {
            r = r.transformed(Transform::Rotate90);
        }
        assert_eq!(r, b);
        assert_eq!(
            b.transformed(Transform::Rotate90)
                .transformed(Transform::Rotate90),
            b.transformed(Transform::Rotate180)
        );
        assert_eq!(
            b.transformed(Transform::Transpose)
                .transformed(Transform::Transpose),
            b
        );
    }

    #[test]
    fn canonical_representatives() {
        let a = board(&[1, 3, 0, 2]);
        let b = board(&[2, 0, 3, 1]);
        assert!(a.is_canonical());
        assert!(!b.is_canonical());
        assert_eq!(b.canonical(), a);
        // The 10 solutions of n = 5 fall into 2 classes.
        let mut all = Vec::new();
        crate::naive::for_each_solution(5, |q| all.push(board(q)));
        assert_eq!(all.iter().filter(|b| b.is_canonical()).count(), 2);
        assert!(all.iter().all(|b| b.canonical().is_canonical()));
    }
}
