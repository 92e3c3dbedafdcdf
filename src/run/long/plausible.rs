//! What work units can possibly report: the bound that `merge` puts on a shard's
//! total and a checkpoint on each record, one function for both.
//!
//! This module uses nothing else of the crate.

/// The largest weight one solution found by a unit stands for (the eight symmetries
/// of the square).
pub(crate) const MAX_WEIGHT: u128 = 8;

/// The most weighted solutions that `units` units doing `work` work in all can find,
/// or `None` when that passes 2^128 (no bound then).
///
/// A unit's solutions are at most its work (a backtracking task's nodes: one per queen
/// in its last row; a join unit's pairs), or one for a unit that is a whole board;
/// each weighs at most [`MAX_WEIGHT`].
pub(crate) fn most_solutions(work: u128, units: u128) -> Option<u128> {
    work.checked_add(units)
        .and_then(|found| found.checked_mul(MAX_WEIGHT))
}

/// Whether `weighted` solutions are more than `units` units doing `work` could find.
pub(crate) fn too_many(weighted: u128, work: u128, units: u128) -> bool {
    most_solutions(work, units).is_some_and(|bound| weighted > bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert_eq!(most_solutions(10, 1), Some(88));
        assert!(too_many(89, 10, 1) && !too_many(88, 10, 1));
        assert!(!too_many(u128::MAX, u128::MAX, 1));
        // The forged record of issue 19: a million solutions from one node.
        assert!(too_many(1_000_000, 1, 1));
    }
}
