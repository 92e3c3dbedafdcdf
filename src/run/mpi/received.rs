//! Rank 0's record of the units whose results it has: each result a rank reports is
//! checked against it before it counts, so that a unit out of range or reported twice
//! (with another missing) cannot pass unseen.
//!
//! Compiled without the `mpi` feature too, so that its tests always run. It uses
//! nothing of the crate but the error type.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

/// The units of a run whose results rank 0 holds: one bit each (8 MB for the
/// 65 million units of n = 27), set from any thread.
pub(crate) struct Received {
    /// Bit `i % 64` of word `i / 64`: unit `i` is received.
    words: Vec<AtomicU64>,
    /// The units of the run.
    units: usize,
}

impl Received {
    /// A record of a run of `units` units, with those of `done` (resumed from the
    /// checkpoint) received already.
    pub(crate) fn new(units: usize, done: impl IntoIterator<Item = usize>) -> Received {
        let received = Received {
            words: (0..units.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            units,
        };
        for index in done {
            // The checkpoint reader refused repeats and indices out of range.
            let _ = received.accept(index, "the checkpoint");
        }
        received
    }

    /// Marks unit `index`, reported by `source` (such as `rank 3`), as received.
    ///
    /// # Errors
    /// [`Error::Mpi`] naming `source` and the unit when the index is not below the
    /// run's unit count, or when that unit was received already (from the checkpoint,
    /// rank 0's own workers or any rank).
    pub(crate) fn accept(&self, index: usize, source: &str) -> Result<(), Error> {
        if index >= self.units {
            return Err(Error::Mpi(format!(
                "{source} reported unit {index}, but the run has {} units (0 to {}): refused",
                self.units,
                self.units.saturating_sub(1)
            )));
        }
        let bit = 1u64 << (index % 64);
        let before = self.words[index / 64].fetch_or(bit, Ordering::Relaxed);
        if before & bit != 0 {
            return Err(Error::Mpi(format!(
                "{source} reported unit {index}, whose result was received already: refused"
            )));
        }
        Ok(())
    }

    /// How many units are received.
    pub(crate) fn count(&self) -> usize {
        self.words
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones() as usize)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_and_repeated_units_are_refused() {
        let received = Received::new(130, [0, 64]);
        assert_eq!(received.count(), 2);
        received.accept(129, "rank 1").unwrap();
        received.accept(1, "rank 2").unwrap();
        let e = received.accept(130, "rank 1").unwrap_err().to_string();
        assert_eq!(
            e,
            "MPI: rank 1 reported unit 130, but the run has 130 units (0 to 129): refused"
        );
        let e = received.accept(1, "rank 3").unwrap_err().to_string();
        assert_eq!(
            e,
            "MPI: rank 3 reported unit 1, whose result was received already: refused"
        );
        // A unit resumed from the checkpoint counts as received.
        assert!(received.accept(64, "rank 0").is_err());
        assert!(received.accept(usize::MAX, "rank 1").is_err());
        assert_eq!(received.count(), 4);
    }

    #[test]
    fn threads_share_one_record() {
        let received = Received::new(10_000, []);
        let accepted = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for i in 0..10_000 {
                        if received.accept(i, "a worker").is_ok() {
                            accepted.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        // Every unit was accepted exactly once, whichever thread came first.
        assert_eq!(accepted.into_inner(), 10_000);
        assert_eq!(received.count(), 10_000);
    }
}
