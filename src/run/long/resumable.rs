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

use rayon::ThreadPool;

use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::count::drive::{drive_list, Sums};
use crate::run::count::stop::Stop;
use crate::run::long::checkpoint::Checkpoint;
use crate::run::long::identity::RunId;

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
    /// The indices this pass must finish, in the order to run them.
    pub(crate) selected: Vec<usize>,
    /// The checkpoint file, if any.
    pub(crate) checkpoint: Option<&'a Path>,
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
pub(crate) fn open_checkpoint(
    pass: &Pass<'_>,
) -> Result<(Option<Checkpoint>, Vec<TaskResult>), Error> {
    let Some(path) = pass.checkpoint else {
        return Ok((None, Vec::new()));
    };
    let (checkpoint, done) = Checkpoint::open(path, &pass.id, pass.tasks)?;
    let mut selected = vec![false; pass.tasks];
    for &i in &pass.selected {
        selected[i] = true;
    }
    if done.iter().any(|r| !selected[r.index]) {
        return Err(Error::Checkpoint {
            path: path.display().to_string(),
            problem: "records tasks outside this run's shard".into(),
        });
    }
    Ok((Some(checkpoint), done))
}

/// The selected tasks of `pass` that `done` does not hold, in order.
pub(crate) fn remaining(pass: &Pass<'_>, done: &[TaskResult]) -> Vec<usize> {
    let mut finished = vec![false; pass.tasks];
    for r in done {
        finished[r.index] = true;
    }
    pass.selected
        .iter()
        .copied()
        .filter(|&i| !finished[i])
        .collect()
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
    W: Fn(usize) -> TaskResult + Sync,
{
    let (checkpoint, done) = open_checkpoint(pass)?;
    if let Some(warning) = checkpoint.as_ref().and_then(Checkpoint::lock_warning) {
        observer.warning(warning);
    }
    let remaining = remaining(pass, &done);
    let resumed = Sums::total_of(&done)?;
    observer.started(&Started {
        tasks: pass.selected.len(),
        done: done.len(),
        solutions: resumed.total,
    });
    let ran = pool.install(|| {
        drive_list(&remaining, stop, &work, |result| {
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
    if ran.tasks < remaining.len() {
        return Err(stopped(
            done.len() + ran.tasks,
            pass.selected.len(),
            checkpoint.as_ref(),
        ));
    }
    Ok(Finished {
        sums: resumed.checked_add(ran.sums)?,
        resumed: done.len(),
        ran: ran.tasks,
    })
}
