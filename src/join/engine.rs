//! The join engine behind the engine interface: its facts (what it serves, its
//! identity, its memory) and its plan ([`JoinPlan`]).

use crate::cpu::{Kernel, Level};
use crate::engine::interface::{CountingEngine, Plan, Request, TimedUnit, WorkEstimate};
use crate::engine::spec::Units;
use crate::engine::unit::TaskResult;
use crate::engine::work::Work;
use crate::error::{Error, Unsuited};
use crate::join::path::Path;
use crate::join::units::{max_len, JoinPlan, JoinUnits, UNITS_VERSION};
use crate::join::{memory, MAX_N, MIN_N};
use crate::symmetry::Symmetry;

/// The join engine.
pub(crate) struct Join;

/// The join engine, as the engine layer lists it.
pub(crate) static JOIN: Join = Join;

/// The kernel the join's hot loops run at `level` (see [`Path`]).
fn kernel_at(level: Level) -> Kernel {
    Path::at(level).kernel()
}

impl CountingEngine for Join {
    fn min_n(&self) -> usize {
        MIN_N
    }

    fn unsuited(&self, request: &Request<'_>) -> Option<Unsuited> {
        let n = request.placement.n();
        if !request.placement.is_empty() {
            Some(Unsuited::Placement)
        } else if request.symmetry != Symmetry::Full {
            Some(Unsuited::Symmetry(request.symmetry.name()))
        } else if request.split_depth.is_some() {
            Some(Unsuited::SplitDepth)
        } else if n < MIN_N {
            Some(Unsuited::BoardSize { n, min: MIN_N })
        } else {
            None
        }
    }

    fn impossible(
        &self,
        _: usize,
        symmetry: Symmetry,
        split_depth: Option<usize>,
        placed: bool,
    ) -> Option<String> {
        if split_depth.is_some() {
            Some("the join engine has no split depth".into())
        } else if placed || symmetry != Symmetry::Full {
            Some("the join engine counts whole boards under full symmetry".into())
        } else {
            None
        }
    }

    fn units_version(&self) -> u32 {
        UNITS_VERSION
    }

    fn max_units(&self, n: usize) -> usize {
        if !(MIN_N..=MAX_N).contains(&n) {
            return 0;
        }
        let n = u32::try_from(n).expect("at most MAX_N = 32");
        usize::try_from(max_len(n)).unwrap_or(usize::MAX)
    }

    fn work(&self, amount: u128) -> Work {
        Work::Pairs(amount)
    }

    fn kernel(&self, level: Level) -> Kernel {
        kernel_at(level)
    }

    fn predicted_peak_bytes(&self, request: &Request<'_>) -> Option<u64> {
        let n = u32::try_from(request.placement.n()).ok()?;
        let fit = memory::fit(n, memory::units_bound(n), request.threads, request.memory);
        Some(fit.map_or_else(|least| least, |fit| fit.peak))
    }

    fn units(&self, request: &Request<'_>) -> Result<Box<dyn Units>, Error> {
        Ok(Box::new(JoinUnits::new(request.placement.n())))
    }

    fn check_kernel(&self, level: Level) -> Result<(), Error> {
        crate::join::kernel_check::check(level)
    }
    fn plan(&self, request: &Request<'_>, level: Level) -> Result<Box<dyn Plan>, Error> {
        let n = request.placement.n();
        Ok(Box::new(JoinPlan::within(
            n,
            level,
            request.memory,
            request.threads,
        )?))
    }
}

impl Plan for JoinPlan {
    fn n(&self) -> usize {
        JoinPlan::n(self)
    }

    fn len(&self) -> usize {
        JoinPlan::len(self)
    }

    fn run(&self, index: usize) -> Result<TaskResult, Error> {
        let outcome = self.try_run_unit(index)?;
        Ok(TaskResult {
            index,
            weighted: outcome.weighted,
            work: outcome.pairs,
        })
    }

    fn symmetry(&self) -> Symmetry {
        Symmetry::Full
    }

    fn split_depth(&self) -> Option<usize> {
        None
    }

    fn setup_work(&self) -> u128 {
        0
    }

    fn kernel(&self) -> Kernel {
        self.path().kernel()
    }

    fn peak_bytes(&self, threads: usize) -> u64 {
        JoinPlan::peak_bytes(self, threads)
    }

    fn unit_class(&self, index: usize) -> u32 {
        JoinPlan::unit_class(self, index)
    }

    fn unit_weight(&self, index: usize) -> f64 {
        JoinPlan::unit_weight(self, index)
    }

    fn time_unit(&self, index: usize) -> Result<TimedUnit, Error> {
        JoinPlan::time_unit(self, index)
    }

    fn estimate_work(&self, _: u64, _: u64) -> Result<Option<WorkEstimate>, Error> {
        Ok(None)
    }
}
