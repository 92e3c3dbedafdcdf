//! What every count (plain, long-running or distributed) sets up before its units run:
//! the processor level (detected once), the engine, the memory check, the check of the
//! engine's kernel on this processor (for long counts), the plan and then the pool.

use std::time::Instant;

use crate::engine::{self, Engine, Plan, Request, TaskResult};
use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::placement::Placement;
use crate::pool::build_pool;
use crate::run::count::options::Options;
use crate::run::host::memory;

/// The smallest board whose counts check their engine's kernel first
/// ([`crate::engine::interface::CountingEngine::check_kernel`]): a count of n = 20
/// takes the join engine about 45 seconds on two cores (and a shard of a larger board
/// as long or longer), so the check, once per process, costs about a thousandth of it
/// at most.
pub(crate) const KERNEL_CHECK_FROM_N: usize = 20;

/// What every count sets up before its search.
pub(crate) struct Setup {
    /// Worker threads of `pool`.
    pub(crate) threads: usize,
    /// The rayon pool.
    pub(crate) pool: rayon::ThreadPool,
    /// The engine that counts.
    pub(crate) engine: Engine,
    /// Its units and what runs them.
    pub(crate) plan: Box<dyn Plan>,
    /// The pre-placed queens as `R:C,...` (`None` for the whole board).
    pub(crate) placement: Option<String>,
    /// When the set-up started (a count's `seconds` include planning).
    pub(crate) start: Instant,
}

impl Setup {
    /// Checks `options` against `placement` (fundamental counts only for the whole
    /// board, a kernel this processor runs, an engine that serves the options, the
    /// thread count, split depth and memory), checks the engine's kernel on this
    /// processor for a board of at least [`KERNEL_CHECK_FROM_N`], and builds the plan,
    /// then the pool.
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
        // The one detection of the processor's features in a run.
        let level = options.kernel.level()?;
        let request = Request {
            placement,
            symmetry: options.symmetry,
            split_depth: options.split_depth,
            threads,
            memory: memory::budget(options.memory, threads)?,
        };
        let chosen = engine::choose(options.engine, &request)?;
        if let Some(needed) = engine::counting(chosen).predicted_peak_bytes(&request) {
            memory::check(chosen.name(), &request, options.memory.is_some(), needed)?;
        }
        if placement.n() >= KERNEL_CHECK_FROM_N {
            engine::counting(chosen).check_kernel(level)?;
        }
        let start = Instant::now();
        let planned = engine::plan(chosen, &request, level)?;
        // The pool after the plan: the threads that built the join's quadrant table
        // have ended by now, and the pool's workers take over their C library arenas
        // (64 MiB of address space each) instead of adding their own.
        let pool = build_pool(threads)?;
        Ok(Setup {
            threads,
            pool,
            engine: planned.engine,
            plan: planned.plan,
            placement: (!placement.is_empty()).then(|| placement.to_string()),
            start,
        })
    }

    /// Runs unit `index` of the plan.
    ///
    /// # Panics
    /// If `index` is out of range.
    pub(crate) fn run_task(&self, index: usize) -> Result<TaskResult, Error> {
        self.plan.run(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::count::drive::{drive_list, Sums};
    use crate::run::count::stop::Stop;
    use crate::symmetry::Symmetry;

    /// Runs the listed units through the task loop on the current pool, never stopped.
    fn run_all(setup: &Setup, indices: &[usize]) -> Sums {
        drive_list(indices, &Stop::new(), |i| setup.run_task(i), |_| Ok(()))
            .unwrap()
            .sums
    }

    #[test]
    fn run_tasks_reports_every_selected_task() {
        let options = Options {
            threads: Some(2),
            symmetry: Symmetry::Mirror,
            split_depth: Some(2),
            ..Options::default()
        };
        let setup = Setup::new(&Placement::empty(9).unwrap(), &options).unwrap();
        let all: Vec<usize> = (0..setup.plan.len()).collect();
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
        assert_eq!(ran.tasks, setup.plan.len());
        assert_eq!(sums.total, 352);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|r| r.index);
        assert_eq!(seen.len(), setup.plan.len());
        assert_eq!(Sums::total_of(&seen).unwrap(), sums);
        let odd = setup.pool.install(|| run_all(&setup, &[1, 3]));
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
        let all: Vec<usize> = (0..setup.plan.len()).collect();
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
}
