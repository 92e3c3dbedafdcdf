//! The peak memory of a join, predicted before anything is allocated, so that a run
//! that would not fit can be refused.
//!
//! In bytes, with `q = n / 2`, `P(q)` the quadrant placements
//! (`join::quadrants::placement_count`) and `L(n)` a bound on the longest half-board
//! list of one unit ([`longest_list_bound`]):
//!
//! - quadrant table: `8 P(q) + 8 (C(2q, q) + 1) + 8 * 2^q`;
//! - while it is built: a dense count array, `8 * 4^q`;
//! - unit list: `join::units::list_bytes(n)`;
//! - per thread: `PER_HALF_BOARD_BYTES * L(n) + PER_THREAD_FIXED_BYTES` (half-board
//!   buffers, sorted copies, the blocks' chunk tables);
//! - [`BASE_BYTES`] for the program itself.
//!
//! Peak = `BASE + table + max(build, list + threads * per_thread)`.

use crate::join::bits::binomial;
use crate::join::quadrants::{placement_count, ENTRY_BYTES};
use crate::join::units::list_bytes;

/// The program image, allocator and runtime.
const BASE_BYTES: u64 = 8 << 20;
/// The scratch bytes per half-board of the longest list, per thread: west buffer (16,
/// with doubling), sorted items (8), group ids (4); east buffer (16), sorted copy (8),
/// keys (4), guarded copy (8); chunk tables (up to 90).
const PER_HALF_BOARD_BYTES: u64 = 154;
/// The fixed scratch per thread (key counters, prepared inner lists, stack).
const PER_THREAD_FIXED_BYTES: u64 = 4 << 20;

/// The longest half-board list of one unit, measured for even `n <= 20` (odd `n` never
/// exceeded the even `n` below it: 1969 at n = 17 against 2170 at 16; n = 20 measured
/// 81,272, rounded up to 90,000).
const MEASURED_LONGEST_LIST: [(u32, u64); 7] = [
    (8, 8),
    (10, 26),
    (12, 106),
    (14, 427),
    (16, 2170),
    (18, 12_510),
    (20, 90_000),
];

/// A bound on the longest half-board list of one unit: measured up to n = 20, then
/// extrapolated with a growth factor per two board sizes that rises by 0.7 per step
/// (measured: 4.0, 5.1, 5.8, about 7), times 1.5.
pub(crate) fn longest_list_bound(n: u32) -> u64 {
    let even = n & !1;
    if let Some(&(_, value)) = MEASURED_LONGEST_LIST.iter().find(|&&(m, _)| m >= even) {
        return value;
    }
    let (mut value, mut ratio) = (90_000f64, 7.5f64);
    for _ in (22..=even).step_by(2) {
        value *= ratio;
        ratio += 0.7;
    }
    float_to_bytes(value * 1.5)
}

/// A positive byte count from a float (saturating; counts this large are refused
/// anyway).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the value is positive, and `as` saturates at u64::MAX"
)]
fn float_to_bytes(value: f64) -> u64 {
    value as u64
}

/// The predicted peak bytes of a join of board size `n` on `threads` threads (an upper
/// bound, up to the extrapolations above; saturating).
pub(crate) fn peak_bytes(n: usize, threads: usize) -> u64 {
    let n = u32::try_from(n).unwrap_or(u32::MAX).min(64);
    let q = n / 2;
    let table = placement_count(q)
        .saturating_mul(ENTRY_BYTES)
        .saturating_add(8 * (binomial(2 * q, q) + 1))
        .saturating_add(8u64 << q);
    let build = 8u64.saturating_mul(1u64.checked_shl(2 * q).unwrap_or(u64::MAX));
    let per_thread = longest_list_bound(n)
        .saturating_mul(PER_HALF_BOARD_BYTES)
        .saturating_add(PER_THREAD_FIXED_BYTES);
    let threads = u64::try_from(threads.max(1)).unwrap_or(u64::MAX);
    let run = list_bytes(n).saturating_add(per_thread.saturating_mul(threads));
    BASE_BYTES
        .saturating_add(table)
        .saturating_add(build.max(run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::quadrants::QuadrantTable;

    #[test]
    fn the_prediction_covers_the_real_table() {
        for n in [8usize, 12, 16] {
            let table = QuadrantTable::new(u32::try_from(n / 2).unwrap());
            assert!(peak_bytes(n, 1) >= table.heap_bytes(), "n = {n}");
        }
    }

    #[test]
    fn the_prediction_grows_with_n_and_threads() {
        let mut last = 0;
        for n in 4..=32 {
            let now = peak_bytes(n, 2);
            assert!(now >= last, "n = {n}");
            assert!(peak_bytes(n, 4) >= now);
            last = now;
        }
    }
}
