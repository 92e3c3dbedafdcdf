//! The counting kernel: a non-backtracking bitmask search.
//!
//! A partial board whose rows `0..row` are decided is a [`Frontier`]: the used columns
//! and the squares of row `row` attacked along the two diagonals. Placing the queen
//! `bit` gives the child `(cols | bit, (ld | bit) << 1, (rd | bit) >> 1)`; nothing is
//! undone on the way back. The search keeps the parents on an explicit stack, counts the
//! queens it places (`nodes`), and checks the last row without a loop: after row `n - 2`
//! at most one column is left.

#![allow(
    clippy::inline_always,
    reason = "the search must inline into the wrappers that compile it with the processor's bit instructions (`arch::x86_64::bitops`), and each leaf into the search loop"
)]

use std::ops::ControlFlow;

use crate::backtrack::canonical::class_weight;
use crate::model::constraints::{column_of, Constraints, MAX_N};

/// A partial board: rows `0..row` hold queens, and the masks describe row `row`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frontier {
    /// The next row to fill.
    pub row: usize,
    /// Columns already holding a queen.
    pub cols: u32,
    /// Squares of row `row` attacked along the down-right diagonals.
    pub ld: u32,
    /// Squares of row `row` attacked along the down-left diagonals.
    pub rd: u32,
}

impl Frontier {
    /// The empty board.
    pub const ROOT: Frontier = Frontier {
        row: 0,
        cols: 0,
        ld: 0,
        rd: 0,
    };

    /// The squares of the next row that are free and allowed by `constraints`.
    #[inline]
    pub fn available(&self, constraints: &Constraints) -> u32 {
        constraints.allowed(self.row) & !(self.cols | self.ld | self.rd)
    }

    /// The board after placing a queen on column bit `bit` of row `row`.
    #[inline]
    #[must_use]
    pub fn place(&self, bit: u32) -> Frontier {
        Frontier {
            row: self.row + 1,
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
        }
    }
}

/// What a search found: solutions and queens placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Complete boards reached.
    pub solutions: u64,
    /// Queens placed on the way (every visited node of the tree, the start excluded).
    /// One task cannot overflow a `u64`: that would take about 5,800 years at 10^8
    /// nodes per second; sums over tasks are `u128`.
    pub nodes: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.solutions += other.solutions;
        self.nodes += other.nodes;
    }
}

/// What the search does with each solution it reaches.
///
/// The kernel is generic over this, so that counting, weighing by symmetry class and
/// listing share one loop, each compiled on its own.
pub(crate) trait Leaf {
    /// Whether [`Leaf::solution`] needs the column of every row (tracking them costs a
    /// store per node).
    const NEEDS_BOARD: bool;

    /// Called with each solution (the column of each row when [`Leaf::NEEDS_BOARD`],
    /// otherwise an empty slice): how much it adds to the solution count, or `Break` to
    /// stop the search.
    fn solution(&mut self, board: &[u8]) -> ControlFlow<(), u64>;
}

/// Counts every solution once.
struct CountEach;

impl Leaf for CountEach {
    const NEEDS_BOARD: bool = false;

    #[inline(always)]
    fn solution(&mut self, _board: &[u8]) -> ControlFlow<(), u64> {
        ControlFlow::Continue(1)
    }
}

/// Weighs every solution by its full-symmetry class ([`class_weight`]).
struct WeighByClass;

impl Leaf for WeighByClass {
    const NEEDS_BOARD: bool = true;

    #[inline(always)]
    fn solution(&mut self, board: &[u8]) -> ControlFlow<(), u64> {
        ControlFlow::Continue(class_weight(board))
    }
}

/// Hands every solution to a closure, until it breaks.
struct Visit<F>(F);

impl<F: FnMut(&[u8]) -> ControlFlow<()>> Leaf for Visit<F> {
    const NEEDS_BOARD: bool = true;

    #[inline(always)]
    fn solution(&mut self, board: &[u8]) -> ControlFlow<(), u64> {
        (self.0)(board)?;
        ControlFlow::Continue(1)
    }
}

/// Counts the completions of `start` under `constraints`.
///
/// `nodes` counts every queen the search places below `start`, including the queens
/// of the last row.
#[inline(always)]
pub fn count(constraints: &Constraints, start: Frontier) -> Tally {
    run(constraints, start, &[], &mut CountEach).0
}

/// Like [`count`], but each solution counts with its full-symmetry class weight
/// ([`crate::backtrack::canonical::class_weight`]: 8, 4, 2, or 0 when it is not the class
/// representative), so `solutions` is a weighted count. `prefix` holds the columns of
/// the rows above `start`. As `class_weight` requires, `constraints` are those of an
/// edge seed of [`crate::backtrack::canonical`] (or narrower).
#[inline(always)]
pub(crate) fn weigh_by_class(constraints: &Constraints, start: Frontier, prefix: &[u8]) -> Tally {
    run(constraints, start, prefix, &mut WeighByClass).0
}

/// Calls `visit` with the columns of every completion of `start` (whose rows above
/// hold the columns `prefix`), in lexicographic order, until `visit` breaks.
pub(crate) fn visit_completions(
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
    visit: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    run(constraints, start, prefix, &mut Visit(visit)).1
}

/// The search itself: (what it found, whether the leaf stopped it).
#[inline(always)]
fn run<L: Leaf>(
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
    leaf: &mut L,
) -> (Tally, ControlFlow<()>) {
    let n = constraints.n();
    let mut board = [0u8; MAX_N];
    if L::NEEDS_BOARD {
        board[..start.row.min(n)].copy_from_slice(&prefix[..start.row.min(n)]);
    }
    let board_len = if L::NEEDS_BOARD { n } else { 0 };
    let mut tally = Tally::default();
    if start.row >= n {
        return match leaf.solution(&board[..board_len]) {
            ControlFlow::Continue(weight) => {
                tally.solutions = weight;
                (tally, ControlFlow::Continue(()))
            }
            ControlFlow::Break(()) => (tally, ControlFlow::Break(())),
        };
    }
    let allowed = constraints.rows();
    let Frontier {
        row: first,
        mut cols,
        mut ld,
        mut rd,
    } = start;
    let mut avail = allowed[first] & !(cols | ld | rd);
    if first == n - 1 {
        if avail == 0 {
            return (tally, ControlFlow::Continue(()));
        }
        tally.nodes = 1;
        board[first] = column_of(avail);
        return match leaf.solution(&board[..board_len]) {
            ControlFlow::Continue(weight) => {
                tally.solutions = weight;
                (tally, ControlFlow::Continue(()))
            }
            ControlFlow::Break(()) => (tally, ControlFlow::Break(())),
        };
    }
    let last_mask = allowed[n - 1];
    let penultimate = n - 2;
    let mut stack = [[0u32; 4]; MAX_N];
    let mut row = first;
    let mut solutions = 0u64;
    let mut nodes = u64::from(avail.count_ones());
    loop {
        while avail == 0 {
            if row == first {
                return (Tally { solutions, nodes }, ControlFlow::Continue(()));
            }
            row -= 1;
            [cols, ld, rd, avail] = stack[row];
        }
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        if L::NEEDS_BOARD {
            board[row] = column_of(bit);
        }
        if row == penultimate {
            let last = last_mask & !((cols | bit) | ((ld | bit) << 1) | ((rd | bit) >> 1));
            if last != 0 {
                nodes += 1;
                if L::NEEDS_BOARD {
                    board[n - 1] = column_of(last);
                }
                match leaf.solution(&board[..board_len]) {
                    ControlFlow::Continue(weight) => solutions += weight,
                    ControlFlow::Break(()) => {
                        return (Tally { solutions, nodes }, ControlFlow::Break(()));
                    }
                }
            }
            continue;
        }
        stack[row] = [cols, ld, rd, avail];
        cols |= bit;
        ld = (ld | bit) << 1;
        rd = (rd | bit) >> 1;
        row += 1;
        avail = allowed[row] & !(cols | ld | rd);
        nodes += u64::from(avail.count_ones());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_tree_of_small_boards() {
        // A000170 and the size of the whole backtracking tree (root excluded).
        let expected = [(1, 1, 1), (4, 2, 16), (8, 92, 2_056), (10, 724, 35_538)];
        for (n, solutions, nodes) in expected {
            let t = count(&Constraints::new(n), Frontier::ROOT);
            assert_eq!((t.solutions, t.nodes), (solutions, nodes), "n = {n}");
        }
    }

    #[test]
    fn complete_board_counts_once() {
        let c = Constraints::new(1);
        let f = Frontier::ROOT.place(1);
        assert_eq!(
            count(&c, f),
            Tally {
                solutions: 1,
                nodes: 0
            }
        );
    }

    #[test]
    fn constraints_narrow_the_search() {
        // Only row-0 column 1 allowed on a 4x4 board: exactly one solution (1,3,0,2).
        let mut c = Constraints::new(4);
        c.restrict(0, 0b0010);
        assert_eq!(count(&c, Frontier::ROOT).solutions, 1);
    }
}
