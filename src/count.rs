//! Counting: run the tasks of a [`TaskList`] on a rayon pool and sum their results.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::dispatch::Kernel;
use crate::error::Error;
use crate::kernel::Tally;
use crate::placement::Placement;
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
    /// The kernel the tasks run with (the fastest supported one by default).
    pub kernel: Kernel,
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
    /// n, the symmetry mode and the split depth, never on the thread count. (A `u128`:
    /// the trees of n >= 28 have more than 2^64 nodes.)
    pub nodes: u128,
    /// The number of independent tasks.
    pub tasks: usize,
    /// Worker threads used.
    pub threads: usize,
    /// The symmetry reduction used.
    pub symmetry: Symmetry,
    /// The kernel that ran the tasks (`scalar` or `avx512`).
    pub kernel: Kernel,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
    /// Wall-clock time of task building and search.
    pub seconds: f64,
    /// The version of this crate.
    pub version: &'static str,
    /// The pre-placed queens (`R:C,...`) whose completions were counted, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
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
    crate::tasks::check_board_size(n)?;
    count_within(&Placement::empty(n)?, options)
}

/// Counts the solutions that extend `placement` (all solutions for the empty one).
///
/// Symmetry reduction is used only where it stays exact
/// ([`Placement::exact_symmetry`]); the result's `symmetry` is the mode actually used.
/// Fundamental counts (`options.unique`) are only defined for the whole board.
pub fn count_within(placement: &Placement, options: &Options) -> Result<Count, Error> {
    let n = placement.n();
    let Setup {
        threads,
        kernel,
        pool,
        list,
        start,
    } = Setup::new(placement, options, resolve_threads(options.threads)?)?;
    let (total, nodes) = pool.install(|| run_all(&list, kernel));
    let (unique, rot180, rot90) = if options.unique {
        let fundamental = pool.install(|| fundamental_counts(n, total))?;
        (
            Some(fundamental.0),
            Some(fundamental.1),
            Some(fundamental.2),
        )
    } else {
        (None, None, None)
    };
    Ok(Count {
        n,
        total,
        unique,
        rot180,
        rot90,
        nodes: nodes + u128::from(list.setup_nodes),
        tasks: list.len(),
        threads,
        symmetry: list.symmetry,
        kernel,
        split_depth: list.split_depth,
        seconds: start.elapsed().as_secs_f64(),
        version: crate::VERSION,
        placement: (!placement.is_empty()).then(|| placement.to_string()),
    })
}

/// What every count (plain, long-running or distributed) sets up before its search.
pub struct Setup {
    /// Worker threads of `pool`.
    pub threads: usize,
    /// The kernel the tasks run with (resolved: never `Auto`).
    pub kernel: Kernel,
    /// The rayon pool.
    pub pool: rayon::ThreadPool,
    /// The tasks of the count.
    pub list: TaskList,
    /// When the set-up started (a count's `seconds` include building the tasks).
    pub start: Instant,
}

impl Setup {
    /// Checks `options` against `placement` (fundamental counts only for the whole
    /// board, a kernel this processor runs, the split depth) and builds a pool of
    /// `threads` workers and the task list.
    pub fn new(placement: &Placement, options: &Options, threads: usize) -> Result<Setup, Error> {
        placement.allow_unique(options.unique)?;
        let kernel = options.kernel.resolve()?;
        let pool = build_pool(threads)?;
        let start = Instant::now();
        let list = TaskList::for_placement(placement, options.symmetry, options.split_depth)?;
        Ok(Setup {
            threads,
            kernel,
            pool,
            list,
            start,
        })
    }
}

/// `(unique, rot180, rot90)` for a board of size `n` with `total` solutions: the
/// rotation-fixed solutions are searched (in parallel on the current pool) and the
/// fundamental count follows by Burnside's lemma.
pub fn fundamental_counts(n: usize, total: u128) -> Result<(u128, u128, u128), Error> {
    let (rot180, rot90) = rayon::join(
        || fixed_by(n, Rotation::HalfTurn),
        || fixed_by(n, Rotation::QuarterTurn),
    );
    let unique = fundamental(n, total, rot180, rot90).ok_or(Error::Inconsistent {
        n,
        total,
        rot180,
        rot90,
    })?;
    Ok((unique, rot180, rot90))
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

/// Runs one task with `kernel`: its weighted solution count and its nodes.
pub fn run_task(list: &TaskList, task: &Task, kernel: Kernel) -> (u128, Tally) {
    let constraints = &list.constraints[task.constraints];
    let tally = if task.check {
        kernel.search_canonical(
            constraints,
            task.frontier,
            &task.prefix[..task.frontier.row],
        )
    } else {
        kernel.search(constraints, task.frontier)
    };
    (u128::from(tally.solutions) * u128::from(task.weight), tally)
}

/// What one finished task contributed to a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// The task's position in [`TaskList::tasks`].
    pub index: usize,
    /// Its solutions times its weight.
    pub weighted: u128,
    /// The queens its search placed.
    pub nodes: u64,
}

/// Runs the tasks of `list` at `indices` with `kernel` on the current rayon pool, calling `on_done`
/// (from the worker threads) as each one finishes; returns the sums of their weighted
/// solutions and nodes. The engine under checkpoints, shards and progress reports.
///
/// # Panics
/// If an index is out of range.
pub fn run_tasks<F>(list: &TaskList, indices: &[usize], kernel: Kernel, on_done: F) -> (u128, u128)
where
    F: Fn(TaskResult) + Sync,
{
    indices
        .par_iter()
        .with_max_len(1)
        .map(|&index| {
            let (weighted, tally) = run_task(list, &list.tasks[index], kernel);
            on_done(TaskResult {
                index,
                weighted,
                nodes: tally.nodes,
            });
            (weighted, u128::from(tally.nodes))
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Runs every task of `list` with `kernel` on the current rayon pool: (weighted total,
/// kernel nodes).
fn run_all(list: &TaskList, kernel: Kernel) -> (u128, u128) {
    list.tasks
        .par_iter()
        .with_max_len(1)
        .map(|task| {
            let (weighted, tally) = run_task(list, task, kernel);
            (weighted, u128::from(tally.nodes))
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
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

    #[test]
    fn run_tasks_reports_every_selected_task() {
        let list = TaskList::build(9, Symmetry::Mirror, Some(2)).unwrap();
        let all: Vec<usize> = (0..list.len()).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        let (total, nodes) = run_tasks(&list, &all, Kernel::Auto, |r| seen.lock().unwrap().push(r));
        assert_eq!(total, 352);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|r| r.index);
        assert_eq!(seen.len(), list.len());
        assert_eq!(seen.iter().map(|r| r.weighted).sum::<u128>(), 352);
        assert_eq!(
            seen.iter().map(|r| u128::from(r.nodes)).sum::<u128>(),
            nodes
        );
        let (odd, _) = run_tasks(&list, &[1, 3], Kernel::Auto, |_| {});
        assert_eq!(odd, seen[1].weighted + seen[3].weighted);
    }
}
