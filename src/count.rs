//! Counting: run the tasks of a [`TaskList`] on a rayon pool and sum their results.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Error;
use crate::kernel::{search, search_canonical, Tally};
use crate::rotation::{fixed_by, fundamental, Rotation};
use crate::symmetry::Symmetry;
use crate::tasks::{Task, TaskList};

/// The largest thread count accepted.
pub const MAX_THREADS: usize = 4096;

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
}

impl Options {
    /// These options for a board of size `n`, with the split depth (if any) capped into
    /// the range that board accepts (for runs over many sizes).
    pub fn for_board(&self, n: usize) -> Options {
        let lo = crate::tasks::min_split_depth(n);
        let hi = crate::tasks::max_split_depth(n);
        Options {
            split_depth: self.split_depth.map(|d| d.clamp(lo, hi)),
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
    /// Queens placed by the search that was run, task building included. It depends on
    /// n, the symmetry mode and the split depth, never on the thread count.
    pub nodes: u64,
    /// The number of independent tasks.
    pub tasks: usize,
    /// Worker threads used.
    pub threads: usize,
    /// The symmetry reduction used.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
    /// Wall-clock time of task building and search.
    pub seconds: f64,
    /// The version of this crate.
    pub version: &'static str,
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
pub fn count(n: usize, options: &Options) -> Result<Count, Error> {
    let threads = resolve_threads(options.threads)?;
    let pool = build_pool(threads)?;
    let start = Instant::now();
    let list = TaskList::build(n, options.symmetry, options.split_depth)?;
    let (total, nodes) = pool.install(|| run_all(&list));
    let (unique, rot180, rot90) = if options.unique {
        let (rot180, rot90) = pool.install(|| {
            rayon::join(
                || fixed_by(n, Rotation::HalfTurn),
                || fixed_by(n, Rotation::QuarterTurn),
            )
        });
        let unique = fundamental(n, total, rot180, rot90).ok_or(Error::Inconsistent {
            n,
            total,
            rot180,
            rot90,
        })?;
        (Some(unique), Some(rot180), Some(rot90))
    } else {
        (None, None, None)
    };
    Ok(Count {
        n,
        total,
        unique,
        rot180,
        rot90,
        nodes: nodes + list.setup_nodes,
        tasks: list.len(),
        threads,
        symmetry: options.symmetry,
        split_depth: list.split_depth,
        seconds: start.elapsed().as_secs_f64(),
        version: crate::VERSION,
    })
}

/// The thread count to use: the requested one, checked, or every logical CPU.
pub fn resolve_threads(threads: Option<usize>) -> Result<usize, Error> {
    match threads {
        Some(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        Some(t) => Err(Error::Threads { threads: t }),
        None => Ok(num_cpus::get().max(1)),
    }
}

/// A rayon pool with exactly `threads` workers.
pub fn build_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool(e.to_string()))
}

/// Runs one task: its weighted solution count and its nodes.
pub fn run_task(list: &TaskList, task: &Task) -> (u128, Tally) {
    let constraints = &list.constraints[task.constraints];
    let tally = if task.check {
        search_canonical(
            constraints,
            task.frontier,
            &task.prefix[..task.frontier.row],
        )
    } else {
        search(constraints, task.frontier)
    };
    (u128::from(tally.solutions) * u128::from(task.weight), tally)
}

/// Runs every task of `list` on the current rayon pool: (weighted total, kernel nodes).
fn run_all(list: &TaskList) -> (u128, u64) {
    list.tasks
        .par_iter()
        .with_max_len(1)
        .map(|task| {
            let (weighted, tally) = run_task(list, task);
            (weighted, tally.nodes)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_checked() {
        assert!(resolve_threads(Some(0)).is_err());
        assert_eq!(resolve_threads(Some(3)).unwrap(), 3);
        assert!(resolve_threads(None).unwrap() >= 1);
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
