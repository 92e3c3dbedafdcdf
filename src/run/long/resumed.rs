//! What a resumed checkpoint holds: which units finished (one bit each) and the
//! checked sums of their results, never a list of every record, so that a file of
//! millions of units resumes in little memory.
//!
//! This module uses the count core's sums ([`crate::run::count::drive::Sums`]).

use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::count::drive::Sums;

/// The finished units of a checkpoint and their sums.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Resumed {
    /// One bit per unit of the run: set when the unit finished.
    words: Vec<u64>,
    /// How many units finished.
    count: usize,
    /// The sums of their results.
    sums: Sums,
}

impl Resumed {
    /// Nothing finished yet, in a run of `tasks` units.
    pub(crate) fn new(tasks: usize) -> Resumed {
        Resumed {
            words: vec![0; tasks.div_ceil(64)],
            count: 0,
            sums: Sums::default(),
        }
    }

    /// Adds the result of a finished unit (below the `tasks` given to [`Resumed::new`]).
    ///
    /// # Errors
    /// A message (for the checkpoint's refusal) if the unit was added before, or if
    /// the sums pass 2^128.
    pub(crate) fn add(&mut self, result: &TaskResult) -> Result<(), String> {
        let (word, bit) = (result.index / 64, 1u64 << (result.index % 64));
        if self.words[word] & bit != 0 {
            return Err(format!("records task {} a second time", result.index));
        }
        self.sums = self
            .sums
            .checked_add(Sums::of(result))
            .map_err(|_: Error| "holds results whose sum passes 2^128".to_string())?;
        self.words[word] |= bit;
        self.count += 1;
        Ok(())
    }

    /// Whether unit `index` finished.
    pub(crate) fn contains(&self, index: usize) -> bool {
        self.words
            .get(index / 64)
            .is_some_and(|w| w & (1u64 << (index % 64)) != 0)
    }

    /// The finished units, in increasing order.
    pub(crate) fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    64 * i + bit
                })
            })
        })
    }

    /// How many units finished.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The sums of their results.
    pub(crate) fn sums(&self) -> Sums {
        self.sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, weighted: u128) -> TaskResult {
        TaskResult {
            index,
            weighted,
            work: 1,
        }
    }

    #[test]
    fn holds_bits_and_sums() {
        let mut r = Resumed::new(130);
        for i in [0, 63, 64, 129] {
            r.add(&result(i, 2)).unwrap();
        }
        assert!(r.add(&result(64, 2)).unwrap_err().contains("second time"));
        assert_eq!(r.indices().collect::<Vec<_>>(), [0, 63, 64, 129]);
        assert!(r.contains(129) && !r.contains(1) && !r.contains(500));
        assert_eq!((r.count(), r.sums().total, r.sums().work), (4, 8, 4));
        let mut big = Resumed::new(2);
        big.add(&result(0, u128::MAX)).unwrap();
        assert!(big.add(&result(1, 1)).unwrap_err().contains("2^128"));
    }
}
