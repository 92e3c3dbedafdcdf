//! Counting the completions of pre-placed queens (the "n-queens completion" problem).
//!
//! The placement becomes row constraints ([`Placement::constraints`]); the tasks of an
//! ordinary count are built within them, under the strongest symmetry reduction that
//! stays exact for that placement ([`Placement::exact_symmetry`]), and run by the
//! unchanged kernel.

use crate::count::{count_within, Count, Options};
use crate::error::Error;
use crate::placement::Placement;

/// Counts the solutions that extend `placement`. The result's `symmetry` is the mode
/// actually used, which may be weaker than `options.symmetry`.
///
/// ```
/// use nqueens::completion::count_completions;
/// use nqueens::placement::Placement;
///
/// let placement = Placement::parse(8, "0:0").unwrap();
/// let count = count_completions(&placement, &nqueens::Options::default()).unwrap();
/// assert_eq!(count.total, 4);
/// assert_eq!(count.symmetry, nqueens::Symmetry::None);
/// ```
pub fn count_completions(placement: &Placement, options: &Options) -> Result<Count, Error> {
    count_within(placement, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetry;

    fn filtered(placement: &Placement) -> u128 {
        let mut found = 0;
        crate::naive::for_each_solution(placement.n(), |q| {
            if placement.queens().iter().all(|&(r, c)| q[r] == c) {
                found += 1;
            }
        });
        found
    }

    #[test]
    fn agrees_with_filtering_every_solution() {
        let cases = [
            (8, "0:0"),
            (8, "3:4"),
            (9, "4:4"),
            (9, "0:4"),
            (9, "8:4,0:4"),
            (7, "1:3,5:0"),
            (6, "0:1,1:3"),
            (6, "0:0,1:1"),
            (1, "0:0"),
            (0, ""),
        ];
        for (n, text) in cases {
            let placement = if text.is_empty() {
                Placement::empty(n).unwrap()
            } else {
                Placement::parse(n, text).unwrap()
            };
            for symmetry in Symmetry::ALL {
                for split_depth in [None, Some(n.min(1)), Some(n)] {
                    let options = Options {
                        threads: Some(2),
                        symmetry,
                        split_depth,
                        ..Options::default()
                    };
                    let count = count_completions(&placement, &options).unwrap();
                    assert_eq!(count.total, filtered(&placement), "n = {n}, {text}");
                }
            }
        }
    }

    #[test]
    fn reports_the_symmetry_used() {
        let options = Options::default();
        let middle = Placement::parse(9, "4:4").unwrap();
        assert_eq!(
            count_completions(&middle, &options).unwrap().symmetry,
            Symmetry::Mirror
        );
        let side = Placement::parse(9, "4:3").unwrap();
        assert_eq!(
            count_completions(&side, &options).unwrap().symmetry,
            Symmetry::None
        );
    }
}
