//! The words a rank sends rank 0 with each request for work: the range size it wants,
//! the reason of a stop on that rank (0 for none), and the results of its previous
//! range, five words each.
//!
//! Compiled without the `mpi` feature too, so that its tests always run. It uses the
//! engine layer's [`TaskResult`] only.

use crate::engine::TaskResult;

/// The words of one task result in a request: index, weighted (two halves), work (two
/// halves).
const RESULT_WORDS: usize = 5;

/// A request: the wanted range size, the reason of a stop on that rank (0 for none),
/// and the results of its previous range. Malformed words are dropped; numbers past
/// `usize` saturate.
pub(crate) fn parse_request(words: &[u64]) -> (usize, usize, Vec<TaskResult>) {
    let size = |word: u64| usize::try_from(word).unwrap_or(usize::MAX);
    let wanted = size(words.first().copied().unwrap_or(1).max(1));
    let reason = size(words.get(1).copied().unwrap_or(0));
    let results = words
        .get(2..)
        .unwrap_or_default()
        .chunks_exact(RESULT_WORDS)
        .filter_map(|w| {
            Some(TaskResult {
                index: usize::try_from(w[0]).ok()?,
                weighted: u128::from(w[1]) | (u128::from(w[2]) << 64),
                work: u128::from(w[3]) | (u128::from(w[4]) << 64),
            })
        })
        .collect();
    (wanted, reason, results)
}

/// The request of a rank with `threads` workers, stopped for `reason` (0: not),
/// carrying `results`.
pub(crate) fn request(threads: usize, reason: usize, results: &[TaskResult]) -> Vec<u64> {
    let mut words = Vec::with_capacity(2 + RESULT_WORDS * results.len());
    words.push(threads as u64);
    words.push(reason as u64);
    for r in results {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the low 64 bits of the weighted count and work, on purpose: the high \
                      ones follow"
        )]
        words.extend([
            r.index as u64,
            r.weighted as u64,
            (r.weighted >> 64) as u64,
            r.work as u64,
            (r.work >> 64) as u64,
        ]);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        let results = [
            TaskResult {
                index: 7,
                weighted: (1 << 100) + 5,
                work: (1 << 70) + 12,
            },
            TaskResult {
                index: 0,
                weighted: 0,
                work: 1,
            },
        ];
        let (wanted, reason, back) = parse_request(&request(4, 15, &results));
        assert_eq!((wanted, reason), (4, 15));
        assert_eq!(back, results);
        assert_eq!(parse_request(&[]).0, 1);
    }
}
