//! Timing a sample of a plan's units: the time of a count, estimated by running units
//! and scaling their times up to all units (for engines without their own estimate,
//! such as the join engine).
//!
//! **Strata.** The plan puts each unit in a cost class ([`Plan::unit_class`]); a pass
//! over all units counts the units of each class and keeps, for each, the few units
//! with the smallest seeded hash of their index (a uniform draw without replacement,
//! the same for the same seed whatever the thread count). Every class is timed (the
//! heaviest included), at least twice where it has two units; then, until the time
//! budget is spent (the caller's: 5 seconds by default, longer for a narrower interval
//! on the large boards, whose units take seconds each), the next unit timed is from the
//! class where one more sample most reduces the variance of the estimate (Neyman
//! allocation, step by step).
//!
//! **Estimate.** The total is the sum over classes of units times mean time, its
//! variance the sum of `N² s² / k (1 - k / N)` (`k` units timed of `N`, sample
//! variance `s²`; a class timed once borrows the spread of the others, relative to
//! its mean). A unit too long to run in an estimate is run in part and scaled up by
//! the engine ([`Plan::time_unit`]). The number of units timed depends on this
//! machine's speed, so the estimate is reproducible in its sample order, not in its
//! size.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine::Plan;
use crate::error::Error;
use crate::sampling::rng::SplitMix64;

/// The units kept per class to draw from.
const RESERVOIR: usize = 64;

/// What a sample of units says about the whole count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct UnitSample {
    /// Units timed.
    pub(crate) samples: u64,
    /// Of them, units run in part and scaled up.
    pub(crate) partial: u64,
    /// The cost classes of the plan's units.
    pub(crate) classes: u64,
    /// The estimated seconds of all units on one thread.
    pub(crate) seconds: f64,
    /// Its standard error.
    pub(crate) stderr: f64,
    /// The estimated work of all units, in the engine's unit.
    pub(crate) work: f64,
}

/// One class: its unit count, the units drawn for it, and their times.
#[derive(Clone, Debug, Default)]
struct Class {
    /// Its units.
    units: u64,
    /// Up to [`RESERVOIR`] of them, as (hash, index), smallest hash first.
    drawn: Vec<(u64, usize)>,
    /// The times of those timed so far.
    seconds: Vec<f64>,
    /// Their work.
    work: Vec<f64>,
}

/// The seeded hash that orders a class's units (a uniform random order).
fn hash(seed: u64, index: usize) -> u64 {
    SplitMix64::new(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// Counts each class of `plan`'s units and keeps [`RESERVOIR`] of each drawn by
/// `seed`, on the current rayon pool.
fn classes(plan: &dyn Plan, seed: u64) -> Vec<Class> {
    let merge = |mut a: Vec<Class>, b: Vec<Class>| {
        if a.len() < b.len() {
            a.resize(b.len(), Class::default());
        }
        for (into, from) in a.iter_mut().zip(b) {
            into.units += from.units;
            into.drawn.extend(from.drawn);
            into.drawn.sort_unstable();
            into.drawn.truncate(RESERVOIR);
        }
        a
    };
    (0..plan.len())
        .into_par_iter()
        .fold(Vec::new, |mut classes: Vec<Class>, index| {
            let class = plan.unit_class(index) as usize;
            if classes.len() <= class {
                classes.resize(class + 1, Class::default());
            }
            let c = &mut classes[class];
            c.units += 1;
            let key = (hash(seed, index), index);
            if c.drawn.len() < RESERVOIR {
                c.drawn.push(key);
                c.drawn.sort_unstable();
            } else if key < c.drawn[RESERVOIR - 1] {
                c.drawn[RESERVOIR - 1] = key;
                c.drawn.sort_unstable();
            }
            classes
        })
        .reduce(Vec::new, merge)
}

/// The mean and sample variance of `values` (variance 0 for fewer than two).
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: a sample has far fewer than 2^52 values"
)]
fn mean_variance(values: &[f64]) -> (f64, f64) {
    let k = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / k;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (mean, squares / (k - 1.0))
}

impl Class {
    /// Its variance contribution with `timed` units timed, the squared coefficient of
    /// variation `cv2` standing in for a class timed once.
    #[allow(
        clippy::cast_precision_loss,
        reason = "an estimate: unit counts below 2^52"
    )]
    fn variance(&self, timed: usize, cv2: f64) -> f64 {
        let (mean, mut variance) = mean_variance(&self.seconds);
        if self.seconds.len() < 2 {
            variance = cv2 * mean * mean;
        }
        let (n, k) = (self.units as f64, timed.max(1) as f64);
        n * n * variance / k * (1.0 - k / n).max(0.0)
    }

    /// Whether a unit of it is left to time.
    fn can_draw(&self) -> bool {
        self.seconds.len() < self.drawn.len()
    }
}

/// Times units of `plan` (see the module docs) for about `budget` after timing two of
/// every class, telling `progress` the units timed so far, and scales their times and
/// work up to all units.
///
/// # Errors
/// As the plan's units (memory that cannot be had).
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of the unit and sample counts is all it needs"
)]
pub(crate) fn sample_units(
    plan: &dyn Plan,
    seed: u64,
    budget: Duration,
    progress: &dyn Fn(u64),
) -> Result<UnitSample, Error> {
    let mut classes = classes(plan, seed);
    let (mut samples, mut partial) = (0u64, 0u64);
    let mut time = |class: &mut Class| -> Result<(), Error> {
        let index = class.drawn[class.seconds.len()].1;
        let timed = plan.time_unit(index)?;
        class.seconds.push(timed.seconds);
        class.work.push(timed.work);
        samples += 1;
        partial += u64::from(!timed.whole);
        progress(samples);
        Ok(())
    };
    // Every class, twice where it can be.
    for _ in 0..2 {
        for class in classes.iter_mut().filter(|c| c.can_draw()) {
            time(class)?;
        }
    }
    let start = Instant::now();
    while start.elapsed() < budget {
        let cv2 = pooled_cv2(&classes);
        let best = classes
            .iter_mut()
            .filter(|c| c.can_draw())
            .map(|c| {
                let k = c.seconds.len();
                let gain = c.variance(k, cv2) - c.variance(k + 1, cv2);
                (gain, c)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((_, class)) => time(class)?,
            None => break,
        }
    }
    let cv2 = pooled_cv2(&classes);
    let (mut seconds, mut work, mut variance) = (0.0, 0.0, 0.0);
    for class in classes.iter().filter(|c| !c.seconds.is_empty()) {
        let n = class.units as f64;
        seconds += n * mean_variance(&class.seconds).0;
        work += n * mean_variance(&class.work).0;
        variance += class.variance(class.seconds.len(), cv2);
    }
    Ok(UnitSample {
        samples,
        partial,
        classes: classes.iter().filter(|c| c.units > 0).count() as u64,
        seconds,
        stderr: variance.sqrt(),
        work,
    })
}

/// The mean squared coefficient of variation of the classes timed at least twice
/// (1 where none is: as spread as an exponential distribution).
#[allow(clippy::cast_precision_loss, reason = "an estimate")]
fn pooled_cv2(classes: &[Class]) -> f64 {
    let ratios: Vec<f64> = classes
        .iter()
        .filter(|c| c.seconds.len() >= 2)
        .filter_map(|c| {
            let (mean, variance) = mean_variance(&c.seconds);
            (mean > 0.0).then(|| variance / (mean * mean))
        })
        .collect();
    if ratios.is_empty() {
        1.0
    } else {
        ratios.iter().sum::<f64>() / ratios.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_variance() {
        assert_eq!(mean_variance(&[]), (0.0, 0.0));
        assert_eq!(mean_variance(&[3.0]), (3.0, 0.0));
        let (mean, variance) = mean_variance(&[1.0, 2.0, 3.0]);
        assert!((mean - 2.0).abs() < 1e-12 && (variance - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_fully_timed_class_adds_no_variance() {
        let class = Class {
            units: 2,
            drawn: vec![(0, 0), (1, 1)],
            seconds: vec![1.0, 3.0],
            work: vec![1.0, 3.0],
        };
        assert!(class.variance(2, 1.0).abs() < f64::EPSILON);
        assert!(class.variance(1, 1.0) > 0.0);
    }
}
