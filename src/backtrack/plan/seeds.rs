//! Seeds: where each symmetry mode starts its tasks, and which mode stays exact for a
//! placement.
//!
//! A seed is a set of row constraints, a start board (the empty one) and a weight: how
//! many solutions each solution found below it stands for, or a mark that each
//! solution is weighed by its class ([`crate::backtrack::canonical::class_weight`]).

use crate::backtrack::canonical;
use crate::backtrack::plan::task::Task;
use crate::model::constraints::{full_mask, Constraints};
use crate::model::placement::Placement;
use crate::symmetry::Symmetry;

/// The row constraints and start tasks of a symmetry mode.
pub(crate) fn seeds(n: usize, symmetry: Symmetry) -> (Vec<Constraints>, Vec<Task>) {
    match symmetry {
        Symmetry::Mirror if n > 0 => mirror_seeds(n),
        Symmetry::Full if n >= 2 => full_seeds(n),
        Symmetry::None | Symmetry::Mirror | Symmetry::Full => {
            (vec![Constraints::new(n)], vec![Task::root(0, 1, false)])
        }
    }
}

/// The symmetry reduction that counts the completions of `placement` exactly, given
/// the one requested: the requested one for the empty placement; otherwise mirror
/// halving when it was requested (or a stronger mode) and the placement is its own
/// mirror image, otherwise none. The set of completions is only invariant under the
/// symmetries of the placement, so the simplest exact choice is to keep mirror halving
/// for mirror-symmetric placements and drop every reduction for the others.
pub(crate) fn exact_symmetry(placement: &Placement, requested: Symmetry) -> Symmetry {
    if placement.is_empty() {
        requested
    } else if requested == Symmetry::None || !placement.is_mirror_symmetric() {
        Symmetry::None
    } else {
        Symmetry::Mirror
    }
}

/// Mirror halving: a solution and its left-right mirror image have their row-0 queens
/// in columns `c` and `n - 1 - c`, so only the left half of row 0 is searched, with
/// weight 2. On odd boards the middle row-0 column is its own mirror; there the row-1
/// queen is halved instead (it can never be in the middle column too).
fn mirror_seeds(n: usize) -> (Vec<Constraints>, Vec<Task>) {
    let half = full_mask(n / 2);
    let mut left = Constraints::new(n);
    left.restrict(0, half);
    let mut constraints = vec![left];
    let mut tasks = vec![Task::root(0, 2, false)];
    if n % 2 == 1 {
        let mut middle = Constraints::new(n);
        middle.restrict(0, 1 << (n / 2));
        let weight = if n == 1 {
            1
        } else {
            middle.restrict(1, half);
            2
        };
        constraints.push(middle);
        tasks.push(Task::root(1, weight, false));
    }
    (constraints, tasks)
}

/// Full symmetry: one seed per corner or edge case of [`crate::backtrack::canonical`].
fn full_seeds(n: usize) -> (Vec<Constraints>, Vec<Task>) {
    let seeds = canonical::seeds(n);
    let tasks = seeds
        .iter()
        .enumerate()
        .map(|(i, seed)| Task::root(i, seed.weight, seed.weigh_by_class))
        .collect();
    (seeds.into_iter().map(|s| s.constraints).collect(), tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_symmetry_of_placements() {
        let p = Placement::parse(9, "3:4").unwrap();
        assert_eq!(exact_symmetry(&p, Symmetry::Mirror), Symmetry::Mirror);
        assert_eq!(exact_symmetry(&p, Symmetry::Full), Symmetry::Mirror);
        assert_eq!(exact_symmetry(&p, Symmetry::None), Symmetry::None);
        let q = Placement::parse(9, "3:3").unwrap();
        assert_eq!(exact_symmetry(&q, Symmetry::Mirror), Symmetry::None);
        let empty = Placement::empty(9).unwrap();
        assert_eq!(exact_symmetry(&empty, Symmetry::Full), Symmetry::Full);
    }

    #[test]
    fn seed_weights() {
        let (_, even) = seeds(8, Symmetry::Mirror);
        assert_eq!(even.iter().map(|t| t.weight).collect::<Vec<_>>(), [2]);
        let (_, odd) = seeds(9, Symmetry::Mirror);
        assert_eq!(odd.iter().map(|t| t.weight).collect::<Vec<_>>(), [2, 2]);
        let (_, whole) = seeds(9, Symmetry::None);
        assert_eq!(whole.len(), 1);
    }
}
