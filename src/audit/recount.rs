//! The independent recount of a described unit ([`UnitSpec`]): a plain recursive
//! bitmask search of its own, sharing no code with either engine.
//!
//! For the join engine the method itself is independent: the join pairs half-boards
//! built from quadrant tables, this search places one queen per row on the whole
//! board. For the backtracking engine it is another code path than the kernels (a
//! recursion with no explicit stack, no vector lanes, no last-row shortcut, and its own
//! class weight). Rows are filled from the top, each within its allowed columns and off
//! the columns and diagonals in use. A complete board is weighed by the unit's
//! [`Weighing`]: its class weight by building and comparing all eight of its images
//! (where the kernels compare six, with shortcuts), its long-diagonal weight by looking
//! at both diagonals. Every queen placed is a node, so a backtracking task's nodes are
//! checked too.
//!
//! This module uses the engine layer's unit description and the board model.

use crate::engine::spec::{Term, UnitSpec, Weighing};
use crate::model::constraints::{Constraints, MAX_N};

/// What a recount found: the unit's weighted solutions and the queens placed below
/// the rows fixed above its start (`None` when the unit's work is not nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Recount {
    /// The weighted solutions.
    pub(crate) weighted: u128,
    /// The queens placed below the rows above the start, for a unit whose work is
    /// nodes.
    pub(crate) nodes: Option<u128>,
}

/// Recounts `spec`.
pub(crate) fn recount(spec: &UnitSpec) -> Recount {
    let mut weighted = 0u128;
    let mut nodes = 0u128;
    for term in &spec.terms {
        let (w, placed) = search(term);
        weighted += w;
        nodes += placed;
    }
    let above = spec
        .rows_above
        .map(|rows| rows as u128 * spec.terms.len() as u128);
    Recount {
        weighted,
        // The fixed rows above the start hold one queen each in every term's search.
        nodes: above.map(|above| nodes.saturating_sub(above)),
    }
}

/// The weighted solutions of one term and the queens its search placed.
fn search(term: &Term) -> (u128, u128) {
    let mut state = State {
        n: term.constraints.n(),
        constraints: term.constraints,
        weighing: term.weighing,
        board: [0; MAX_N],
        weighted: 0,
        nodes: 0,
    };
    state.fill(0, 0, 0, 0);
    (state.weighted, state.nodes)
}

/// The search's state: the board so far and the sums.
struct State {
    n: usize,
    constraints: Constraints,
    weighing: Weighing,
    /// The column of each filled row.
    board: [u8; MAX_N],
    weighted: u128,
    nodes: u128,
}

impl State {
    /// Fills rows `row..n` given the columns in use and the squares of row `row`
    /// attacked along the two diagonal directions.
    fn fill(&mut self, row: usize, columns: u32, down_right: u32, down_left: u32) {
        if row == self.n {
            self.weighted += u128::from(self.weight());
            return;
        }
        let mut free = self.constraints.allowed(row) & !(columns | down_right | down_left);
        if row + 1 == self.n {
            // The last row: at most one column is left.
            if free != 0 {
                self.nodes += 1;
                self.board[row] = u8::try_from(free.trailing_zeros()).expect("below 32");
                self.weighted += u128::from(self.weight());
            }
            return;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.nodes += 1;
            self.board[row] = u8::try_from(bit.trailing_zeros()).expect("a column below 32");
            self.fill(
                row + 1,
                columns | bit,
                (down_right | bit) << 1,
                (down_left | bit) >> 1,
            );
        }
    }

    /// The weight of the complete board.
    fn weight(&self) -> u64 {
        let board = &self.board[..self.n];
        match self.weighing {
            Weighing::Each(weight) => weight,
            Weighing::ByClass(times) => times * class_weight(board),
            Weighing::ByLongDiagonals(weights) => {
                let last = self.n - 1;
                let main = board.iter().enumerate().any(|(r, &c)| usize::from(c) == r);
                let anti = board
                    .iter()
                    .enumerate()
                    .any(|(r, &c)| usize::from(c) == last - r);
                weights[usize::from(main) + usize::from(anti)]
            }
        }
    }
}

/// The size of the class of solution `board` under the 8 symmetries of the square if
/// `board` is its lexicographically smallest member, else 0: each image is built and
/// compared in full.
fn class_weight(board: &[u8]) -> u64 {
    let n = board.len();
    let last = n - 1;
    let mut fixed = 0u64;
    let mut image = [0u8; MAX_N];
    for transform in 0..8 {
        for (row, &col) in board.iter().enumerate() {
            let col = usize::from(col);
            let (r, c) = match transform {
                0 => (row, col),
                1 => (col, last - row),
                2 => (last - row, last - col),
                3 => (last - col, row),
                4 => (row, last - col),
                5 => (last - row, col),
                6 => (col, row),
                _ => (last - col, last - row),
            };
            image[r] = u8::try_from(c).expect("a column below 32");
        }
        match image[..n].cmp(board) {
            std::cmp::Ordering::Less => return 0,
            std::cmp::Ordering::Equal => fixed += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    8 / fixed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(constraints: Constraints, weighing: Weighing) -> UnitSpec {
        UnitSpec {
            terms: vec![Term {
                constraints,
                weighing,
            }],
            rows_above: Some(0),
            description: String::new(),
        }
    }

    #[test]
    fn whole_boards_give_the_known_counts_and_trees() {
        // A000170, A002562, and the whole tree of the backtracking search.
        for (n, total, unique, nodes) in [(1, 1, 1, 1), (4, 2, 1, 16), (8, 92, 12, 2_056)] {
            let each = recount(&term(Constraints::new(n), Weighing::Each(1)));
            assert_eq!(each.weighted, total);
            assert_eq!(each.nodes, Some(nodes));
            let classes = recount(&term(Constraints::new(n), Weighing::ByClass(1)));
            assert_eq!(classes.weighted, total);
            // Counting each class once instead: the fundamental solutions.
            let mut once = 0;
            crate::naive::for_each_solution(n, |p| {
                let board: Vec<u8> = p.iter().map(|&c| u8::try_from(c).unwrap()).collect();
                once += u128::from(class_weight(&board) > 0);
            });
            assert_eq!(once, unique);
        }
        assert_eq!(
            recount(&term(Constraints::new(10), Weighing::Each(3))).weighted,
            2_172
        );
    }

    #[test]
    fn long_diagonal_weights_split_the_solutions() {
        // n = 8: solutions by queens on the long diagonals, counted by the naive search.
        let mut classes = [0u128; 3];
        crate::naive::for_each_solution(8, |p| {
            let main = (0..8).any(|r| p[r] == r);
            let anti = (0..8).any(|r| p[r] == 7 - r);
            classes[usize::from(main) + usize::from(anti)] += 1;
        });
        let weights = [1, 100, 10_000];
        let got = recount(&term(
            Constraints::new(8),
            Weighing::ByLongDiagonals(weights),
        ));
        let want: u128 = (0..3).map(|k| classes[k] * u128::from(weights[k])).sum();
        assert_eq!(got.weighted, want);
    }

    #[test]
    fn fixed_rows_above_are_not_work() {
        let mut constraints = Constraints::new(8);
        constraints.restrict(0, 1);
        constraints.restrict(1, 1 << 4);
        let mut spec = term(constraints, Weighing::Each(1));
        spec.rows_above = Some(2);
        let got = recount(&spec);
        let all = recount(&term(constraints, Weighing::Each(1)));
        assert_eq!(got.nodes.unwrap() + 2, all.nodes.unwrap());
        spec.rows_above = None;
        assert_eq!(recount(&spec).nodes, None);
    }
}
