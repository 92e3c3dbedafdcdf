//! A count: its options, its result, and the plain (whole, in-process) run.

use serde::Serialize;

use crate::error::Error;
use crate::limits::{check_board_size, max_split_depth, min_split_depth};
use crate::model::placement::Placement;
use crate::run::engine::Engine;
use crate::run::tasks::{Setup, Sums};
use crate::search::kernel::Kernel;
use crate::symmetry::rotation::{fundamental_counts, Fundamental};
use crate::symmetry::Symmetry;

/// How to run a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Worker threads; `None` uses every logical CPU.
    pub threads: Option<usize>,
    /// The symmetry reduction.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks; `None` picks a depth that gives thousands of tasks.
    pub split_depth: Option<usize>,
    /// Also count the fundamental solutions (and the rotation-fixed ones).
    pub unique: bool,
    /// The kernel the tasks run with (the fastest supported one by default).
    pub kernel: Kernel,
    /// The counting engine (the fastest one that serves the options by default).
    pub engine: Engine,
}

impl Options {
    /// These options for a board of size `n`, for runs over many sizes: the split
    /// depth (if any) capped into the range that board accepts, and the join engine
    /// left to `auto` on boards too small for it.
    #[must_use]
    pub fn for_board(&self, n: usize) -> Options {
        let engine = match self.engine {
            Engine::Join if n < crate::join::MIN_N => Engine::Auto,
            engine => engine,
        };
        Options {
            split_depth: self
                .split_depth
                .map(|d| d.clamp(min_split_depth(n), max_split_depth(n))),
            engine,
            ..*self
        }
    }
}

/// The result of a count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    /// The board size.
    pub n: usize,
    /// The number of solutions (OEIS A000170).
    pub total: u128,
    /// With [`Options::unique`]: the number of fundamental solutions, distinct under the
    /// 8 symmetries of the square (OEIS A002562).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<u128>,
    /// With [`Options::unique`]: solutions fixed by the 180-degree rotation (A032522).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot180: Option<u128>,
    /// With [`Options::unique`]: solutions fixed by the 90-degree rotation (A033148).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot90: Option<u128>,
    /// The backtracking engine's work: queens placed by the search that was run, task
    /// building included. It depends on n, the symmetry mode and the split depth, never
    /// on the thread count. (A `u128`: the trees of n >= 28 have more than 2^64 nodes.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u128>,
    /// The join engine's work: pairs of half-boards evaluated (512 per stored block a
    /// west half-board is matched against). It depends on n only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u128>,
    /// The number of independent tasks (the join engine's units).
    pub tasks: usize,
    /// Worker threads used.
    pub threads: usize,
    /// The engine that counted (never `auto`).
    pub engine: Engine,
    /// The symmetry reduction used (the join engine's is `full`).
    pub symmetry: Symmetry,
    /// The kernel that ran the tasks (never `auto`).
    pub kernel: Kernel,
    /// Rows fixed to form tasks (the backtracking engine only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// Wall-clock time of task building and search (written rounded to the nanosecond).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds: f64,
    /// The version of this crate.
    pub version: &'static str,
    /// The git commit of this build, when known ([`crate::COMMIT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
    /// The pre-placed queens (`R:C,...`) whose completions were counted, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
}

impl Count {
    /// The count of a run set up by `setup` whose units summed to `sums` (the
    /// task-building nodes are added here), with its fundamental counts if computed.
    /// Every way of running a count (plain, long, distributed) ends here.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the work does not fit 128 bits (never for a real count).
    pub(crate) fn assemble(
        setup: &Setup,
        sums: Sums,
        threads: usize,
        fundamental: Option<Fundamental>,
    ) -> Result<Count, Error> {
        let work = &setup.work;
        let done = sums
            .nodes
            .checked_add(u128::from(work.setup_work()))
            .ok_or(Error::Overflow("the count's work"))?;
        let (nodes, pairs) = match work.engine() {
            Engine::Join => (None, Some(done)),
            Engine::Backtrack | Engine::Auto => (Some(done), None),
        };
        Ok(Count {
            n: work.n(),
            total: sums.total,
            unique: fundamental.map(|f| f.unique),
            rot180: fundamental.map(|f| f.rot180),
            rot90: fundamental.map(|f| f.rot90),
            nodes,
            pairs,
            tasks: work.len(),
            threads,
            engine: work.engine(),
            symmetry: work.symmetry(),
            kernel: work.kernel(),
            split_depth: work.split_depth(),
            seconds: setup.start.elapsed().as_secs_f64(),
            version: crate::VERSION,
            commit: crate::COMMIT,
            placement: setup.placement.clone(),
        })
    }
}

/// Counts the solutions of the n-queens problem.
///
/// ```
/// use nqueens::{count, Options, Symmetry};
///
/// let options = Options { threads: Some(2), unique: true, ..Options::default() };
/// let c = count(8, &options).unwrap();
/// assert_eq!((c.total, c.unique), (92, Some(12)));
/// assert!(count(33, &options).is_err());
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] for a board size, thread count or split depth out of range;
/// [`Error::TooManyTasks`] for a split too deep; [`Error::KernelUnsupported`] for a
/// kernel this processor cannot run; [`Error::ThreadPool`] when the threads cannot
/// start; [`Error::Overflow`] or [`Error::Inconsistent`] only for a bug (never
/// expected).
pub fn count(n: usize, options: &Options) -> Result<Count, Error> {
    check_board_size(n)?;
    count_within(&Placement::empty(n)?, options)
}

/// Counts the solutions that extend `placement` (all solutions for the empty one).
///
/// Symmetry reduction is used only where it stays exact (mirror halving for a
/// placement that is its own mirror image, none for other placements); the result's
/// `symmetry` is the mode actually used. Fundamental counts (`options.unique`) are only
/// defined for the whole board.
///
/// ```
/// use nqueens::{count_within, Options, Placement};
///
/// let corner = Placement::parse(8, "0:0").unwrap();
/// assert_eq!(count_within(&corner, &Options::default()).unwrap().total, 4);
/// ```
///
/// # Errors
/// Those of [`count()`], and [`Error::Placement`] for fundamental counts with placed
/// queens.
pub fn count_within(placement: &Placement, options: &Options) -> Result<Count, Error> {
    let setup = Setup::new(placement, options)?;
    let all: Vec<usize> = (0..setup.work.len()).collect();
    let sums = setup.pool.install(|| setup.run_all(&all))?;
    let fundamental = whole_board_fundamental(&setup, options, sums.total)?;
    Count::assemble(&setup, sums, setup.threads, fundamental)
}

/// With `options.unique`, the fundamental counts of the whole board whose total is
/// `total`, searched on the run's pool.
pub(crate) fn whole_board_fundamental(
    setup: &Setup,
    options: &Options,
    total: u128,
) -> Result<Option<Fundamental>, Error> {
    if !options.unique {
        return Ok(None);
    }
    let n = setup.work.n();
    setup
        .pool
        .install(|| fundamental_counts(n, total))
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    let count = count_within(&placement, &options).unwrap();
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
            count_within(&middle, &options).unwrap().symmetry,
            Symmetry::Mirror
        );
        let side = Placement::parse(9, "4:3").unwrap();
        assert_eq!(
            count_within(&side, &options).unwrap().symmetry,
            Symmetry::None
        );
    }

    #[test]
    fn small_counts() {
        for symmetry in Symmetry::ALL {
            let options = Options {
                threads: Some(1),
                symmetry,
                ..Options::default()
            };
            let totals: Vec<u128> = (0..=8).map(|n| count(n, &options).unwrap().total).collect();
            assert_eq!(totals, [1, 1, 0, 0, 2, 10, 4, 40, 92], "{symmetry}");
        }
    }
}
