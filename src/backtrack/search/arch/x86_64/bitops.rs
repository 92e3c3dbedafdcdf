//! The scalar kernel ([`crate::backtrack::search::scalar`]) compiled with the bit instructions it
//! gains from (POPCNT for the node count, BMI1 for the lowest set bit and `andn`), for
//! the processors that have them: a portable build otherwise counts bits without them.
//! Every `unsafe` block relies on a [`BitOps`] token (`crate::cpu`), which only
//! [`BitOps::detect`] makes, after finding POPCNT and BMI1.

use crate::backtrack::search::scalar::{self, Frontier, Tally};
use crate::cpu::x86_64::BitOps;
use crate::model::constraints::Constraints;

/// [`scalar::count`], compiled with POPCNT and BMI1, which the token proves.
pub(crate) fn count(_: BitOps, constraints: &Constraints, start: Frontier) -> Tally {
    // SAFETY: the `BitOps` argument proves POPCNT and BMI1 (`BitOps::detect`), the features
    // `count_with_bit_ops` is compiled with.
    unsafe { count_with_bit_ops(constraints, start) }
}

/// [`scalar::weigh_by_class`], compiled with POPCNT and BMI1, which the token proves.
pub(crate) fn weigh_by_class(
    _: BitOps,
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Tally {
    // SAFETY: the `BitOps` argument proves POPCNT and BMI1 (`BitOps::detect`), the features
    // `weigh_by_class_with_bit_ops` is compiled with.
    unsafe { weigh_by_class_with_bit_ops(constraints, start, prefix) }
}

/// [`scalar::count`] (inlined) with POPCNT and BMI1.
#[target_feature(enable = "popcnt,bmi1")]
fn count_with_bit_ops(constraints: &Constraints, start: Frontier) -> Tally {
    scalar::count(constraints, start)
}

/// [`scalar::weigh_by_class`] (inlined) with POPCNT and BMI1.
#[target_feature(enable = "popcnt,bmi1")]
fn weigh_by_class_with_bit_ops(constraints: &Constraints, start: Frontier, prefix: &[u8]) -> Tally {
    scalar::weigh_by_class(constraints, start, prefix)
}
