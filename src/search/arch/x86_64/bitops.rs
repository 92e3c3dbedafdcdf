//! The scalar kernel ([`crate::search::scalar`]) compiled with the bit instructions it
//! gains from (POPCNT for the node count, BMI1 for the lowest set bit and `andn`), for
//! the processors that have them: a portable build otherwise counts bits without them.
//! Every `unsafe` block relies on a [`BitOps`] token, which only [`BitOps::detect`]
//! makes, after finding POPCNT and BMI1.

use crate::model::constraints::Constraints;
use crate::search::scalar::{self, Frontier, Tally};

/// Proof that this processor has POPCNT and BMI1: a token only [`BitOps::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BitOps {
    _proof: (),
}

impl BitOps {
    /// The token, if this processor has POPCNT and BMI1 (detected by the standard
    /// library once, then cached).
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("popcnt") && is_x86_feature_detected!("bmi1");
        supported.then_some(BitOps { _proof: () })
    }

    /// [`scalar::count`], compiled with POPCNT and BMI1.
    #[allow(
        clippy::unused_self,
        reason = "the token is the proof that the processor has POPCNT and BMI1"
    )]
    pub(crate) fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        // SAFETY: `self` proves POPCNT and BMI1 (`BitOps::detect`), the features
        // `count_with_bit_ops` is compiled with.
        unsafe { count_with_bit_ops(constraints, start) }
    }

    /// [`scalar::weigh_by_class`], compiled with POPCNT and BMI1.
    #[allow(
        clippy::unused_self,
        reason = "the token is the proof that the processor has POPCNT and BMI1"
    )]
    pub(crate) fn weigh_by_class(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Tally {
        // SAFETY: `self` proves POPCNT and BMI1 (`BitOps::detect`), the features
        // `weigh_by_class_with_bit_ops` is compiled with.
        unsafe { weigh_by_class_with_bit_ops(constraints, start, prefix) }
    }
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
