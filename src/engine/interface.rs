//! The interface every engine implements: [`CountingEngine`] (what it is and serves,
//! before anything is built, and its units described for an audit: [`Units`]) and
//! [`Plan`] (its units for one count, built). An engine's folder implements both; it
//! uses this file and what it names (`engine::spec`, `engine::unit`, `engine::work`),
//! and nothing else of the engine layer.

use crate::cpu::{Kernel, Level};
use crate::engine::spec::Units;
use crate::engine::unit::TaskResult;
use crate::engine::work::Work;
use crate::error::{Error, Unsuited};
use crate::model::placement::Placement;
use crate::symmetry::Symmetry;

/// What a count asks of an engine: the board (with its pre-placed queens), the
/// symmetry reduction, the split depth, the threads and the memory budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Request<'a> {
    /// The pre-placed queens (the empty placement for the whole board); its size is n.
    pub(crate) placement: &'a Placement,
    /// The symmetry reduction asked for.
    pub(crate) symmetry: Symmetry,
    /// The split depth asked for, if any.
    pub(crate) split_depth: Option<usize>,
    /// The worker threads the plan runs on.
    pub(crate) threads: usize,
    /// The bytes the plan may use (`u64::MAX`: no limit).
    pub(crate) memory: u64,
}

/// An engine's own estimate of a plan's work (the backtracking engine's probes), and
/// the speed that turns it into time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WorkEstimate {
    /// The estimated work, set-up included, in the engine's unit.
    pub(crate) work: f64,
    /// Its standard error.
    pub(crate) stderr: f64,
    /// Samples drawn (probes).
    pub(crate) samples: u64,
    /// The work this machine does per second on one thread.
    pub(crate) per_second_per_thread: f64,
}

/// The measured (or, for a unit run in part, estimated) CPU time and work of one unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimedUnit {
    /// Seconds on one thread.
    pub(crate) seconds: f64,
    /// Its work in the engine's unit.
    pub(crate) work: f64,
    /// Whether the unit ran whole (else the figures are scaled up from a part).
    pub(crate) whole: bool,
}

/// A counting engine: its facts, what it serves, and how it builds a plan.
pub(crate) trait CountingEngine: Sync {
    /// The smallest board it counts.
    fn min_n(&self) -> usize;

    /// Why it cannot serve `request`, if it cannot.
    fn unsuited(&self, request: &Request<'_>) -> Option<Unsuited>;

    /// Why a shard report of this engine with these facts is impossible, if it is:
    /// `split_depth` is the depth the run used (`None`: none), `placed` whether queens
    /// were pre-placed.
    fn impossible(
        &self,
        n: usize,
        symmetry: Symmetry,
        split_depth: Option<usize>,
        placed: bool,
    ) -> Option<String>;

    /// The version of its list of units: how its units are defined, ordered and
    /// weighed. Every checkpoint header and shard report records it, and resume and
    /// merge refuse to mix versions; a golden test beside the constant pins a digest of
    /// the list, so that changing the list without the version fails the tests.
    fn units_version(&self) -> u32;

    /// The most units a plan of a board of size `n` can have (from its own unit
    /// count: `merge` refuses a report of a run with more).
    fn max_units(&self, n: usize) -> usize;

    /// `amount` of work in its unit.
    fn work(&self, amount: u128) -> Work;

    /// The kernel (vector path) it runs at `level`: its best at or below it (a plan
    /// may run a lower one where that is faster: [`Plan::kernel`] says which).
    fn kernel(&self, level: Level) -> Kernel;

    /// Its peak memory for `request` (on its threads, within its budget where it can
    /// be), predicted before anything is allocated; `None` when it is small and only
    /// known once planned. A prediction above the budget is the least budget that
    /// would do.
    fn predicted_peak_bytes(&self, request: &Request<'_>) -> Option<u64>;

    /// The units of its plan for `request` (which it serves), described for an
    /// independent recount, without building what counts them.
    ///
    /// # Errors
    /// As [`CountingEngine::plan`].
    fn units(&self, request: &Request<'_>) -> Result<Box<dyn Units>, Error>;

    /// Checks that its kernel at `level` counts a fixed set of cases as its scalar
    /// kernel does on this processor, before a long count runs on it: once per process
    /// and kernel (later calls give the first call's outcome), in well under a second;
    /// nothing to check for the scalar kernel. The tests check every kernel far more
    /// widely, on the processors they run on; this brings a part of them to every
    /// processor a count runs on.
    ///
    /// # Errors
    /// [`Error::KernelMismatch`] naming the first case counted differently.
    fn check_kernel(&self, level: Level) -> Result<(), Error>;
    /// Its plan for `request` (which it serves), with hot loops at `level`.
    ///
    /// # Errors
    /// As the engine's planning (an out-of-range split depth, too many tasks).
    fn plan(&self, request: &Request<'_>, level: Level) -> Result<Box<dyn Plan>, Error>;
}

/// An engine's plan for one count: a deterministic list of independent units, each run
/// on its own by index (so that checkpoints, shards and MPI ranks can name them), and
/// what the whole count reports.
pub(crate) trait Plan: Sync + Send {
    /// The board size.
    fn n(&self) -> usize;

    /// The number of units.
    fn len(&self) -> usize;

    /// Runs unit `index`: its weighted solutions and its work.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the unit's buffers cannot be had.
    ///
    /// # Panics
    /// If `index` is not below [`Plan::len`].
    fn run(&self, index: usize) -> Result<TaskResult, Error>;

    /// The symmetry reduction used (it may differ from the one asked for).
    fn symmetry(&self) -> Symmetry;

    /// Rows fixed to form units, if the engine has a split depth.
    fn split_depth(&self) -> Option<usize>;

    /// Work done while planning, before the units (added once to a count's work).
    fn setup_work(&self) -> u128;

    /// The kernel (vector path) its units run.
    fn kernel(&self) -> Kernel;

    /// Its peak memory on `threads` workers (an upper bound).
    fn peak_bytes(&self, threads: usize) -> u64;

    /// The cost class of unit `index`: units of one class cost about alike, so an
    /// estimate samples every class (strata), the heaviest most. All units are of
    /// class 0 unless the engine tells them apart.
    fn unit_class(&self, _index: usize) -> u32 {
        0
    }

    /// The sampling weight of unit `index`: a prediction of its cost relative to the
    /// others of its class (positive; 1 for all unless the engine can tell). An
    /// estimate draws the units it times in proportion to it, so the heavy ones are
    /// timed first, and scales their times by the class's total weight.
    fn unit_weight(&self, _index: usize) -> f64 {
        1.0
    }

    /// The time and work of unit `index` on one thread (its CPU time): measured by
    /// running it whole,
    /// or, for a unit too long to run in an estimate, by running part of it and
    /// scaling up (the engine's own method).
    ///
    /// # Panics
    /// If `index` is not below [`Plan::len`].
    ///
    /// # Errors
    /// As [`Plan::run`].
    fn time_unit(&self, index: usize) -> Result<TimedUnit, Error> {
        let clock = crate::sampling::cpu_clock::CpuClock::start();
        let result = self.run(index)?;
        Ok(TimedUnit {
            seconds: clock.seconds(),
            #[allow(
                clippy::cast_precision_loss,
                reason = "an estimate: the nearest f64 of the work is all it needs"
            )]
            work: result.work as f64,
            whole: true,
        })
    }

    /// The engine's own estimate of the work and speed of a count of this plan, from
    /// `samples` samples seeded by `seed` (run on the current rayon pool), or `None`
    /// when the estimate is to time a sample of units instead.
    ///
    /// # Errors
    /// When the speed cannot be measured (a count that fails).
    fn estimate_work(&self, samples: u64, seed: u64) -> Result<Option<WorkEstimate>, Error>;
}
