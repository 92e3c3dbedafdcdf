//! The one task loop: what every count sets up before its search, how one task runs,
//! and how the results of many are summed.

use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::placement::Placement;
use crate::plan::TaskList;
use crate::run::count::Options;
use crate::run::stop::Stop;
use crate::run::work::Work;
use crate::search::kernel::Resolved;

/// What every count (plain, long-running or distributed) sets up before its search.
pub(crate) struct Setup {
    /// Worker threads of `pool`.
    pub(crate) threads: usize,
    /// The rayon pool.
    pub(crate) pool: rayon::ThreadPool,
    /// The engine's units and what runs them.
    pub(crate) work: Work,
    /// The pre-placed queens as `R:C,...` (`None` for the whole board).
    pub(crate) placement: Option<String>,
    /// When the set-up started (a count's `seconds` include building the work).
    pub(crate) start: Instant,
}

impl Setup {
    /// Checks `options` against `placement` (fundamental counts only for the whole
    /// board, an engine and kernel this processor runs for these options, the thread
    /// count, split depth and memory) and builds the pool and the work.
    pub(crate) fn new(placement: &Placement, options: &Options) -> Result<Setup, Error> {
        Setup::with_threads(placement, options, resolve_threads(options.threads)?)
    }

    /// Like [`Setup::new`] with `threads` workers, already checked.
    pub(crate) fn with_threads(
        placement: &Placement,
        options: &Options,
        threads: usize,
    ) -> Result<Setup, Error> {
        placement.allow_unique(options.unique)?;
        options.kernel.resolve()?;
        let pool = build_pool(threads)?;
        let start = Instant::now();
        let work = Work::build(placement, options, threads)?;
        Ok(Setup {
            threads,
            pool,
            work,
            placement: (!placement.is_empty()).then(|| placement.to_string()),
            start,
        })
    }
}

/// A rayon pool with exactly `threads` workers.
pub(crate) fn build_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool(e.to_string()))
}

/// What one finished task (a unit of the engine's work) contributed to a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// The task's position in the run's deterministic list of units.
    pub index: usize,
    /// Its solutions times their weights.
    pub weighted: u128,
    /// Its work in the engine's unit: the queens its search placed (backtracking), or
    /// the pairs of half-boards it evaluated (join).
    pub work: u128,
}

/// The weighted solutions and work of a set of tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    /// Weighted solutions.
    pub(crate) total: u128,
    /// Queens placed.
    pub(crate) nodes: u128,
}

impl Sums {
    /// The sums of one task.
    pub(crate) fn of(result: &TaskResult) -> Sums {
        Sums {
            total: result.weighted,
            nodes: result.work,
        }
    }

    /// Both sums added, or [`Error::Overflow`] if either leaves the `u128` range.
    pub(crate) fn checked_add(self, other: Sums) -> Result<Sums, Error> {
        match (
            self.total.checked_add(other.total),
            self.nodes.checked_add(other.nodes),
        ) {
            (Some(total), Some(nodes)) => Ok(Sums { total, nodes }),
            _ => Err(Error::Overflow("the sum of the task results")),
        }
    }

    /// The sums of `results`, checked.
    pub(crate) fn total_of<'a>(
        results: impl IntoIterator<Item = &'a TaskResult>,
    ) -> Result<Sums, Error> {
        results
            .into_iter()
            .try_fold(Sums::default(), |sums, r| sums.checked_add(Sums::of(r)))
    }
}

/// Runs task `index` of `list` with `kernel`.
///
/// # Panics
/// If `index` is out of range.
pub(crate) fn run_task(list: &TaskList, index: usize, kernel: Resolved) -> TaskResult {
    let task = &list.tasks[index];
    let constraints = &list.constraints[task.constraints];
    let tally = if task.weigh_by_class {
        kernel.weigh_by_class(
            constraints,
            task.frontier,
            &task.prefix[..task.frontier.row],
        )
    } else {
        kernel.count(constraints, task.frontier)
    };
    TaskResult {
        index,
        // A task's solutions fit a u64 and its weight is at most 8: no overflow.
        weighted: u128::from(tally.solutions) * u128::from(task.weight),
        work: u128::from(tally.nodes),
    }
}

/// What a pass of the task loop did: the sums of the tasks it ran, and how many ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ran {
    /// The sums of the tasks that ran.
    pub(crate) sums: Sums,
    /// How many tasks ran.
    pub(crate) tasks: usize,
}

impl Ran {
    /// Both passes together, checked.
    pub(crate) fn checked_add(self, other: Ran) -> Result<Ran, Error> {
        Ok(Ran {
            sums: self.sums.checked_add(other.sums)?,
            tasks: self.tasks + other.tasks,
        })
    }
}

/// The one task loop: runs `work` on each index that `indices` yields, on the current
/// rayon pool, calls `on_done` (from the worker threads) as each one finishes, and sums
/// the results with checked arithmetic. It does not care what a task is.
///
/// `stop` is checked before each task starts: once it is requested no task starts,
/// the running ones finish, and the pass returns what ran (`tasks` tells how many).
/// An error from `on_done` (a checkpoint that cannot be written) ends the pass too.
pub(crate) fn drive<I, W, F>(indices: I, stop: &Stop, work: W, on_done: F) -> Result<Ran, Error>
where
    I: ParallelIterator<Item = usize>,
    W: Fn(usize) -> TaskResult + Sync,
    F: Fn(&TaskResult) -> Result<(), Error> + Sync,
{
    indices
        .filter(|_| !stop.is_requested())
        .map(|index| {
            let result = work(index);
            on_done(&result)?;
            Ok(Ran {
                sums: Sums::of(&result),
                tasks: 1,
            })
        })
        .try_reduce(Ran::default, Ran::checked_add)
}

/// [`drive`] over a list of task indices, one task at a time per worker, each run by
/// `work`.
pub(crate) fn drive_list<W, F>(
    indices: &[usize],
    stop: &Stop,
    work: W,
    on_done: F,
) -> Result<Ran, Error>
where
    W: Fn(usize) -> TaskResult + Sync,
    F: Fn(&TaskResult) -> Result<(), Error> + Sync,
{
    drive(
        indices.par_iter().with_max_len(1).copied(),
        stop,
        work,
        on_done,
    )
}

impl Setup {
    /// Runs task `index` of this set-up's list with its kernel.
    ///
    /// # Panics
    /// If `index` is out of range.
    pub(crate) fn run_task(&self, index: usize) -> TaskResult {
        self.work.run(index)
    }

    /// Runs the listed tasks through the task loop on the current pool, never stopped,
    /// and returns their sums.
    ///
    /// # Panics
    /// If an index is out of range.
    pub(crate) fn run_all(&self, indices: &[usize]) -> Result<Sums, Error> {
        let ran = drive_list(indices, &Stop::new(), |i| self.run_task(i), |_| Ok(()))?;
        Ok(ran.sums)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetry;

    #[test]
    fn run_tasks_reports_every_selected_task() {
        let options = Options {
            threads: Some(2),
            symmetry: Symmetry::Mirror,
            split_depth: Some(2),
            ..Options::default()
        };
        let setup = Setup::new(&Placement::empty(9).unwrap(), &options).unwrap();
        let all: Vec<usize> = (0..setup.work.len()).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        let ran = setup
            .pool
            .install(|| {
                drive_list(
                    &all,
                    &Stop::new(),
                    |i| setup.run_task(i),
                    |r| {
                        seen.lock().unwrap().push(*r);
                        Ok(())
                    },
                )
            })
            .unwrap();
        let sums = ran.sums;
        assert_eq!(ran.tasks, setup.work.len());
        assert_eq!(sums.total, 352);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|r| r.index);
        assert_eq!(seen.len(), setup.work.len());
        assert_eq!(Sums::total_of(&seen).unwrap(), sums);
        let odd = setup.pool.install(|| setup.run_all(&[1, 3])).unwrap();
        assert_eq!(odd.total, seen[1].weighted + seen[3].weighted);
    }

    #[test]
    fn a_stop_starts_no_new_task() {
        let options = Options {
            threads: Some(1),
            split_depth: Some(3),
            ..Options::default()
        };
        let setup = Setup::new(&Placement::empty(10).unwrap(), &options).unwrap();
        let all: Vec<usize> = (0..setup.work.len()).collect();
        let stop = Stop::new();
        let ran = setup
            .pool
            .install(|| {
                drive_list(
                    &all,
                    &stop,
                    |i| setup.run_task(i),
                    |r| {
                        if r.index == 4 {
                            stop.request(2);
                        }
                        Ok(())
                    },
                )
            })
            .unwrap();
        // One worker takes the tasks in order: five ran, then none started.
        assert_eq!(ran.tasks, 5);
        assert!(ran.tasks < all.len());
    }

    #[test]
    fn sums_are_checked() {
        let big = Sums {
            total: u128::MAX,
            nodes: 1,
        };
        let one = Sums { total: 1, nodes: 1 };
        assert!(big.checked_add(one).is_err());
        assert_eq!(one.checked_add(one).unwrap(), Sums { total: 2, nodes: 2 });
    }
}
