//! The backtracking engine behind the engine interface: its facts, and its plan (the
//! task list and the kernel that searches its tasks).

use crate::backtrack::plan::task::Task;
use crate::backtrack::plan::tasks::MAX_TASKS;
use crate::backtrack::plan::{TaskList, UNITS_VERSION};
use crate::backtrack::probes;
use crate::backtrack::search::resolved::Resolved;
use crate::backtrack::spec::TaskUnits;
use crate::backtrack::task::run_task;
use crate::cpu::{Kernel, Level};
use crate::engine::interface::{CountingEngine, Plan, Request, WorkEstimate};
use crate::engine::spec::Units;
use crate::engine::unit::TaskResult;
use crate::engine::work::Work;
use crate::error::{Error, Unsuited};
use crate::limits::{max_split_depth, min_split_depth};
use crate::symmetry::Symmetry;

/// The backtracking engine.
pub(crate) struct Backtrack;

/// The backtracking engine, as the engine layer lists it.
pub(crate) static BACKTRACK: Backtrack = Backtrack;

impl CountingEngine for Backtrack {
    fn min_n(&self) -> usize {
        0
    }

    fn unsuited(&self, _: &Request<'_>) -> Option<Unsuited> {
        None
    }

    fn impossible(
        &self,
        n: usize,
        _: Symmetry,
        split_depth: Option<usize>,
        _: bool,
    ) -> Option<String> {
        match split_depth {
            None => Some("it names no split depth".into()),
            Some(depth) if !(min_split_depth(n)..=max_split_depth(n)).contains(&depth) => {
                Some(format!("split depth {depth} is not possible for n = {n}"))
            }
            Some(_) => None,
        }
    }

    fn units_version(&self) -> u32 {
        UNITS_VERSION
    }

    fn max_units(&self, _: usize) -> usize {
        MAX_TASKS
    }

    fn work(&self, amount: u128) -> Work {
        Work::Nodes(amount)
    }

    fn kernel(&self, level: Level) -> Kernel {
        Resolved::at(level).kernel()
    }

    fn predicted_peak_bytes(&self, _: &Request<'_>) -> Option<u64> {
        None
    }

    fn units(&self, request: &Request<'_>) -> Result<Box<dyn Units>, Error> {
        let list =
            TaskList::for_placement(request.placement, request.symmetry, request.split_depth)?;
        Ok(Box::new(TaskUnits { list }))
    }

    fn check_kernel(&self, level: Level) -> Result<(), Error> {
        crate::backtrack::kernel_check::check(level)
    }
    fn plan(&self, request: &Request<'_>, level: Level) -> Result<Box<dyn Plan>, Error> {
        let list =
            TaskList::for_placement(request.placement, request.symmetry, request.split_depth)?;
        // The tasks start on the split row: small boards leave too few rows below it
        // for the vector kernels to pay.
        let rows_left = list.n.saturating_sub(list.split_depth);
        let kernel = Resolved::at(level).for_rows_left(rows_left);
        Ok(Box::new(BacktrackPlan { list, kernel }))
    }
}

/// The backtracking engine's plan: its tasks, and the kernel that searches them.
pub(crate) struct BacktrackPlan {
    /// The tasks.
    list: TaskList,
    /// The kernel, resolved once for the run.
    kernel: Resolved,
}

impl Plan for BacktrackPlan {
    fn n(&self) -> usize {
        self.list.n
    }

    fn len(&self) -> usize {
        self.list.len()
    }

    fn run(&self, index: usize) -> Result<TaskResult, Error> {
        Ok(run_task(&self.list, index, self.kernel))
    }

    fn symmetry(&self) -> Symmetry {
        self.list.symmetry
    }

    fn split_depth(&self) -> Option<usize> {
        Some(self.list.split_depth)
    }

    fn setup_work(&self) -> u128 {
        u128::from(self.list.setup_nodes)
    }

    fn kernel(&self) -> Kernel {
        self.kernel.kernel()
    }

    fn peak_bytes(&self, threads: usize) -> u64 {
        peak_bytes(self.list.len(), threads)
    }

    fn estimate_work(&self, samples: u64, seed: u64) -> Result<Option<WorkEstimate>, Error> {
        let nodes = probes::estimate_nodes(&self.list, samples, seed);
        let rate = probes::calibrate(self.list.n, self.list.symmetry, self.kernel);
        Ok(Some(WorkEstimate {
            work: nodes.nodes,
            stderr: nodes.stderr,
            samples,
            per_second_per_thread: rate,
        }))
    }
}

/// The peak memory of a backtracking count of `tasks` tasks on `threads` workers (an
/// upper bound): the task list, each worker's vector-kernel buffers and stack, and a
/// few MiB for the process.
pub(crate) fn peak_bytes(tasks: usize, threads: usize) -> u64 {
    const PROCESS: u64 = 8 << 20;
    const PER_THREAD: u64 = 4 << 20;
    let task = std::mem::size_of::<Task>() as u64;
    PROCESS
        .saturating_add(task.saturating_mul(tasks as u64))
        .saturating_add(PER_THREAD.saturating_mul(threads as u64))
}
