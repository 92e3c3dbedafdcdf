//! Full 8-fold symmetry by row-based canonical pruning.
//!
//! Every class of solutions under the 8 symmetries of the square (n >= 2) is counted
//! once, through one representative, with the size of the class as its weight.
//!
//! * **Corner classes.** At most one queen can stand in a corner. If one does, the
//!   class has 8 distinct members, two of which have the corner queen at (0, 0): a
//!   solution `p` and its transpose `p⁻¹`. They differ in row 1 (`p(1) != p⁻¹(1)`), and
//!   we keep the one whose column-1 queen stands below its row-1 queen: with the row-1
//!   queen in column `c`, column 1 is forbidden in rows `2..=c`. Weight 8, no check.
//! * **Edge classes.** Otherwise each border line holds one queen away from the corners.
//!   The representative is the lexicographically smallest member of the class (as the
//!   sequence of row columns), so its row-0 queen is at the smallest distance `b` from a
//!   corner of any border queen: `1 <= b < n - 1 - b`, columns 0 and n-1 are forbidden
//!   in the `b` rows nearest the top and the bottom, and the bottom queen stands in
//!   columns `b..=n-1-b`. These constraints prune the search; a found solution is then
//!   compared with its images ([`class_weight`]) and counted with weight 8, 4 or 2 if it
//!   is the smallest, 0 otherwise.

use crate::model::constraints::{index_byte, Constraints};

/// A seed of the full-symmetry search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seed {
    /// The row constraints of the seed.
    pub constraints: Constraints,
    /// The weight of each solution found (corner classes), or 1 when the kernel
    /// weighs each solution itself with [`class_weight`] (edge classes).
    pub weight: u64,
    /// Whether each solution is weighed by its class with [`class_weight`].
    pub weigh_by_class: bool,
}

/// The seeds of an n x n board, n >= 2: corner seeds (row-1 column 2..n-1) first, then
/// edge seeds (row-0 column b = 1, 2, ...).
pub(crate) fn seeds(n: usize) -> Vec<Seed> {
    assert!(n >= 2, "full symmetry needs n >= 2");
    let mut seeds = Vec::new();
    for c in 2..n {
        let mut constraints = Constraints::new(n);
        constraints.restrict(0, 1);
        constraints.restrict(1, 1 << c);
        for row in 2..=c.min(n - 1) {
            constraints.forbid(row, 0b10);
        }
        seeds.push(Seed {
            constraints,
            weight: 8,
            weigh_by_class: false,
        });
    }
    let edges = 1 | 1 << (n - 1);
    for b in (1..n).take_while(|&b| b < n - 1 - b) {
        let mut constraints = Constraints::new(n);
        constraints.restrict(0, 1 << b);
        for row in (1..b).chain(n - b..n) {
            constraints.forbid(row, edges);
        }
        let middle =
            crate::model::constraints::full_mask(n - b) & !crate::model::constraints::full_mask(b);
        constraints.restrict(n - 1, middle);
        seeds.push(Seed {
            constraints,
            weight: 1,
            weigh_by_class: true,
        });
    }
    seeds
}

/// The border squares where a queen ties with the row-0 queen of an edge seed: it
/// stands at the same distance `b` from a corner. A solution of the seed with no queen
/// on them is the only smallest member of its class, so its weight is 8 without
/// comparing images ([`class_weight`]); kernels use this to weigh most solutions at
/// once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Read by the vector kernels' lane machine, which is compiled on x86-64 only.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Ties {
    /// Rows `b` and `n - 1 - b`: a queen there on column 0 or n-1 ties.
    pub rows: [usize; 2],
    /// Columns 0 and n-1.
    pub edge_columns: u32,
    /// Columns `b` and `n - 1 - b` of the last row.
    pub last_row: u32,
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl Ties {
    /// The tie squares of an edge seed (row 0 limited to the one column `b`, with
    /// `1 <= b < n - 1 - b`); `None` for any other constraints.
    pub(crate) fn of_seed(constraints: &Constraints) -> Option<Ties> {
        let n = constraints.n();
        let top = constraints.allowed(0);
        if n < 4 || top.count_ones() != 1 {
            return None;
        }
        let b = top.trailing_zeros() as usize;
        (1 <= b && b < n - 1 - b).then_some(Ties {
            rows: [b, n - 1 - b],
            edge_columns: 1 | 1 << (n - 1),
            last_row: 1 << b | 1 << (n - 1 - b),
        })
    }

    /// Whether the solution `p` (column of each row) has a queen on a tie square.
    #[cfg(test)]
    pub(crate) fn in_solution(&self, p: &[u8]) -> bool {
        let on = |row: usize, mask: u32| mask >> p[row] & 1 == 1;
        self.rows.iter().any(|&row| on(row, self.edge_columns)) || on(p.len() - 1, self.last_row)
    }
}

/// The weight of an edge-class solution `p` (column of each row): the size of its class
/// (8, 4 or 2) if `p` is the lexicographically smallest of its 8 images, else 0.
///
/// `p` must be a solution whose row-0 queen is at least as close to a corner as every
/// other border queen (as the edge seeds guarantee), so its left-right mirror image is
/// never smaller and no reflection fixes it.
pub(crate) fn class_weight(p: &[u8]) -> u64 {
    use std::cmp::Ordering::{Equal, Less};
    let n = p.len();
    let last = index_byte(n - 1);
    let mut q = [0u8; crate::model::constraints::MAX_N];
    for (row, &col) in p.iter().enumerate() {
        q[usize::from(col)] = index_byte(row);
    }
    let q = &q[..n];
    // Each image as a function of the row index, giving the column in that row; each
    // comparison is compiled on its own (no dynamic calls), and the first smaller image
    // ends the check: this runs for every tied solution the kernels find.
    let mut orders = [Equal; 6];
    let images: [&dyn Fn() -> std::cmp::Ordering; 6] = [
        &|| compare(p, |i| p[n - 1 - i]),        // flip of the rows
        &|| compare(p, |i| last - p[n - 1 - i]), // half turn
        &|| compare(p, |i| q[i]),                // transpose
        &|| compare(p, |i| last - q[i]),         // quarter turn
        &|| compare(p, |i| q[n - 1 - i]),        // three-quarter turn
        &|| compare(p, |i| last - q[n - 1 - i]), // anti-transpose
    ];
    for (order, image) in orders.iter_mut().zip(images) {
        *order = image();
        if *order == Less {
            return 0;
        }
    }
    let [flip_rows, rotate180, transpose, rotate90, rotate270, anti_transpose] = orders;
    debug_assert!(
        [flip_rows, transpose, anti_transpose]
            .iter()
            .all(|&o| o != Equal),
        "no solution of n >= 2 is fixed by a reflection"
    );
    if rotate90 == Equal || rotate270 == Equal {
        2
    } else if rotate180 == Equal {
        4
    } else {
        8
    }
}

/// How the image `f` compares with `p`, lexicographically (`Less`: the image is smaller).
#[inline]
fn compare(p: &[u8], f: impl Fn(usize) -> u8) -> std::cmp::Ordering {
    for (i, &pi) in p.iter().enumerate() {
        let fi = f(i);
        if fi != pi {
            return fi.cmp(&pi);
        }
    }
    std::cmp::Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::d4::Transform;

    /// The weight by brute force over the 8 images.
    fn brute_weight(p: &[usize]) -> u64 {
        let images: Vec<Vec<usize>> = Transform::ALL
            .iter()
            .map(|t| t.apply_to_columns(p))
            .collect();
        if images.iter().any(|image| image.as_slice() < p) {
            return 0;
        }
        8 / images.iter().filter(|image| image.as_slice() == p).count() as u64
    }

    #[test]
    fn weights_match_brute_force() {
        for n in 4..=9 {
            crate::naive::for_each_solution(n, |p| {
                let b = p[0];
                let last = p.iter().position(|&c| c == 0).unwrap();
                let right = p.iter().position(|&c| c == n - 1).unwrap();
                let distance = |x: usize| x.min(n - 1 - x);
                let corner = p[0] == 0 || p[0] == n - 1 || p[n - 1] == 0 || p[n - 1] == n - 1;
                let minimal = !corner
                    && [distance(p[n - 1]), distance(last), distance(right)]
                        .iter()
                        .all(|&d| d >= distance(b))
                    && b < n - 1 - b;
                if minimal {
                    let bytes: Vec<u8> = p.iter().map(|&c| index_byte(c)).collect();
                    assert_eq!(class_weight(&bytes), brute_weight(p), "{p:?}");
                }
            });
        }
    }

    #[test]
    fn solutions_without_ties_weigh_eight() {
        for n in 4..=10 {
            for seed in seeds(n).iter().filter(|s| s.weigh_by_class) {
                let ties = Ties::of_seed(&seed.constraints).expect("an edge seed");
                let allowed = |p: &[usize]| {
                    p.iter()
                        .enumerate()
                        .all(|(row, &c)| seed.constraints.allowed(row) >> c & 1 == 1)
                };
                crate::naive::for_each_solution(n, |p| {
                    let bytes: Vec<u8> = p.iter().map(|&c| index_byte(c)).collect();
                    if allowed(p) && !ties.in_solution(&bytes) {
                        assert_eq!(class_weight(&bytes), 8, "n = {n}, {p:?}");
                    }
                });
            }
            assert_eq!(Ties::of_seed(&Constraints::new(n)), None);
        }
    }

    #[test]
    fn seeds_per_board() {
        // n = 8: corner seeds for row-1 columns 2..=7, edge seeds for b = 1, 2, 3.
        let s = seeds(8);
        assert_eq!(s.iter().filter(|s| !s.weigh_by_class).count(), 6);
        assert_eq!(s.iter().filter(|s| s.weigh_by_class).count(), 3);
    }
}
