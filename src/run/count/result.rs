//! The result of a count ([`Count`]), and the one place it is assembled.

use serde::Serialize;

use crate::cpu::Kernel;
use crate::engine::{self, Engine, Work};
use crate::error::Error;
use crate::published::{self, Check};
use crate::run::count::drive::Sums;
use crate::run::count::setup::Setup;
use crate::symmetry::rotation::{fundamental_counts, Fundamental};
use crate::symmetry::Symmetry;

/// The result of a count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    /// The board size.
    pub n: usize,
    /// The number of solutions (OEIS A000170).
    pub total: u128,
    /// With [`Options::unique`]: the number of fundamental solutions, distinct under the
    /// 8 symmetries of the square (OEIS A002562).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<u128>,
    /// With [`Options::unique`]: solutions fixed by the 180-degree rotation (A032522).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot180: Option<u128>,
    /// With [`Options::unique`]: solutions fixed by the 90-degree rotation (A033148).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot90: Option<u128>,
    /// The work of the count, planning included, in its engine's unit: the
    /// backtracking engine's nodes (queens placed) or the join engine's pairs
    /// (written as the JSON field `nodes` or `pairs`).
    #[serde(flatten)]
    pub work: Work,
    /// The number of independent tasks (the join engine's units).
    pub tasks: usize,
    /// Worker threads used.
    pub threads: usize,
    /// The engine that counted (never `auto`).
    pub engine: Engine,
    /// The symmetry reduction used (the join engine's is `full`).
    pub symmetry: Symmetry,
    /// The kernel that ran the tasks (never `auto`).
    pub kernel: Kernel,
    /// Rows fixed to form tasks (the backtracking engine only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// Wall-clock time of task building and search (written rounded to the nanosecond).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds: f64,
    /// The version of this crate.
    pub version: &'static str,
    /// The git commit of this build, when known ([`crate::build_info::COMMIT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
    /// The pre-placed queens (`R:C,...`) whose completions were counted, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
    /// How the count compares with the published values ([`crate::published`]): a
    /// whole count of the whole board, for n <= 27, checks its total (whatever the
    /// symmetry mode or engine) and its fundamental count (with [`Options::unique`]);
    /// the completions of placed queens and the partial count of a shard have nothing
    /// to compare with ([`Check::None`]). The table never supplies a count.
    pub published: Check,
    /// For [`Check::Mismatch`]: what differs, naming the computed and the published
    /// values.
    #[serde(skip)]
    pub disagreement: Option<String>,
}

impl Count {
    /// The count of a run set up by `setup` whose units summed to `sums`, with its
    /// fundamental counts if computed; the planning work is added when `with_setup` (a
    /// shard other than 0 leaves it to shard 0). The one place a [`Count`] is made.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the work does not fit 128 bits (never for a real count).
    pub(crate) fn assemble(
        setup: &Setup,
        sums: Sums,
        threads: usize,
        fundamental: Option<Fundamental>,
        with_setup: bool,
    ) -> Result<Count, Error> {
        let plan = &setup.plan;
        let planned = if with_setup { plan.setup_work() } else { 0 };
        let done = sums
            .work
            .checked_add(planned)
            .ok_or(Error::Overflow("the count's work"))?;
        Ok(Count {
            n: plan.n(),
            total: sums.total,
            unique: fundamental.map(|f| f.unique),
            rot180: fundamental.map(|f| f.rot180),
            rot90: fundamental.map(|f| f.rot90),
            work: engine::counting(setup.engine).work(done),
            tasks: plan.len(),
            threads,
            engine: setup.engine,
            symmetry: plan.symmetry(),
            kernel: plan.kernel(),
            split_depth: plan.split_depth(),
            seconds: setup.start.elapsed().as_secs_f64(),
            version: crate::build_info::VERSION,
            commit: crate::build_info::COMMIT,
            placement: setup.placement.clone(),
            published: Check::None,
            disagreement: None,
        })
    }

    /// The whole count of a run set up by `setup` whose units summed to `sums`, on
    /// `threads` threads: with `unique`, its fundamental counts are searched on the
    /// run's pool. A count of the whole board is compared with the published values.
    ///
    /// # Errors
    /// As [`Count::assemble`]; [`Error::Inconsistent`] only for a bug.
    pub(crate) fn conclude(
        setup: &Setup,
        sums: Sums,
        threads: usize,
        unique: bool,
    ) -> Result<Count, Error> {
        let fundamental = if unique {
            let n = setup.plan.n();
            Some(setup.pool.install(|| fundamental_counts(n, sums.total))?)
        } else {
            None
        };
        let mut count = Count::assemble(setup, sums, threads, fundamental, true)?;
        if count.placement.is_none() {
            (count.published, count.disagreement) =
                published::compare(count.n, count.total, count.unique);
        }
        Ok(count)
    }
}
