//! The units an audit draws: `k` distinct recorded units chosen uniformly at random
//! from a seed, the same ones for the same seed and the same recorded set, whatever
//! order the files list them in.

use std::collections::BTreeSet;

use crate::sampling::rng::SplitMix64;

/// The units of a run as bits: bit `i % 64` of word `i / 64` is unit `i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnitSet {
    words: Vec<u64>,
    len: usize,
}

impl UnitSet {
    /// The empty set of a run of `units` units (one bit each).
    pub(crate) fn new(units: usize) -> UnitSet {
        UnitSet {
            words: vec![0; units.div_ceil(64)],
            len: 0,
        }
    }

    /// Adds unit `index` (below the run's unit count); false if it was in already.
    pub(crate) fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        if self.words[word] & bit != 0 {
            return false;
        }
        self.words[word] |= bit;
        self.len += 1;
        true
    }

    /// Whether unit `index` is in the set.
    pub(crate) fn contains(&self, index: usize) -> bool {
        self.words
            .get(index / 64)
            .is_some_and(|w| w >> (index % 64) & 1 == 1)
    }

    /// The number of units in the set.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The units of the set at the sorted positions `ranks` (each below
    /// [`UnitSet::len`]), in increasing order.
    fn select(&self, ranks: &BTreeSet<u64>) -> Vec<usize> {
        let mut out = Vec::with_capacity(ranks.len());
        let mut ranks = ranks.iter().copied().peekable();
        let mut before = 0u64;
        for (w, &word) in self.words.iter().enumerate() {
            let here = u64::from(word.count_ones());
            while let Some(&rank) = ranks.peek() {
                if rank >= before + here {
                    break;
                }
                // The (rank - before)-th set bit of this word.
                let mut bits = word;
                for _ in 0..rank - before {
                    bits &= bits - 1;
                }
                out.push(w * 64 + bits.trailing_zeros() as usize);
                ranks.next();
            }
            before += here;
        }
        out
    }
}

/// `k` distinct units of `set` drawn uniformly at random from `seed` (Floyd's
/// algorithm over their ranks), in increasing order; all of them when `k` is at least
/// their number.
pub(crate) fn draw(set: &UnitSet, k: usize, seed: u64) -> Vec<usize> {
    let total = set.len() as u64;
    let k = (k as u64).min(total);
    let ranks: BTreeSet<u64> = if k == total {
        (0..total).collect()
    } else {
        let mut rng = SplitMix64::new(seed);
        let mut chosen = BTreeSet::new();
        for j in total - k..total {
            let t = rng.below(j + 1);
            if !chosen.insert(t) {
                chosen.insert(j);
            }
        }
        chosen
    };
    set.select(&ranks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_of(units: usize, members: impl IntoIterator<Item = usize>) -> UnitSet {
        let mut set = UnitSet::new(units);
        for i in members {
            set.insert(i);
        }
        set
    }

    #[test]
    fn draws_are_distinct_members_and_reproducible() {
        let set = set_of(1000, (0..1000).filter(|i| i % 3 != 1));
        assert_eq!(set.len(), 667);
        let a = draw(&set, 50, 7);
        assert_eq!(a.len(), 50);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&i| set.contains(i)));
        assert_eq!(draw(&set, 50, 7), a);
        assert_ne!(draw(&set, 50, 8), a);
        // The same members inserted in another order draw the same units.
        let reversed = set_of(1000, (0..1000).rev().filter(|i| i % 3 != 1));
        assert_eq!(draw(&reversed, 50, 7), a);
        let all = draw(&set, 10_000, 7);
        assert_eq!(all.len(), 667);
        assert!(!set.contains(1) && !set.clone().insert(0));
    }

    #[test]
    fn every_member_can_be_drawn() {
        let set = set_of(130, [3, 64, 65, 127, 129]);
        let mut seen = BTreeSet::new();
        for seed in 0..200 {
            seen.extend(draw(&set, 1, seed));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), [3, 64, 65, 127, 129]);
    }
}
