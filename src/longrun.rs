//! Long runs: a count limited to a shard, resumed from and recorded to a checkpoint,
//! and watched task by task.
//!
//! All of it sits on [`crate::count::run_tasks`] over the deterministic
//! task list: the shard picks the task indices, the checkpoint removes those already
//! finished and records the others as they finish, and an [`Observer`] hears about
//! each one (for a progress display).

use std::path::Path;
use std::sync::Mutex;

use crate::checkpoint::Checkpoint;
use crate::count::{
    fundamental_counts, resolve_threads, run_tasks, Count, Options, Setup, TaskResult,
};
use crate::dispatch::Kernel;
use crate::error::Error;
use crate::placement::Placement;
use crate::run_id::RunId;
use crate::shard::{Shard, ShardReport};
use crate::symmetry::Symmetry;

/// What a long run does besides counting.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan<'a> {
    /// Run only this shard of the tasks.
    pub shard: Option<Shard>,
    /// Resume from and record to this checkpoint file.
    pub checkpoint: Option<&'a Path>,
}

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
}

/// An observer that ignores everything.
impl Observer for () {}

/// The result of a long run.
#[derive(Clone, Debug, PartialEq)]
pub struct LongRun {
    /// The identity of the run (as in its checkpoint header).
    pub id: RunId,
    /// The board size.
    pub n: usize,
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// The kernel that ran the tasks.
    pub kernel: Kernel,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
    /// Pre-placed queens (empty for none).
    pub placements: String,
    /// The shard run, if any.
    pub shard: Option<Shard>,
    /// The tasks of this run (the shard's, or all).
    pub tasks: usize,
    /// The tasks of the whole count.
    pub tasks_total: usize,
    /// Tasks taken from the checkpoint instead of being run.
    pub resumed: usize,
    /// The weighted solutions of this run's tasks (the total, without a shard).
    pub total: u128,
    /// Queens placed by this run's tasks, task building included (for a shard, only
    /// in shard 0), counting those resumed from the checkpoint.
    pub nodes: u128,
    /// Worker threads used.
    pub threads: usize,
    /// Wall-clock seconds of this invocation.
    pub seconds: f64,
    /// With [`Options::unique`] (whole runs only): `(unique, rot180, rot90)`.
    pub fundamental: Option<(u128, u128, u128)>,
}

/// Runs a count of the completions of `placement` (of size `n`, all solutions for the
/// empty placement) under `options` as `plan` says, telling `observer`. Fundamental
/// counts (`options.unique`) need the whole run: no shard, no placed queens.
pub fn run(
    placement: &Placement,
    options: &Options,
    plan: &Plan<'_>,
    observer: &dyn Observer,
) -> Result<LongRun, Error> {
    let n = placement.n();
    placement.allow_unique(options.unique)?;
    if options.unique && plan.shard.is_some() {
        return Err(Error::Shard(
            "fundamental counts need the whole run: count without --unique in the shards".into(),
        ));
    }
    let Setup {
        threads,
        kernel,
        pool,
        list,
        start,
    } = Setup::new(placement, options, resolve_threads(options.threads)?)?;
    let placements = placement.to_string();
    let shard_name = plan.shard.map_or("all".to_string(), |s| s.to_string());
    let id = RunId::of(&list, &placements).with("shard", &shard_name);
    let selected = match plan.shard {
        Some(shard) => shard.indices(list.len()),
        None => (0..list.len()).collect(),
    };
    let (checkpoint, done) = match plan.checkpoint {
        Some(path) => {
            let (checkpoint, resumed) = Checkpoint::open(path, &id)?;
            (Some(checkpoint), resumed.done)
        }
        None => (None, Vec::new()),
    };
    let mut finished = vec![false; list.len()];
    for r in &done {
        finished[r.index] = true;
    }
    let remaining: Vec<usize> = selected.iter().copied().filter(|&i| !finished[i]).collect();
    if remaining.len() + done.len() != selected.len() {
        return Err(Error::Checkpoint {
            path: plan
                .checkpoint
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            problem: "records tasks outside this run's shard".into(),
        });
    }
    let resumed_total: u128 = done.iter().map(|r| r.weighted).sum();
    let resumed_nodes: u128 = done.iter().map(|r| u128::from(r.nodes)).sum();
    observer.started(&Started {
        tasks: selected.len(),
        done: done.len(),
        solutions: resumed_total,
    });
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let (run_total, run_nodes) = pool.install(|| {
        run_tasks(&list, &remaining, kernel, |result| {
            if let Some(checkpoint) = &checkpoint {
                if let Err(e) = checkpoint.record(&result) {
                    failure
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                }
            }
            observer.finished(&result);
        })
    });
    if let Some(checkpoint) = &checkpoint {
        checkpoint.finish()?;
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let total = resumed_total + run_total;
    let fundamental = if options.unique {
        Some(pool.install(|| fundamental_counts(n, total))?)
    } else {
        None
    };
    let setup = if plan.shard.is_none_or(|s| s.index == 0) {
        u128::from(list.setup_nodes)
    } else {
        0
    };
    Ok(LongRun {
        id,
        n,
        symmetry: list.symmetry,
        kernel,
        split_depth: list.split_depth,
        placements,
        shard: plan.shard,
        tasks: selected.len(),
        tasks_total: list.len(),
        resumed: done.len(),
        total,
        nodes: resumed_nodes + run_nodes + setup,
        threads,
        seconds: start.elapsed().as_secs_f64(),
        fundamental,
    })
}

impl LongRun {
    /// The run as a whole count (meaningful without a shard).
    pub fn count(&self) -> Count {
        Count {
            n: self.n,
            total: self.total,
            unique: self.fundamental.map(|f| f.0),
            rot180: self.fundamental.map(|f| f.1),
            rot90: self.fundamental.map(|f| f.2),
            placement: (!self.placements.is_empty()).then(|| self.placements.clone()),
            nodes: self.nodes,
            tasks: self.tasks_total,
            threads: self.threads,
            symmetry: self.symmetry,
            kernel: self.kernel,
            split_depth: self.split_depth,
            seconds: self.seconds,
            version: crate::VERSION,
        }
    }

    /// The run's shard output, if it ran a shard.
    pub fn shard_report(&self) -> Option<ShardReport> {
        let shard = self.shard?;
        Some(ShardReport {
            n: self.n,
            symmetry: self.symmetry.name().to_string(),
            split_depth: self.split_depth,
            placements: self.placements.clone(),
            shard: shard.index,
            shards: shard.count,
            tasks: self.tasks,
            tasks_total: self.tasks_total,
            total: self.total,
            nodes: self.nodes,
            threads: self.threads,
            kernel: self.kernel.name().to_string(),
            seconds: self.seconds,
            version: crate::VERSION.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::merge;

    fn options() -> Options {
        Options {
            threads: Some(2),
            symmetry: Symmetry::Mirror,
            split_depth: Some(3),
            ..Options::default()
        }
    }

    fn board(n: usize) -> Placement {
        Placement::empty(n).unwrap()
    }

    #[test]
    fn shards_merge_to_the_count() {
        let whole = crate::count(10, &options()).unwrap();
        for k in [1, 2, 5, 1000] {
            let reports: Vec<_> = (0..k)
                .map(|i| {
                    let plan = Plan {
                        shard: Some(Shard { index: i, count: k }),
                        ..Plan::default()
                    };
                    let r = run(&board(10), &options(), &plan, &()).unwrap();
                    (format!("{i}"), r.shard_report().unwrap())
                })
                .collect();
            let merged = merge(&reports).unwrap();
            assert_eq!(
                (merged.total, merged.nodes),
                (whole.total, whole.nodes),
                "k = {k}"
            );
        }
    }

    #[test]
    fn resuming_a_checkpoint_gives_the_same_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c");
        let plan = Plan {
            checkpoint: Some(&path),
            ..Plan::default()
        };
        let first = run(&board(10), &options(), &plan, &()).unwrap();
        assert_eq!((first.total, first.resumed), (724, 0));
        // Keep only some records, as if the run had been killed.
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().take(20).collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        let second = run(&board(10), &options(), &plan, &()).unwrap();
        assert_eq!(second.resumed, 19);
        assert_eq!(second.count().total, first.total);
        assert_eq!(second.nodes, first.nodes);
        let third = run(&board(10), &options(), &plan, &()).unwrap();
        assert_eq!((third.resumed, third.total), (first.tasks, 724));
    }
}
