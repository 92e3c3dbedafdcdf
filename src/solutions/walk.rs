//! Solutions in lexicographic order of their column sequence, one at a time: a
//! resumable depth-first walk over the ways to fill some rows, the iterator over whole
//! boards built on it, and the visitor of a prefix's completions.
//!
//! The search takes the lowest free column of each row first, so it meets the
//! solutions in lexicographic order (row 0's column first).

use std::ops::ControlFlow;

use crate::backtrack::search::scalar::{visit_completions, Frontier};
use crate::error::Error;
use crate::model::board::Board;
use crate::model::constraints::{column_of, Constraints, MAX_N};
use crate::model::placement::Placement;

/// A partial board whose rows `0..frontier.row` hold queens on the given columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prefix {
    /// The column of the queen of each decided row (entries past `frontier.row` are 0).
    pub queens: [u8; MAX_N],
    /// The attacked squares of the next row.
    pub frontier: Frontier,
}

impl Prefix {
    /// The empty board.
    pub(crate) const ROOT: Prefix = Prefix {
        queens: [0; MAX_N],
        frontier: Frontier::ROOT,
    };
}

/// A depth-first walk over the ways to fill rows `start.row..end` under some
/// constraints, in lexicographic order, kept on an explicit stack so that it can stop
/// after any placement and resume.
#[derive(Clone, Debug)]
pub(crate) struct Walk {
    constraints: Constraints,
    first: usize,
    end: usize,
    row: usize,
    pub(crate) queens: [u8; MAX_N],
    frontiers: [Frontier; MAX_N],
    avail: [u32; MAX_N],
    /// The frontier of the start (yielded as is when there is nothing to place).
    start: Frontier,
    done: bool,
}

impl Walk {
    pub(crate) fn new(constraints: Constraints, start: &Prefix, end: usize) -> Walk {
        let first = start.frontier.row;
        let mut walk = Walk {
            constraints,
            first,
            end,
            row: first,
            queens: start.queens,
            frontiers: [Frontier::ROOT; MAX_N],
            avail: [0; MAX_N],
            start: start.frontier,
            done: first > end,
        };
        if first < end {
            walk.frontiers[first] = start.frontier;
            walk.avail[first] = start.frontier.available(&constraints);
        }
        walk
    }

    /// Fills the rows up to `end` in the next way; `queens[..end]` then holds the
    /// columns, and the frontier below them is returned.
    #[inline]
    pub(crate) fn advance(&mut self) -> Option<Frontier> {
        if self.done {
            return None;
        }
        if self.first == self.end {
            self.done = true;
            return Some(self.start);
        }
        loop {
            let row = self.row;
            let avail = self.avail[row];
            if avail == 0 {
                if row == self.first {
                    self.done = true;
                    return None;
                }
                self.row -= 1;
                continue;
            }
            let bit = avail & avail.wrapping_neg();
            self.avail[row] = avail ^ bit;
            self.queens[row] = column_of(bit);
            let child = self.frontiers[row].place(bit);
            if row + 1 == self.end {
                return Some(child);
            }
            self.row = row + 1;
            self.frontiers[row + 1] = child;
            self.avail[row + 1] = child.available(&self.constraints);
        }
    }
}

/// Calls `visit` with the column sequence of every completion of `start` under
/// `constraints`, in lexicographic order, until `visit` breaks.
///
pub(crate) fn for_each_completion(
    constraints: &Constraints,
    start: &Prefix,
    visit: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let decided = start.frontier.row.min(constraints.n());
    visit_completions(constraints, start.frontier, &start.queens[..decided], visit)
}

/// The solutions allowed by some constraints (all solutions, or the completions of a
/// placement), as [`Board`]s in lexicographic order.
///
/// ```
/// use nqueens::Solutions;
///
/// let boards: Vec<_> = Solutions::all(6).unwrap().collect();
/// assert_eq!(boards.len(), 4);
/// assert_eq!(boards[0].columns(), [1, 3, 5, 0, 2, 4]);
/// assert!(boards.iter().all(|b| b.is_solution()));
/// ```
#[derive(Clone, Debug)]
pub struct Solutions {
    walk: Walk,
}

impl Solutions {
    /// Every solution of the n x n board.
    ///
    /// # Errors
    /// [`Error::Placement`] for a board size over [`crate::MAX_N`].
    pub fn all(n: usize) -> Result<Solutions, Error> {
        Ok(Solutions::completions(&Placement::empty(n)?))
    }

    /// The completions of `placement` (none if its queens attack each other).
    pub fn completions(placement: &Placement) -> Solutions {
        Solutions::within(placement.constraints())
    }

    /// The solutions allowed by `constraints`.
    pub fn within(constraints: Constraints) -> Solutions {
        let n = constraints.n();
        Solutions {
            walk: Walk::new(constraints, &Prefix::ROOT, n),
        }
    }
}

impl Iterator for Solutions {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        self.walk.advance()?;
        let n = self.walk.end;
        Some(Board::from_bytes(&self.walk.queens[..n]))
    }
}
