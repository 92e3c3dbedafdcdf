//! Full 8-fold symmetry by border pre-placement.
//!
//! Every solution (n >= 2) has exactly one queen in each of the four border lines: row
//! 0, row n-1, column 0 and column n-1 (a queen in a corner stands in two of them, and
//! at most one corner can hold a queen). These at most four queens are the solution's
//! *border*. A symmetry of the square maps the solutions with border B one-to-one onto
//! the solutions with border g(B), so
//!
//! ```text
//! total = sum over the D4-classes of borders B of  |class(B)| * completions(B)
//! ```
//!
//! We enumerate every valid border, keep the smallest of each class (comparing the
//! sorted square lists of its 8 images), and turn it into a seed: row constraints that
//! fix the border queens and forbid the squares they attack, weighted by the class size
//! (8, 4 or 2). The inner board is then an ordinary bitmask search. The pre-placed queens
//! prune every row from the start, so the searched tree is far smaller than an eighth
//! of the whole one.

use crate::constraints::Constraints;
use crate::d4::Transform;

/// A border: the squares `(row, col)` of its queens, sorted, without repeats.
pub type Border = Vec<(usize, usize)>;

/// A canonical border with the size of its symmetry class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BorderClass {
    /// The smallest border of the class.
    pub border: Border,
    /// How many distinct borders the class holds (8, 4, 2 or 1).
    pub size: u64,
}

/// Every class of valid borders of an n x n board (n >= 2), in increasing order of
/// the canonical border.
pub fn border_classes(n: usize) -> Vec<BorderClass> {
    assert!(n >= 2, "border pre-placement needs n >= 2");
    let mut classes = Vec::new();
    for top in 0..n {
        for bottom in 0..n {
            for left in 0..n {
                for right in 0..n {
                    let Some(border) = border_of(n, top, bottom, left, right) else {
                        continue;
                    };
                    let images: Vec<Border> = Transform::ALL
                        .iter()
                        .map(|t| {
                            let mut image: Border =
                                border.iter().map(|&sq| t.apply(n, sq)).collect();
                            image.sort_unstable();
                            image
                        })
                        .collect();
                    if images.iter().any(|image| *image < border) {
                        continue;
                    }
                    let fixed = images.iter().filter(|image| **image == border).count() as u64;
                    classes.push(BorderClass {
                        border,
                        size: 8 / fixed,
                    });
                }
            }
        }
    }
    debug_assert!(classes.windows(2).all(|w| w[0].border < w[1].border));
    classes
}

/// The border with its top queen at column `top`, bottom queen at column `bottom`,
/// left queen at row `left` and right queen at row `right`, if these are consistent
/// (a corner queen is shared by its two lines) and attack no one.
fn border_of(n: usize, top: usize, bottom: usize, left: usize, right: usize) -> Option<Border> {
    let last = n - 1;
    // A corner queen belongs to both of its lines, and only then.
    let corner_ok = (top == 0) == (left == 0)
        && (top == last) == (right == 0)
        && (bottom == 0) == (left == last)
        && (bottom == last) == (right == last);
    if !corner_ok {
        return None;
    }
    let mut border: Border = vec![(0, top), (last, bottom), (left, 0), (right, last)];
    border.sort_unstable();
    border.dedup();
    for (i, &a) in border.iter().enumerate() {
        for &b in &border[i + 1..] {
            if attacks(a, b) {
                return None;
            }
        }
    }
    Some(border)
}

/// Whether queens on the distinct squares `a` and `b` attack each other.
pub fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// Row constraints for the completions of `queens`: each queen's row is restricted to
/// its square, and every square a queen attacks is forbidden elsewhere.
pub fn constraints_for(n: usize, queens: &[(usize, usize)]) -> Constraints {
    let mut constraints = Constraints::new(n);
    for &(qr, qc) in queens {
        for row in 0..n {
            if row == qr {
                constraints.restrict(row, 1 << qc);
                continue;
            }
            let distance = row.abs_diff(qr);
            let mut attacked = 1u32 << qc;
            if qc >= distance {
                attacked |= 1 << (qc - distance);
            }
            if qc + distance < n {
                attacked |= 1 << (qc + distance);
            }
            constraints.forbid(row, attacked);
        }
    }
    constraints
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_sizes_cover_every_border() {
        for n in 2..=9 {
            let classes = border_classes(n);
            let covered: u64 = classes.iter().map(|c| c.size).sum();
            let mut all = 0;
            for t in 0..n {
                for b in 0..n {
                    for l in 0..n {
                        for r in 0..n {
                            all += u64::from(border_of(n, t, b, l, r).is_some());
                        }
                    }
                }
            }
            assert_eq!(covered, all, "n = {n}");
        }
    }

    #[test]
    fn corner_queens_are_shared() {
        assert_eq!(border_of(5, 0, 3, 0, 2), Some(vec![(0, 0), (2, 4), (4, 3)]));
        assert_eq!(border_of(5, 0, 3, 1, 2), None);
        assert_eq!(border_of(5, 1, 3, 0, 2), None);
    }

    #[test]
    fn constraints_fix_and_forbid() {
        let c = constraints_for(4, &[(1, 1)]);
        assert_eq!(c.allowed(1), 0b0010);
        assert_eq!(c.allowed(0), 0b1000);
        assert_eq!(c.allowed(2), 0b1000);
        assert_eq!(c.allowed(3), 0b0101);
    }
}
