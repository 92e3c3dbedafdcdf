//! A small, fast, seedable random generator (SplitMix64), so that estimates are
//! reproducible from their seed.

/// A small, fast, seedable generator (SplitMix64), so estimates are reproducible.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The generator of chunk `chunk` of the probes seeded by `seed`: its start is a
    /// hash of both, so that the chunks' sequences do not overlap.
    pub(crate) fn for_chunk(seed: u64, chunk: u64) -> Self {
        let mut g = SplitMix64::new(seed);
        let a = g.next_u64();
        let mut h = SplitMix64::new(a ^ chunk.wrapping_mul(0xd6e8_feb8_6659_fd93));
        h.next_u64();
        SplitMix64::new(h.next_u64())
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound` (`bound > 0`), without modulo bias.
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % bound;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[usize::try_from(rng.below(5)).unwrap()] = true;
        }
        assert_eq!(seen, [true; 5]);
    }
}
