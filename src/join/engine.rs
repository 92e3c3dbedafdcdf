//! The join engine behind the engine interface: its facts (what it serves, its
//! identity, its memory) and its plan ([`JoinPlan`]).

use crate::cpu::{Kernel, Level};
use crate::engine::interface::{CountingEngine, Plan, Request, WorkEstimate};
use crate::engine::spec::Units;
use crate::engine::unit::TaskResult;
use crate::engine::work::Work;
use crate::error::{Error, Unsuited};
use crate::join::units::{max_len, JoinPlan, JoinUnits, UNITS_VERSION};
use crate::join::{memory, MAX_N, MIN_N};
use crate::symmetry::Symmetry;

/// The join engine.
pub(crate) struct Join;

/// The join engine, as the engine layer lists it.
pub(crate) static JOIN: Join = Join;

/// The kernel the join's hot loops run at `level`: its AVX2 path from the AVX2 level
/// up (it has no AVX-512 path yet), its portable path below.
fn kernel_at(level: Level) -> Kernel {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2(_) | Level::Avx512(_) => Kernel::Avx2,
        _ => Kernel::Scalar,
    }
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

    fn predicted_peak_bytes(&self, n: usize, threads: usize) -> Option<u64> {
        Some(memory::peak_bytes(n, threads))
    }

    fn units(&self, request: &Request<'_>) -> Result<Box<dyn Units>, Error> {
        Ok(Box::new(JoinUnits::new(request.placement.n())))
    }

    fn plan(&self, request: &Request<'_>, level: Level) -> Result<Box<dyn Plan>, Error> {
        Ok(Box::new(JoinPlan::try_new(request.placement.n(), level)?))
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
        let n = u32::try_from(JoinPlan::n(self)).unwrap_or(u32::MAX);
        let longest = usize::try_from(memory::longest_list_bound(n)).unwrap_or(usize::MAX);
        let outcome = self.try_run_unit(index, longest)?;
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
        kernel_at(self.level())
    }

    fn peak_bytes(&self, threads: usize) -> u64 {
        memory::peak_bytes(JoinPlan::n(self), threads)
    }

    fn estimate_work(&self, _: u64, _: u64) -> Result<Option<WorkEstimate>, Error> {
        Ok(None)
    }
}
