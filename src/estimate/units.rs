//! Timing a sample of a plan's units: the time of a count, estimated by running units
//! drawn at random and scaling their mean time up to all units (for engines without
//! their own estimate, such as the join engine).
//!
//! The units are drawn uniformly (with replacement) in an order fixed by the seed, and
//! run one after another on the calling thread, each timed, until a time budget is
//! spent (and at least a few have run): the mean time per unit times the number of
//! units estimates the work of the whole count, and the sample's spread gives its
//! standard error. The number of units drawn depends on this machine's speed, so the
//! estimate is reproducible in its sample order, not in its size.

use std::time::{Duration, Instant};

use crate::engine::Plan;
use crate::error::Error;
use crate::sampling::mean_and_stderr;
use crate::sampling::rng::SplitMix64;

/// The time spent running sampled units.
pub(crate) const SAMPLE_BUDGET: Duration = Duration::from_secs(3);

/// The fewest units sampled (fewer only if the plan has fewer).
pub(crate) const MIN_SAMPLES: u64 = 8;

/// What a sample of units says about the whole count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct UnitSample {
    /// Units run.
    pub(crate) samples: u64,
    /// The estimated seconds of all units on one thread.
    pub(crate) seconds: f64,
    /// Its standard error.
    pub(crate) stderr: f64,
    /// The estimated work of all units, in the engine's unit.
    pub(crate) work: f64,
}

/// Runs units of `plan` drawn by `seed` until [`SAMPLE_BUDGET`] is spent (at least
/// [`MIN_SAMPLES`]), and scales their times and work up to all units.
///
/// # Errors
/// [`Error::OutOfMemory`] when a unit's buffers cannot be had.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of the unit and sample counts is all it needs"
)]
pub(crate) fn sample_units(plan: &dyn Plan, seed: u64) -> Result<UnitSample, Error> {
    let units = plan.len() as u64;
    if units == 0 {
        return Ok(UnitSample {
            samples: 0,
            seconds: 0.0,
            stderr: 0.0,
            work: 0.0,
        });
    }
    let mut rng = SplitMix64::new(seed);
    let start = Instant::now();
    let (mut samples, mut sum, mut squares, mut work) = (0u64, 0.0, 0.0, 0.0);
    while samples < MIN_SAMPLES.min(units) || start.elapsed() < SAMPLE_BUDGET {
        let index = usize::try_from(rng.below(units)).expect("below the unit count, a usize");
        let begun = Instant::now();
        let result = plan.run(index)?;
        let seconds = begun.elapsed().as_secs_f64();
        sum += seconds;
        squares += seconds * seconds;
        work += result.work as f64;
        samples += 1;
    }
    let (mean, stderr) = mean_and_stderr(sum, squares, samples);
    let scale = units as f64;
    Ok(UnitSample {
        samples,
        seconds: scale * mean,
        stderr: scale * stderr,
        work: scale * work / samples as f64,
    })
}
