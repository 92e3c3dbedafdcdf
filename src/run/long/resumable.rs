//! A resumable pass over a set of tasks: what a long run adds to the task loop,
//! whatever its tasks are.
//!
//! Given the run's identity, the indices it must finish and the work of one task, it
//! takes the finished ones from the checkpoint (if any), runs the others through the
//! one task loop ([`crate::run::count::drive::drive`]) while recording each as it finishes,
//! tells an [`Observer`], and honours a [`Stop`]: a stopped pass syncs the checkpoint
//! and returns [`Error::Stopped`] with how much is saved. It does not know what a task
//! is: any engine's plan runs through it.

use std::path::Path;

use rayon::prelude::*;
use rayon::ThreadPool;

use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::count::drive::{drive, Sums};
use crate::run::count::order::SpreadBlocks;
use crate::run::count::stop::Stop;
use crate::run::long::checkpoint::Checkpoint;
use crate::run::long::identity::RunId;
use crate::run::long::resumed::Resumed;
use crate::run::long::shard::Shard;

/// Where a run stands when its tasks start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// The tasks of this run (the shard's, or all).
    pub tasks: usize,
    /// How many of them a checkpoint already holds.
    pub done: usize,
    /// The weighted solutions of those.
    pub solutions: u128,
}

/// Hears how a long run progresses; called from the worker threads.
pub trait Observer: Sync {
    /// The run is about to start its remaining tasks.
    fn started(&self, _start: &Started) {}
    /// A task finished (after its checkpoint record was written).
    fn finished(&self, _result: &TaskResult) {}
    /// Something the user should know that does not stop the run (such as a
    /// checkpoint that the filesystem cannot lock).
    fn warning(&self, _message: &str) {}
}

/// An observer that ignores everything.
impl Observer for () {}

/// What a resumable pass is to do.
#[derive(Clone, Debug)]
pub(crate) struct Pass<'a> {
    /// The identity its checkpoint header records (the shard included).
    pub(crate) id: RunId,
    /// The tasks of the whole run: records name indices below this.
    pub(crate) tasks: usize,
    /// The tasks this pass must finish: those of this shard (`0/1` for all).
    pub(crate) shard: Shard,
    /// The checkpoint file, if any.
    pub(crate) checkpoint: Option<&'a Path>,
}

impl Pass<'_> {
    /// How many tasks this pass must finish.
    pub(crate) fn selected(&self) -> usize {
        self.shard.share(self.tasks)
    }

    /// Whether task `index` is one this pass must finish.
    pub(crate) fn selects(&self, index: usize) -> bool {
        index >= self.shard.index
            && (index - self.shard.index).is_multiple_of(self.shard.count.max(1))
    }

    /// The tasks this pass must finish that `done` does not hold, a block of
    /// neighbours at a time per worker, the blocks in spread order (see
    /// [`SpreadBlocks`], over this shard's tasks), without a list of them being built.
    pub(crate) fn remaining<'d>(
        &self,
        done: &'d Resumed,
    ) -> impl ParallelIterator<Item = usize> + 'd {
        let blocks = SpreadBlocks::new(self.selected());
        let (first, step) = (self.shard.index, self.shard.count.max(1));
        (0..blocks.len())
            .into_par_iter()
            .with_max_len(1)
            .flat_map_iter(move |position| blocks.at(position))
            .map(move |k| first + k * step)
            .filter(move |&i| !done.contains(i))
    }
}

/// What a finished pass did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Finished {
    /// The sums of every selected task (resumed and run).
    pub(crate) sums: Sums,
    /// Tasks taken from the checkpoint.
    pub(crate) resumed: usize,
    /// Tasks run by this pass.
    pub(crate) ran: usize,
}

/// The checkpoint of `pass` opened (if it has one), with the tasks it already holds.
/// Refuses a file that records a task outside the pass.
pub(crate) fn open_checkpoint(pass: &Pass<'_>) -> Result<(Option<Checkpoint>, Resumed), Error> {
    let Some(path) = pass.checkpoint else {
        return Ok((None, Resumed::new(pass.tasks)));
    };
    let (checkpoint, done) = Checkpoint::open(path, &pass.id, pass.tasks)?;
    if let Some(outside) = done.indices().find(|&i| !pass.selects(i)) {
        return Err(Error::Checkpoint {
            path: path.display().to_string(),
            problem: format!(
                "records task {outside}, outside this run's shard {}",
                pass.shard
            ),
        });
    }
    Ok((Some(checkpoint), done))
}

/// [`Error::Stopped`] for a pass of `tasks` tasks stopped with `saved` of them in
/// `checkpoint`.
pub(crate) fn stopped(saved: usize, tasks: usize, checkpoint: Option<&Checkpoint>) -> Error {
    Error::Stopped {
        saved: if checkpoint.is_some() { saved } else { 0 },
        tasks,
        checkpoint: checkpoint.map(|c| c.path().display().to_string()),
    }
}

/// Runs `pass` on `pool`: each remaining task by `work`, recorded in the checkpoint as
/// it finishes, `observer` told. Returns the sums of all selected tasks, or
/// [`Error::Stopped`] if `stop` was requested before they all ran.
pub(crate) fn run_pass<W>(
    pass: &Pass<'_>,
    pool: &ThreadPool,
    stop: &Stop,
    observer: &dyn Observer,
    work: W,
) -> Result<Finished, Error>
where
    W: Fn(usize) -> Result<TaskResult, Error> + Sync,
{
    let (checkpoint, done) = open_checkpoint(pass)?;
    if let Some(warning) = checkpoint.as_ref().and_then(Checkpoint::lock_warning) {
        observer.warning(warning);
    }
    let to_run = pass.selected() - done.count();
    observer.started(&Started {
        tasks: pass.selected(),
        done: done.count(),
        solutions: done.sums().total,
    });
    let ran = pool.install(|| {
        drive(pass.remaining(&done), stop, &work, |result| {
            if let Some(checkpoint) = &checkpoint {
                checkpoint.record(result, stop.is_requested())?;
            }
            observer.finished(result);
            Ok(())
        })
    });
    if let Some(checkpoint) = &checkpoint {
        checkpoint.finish()?;
    }
    let ran = ran?;
    if ran.tasks < to_run {
        return Err(stopped(
            done.count() + ran.tasks,
            pass.selected(),
            checkpoint.as_ref(),
        ));
    }
    Ok(Finished {
        sums: done.sums().checked_add(ran.sums)?,
        resumed: done.count(),
        ran: ran.tasks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_selects_its_shard_and_skips_what_is_done() {
        let pass = Pass {
            id: RunId::parse("n=1").unwrap(),
            tasks: 10,
            shard: Shard { index: 1, count: 3 },
            checkpoint: None,
        };
        assert_eq!(pass.selected(), 3);
        assert!(pass.selects(4) && !pass.selects(5) && !pass.selects(0));
        let mut done = Resumed::new(10);
        done.add(&TaskResult {
            index: 4,
            weighted: 0,
            work: 0,
        })
        .unwrap();
        let mut left: Vec<usize> = pass.remaining(&done).collect();
        left.sort_unstable();
        assert_eq!(left, [1, 7]);
        let beyond = Pass {
            shard: Shard { index: 4, count: 5 },
            tasks: 3,
            ..pass
        };
        assert_eq!(beyond.remaining(&done).count(), 0);
    }
}
