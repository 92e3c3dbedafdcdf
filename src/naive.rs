//! The textbook array backtracking, kept as an independent reference.
//!
//! This is the solution of the classic exercises (LeetCode 52, AcWing 843): one
//! column per row in an array, and boolean arrays for the used columns and diagonals.
//! It shares no code with the bitmask kernel, so tests use it to cross-check the fast
//! counter on small boards.
//!
//! A lowest layer: it uses nothing of the crate.

/// Counts the solutions of the n-queens problem by plain array backtracking.
///
/// Fine for n up to about 12; use [`crate::count()`] for anything larger.
///
/// ```
/// assert_eq!(nqueens::naive::count_solutions(6), 4);
/// ```
pub fn count_solutions(n: usize) -> u64 {
    let mut found = 0;
    for_each_solution(n, |_| found += 1);
    found
}

/// Calls `visit` with the column of each row, for every solution in lexicographic order.
pub fn for_each_solution(n: usize, mut visit: impl FnMut(&[usize])) {
    let mut state = State {
        n,
        queens: vec![0; n],
        column_used: vec![false; n],
        down_diagonal_used: vec![false; 2 * n],
        up_diagonal_used: vec![false; 2 * n],
    };
    state.place_row(0, &mut visit);
}

/// The board of the textbook search.
struct State {
    n: usize,
    queens: Vec<usize>,
    column_used: Vec<bool>,
    down_diagonal_used: Vec<bool>,
    up_diagonal_used: Vec<bool>,
}

impl State {
    fn place_row(&mut self, row: usize, visit: &mut impl FnMut(&[usize])) {
        if row == self.n {
            visit(&self.queens);
            return;
        }
        for col in 0..self.n {
            let down = row + col;
            let up = row + self.n - col;
            if self.column_used[col] || self.down_diagonal_used[down] || self.up_diagonal_used[up] {
                continue;
            }
            self.queens[row] = col;
            self.column_used[col] = true;
            self.down_diagonal_used[down] = true;
            self.up_diagonal_used[up] = true;
            self.place_row(row + 1, visit);
            self.column_used[col] = false;
            self.down_diagonal_used[down] = false;
            self.up_diagonal_used[up] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_small_counts() {
        let counts: Vec<u64> = (0..=8).map(count_solutions).collect();
        assert_eq!(counts, [1, 1, 0, 0, 2, 10, 4, 40, 92]);
    }

    #[test]
    fn four_queens_in_order() {
        let mut all = Vec::new();
        for_each_solution(4, |q| all.push(q.to_vec()));
        assert_eq!(all, [vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }
}
