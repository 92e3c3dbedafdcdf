//! The one task loop: units run on a pool, each by index, their results summed with
//! checked arithmetic. It does not care what a unit is or which engine made it.

use rayon::prelude::*;

use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::count::stop::Stop;

/// The weighted solutions and work of a set of tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    /// Weighted solutions.
    pub(crate) total: u128,
    /// Work, in the engine's unit.
    pub(crate) work: u128,
}

impl Sums {
    /// The sums of one task.
    pub(crate) fn of(result: &TaskResult) -> Sums {
        Sums {
            total: result.weighted,
            work: result.work,
        }
    }

    /// Both sums added, or [`Error::Overflow`] if either leaves the `u128` range.
    pub(crate) fn checked_add(self, other: Sums) -> Result<Sums, Error> {
        match (
            self.total.checked_add(other.total),
            self.work.checked_add(other.work),
        ) {
            (Some(total), Some(work)) => Ok(Sums { total, work }),
            _ => Err(Error::Overflow("the sum of the task results")),
        }
    }

    /// The sums of `results`, checked.
    #[cfg(test)]
    pub(crate) fn total_of<'a>(
        results: impl IntoIterator<Item = &'a TaskResult>,
    ) -> Result<Sums, Error> {
        results
            .into_iter()
            .try_fold(Sums::default(), |sums, r| sums.checked_add(Sums::of(r)))
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
/// An error from `work` (memory that ran out) or from `on_done` (a checkpoint that
/// cannot be written) ends the pass too.
pub(crate) fn drive<I, W, F>(indices: I, stop: &Stop, work: W, on_done: F) -> Result<Ran, Error>
where
    I: ParallelIterator<Item = usize>,
    W: Fn(usize) -> Result<TaskResult, Error> + Sync,
    F: Fn(&TaskResult) -> Result<(), Error> + Sync,
{
    indices
        .filter(|_| !stop.is_requested())
        .map(|index| {
            let result = work(index)?;
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
#[cfg(any(test, feature = "mpi"))]
pub(crate) fn drive_list<W, F>(
    indices: &[usize],
    stop: &Stop,
    work: W,
    on_done: F,
) -> Result<Ran, Error>
where
    W: Fn(usize) -> Result<TaskResult, Error> + Sync,
    F: Fn(&TaskResult) -> Result<(), Error> + Sync,
{
    drive(
        indices.par_iter().with_max_len(1).copied(),
        stop,
        work,
        on_done,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_checked() {
        let big = Sums {
            total: u128::MAX,
            work: 1,
        };
        let one = Sums { total: 1, work: 1 };
        assert!(big.checked_add(one).is_err());
        assert_eq!(one.checked_add(one).unwrap(), Sums { total: 2, work: 2 });
    }
}
