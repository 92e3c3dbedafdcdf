//! Bit tricks the other modules share: binomial coefficients, colex ranks of
//! fixed-size subsets, the next subset of a size (Gosper), subset walks, and portable
//! bit extract and deposit (`pext`, `pdep`) for code outside the hot loops.

/// Largest set size [`binomial`] handles (subsets of up to 64 elements).
const MAX_BINOMIAL_N: usize = 64;

/// Pascal's triangle up to [`MAX_BINOMIAL_N`], built at compile time. Every entry fits
/// in `u64` (the largest, `C(64, 32)`, is below `2^61`); an overflow would fail the
/// build.
static BINOMIALS: [[u64; MAX_BINOMIAL_N + 1]; MAX_BINOMIAL_N + 1] = {
    let mut table = [[0u64; MAX_BINOMIAL_N + 1]; MAX_BINOMIAL_N + 1];
    let mut n = 0;
    while n <= MAX_BINOMIAL_N {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// `C(n, k)` for `n <= 64`, exact; 0 when `k > n`.
#[inline]
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    BINOMIALS[n as usize][k as usize]
}

/// The sets whose colex ranks [`colex_rank_fast`] looks up: those within the low
/// [`RANKED_BITS`] bits (every column set of a quadrant of side 16 or less).
const RANKED_BITS: u32 = 16;

/// [`colex_rank`] of every set within the low [`RANKED_BITS`] bits, built on first use
/// (128 KiB; each rank is below `C(16, 8) = 12870`).
fn rank_table() -> &'static [u16] {
    static TABLE: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1u64 << RANKED_BITS)
            .map(|bits| u16::try_from(colex_rank(bits)).expect("below C(16, 8)"))
            .collect()
    })
}

/// [`colex_rank`], looked up in a table for sets within the low 16 bits (the walk's
/// column sets, ranked twice per split).
#[inline]
pub(crate) fn colex_rank_fast(bits: u64) -> u64 {
    if bits >> RANKED_BITS == 0 {
        let index = usize::try_from(bits).expect("below 2^16");
        u64::from(rank_table()[index])
    } else {
        colex_rank(bits)
    }
}

/// The rank of the set `bits` among the subsets of the same size in colex order: the
/// sum, over its `t`-th lowest member `p` (counting from 1), of `C(p, t)`.
pub(crate) fn colex_rank(bits: u64) -> u64 {
    let mut rank = 0;
    let mut rest = bits;
    let mut t = 1;
    while rest != 0 {
        rank += binomial(rest.trailing_zeros(), t);
        t += 1;
        rest &= rest - 1;
    }
    rank
}

/// The inverse of [`colex_rank`]: the `size`-element subset of `0..64` with colex rank
/// `rank`.
pub(crate) fn colex_unrank(mut rank: u64, size: u32) -> u64 {
    let mut bits = 0u64;
    for t in (1..=size).rev() {
        // The largest position p with C(p, t) <= rank.
        let mut position = t - 1;
        while binomial(position + 1, t) <= rank {
            position += 1;
        }
        rank -= binomial(position, t);
        bits |= 1u64 << position;
    }
    bits
}

/// The next larger integer with as many set bits as `bits` (Gosper's hack), so the
/// subsets of one size in colex order; `bits` is non-zero.
#[inline]
pub(crate) fn next_same_popcount(bits: u64) -> u64 {
    let lowest = bits & bits.wrapping_neg();
    let ripple = bits.wrapping_add(lowest);
    ripple | (((bits ^ ripple) >> 2) / lowest)
}

/// Bit extract: the bits of `value` selected by `mask`, gathered into the low bits of
/// the result in their order (`pext` without BMI2).
pub(crate) fn extract_bits(value: u64, mut mask: u64) -> u64 {
    let mut result = 0u64;
    let mut out_bit = 0;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if value & lowest != 0 {
            result |= 1u64 << out_bit;
        }
        out_bit += 1;
        mask ^= lowest;
    }
    result
}

/// Bit deposit: the low bits of `compact` spread, in order, over the set bits of `mask`
/// (`pdep` without BMI2).
pub(crate) fn deposit_bits(mut compact: u64, mask: u64) -> u64 {
    let mut out = 0;
    let mut rest = mask;
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if compact & 1 == 1 {
            out |= lowest;
        }
        compact >>= 1;
        rest ^= lowest;
    }
    out
}

/// The low `width` bits of `bits` in reverse order (bit 0 becomes bit `width - 1`).
pub(crate) fn reverse_low_bits(bits: u64, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    bits.reverse_bits() >> (64 - width)
}

/// The mask of the `width` lowest bits (`width <= 64`).
#[inline]
pub(crate) fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_colex_ranks_match_the_loop() {
        for bits in (0..1u64 << 16).chain([1 << 16, 0b1011 << 20, u64::MAX >> 40]) {
            assert_eq!(colex_rank_fast(bits), colex_rank(bits), "{bits:b}");
        }
    }

    #[test]
    fn binomials_follow_pascal() {
        for n in 1..=40u32 {
            for k in 1..n {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
            }
            assert_eq!(
                (binomial(n, 0), binomial(n, n), binomial(n, n + 1)),
                (1, 1, 0)
            );
        }
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    }

    #[test]
    fn colex_rank_and_unrank_are_inverse_bijections() {
        for size in 0..=6u32 {
            let mut expected_rank = 0;
            for bits in 0u64..(1 << 10) {
                if bits.count_ones() != size {
                    continue;
                }
                assert_eq!(colex_rank(bits), expected_rank);
                assert_eq!(colex_unrank(expected_rank, size), bits);
                expected_rank += 1;
            }
            assert_eq!(expected_rank, binomial(10, size));
        }
    }

    #[test]
    fn gosper_walks_colex_order() {
        let mut bits = 0b111u64;
        for rank in 0..binomial(12, 3) {
            assert_eq!(colex_rank(bits), rank);
            bits = next_same_popcount(bits);
        }
    }

    #[test]
    fn extract_deposit_and_reverse() {
        assert_eq!(extract_bits(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(extract_bits(0b1010, 0b1010), 0b11);
        assert_eq!(deposit_bits(0b101, 0b1011_0000), 0b1001_0000);
        assert_eq!(reverse_low_bits(0b0011, 5), 0b11000);
        assert_eq!((low_mask(0), low_mask(3), low_mask(64)), (0, 7, u64::MAX));
    }
}
