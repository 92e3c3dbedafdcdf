//! The sieve's key (see the parent module): how many bits it takes, and which, chosen
//! for each count by the least predicted cost, from the histograms of the stored and
//! item keys ([`least_cost_key`]).
//!
//! With `k` key bits, the stored patterns sorted by key and cut into blocks of
//! [`BLOCK_SLOTS`], each block has a *common key* (the AND of its keys) and is visited
//! by every item whose key is disjoint from it. More bits skip more, until the blocks
//! straddle several keys and their common keys lose bits: the best `k` is near
//! `log2(blocks)` but not always on it (one unit of n = 28, 52,412 blocks: 13 bits
//! counted 0.82 of the pairs of 14, 16 bits 1.52 of them, 12 bits 1.04).
//!
//! The prediction needs only the histograms: the counting sort puts the keys in
//! increasing order, so the blocks and their common keys follow from the stored
//! histogram; and the items visiting a block are those whose key is a subset of its
//! free keys, a subset sum (zeta transform) of the item histogram. The histogram of
//! the widest key is taken once; each narrower one is the previous one with its
//! lowest-ranked bit summed out ([`best_key_bits`]).
//!
//! The bits come ranked one by one (by item frequency x stored frequency), and two
//! bits often set together sieve little more than one; for long counts they are also
//! ordered greedily by the pairs they leave on samples ([`greedy_order`]), and the
//! cheaper order is kept (n = 26: 0.72 of the pairs).

use super::BLOCK_SLOTS;

/// The key sizes tried below the widest (`log2(blocks)`, at most the caller's cap).
const TRIED_BELOW: u32 = 4;
/// The cost of walking one key of a block (its item groups looked up, empty or not),
/// in item visits.
const WALK_COST: u32 = 3;
/// A histogram entry, and a sum of entries: a count takes at most `2^30` stored
/// patterns (`super::MAX_COUNT_LEN`) and samples at most [`ITEM_SAMPLE`] items, so every
/// sum fits, and the histograms take half the room of `u64`s.
type Count = u32;
const _: () =
    assert!(super::MAX_COUNT_LEN <= Count::MAX as usize && ITEM_SAMPLE <= super::MAX_COUNT_LEN);
/// [`BLOCK_SLOTS`] as a [`Count`].
#[allow(clippy::cast_possible_truncation, reason = "BLOCK_SLOTS is 512")]
const BLOCK_SLOTS_COUNT: Count = BLOCK_SLOTS as Count;
/// The most bytes the key's choice allocates at once (its buffers live only during
/// the choice): in [`best_key_bits`], the two histograms of the widest key, a summed-
/// out copy of each and the subset sums; in [`greedy_order`], the two samples and
/// three histograms.
pub(crate) const MAX_KEY_CHOICE_BYTES: u64 = {
    let entries = 1u64 << super::MAX_KEY_BITS;
    let histograms = 5 * entries * size_of::<Count>() as u64;
    let samples = 2 * GREEDY_SAMPLE as u64 * 8 + 3 * entries * size_of::<Count>() as u64;
    if histograms > samples {
        histograms
    } else {
        samples
    }
};
/// The most items sampled for the item histogram (evenly spaced); the visits are
/// scaled to every item.
const ITEM_SAMPLE: usize = 1 << 16;
/// The patterns of each side sampled (evenly spaced) to order the bits greedily.
const GREEDY_SAMPLE: usize = 1 << 14;
/// From this predicted cost on (in item visits, about 2 ns each), the bits are also
/// ordered greedily ([`greedy_order`], about 0.1 s). Lower, at n = 24 (counts of about
/// 1e8 visits), the ordering cost what it saved.
const GREEDY_MIN_VISITS: f64 = 1e9;

/// The key of least predicted cost, as its bits in order (the first `k` are the key)
/// and `k`: from the bits `ranked` (best first), the size of least cost
/// ([`best_key_bits`], at most `widest`); for a count of at least
/// [`GREEDY_MIN_VISITS`], the same on the greedy order ([`greedy_order`]) too, and the
/// cheaper of the two.
pub(super) fn least_cost_key(
    ranked: Vec<u32>,
    widest: u32,
    stored: &[u64],
    items: &[u64],
    pext: &impl Fn(u64, u64) -> u64,
) -> (Vec<u32>, u32) {
    least_cost_key_from(ranked, widest, stored, items, pext, GREEDY_MIN_VISITS)
}

/// [`least_cost_key`] with the greedy order tried from `greedy_min_visits` on.
fn least_cost_key_from(
    ranked: Vec<u32>,
    widest: u32,
    stored: &[u64],
    items: &[u64],
    pext: &impl Fn(u64, u64) -> u64,
    greedy_min_visits: f64,
) -> (Vec<u32>, u32) {
    let (bits, cost) = best_key_bits(&ranked, widest, stored, items, pext);
    if cost < greedy_min_visits {
        return (ranked, bits);
    }
    let greedy = greedy_order(&ranked, widest, stored, items, pext);
    let first = |order: &[u32]| {
        order
            .iter()
            .take(widest as usize)
            .fold(0u64, |acc, &b| acc | 1 << b)
    };
    if first(&greedy) == first(&ranked) {
        // The same bits first: the same keys, so the same costs.
        return (ranked, bits);
    }
    let (greedy_bits, greedy_cost) = best_key_bits(&greedy, widest, stored, items, pext);
    if greedy_cost < cost {
        (greedy, greedy_bits)
    } else {
        (ranked, bits)
    }
}

/// The best number of key bits, at most `widest`, for `stored` and items like `items`
/// (their tags are not among the candidates): the key of `k` bits is the first `k` of
/// `candidates` (bit positions, best first); `pext` is any correct bit extract.
#[allow(
    clippy::cast_precision_loss,
    reason = "a prediction: the nearest f64 of the lengths is all it needs"
)]
fn best_key_bits(
    candidates: &[u32],
    widest: u32,
    stored: &[u64],
    items: &[u64],
    pext: impl Fn(u64, u64) -> u64,
) -> (u32, f64) {
    let widest = widest.min(u32::try_from(candidates.len()).unwrap_or(u32::MAX));
    if widest == 0 || items.is_empty() {
        return (widest, 0.0);
    }
    let mut bits: Vec<u32> = candidates[..widest as usize].to_vec();
    let positions = bits.iter().fold(0u64, |acc, &bit| acc | 1u64 << bit);
    let mut stored_keys = histogram(stored, 1, positions, &pext);
    let step = items.len().div_ceil(ITEM_SAMPLE);
    let mut item_keys = histogram(items, step, positions, &pext);
    let sampled: u64 = item_keys.iter().map(|&count| u64::from(count)).sum();
    let scale = items.len() as f64 / sampled.max(1) as f64;
    let mut best = (f64::INFINITY, widest);
    let lowest = widest.saturating_sub(TRIED_BELOW).max(1);
    let mut k = widest;
    loop {
        let cost = predicted_cost(&stored_keys, &item_keys, scale);
        if cost < best.0 {
            best = (cost, k);
        }
        if k == lowest {
            break;
        }
        // Sum out the lowest-ranked bit (the last candidate): its index in the key is
        // its rank among the positions.
        let dropped = bits.pop().expect("k >= 1 bits");
        let index = bits.iter().filter(|&&bit| bit < dropped).count();
        stored_keys = sum_out(&stored_keys, index);
        item_keys = sum_out(&item_keys, index);
        k -= 1;
    }
    (best.1, best.0)
}

/// The candidates (bit positions) reordered greedily: each next bit is the one that,
/// added to the bits before it, leaves the fewest (stored, item) pairs of evenly
/// spaced samples ([`GREEDY_SAMPLE`] a side) with disjoint keys, for `steps` bits;
/// the others follow in their order. The score order ranks bits one by one, and two
/// bits often set together sieve little more than one of them.
fn greedy_order(
    candidates: &[u32],
    steps: u32,
    stored: &[u64],
    items: &[u64],
    pext: &impl Fn(u64, u64) -> u64,
) -> Vec<u32> {
    let sample = |patterns: &[u64]| -> Vec<u64> {
        let step = patterns.len().div_ceil(GREEDY_SAMPLE).max(1);
        patterns.iter().step_by(step).copied().collect()
    };
    let (stored, items) = (sample(stored), sample(items));
    let mut rest = candidates.to_vec();
    let mut order = Vec::with_capacity(candidates.len());
    let mut positions = 0u64;
    for _ in 0..steps.min(u32::try_from(candidates.len()).unwrap_or(u32::MAX)) {
        let survivors = |bit: u32| {
            let with = positions | 1u64 << bit;
            disjoint_pairs(
                &histogram(&stored, 1, with, pext),
                &histogram(&items, 1, with, pext),
            )
        };
        let (index, _) = rest
            .iter()
            .enumerate()
            .map(|(index, &bit)| (index, survivors(bit)))
            .min_by_key(|&(index, pairs)| (pairs, index))
            .expect("a candidate left");
        let bit = rest.remove(index);
        positions |= 1u64 << bit;
        order.push(bit);
    }
    order.extend(rest);
    order
}

/// The (stored, item) pairs whose keys are disjoint, from the two key histograms.
fn disjoint_pairs(stored_keys: &[Count], item_keys: &[Count]) -> u64 {
    let mask = stored_keys.len() - 1;
    let within = subset_sums(item_keys);
    stored_keys
        .iter()
        .enumerate()
        .map(|(key, &count)| u64::from(count) * u64::from(within[!key & mask]))
        .sum()
}

/// The histogram of `pext(pattern, positions)` over every `step`-th pattern.
fn histogram(
    patterns: &[u64],
    step: usize,
    positions: u64,
    pext: &impl Fn(u64, u64) -> u64,
) -> Vec<Count> {
    let mut counts = vec![0; 1 << positions.count_ones()];
    for &pattern in patterns.iter().step_by(step.max(1)) {
        let key = usize::try_from(pext(pattern, positions)).expect("a key below 2^32");
        counts[key] += 1;
    }
    counts
}

/// The histogram of the keys with bit `index` removed (the bits above move down).
fn sum_out(counts: &[Count], index: usize) -> Vec<Count> {
    let mut out = vec![0; counts.len() / 2];
    let low = (1usize << index) - 1;
    for (key, &count) in counts.iter().enumerate() {
        out[(key & low) | (key >> (index + 1)) << index] += count;
    }
    out
}

/// The predicted cost, in item visits, of counting the items of `item_keys` (scaled by
/// `scale`) against the stored patterns of `stored_keys`: every block's visits and
/// the walk over its free keys.
#[allow(
    clippy::cast_precision_loss,
    reason = "a prediction: the nearest f64 of the counts is all it needs"
)]
fn predicted_cost(stored_keys: &[Count], item_keys: &[Count], scale: f64) -> f64 {
    let mask = stored_keys.len() - 1;
    let within = subset_sums(item_keys);
    let (mut visits, mut walked) = (0u64, 0u64);
    let mut finish = |common: usize| {
        let free = !common & mask;
        visits += u64::from(within[free]);
        walked += 1u64 << free.count_ones();
    };
    let (mut fill, mut common) = (0u32, usize::MAX);
    for (key, &count) in stored_keys.iter().enumerate() {
        let mut left = count;
        while left > 0 {
            common &= key;
            let taken = left.min(BLOCK_SLOTS_COUNT - fill);
            fill += taken;
            left -= taken;
            if fill == BLOCK_SLOTS_COUNT {
                finish(common);
                (fill, common) = (0, usize::MAX);
            }
        }
    }
    if fill > 0 {
        finish(common);
    }
    visits as f64 * scale + (u64::from(WALK_COST) * walked) as f64
}

/// The subset sums of `counts` (indexed by key): entry `m` is the sum over the keys
/// `k` with `k & !m == 0`.
fn subset_sums(counts: &[Count]) -> Vec<Count> {
    let mut sums = counts.to_vec();
    let mut bit = 1;
    while bit < sums.len() {
        for m in 0..sums.len() {
            if m & bit != 0 {
                sums[m] += sums[m ^ bit];
            }
        }
        bit <<= 1;
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::bits::extract_bits;

    #[test]
    fn subset_sums_match_the_definition() {
        let counts: Vec<Count> = (0..16).map(|i| i * 7 % 5).collect();
        let sums = subset_sums(&counts);
        for (m, &sum) in sums.iter().enumerate() {
            let direct: Count = (0..16).filter(|k| k & !m == 0).map(|k| counts[k]).sum();
            assert_eq!(sum, direct, "mask {m}");
        }
    }

    #[test]
    fn summing_out_a_bit_is_the_histogram_without_it() {
        let patterns: Vec<u64> = (0..500u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9) >> 7)
            .collect();
        let positions = 0b1011_0110u64;
        let full = histogram(&patterns, 1, positions, &extract_bits);
        // Bit 4 of the pattern is index 2 of the key (positions 1, 2, 4, 5, 7).
        let without = histogram(&patterns, 1, positions & !(1 << 4), &extract_bits);
        assert_eq!(sum_out(&full, 2), without);
    }

    #[test]
    fn the_cost_counts_every_block_and_its_visitors() {
        // Two keys bits; 512 patterns of key 0b01 and 512 of key 0b10: two pure blocks.
        let mut stored_keys: Vec<Count> = vec![0; 4];
        stored_keys[0b01] = 512;
        stored_keys[0b10] = 512;
        // Items: 10 of key 0, 3 of key 0b01, 5 of key 0b11.
        let item_keys = vec![10, 3, 0, 5];
        // Block 0b01 is visited by the keys within 0b10: 10; block 0b10 by the keys
        // within 0b01: 13. Each walks 2 keys.
        let cost = predicted_cost(&stored_keys, &item_keys, 1.0);
        assert!((cost - f64::from(10 + 13 + 2 * 2 * WALK_COST)).abs() < 1e-9);
        // One block straddling both keys has no common key: every item visits it.
        stored_keys[0b01] = 256;
        stored_keys[0b10] = 256;
        let cost = predicted_cost(&stored_keys, &item_keys, 2.0);
        assert!((cost - f64::from(18 * 2 + 4 * WALK_COST)).abs() < 1e-9);
    }

    #[test]
    fn the_best_size_is_within_the_range_tried() {
        let stored: Vec<u64> = (0..40_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24)
            .collect();
        let items: Vec<u64> = (0..3_000u64)
            .map(|i| i.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 24)
            .collect();
        let candidates: Vec<u32> = (0..40).collect();
        assert_eq!(
            best_key_bits(&candidates, 0, &stored, &items, extract_bits).0,
            0
        );
        for widest in [1, 3, 7, 12] {
            let k = best_key_bits(&candidates, widest, &stored, &items, extract_bits).0;
            let lowest = widest.saturating_sub(TRIED_BELOW).max(1);
            assert!((lowest..=widest).contains(&k), "{k} for {widest}");
        }
        assert!(best_key_bits(&candidates[..2], 5, &stored, &items, extract_bits).0 <= 2);
    }

    #[test]
    fn the_best_size_has_the_least_cost_computed_directly() {
        // Skewed bits (as queens' diagonals are), candidates in a scrambled order.
        let skewed = |i: u64, salt: u64| {
            let a = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ salt;
            let b = a.wrapping_mul(0xbf58_476d_1ce4_e5b9);
            (a | b >> 3) & (b | a >> 5) & ((1 << 30) - 1)
        };
        let stored: Vec<u64> = (0..300_000u64).map(|i| skewed(i, 1)).collect();
        let items: Vec<u64> = (0..20_000u64).map(|i| skewed(i, 2)).collect();
        let candidates: Vec<u32> = vec![17, 3, 25, 8, 12, 29, 0, 21, 14, 6, 27, 10];
        let widest = 10;
        let direct = |k: usize| {
            let positions = candidates[..k].iter().fold(0u64, |acc, &b| acc | 1 << b);
            predicted_cost(
                &histogram(&stored, 1, positions, &extract_bits),
                &histogram(&items, 1, positions, &extract_bits),
                1.0,
            )
        };
        let lowest = widest - TRIED_BELOW as usize;
        let best = (lowest..=widest)
            .min_by(|&a, &b| direct(a).total_cmp(&direct(b)))
            .expect("a range");
        let chosen = best_key_bits(&candidates, 10, &stored, &items, extract_bits).0;
        assert_eq!(chosen as usize, best);
    }

    /// `len` patterns where bits 0 and 1 are always equal (set half the time) and bits 2
    /// and 3 are independent, each set about a third of the time: ranked 0, 1, 2, 3 by
    /// frequency, the key {0, 1} sieves like {0} alone.
    fn with_a_twin_bit(len: u64, salt: u64) -> Vec<u64> {
        (0..len)
            .map(|i| {
                let h = (i ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let a = h >> 63;
                let c = u64::from(h >> 40 & 0xff < 85);
                let d = u64::from(h >> 20 & 0xff < 85);
                a | a << 1 | c << 2 | d << 3
            })
            .collect()
    }

    #[test]
    fn the_greedy_order_skips_a_bit_that_adds_nothing() {
        let (stored, items) = (with_a_twin_bit(4000, 5), with_a_twin_bit(3000, 9));
        let order = greedy_order(&[0, 1, 2, 3], 2, &stored, &items, &extract_bits);
        assert_eq!(order[0], 0, "{order:?}");
        assert!(order[1] == 2 || order[1] == 3, "{order:?}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
    }

    #[test]
    fn disjoint_pairs_match_a_direct_count() {
        let stored = [0b00u64, 0b01, 0b11, 0b10, 0b00];
        let items = [0b01u64, 0b00, 0b10];
        let direct = stored
            .iter()
            .map(|s| items.iter().filter(|&&w| w & s == 0).count() as u64)
            .sum::<u64>();
        let positions = 0b11;
        let pairs = disjoint_pairs(
            &histogram(&stored, 1, positions, &extract_bits),
            &histogram(&items, 1, positions, &extract_bits),
        );
        assert_eq!(pairs, direct);
    }

    #[test]
    fn the_least_cost_key_takes_the_greedy_order_when_it_is_cheaper() {
        let (stored, items) = (with_a_twin_bit(200_000, 5), with_a_twin_bit(50_000, 9));
        let ranked = vec![0, 1, 2, 3];
        let plain = least_cost_key_from(
            ranked.clone(),
            2,
            &stored,
            &items,
            &extract_bits,
            f64::INFINITY,
        );
        assert_eq!(plain.0, ranked, "below the threshold the ranking is kept");
        let (order, bits) =
            least_cost_key_from(ranked.clone(), 2, &stored, &items, &extract_bits, 0.0);
        assert!(
            order[0] == 0 && (order[1] == 2 || order[1] == 3),
            "{order:?}"
        );
        assert_eq!(bits, 2);
        let cost = |order: &[u32], bits: usize| {
            let positions = order[..bits].iter().fold(0u64, |acc, &b| acc | 1 << b);
            predicted_cost(
                &histogram(&stored, 1, positions, &extract_bits),
                &histogram(&items, 1, positions, &extract_bits),
                1.0,
            )
        };
        assert!(cost(&order, 2) < cost(&ranked, plain.1 as usize));
        // The production threshold is the same function's.
        assert_eq!(
            least_cost_key(ranked.clone(), 2, &stored, &items, &extract_bits),
            least_cost_key_from(ranked, 2, &stored, &items, &extract_bits, GREEDY_MIN_VISITS)
        );
    }
}
