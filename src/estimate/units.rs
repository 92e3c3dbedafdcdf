//! Timing a sample of a plan's units: the time of a count, estimated by running units
//! and scaling their times up to all units (for engines without their own estimate,
//! such as the join engine).
//!
//! **Strata.** The plan puts each unit in a cost class ([`Plan::unit_class`]), and
//! each class is sampled on its own; every class is timed (the heaviest included), at
//! least twice where it has two units. Then, until the time budget is spent (the
//! caller's: 5 seconds by default, longer for a narrower interval on the large boards,
//! whose units take seconds each), the next unit timed is from the class where one
//! more sample most reduces the variance of the estimate (Neyman allocation, step by
//! step).
//!
//! **Draw.** Within a class the units are drawn by *priority sampling* (Duffield, Lund
//! and Thorup, 2007): unit `i`, of weight `w_i` ([`Plan::unit_weight`], the engine's
//! prediction of its cost), gets the priority `w_i / u_i` for a seeded uniform `u_i`
//! in (0, 1], and the units are timed in falling priority. A pass over all units keeps
//! the [`RESERVOIR`] + 1 highest priorities of each class, the same for the same seed
//! whatever the thread count. Heavy units are timed first, so a class whose cost sits
//! in a few heavy units is not judged by its light ones.
//!
//! **Estimate.** With `k` units of a class timed and `τ` the priority of the next,
//! unit `i` was in the sample with probability `p_i = min(1, w_i / τ)` given the
//! others' priorities. The class's time is estimated as its total weight `W` (summed
//! over all its units in the pass) times `Σ t_i / p_i` over `Σ w_i / p_i`: a ratio
//! estimator, which for a light sample is `W` times the mean of `t_i / w_i`, so it
//! comes out right however well the weights predict the times (they change only its
//! variance), and the weights the sample happens to meet do not scale it. Its variance
//! is estimated as `Σ ((t_i - R w_i) / p_i)² (1 - p_i)`, `R` the estimated time per
//! weight; for equal weights that is the usual `N² s² / k (1 - k / N)`. A class whose
//! units are all timed has `p_i = 1`: its time is exact. The total and its variance
//! are the sums over the classes. A unit too long to run in an estimate is run in part
//! and scaled up by the engine ([`Plan::time_unit`]). The number of units timed
//! depends on this machine's speed, so the estimate is reproducible in its sample
//! order, not in its size.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine::Plan;
use crate::error::Error;
use crate::sampling::rng::SplitMix64;

/// The most units timed per class (one more is drawn, whose priority sets the others'
/// inclusion probabilities).
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

/// A unit drawn: its priority key `u / w` (the smaller, the earlier it is timed, as
/// the bits of a non-negative `f64`, which order as the numbers do), its index and its
/// weight `w`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Draw {
    /// `u / w`, as `f64` bits.
    key: u64,
    /// The unit.
    index: usize,
    /// Its weight.
    weight: f64,
}

impl Draw {
    /// The order of the draw: key, then index.
    fn order(&self) -> (u64, usize) {
        (self.key, self.index)
    }
}

/// One class: its unit count, the units drawn for it, and their times.
#[derive(Clone, Debug, Default)]
struct Class {
    /// Its units.
    units: u64,
    /// The sum of their weights.
    weight: f64,
    /// Up to [`RESERVOIR`] + 1 of them, highest priority first.
    drawn: Vec<Draw>,
    /// The times of those timed so far (the first `seconds.len()` of `drawn`).
    seconds: Vec<f64>,
    /// Their work.
    work: Vec<f64>,
}

/// The seeded uniform in (0, 1] that orders a class's units with their weights.
#[allow(clippy::cast_precision_loss, reason = "53 bits, exact in an f64")]
fn uniform(seed: u64, index: usize) -> f64 {
    let bits =
        SplitMix64::new(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64() >> 11;
    (bits + 1) as f64 / (1u64 << 53) as f64
}

/// The draw of unit `index` of weight `weight` under `seed`.
fn draw(seed: u64, index: usize, weight: f64) -> Draw {
    // A weight that is not a positive finite number counts as 1.
    let weight = if weight.is_finite() && weight > 0.0 {
        weight
    } else {
        1.0
    };
    Draw {
        key: (uniform(seed, index) / weight).to_bits(),
        index,
        weight,
    }
}

/// Keeps the [`RESERVOIR`] + 1 draws of `drawn` that come first.
fn keep_first(drawn: &mut Vec<Draw>) {
    drawn.sort_unstable_by_key(Draw::order);
    drawn.truncate(RESERVOIR + 1);
}

/// Counts each class of `plan`'s units and keeps the [`RESERVOIR`] + 1 highest
/// priorities of each under `seed`, on the current rayon pool.
fn classes(plan: &dyn Plan, seed: u64) -> Vec<Class> {
    let merge = |mut a: Vec<Class>, b: Vec<Class>| {
        if a.len() < b.len() {
            a.resize(b.len(), Class::default());
        }
        for (into, from) in a.iter_mut().zip(b) {
            into.units += from.units;
            into.weight += from.weight;
            into.drawn.extend(from.drawn);
            keep_first(&mut into.drawn);
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
            let unit = draw(seed, index, plan.unit_weight(index));
            c.weight += unit.weight;
            if c.drawn.len() <= RESERVOIR {
                c.drawn.push(unit);
            } else if unit.order() < c.drawn[RESERVOIR].order() {
                c.drawn[RESERVOIR] = unit;
            } else {
                return classes;
            }
            c.drawn.sort_unstable_by_key(Draw::order);
            classes
        })
        .reduce(Vec::new, merge)
}

/// A class's estimate from its units timed: the time, the work and the time's
/// variance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Total {
    /// Seconds.
    seconds: f64,
    /// Work.
    work: f64,
    /// The variance of `seconds`.
    variance: f64,
}

impl Class {
    /// Whether every unit of the class is among those drawn.
    fn drawn_whole(&self) -> bool {
        self.drawn.len() as u64 == self.units
    }

    /// Whether a unit of it is left to time: a drawn one, and, unless the class is
    /// drawn whole, one more after it whose priority sets the threshold.
    fn can_draw(&self) -> bool {
        let limit = if self.drawn_whole() {
            self.drawn.len()
        } else {
            self.drawn.len().saturating_sub(1)
        };
        self.seconds.len() < limit
    }

    /// The estimate from the units timed (see the module docs): the class's weight
    /// times the timed units' figures over their weights, each unit counted over its
    /// inclusion probability.
    #[allow(
        clippy::cast_precision_loss,
        reason = "an estimate: at most RESERVOIR units timed"
    )]
    fn total(&self) -> Total {
        let timed = self.seconds.len();
        // The threshold priority's key; none when every unit is timed.
        let threshold = self.drawn.get(timed).map(|next| f64::from_bits(next.key));
        let inclusion = |unit: &Draw| threshold.map_or(1.0, |key| (unit.weight * key).min(1.0));
        let (mut seconds, mut work, mut weight) = (0.0, 0.0, 0.0);
        for ((unit, &s), &w) in self.drawn.iter().zip(&self.seconds).zip(&self.work) {
            let p = inclusion(unit);
            seconds += s / p;
            work += w / p;
            weight += unit.weight / p;
        }
        if weight <= 0.0 {
            return Total::default();
        }
        let scale = self.weight / weight;
        let variance = match timed {
            0 => 0.0,
            // One unit timed of many (never so after the first rounds): the variance
            // of its own scaled time.
            1 => {
                let p = inclusion(&self.drawn[0]);
                let scaled = self.seconds[0] / p;
                scaled * scaled * (1.0 - p)
            }
            // The residuals from the time per weight, with k - 1 degrees of freedom.
            k => {
                let per_weight = seconds / weight;
                let residuals = self
                    .drawn
                    .iter()
                    .zip(&self.seconds)
                    .map(|(unit, &s)| {
                        let p = inclusion(unit);
                        let residual = (s - per_weight * unit.weight) / p;
                        residual * residual * (1.0 - p)
                    })
                    .sum::<f64>();
                residuals * scale * scale * k as f64 / (k - 1) as f64
            }
        };
        Total {
            seconds: seconds * scale,
            work: work * scale,
            variance,
        }
    }

    /// The variance one more unit timed would take away, were the variance to fall
    /// as one over the units timed.
    #[allow(
        clippy::cast_precision_loss,
        reason = "an estimate: at most RESERVOIR units timed"
    )]
    fn gain(&self) -> f64 {
        let timed = self.seconds.len() as f64;
        self.total().variance / (timed + 1.0)
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
        let index = class.drawn[class.seconds.len()].index;
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
        let best = classes
            .iter_mut()
            .filter(|c| c.can_draw())
            .map(|c| (c.gain(), c))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((_, class)) => time(class)?,
            None => break,
        }
    }
    let (mut seconds, mut work, mut variance) = (0.0, 0.0, 0.0);
    for class in &classes {
        let total = class.total();
        seconds += total.seconds;
        work += total.work;
        variance += total.variance;
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

#[cfg(test)]
#[allow(
    clippy::cast_precision_loss,
    clippy::float_cmp,
    clippy::similar_names,
    reason = "tests of an estimate: small counts, and values that are exact"
)]
mod tests {
    use super::*;

    /// A class of `units` units whose first draws have `weights` and are timed
    /// `seconds` (work alike), under `seed`.
    fn class(units: u64, weights: &[f64], seconds: &[f64]) -> Class {
        let mut drawn: Vec<Draw> = weights
            .iter()
            .enumerate()
            .map(|(index, &weight)| draw(7, index, weight))
            .collect();
        drawn.sort_unstable_by_key(Draw::order);
        Class {
            units,
            weight: weights.iter().sum::<f64>() * units as f64 / weights.len() as f64,
            drawn,
            seconds: seconds.to_vec(),
            work: seconds.to_vec(),
        }
    }

    #[test]
    fn a_fully_timed_class_is_exact() {
        let whole = class(2, &[1.0, 5.0], &[1.0, 3.0]);
        assert!(!whole.can_draw());
        let total = whole.total();
        assert!((total.seconds - 4.0).abs() < 1e-12 && (total.work - 4.0).abs() < 1e-12);
        assert!(total.variance.abs() < f64::EPSILON);
    }

    #[test]
    fn a_partly_timed_class_scales_up_and_keeps_its_threshold_unit() {
        // Three units drawn of ten: two can be timed, the third sets the threshold.
        let mut part = class(10, &[1.0, 1.0, 1.0], &[2.0]);
        assert!(part.can_draw());
        part.seconds.push(5.0);
        part.work.push(5.0);
        assert!(!part.can_draw());
        let total = part.total();
        // Ten units of equal weight, two timed: ten times their mean.
        assert!(
            (total.seconds - 35.0).abs() < 1e-9 && total.variance > 0.0,
            "{total:?}"
        );
    }

    #[test]
    fn draws_are_uniforms_over_weights() {
        let unit = draw(3, 11, 4.0);
        let u = uniform(3, 11);
        assert!(u > 0.0 && u <= 1.0);
        assert_eq!(f64::from_bits(unit.key), u / 4.0);
        // A weight that is no positive number counts as 1.
        for weight in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(draw(3, 11, weight).weight, 1.0);
        }
    }

    /// The estimates of the total of `times` from `rounds` seeds, `k` units timed,
    /// drawn by `weights`.
    fn estimates(times: &[f64], weights: &[f64], k: usize, rounds: u64) -> Vec<f64> {
        (0..rounds)
            .map(|seed| {
                let mut drawn: Vec<Draw> = weights
                    .iter()
                    .enumerate()
                    .map(|(index, &weight)| draw(seed, index, weight))
                    .collect();
                keep_first(&mut drawn);
                let timed: Vec<f64> = drawn[..k].iter().map(|d| times[d.index]).collect();
                let class = Class {
                    units: times.len() as u64,
                    weight: weights.iter().map(|&w| draw(0, 0, w).weight).sum(),
                    seconds: timed.clone(),
                    work: timed,
                    drawn,
                };
                class.total().seconds
            })
            .collect()
    }

    /// Whatever the weights, the estimates of a skewed class's total average out to
    /// it; weights that follow the times spread them less than equal weights.
    #[test]
    fn priority_draws_estimate_the_total_and_good_weights_narrow_it() {
        let times: Vec<f64> = (0..200)
            .map(|i| {
                if i % 50 == 0 {
                    400.0
                } else {
                    1.0 + f64::from(i % 7)
                }
            })
            .collect();
        let truth: f64 = times.iter().sum();
        let spread = |weights: &[f64]| {
            let all = estimates(&times, weights, 8, 4000);
            let mean = all.iter().sum::<f64>() / all.len() as f64;
            assert!((mean / truth - 1.0).abs() < 0.05, "{mean} against {truth}");
            let squares = all.iter().map(|e| (e - truth) * (e - truth)).sum::<f64>();
            (squares / all.len() as f64).sqrt() / truth
        };
        let equal = spread(&[1.0; 200]);
        let square_roots = spread(&times.iter().map(|t| t.sqrt()).collect::<Vec<_>>());
        let exact = spread(&times);
        assert!(exact < 1e-9, "{exact}");
        assert!(square_roots < equal / 2.0, "{square_roots} against {equal}");
    }

    /// Equal weights give the usual estimate of a simple random sample: the class's
    /// units times the mean, and its variance.
    #[test]
    fn equal_weights_are_a_simple_random_sample() {
        let mut part = class(100, &[1.0; 5], &[1.0, 2.0, 3.0, 4.0]);
        part.weight = 100.0;
        let total = part.total();
        assert!((total.seconds - 250.0).abs() < 1e-9, "{total:?}");
        // N² s² / k (1 - p): s² = 5/3 and p the threshold unit's uniform, about k / N.
        let p = f64::from_bits(part.drawn[4].key);
        let expected = 100.0 * 100.0 * (5.0 / 3.0) / 4.0 * (1.0 - p);
        assert!(
            (total.variance / expected - 1.0).abs() < 1e-9,
            "{total:?} {expected}"
        );
    }
}
