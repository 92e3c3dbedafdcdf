//! A unit's predicted cost, from its row sets alone (no half-board is generated), so
//! that an estimate can draw the units it times in proportion to their cost and time
//! the heavy ones first (see `estimate::units`).
//!
//! **Model.** A half with `k` rows and `k` free columns has at most `k!` half-boards
//! (one queen a row and a column). Each row keeps the share of its squares that no
//! blocked diagonal crosses, and each pair of rows `d` apart keeps the share of column
//! pairs that are not `d` apart, as if those events were independent. The product is a
//! rough count, but within a cost class it orders the units: on the measured samples
//! of n = 22 and 24 its logarithm follows the logarithm of the real list lengths with
//! correlation 0.94 to 1.00. A unit costs about its item count times its stored
//! count (the pairs the counter meets) plus the two generations.
//!
//! **Weight.** The filter and the splits skip most pairs, so the time of a unit grows
//! more slowly than its pairs: across the classes of n = 22, 23 and 24 the time
//! followed the 0.62th to 0.84th power of the real pairs. The sampling weight is the
//! predicted cost to the power [`WEIGHT_EXPONENT`]; on those samples, drawing in
//! proportion to it cut the variance of the heavy classes by 1.5 to 4 times against a
//! uniform draw of as many units.

use super::list::UnitKind;
use super::sides::{self, Stored};
use super::Tables;
use crate::join::halves::HalfSpec;
use crate::join::layout::Layout;

/// The power of the predicted cost that weighs a unit (see the module docs).
pub(super) const WEIGHT_EXPONENT: f64 = 0.75;

/// The sampling weight of unit `kind`: [`predicted_cost`] to the power
/// [`WEIGHT_EXPONENT`]; at least 1.
pub(super) fn sampling_weight(tables: &Tables, kind: UnitKind) -> f64 {
    predicted_cost(tables, kind).powf(WEIGHT_EXPONENT)
}

/// The predicted cost of unit `kind`, in pairs (items times stored half-boards), plus
/// the half-boards generated and 1; always positive.
#[allow(
    clippy::cast_precision_loss,
    reason = "a prediction: nearest f64 of small counts"
)]
pub(super) fn predicted_cost(tables: &Tables, kind: UnitKind) -> f64 {
    let layout = &tables.layout;
    let sides = sides::of(tables, kind);
    let items = predicted_len(layout, &sides.items);
    let mut cost = 1.0 + items;
    for group in &sides.groups {
        let stored = match &group.stored {
            Stored::Half(spec) => predicted_len(layout, spec),
            Stored::Columns(lists) => lists
                .halves()
                .map(|(spec, _)| predicted_len(layout, &spec))
                .sum(),
        };
        cost += stored * (1.0 + items);
    }
    cost
}

/// The predicted number of half-boards of `spec` (see the module docs).
#[allow(
    clippy::cast_precision_loss,
    reason = "a prediction: nearest f64 of small counts"
)]
pub(super) fn predicted_len(layout: &Layout, spec: &HalfSpec) -> f64 {
    let rows: Vec<u32> = bits(spec.rows).collect();
    let k = rows.len();
    if k != spec.columns.count_ones() as usize {
        return 0.0;
    }
    if k == 0 {
        return 1.0;
    }
    // k!, then each row's share of free squares. (A half has at most 16 rows on the
    // join's boards: k! is below 2^45, and the 16 row and 120 pair factors are each 0
    // or at least 1/240. Should their product ever fall below f64's range, the unit
    // is weighed by its generation alone: the weight stays at least 1.)
    let mut len: f64 = (1..=k).map(|i| i as f64).product();
    for &row in &rows {
        let free = bits(spec.columns)
            .filter(|&col| {
                let (sum, diff) = layout.diagonals_of(row, col);
                sum & spec.blocked_sum == 0 && diff & spec.blocked_diff == 0
            })
            .count();
        len *= free as f64 / k as f64;
    }
    // Each pair of rows `d` apart: the share of ordered column pairs not `d` apart.
    let ordered_pairs = (k * (k - 1)) as f64;
    for (i, &upper) in rows.iter().enumerate() {
        for &lower in &rows[i + 1..] {
            let apart = lower - upper;
            let clashing = 2 * (spec.columns & spec.columns >> apart).count_ones();
            len *= 1.0 - f64::from(clashing) / ordered_pairs;
        }
    }
    len.max(0.0)
}

/// The positions of the set bits of `mask`, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = u32> {
    (0..64).filter(move |bit| mask >> bit & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::halves::HalfSpec;

    /// A half on `rows` and the columns `0..k` with nothing blocked.
    fn half(rows: u64) -> HalfSpec {
        let k = rows.count_ones();
        HalfSpec {
            rows,
            columns: (1u64 << k) - 1,
            col0: 0,
            blocked_sum: 0,
            blocked_diff: 0,
            main_diff: 0,
            anti_sum: 0,
            tags: [0; 4],
            keep: [true; 4],
        }
    }

    #[test]
    fn rows_far_apart_give_every_permutation() {
        // Rows 0, 8 and 16 of a 24-board: no two rows within 3 of each other, so no
        // diagonal clash among three columns: 3! half-boards.
        let layout = Layout::new(24);
        let len = predicted_len(&layout, &half(1 | 1 << 8 | 1 << 16));
        assert!((len - 6.0).abs() < 1e-9, "{len}");
    }

    #[test]
    fn close_rows_predict_fewer_than_spread_rows() {
        let layout = Layout::new(20);
        let close = predicted_len(&layout, &half(0b11_1111_1111));
        let spread = predicted_len(&layout, &half(0x5_5555));
        assert!(close < spread, "{close} {spread}");
        // Two adjacent rows on two columns: both permutations clash.
        assert!(predicted_len(&layout, &half(0b11)).abs() < 1e-12);
    }

    #[test]
    fn blocked_squares_and_mismatched_sides_predict_less() {
        let layout = Layout::new(16);
        let open = half(0b1011);
        let mut blocked = open;
        blocked.blocked_sum = 1; // square (0, 0)'s sum diagonal
        assert!(predicted_len(&layout, &blocked) < predicted_len(&layout, &open));
        let mut lopsided = open;
        lopsided.columns = 0b1;
        assert!(predicted_len(&layout, &lopsided).abs() < 1e-12);
    }
}
