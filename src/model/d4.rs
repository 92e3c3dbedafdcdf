//! The symmetry group of the square (the dihedral group D4) acting on board squares.

/// One of the 8 symmetries of an n x n board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transform {
    /// Leaves every square in place.
    Identity,
    /// Quarter turn clockwise: `(r, c) -> (c, n-1-r)`.
    Rotate90,
    /// Half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rotate180,
    /// Quarter turn counter-clockwise: `(r, c) -> (n-1-c, r)`.
    Rotate270,
    /// Left-right mirror: `(r, c) -> (r, n-1-c)`.
    MirrorColumns,
    /// Top-bottom mirror: `(r, c) -> (n-1-r, c)`.
    MirrorRows,
    /// Reflection in the main diagonal: `(r, c) -> (c, r)`.
    Transpose,
    /// Reflection in the anti-diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Transform {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::MirrorColumns,
        Transform::MirrorRows,
        Transform::Transpose,
        Transform::AntiTranspose,
    ];

    /// The image of square `(row, col)` on an `n x n` board.
    pub fn apply(self, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
        let (rr, rc) = (n - 1 - r, n - 1 - c);
        match self {
            Transform::Identity => (r, c),
            Transform::Rotate90 => (c, rr),
            Transform::Rotate180 => (rr, rc),
            Transform::Rotate270 => (rc, r),
            Transform::MirrorColumns => (r, rc),
            Transform::MirrorRows => (rr, c),
            Transform::Transpose => (c, r),
            Transform::AntiTranspose => (rc, rr),
        }
    }

    /// The image of a whole solution given as the column of each row.
    pub fn apply_to_columns(self, columns: &[usize]) -> Vec<usize> {
        let n = columns.len();
        let mut image = vec![0; n];
        for (r, &c) in columns.iter().enumerate() {
            let (ir, ic) = self.apply(n, (r, c));
            image[ir] = ic;
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_distinct_bijections() {
        let n = 5;
        let squares: Vec<(usize, usize)> =
            (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
        let images: Vec<Vec<(usize, usize)>> = Transform::ALL
            .iter()
            .map(|t| squares.iter().map(|&s| t.apply(n, s)).collect())
            .collect();
        for (i, a) in images.iter().enumerate() {
            let mut sorted = a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, squares, "{:?} is a bijection", Transform::ALL[i]);
            for b in &images[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn quarter_turns_compose() {
        let n = 7;
        for r in 0..n {
            for c in 0..n {
                let once = Transform::Rotate90.apply(n, (r, c));
                let twice = Transform::Rotate90.apply(n, once);
                assert_eq!(twice, Transform::Rotate180.apply(n, (r, c)));
                assert_eq!(
                    Transform::Rotate90.apply(n, twice),
                    Transform::Rotate270.apply(n, (r, c))
                );
            }
        }
    }

    #[test]
    fn images_of_a_solution_are_solutions() {
        let sol = [1, 3, 0, 2];
        assert_eq!(
            Transform::MirrorColumns.apply_to_columns(&sol),
            [2, 0, 3, 1]
        );
        assert_eq!(Transform::Rotate90.apply_to_columns(&sol), sol);
        assert_eq!(Transform::Rotate180.apply_to_columns(&sol), sol);
    }
}
