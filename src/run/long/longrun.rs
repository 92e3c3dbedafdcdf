//! Long runs: a count limited to a shard, resumed from and recorded to a checkpoint,
//! and watched task by task.
//!
//! All of it sits on the one task loop ([`crate::run::count::drive`]) over the deterministic
//! task list, through the generic resumable pass ([`crate::run::long::resumable`]): the shard
//! picks the task indices, the checkpoint (held exclusively) removes those already
//! finished and records the others as they finish, an [`Observer`] hears about each
//! one (for a progress display), and a [`Stop`] ends the run early with everything
//! finished saved. This module adds what is particular to a whole count or a shard:
//! the run's identity, the fundamental counts, and the shard report. Every count of
//! this process runs here (the library's `count` is a long run with default options).

use std::path::Path;

use crate::engine::counting;
use crate::error::Error;
use crate::model::placement::Placement;
use crate::run::count::options::Options;
use crate::run::count::result::Count;
use crate::run::count::setup::Setup;
use crate::run::count::stop::Stop;
use crate::run::long::identity::RunIdentity;
use crate::run::long::resumable::{run_pass, Observer, Pass};
use crate::run::long::shard::{Shard, ShardReport};
use crate::symmetry::rotation::rotation_fixed;

/// What a long run does besides counting.
#[derive(Clone, Copy, Debug, Default)]
pub struct LongRunOptions<'a> {
    /// Run only this shard of the tasks.
    pub shard: Option<Shard>,
    /// Resume from and record to this checkpoint file, held exclusively while the run
    /// works.
    pub checkpoint: Option<&'a Path>,
    /// Stop early when this is requested: no new task starts, the running ones finish,
    /// the checkpoint is synced, and the run returns [`Error::Stopped`].
    pub stop: Option<&'a Stop>,
}

/// The result of a long run.
#[derive(Clone, Debug, PartialEq)]
pub struct LongRun {
    /// The count: the whole count without a shard; for a shard, its partial `total`
    /// and `work` (planning counted in shard 0 only), with `tasks` the whole run's.
    pub count: Count,
    /// The shard run, if any.
    pub shard: Option<Shard>,
    /// The tasks of this run (the shard's, or all).
    pub tasks: usize,
    /// Tasks taken from the checkpoint instead of being run.
    pub resumed: usize,
    /// Tasks run by this process (`tasks - resumed`).
    pub ran: usize,
    /// Whether the run used a checkpoint.
    pub checkpointed: bool,
}

/// Runs a count of the completions of `placement` (all solutions for the empty
/// placement) under `options`, limited to a shard, checkpointed and stoppable as `long`
/// says, telling `observer`. Fundamental counts (`options.unique`) need the whole board
/// (no placed queens); in a shard they are left to `merge`, and shard 0 reports the
/// rotation-fixed counts they come from.
///
/// # Errors
/// As [`crate::run_long`].
pub(crate) fn run(
    placement: &Placement,
    options: &Options,
    long: &LongRunOptions<'_>,
    observer: &dyn Observer,
) -> Result<LongRun, Error> {
    let setup = Setup::new(placement, options)?;
    let plan = &setup.plan;
    let identity = RunIdentity::of_plan(setup.engine, plan.as_ref(), setup.placement.as_deref());
    let shard_name = long.shard.map_or("all".to_string(), |s| s.to_string());
    let pass = Pass {
        id: identity.fields().with("shard", &shard_name),
        tasks: plan.len(),
        shard: long.shard.unwrap_or(Shard { index: 0, count: 1 }),
        checkpoint: long.checkpoint,
    };
    let never = Stop::new();
    let stop = long.stop.unwrap_or(&never);
    let finished = run_pass(&pass, &setup.pool, stop, observer, |i| setup.run_task(i))?;
    let sums = finished.sums;
    let count = match long.shard {
        None => Count::conclude(&setup, sums, setup.threads, options.unique)?,
        Some(shard) => {
            // Planning is counted once, in shard 0.
            let first = shard.index == 0;
            let mut count = Count::assemble(&setup, sums, setup.threads, None, first)?;
            if first && options.unique {
                // Shard 0 carries the rotation-fixed counts, from which `merge` gets
                // the fundamental count of the whole run.
                let (rot180, rot90) = setup.pool.install(|| rotation_fixed(plan.n()));
                count.rot180 = Some(rot180);
                count.rot90 = Some(rot90);
            }
            count
        }
    };
    Ok(LongRun {
        count,
        shard: long.shard,
        tasks: pass.selected(),
        resumed: finished.resumed,
        ran: finished.ran,
        checkpointed: long.checkpoint.is_some(),
    })
}

impl LongRun {
    /// The run's shard report, if it ran a shard.
    pub fn shard_report(&self) -> Option<ShardReport> {
        let shard = self.shard?;
        let c = &self.count;
        Some(
            ShardReport {
                n: c.n,
                engine: Some(c.engine),
                units: Some(counting(c.engine).units_version()),
                symmetry: c.symmetry,
                split_depth: c.split_depth,
                placements: c.placement.clone().unwrap_or_default(),
                shard: shard.index,
                shards: shard.count,
                tasks: self.tasks,
                tasks_total: c.tasks,
                total: c.total,
                nodes: c.work.nodes(),
                pairs: c.work.pairs(),
                rot180: c.rot180,
                rot90: c.rot90,
                threads: c.threads,
                kernel: Some(c.kernel),
                seconds: c.seconds,
                version: crate::build_info::VERSION.to_string(),
                commit: crate::build_info::COMMIT.map(str::to_string),
                resumed: self.checkpointed.then_some(self.resumed),
                ran: self.checkpointed.then_some(self.ran),
                check: None,
            }
            .sealed(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::long::merge::{merge, MergeOptions};
    use crate::symmetry::Symmetry;

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
                    let long = LongRunOptions {
                        shard: Some(Shard { index: i, count: k }),
                        ..LongRunOptions::default()
                    };
                    let r = run(&board(10), &options(), &long, &()).unwrap();
                    (format!("{i}"), r.shard_report().unwrap())
                })
                .collect();
            let merged = merge(&reports, &MergeOptions::default()).unwrap();
            assert_eq!(
                (merged.total, merged.work),
                (whole.total, whole.work),
                "k = {k}"
            );
        }
    }

    #[test]
    fn resuming_a_checkpoint_gives_the_same_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c");
        let long = LongRunOptions {
            checkpoint: Some(&path),
            ..LongRunOptions::default()
        };
        let first = run(&board(10), &options(), &long, &()).unwrap();
        assert_eq!((first.count.total, first.resumed), (724, 0));
        // Keep only some records, as if the run had been killed.
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().take(20).collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        let second = run(&board(10), &options(), &long, &()).unwrap();
        assert_eq!(second.resumed, 19);
        assert_eq!(second.count.total, first.count.total);
        assert_eq!(second.count.work, first.count.work);
        let third = run(&board(10), &options(), &long, &()).unwrap();
        assert_eq!((third.resumed, third.count.total), (first.tasks, 724));
    }
}
