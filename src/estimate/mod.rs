//! Run-time estimates: how long a count would take on this machine, and how much memory
//! it would need, before running it.
//!
//! The engine is the one `count` would choose for the same options, and its plan is
//! built (the building time is part of the estimate). An engine with its own estimate
//! of the work gives it (the backtracking engine: Knuth's random probes, and a short
//! real search that measures this machine's speed); for the others a sample of units is
//! run and timed ([`units`]). Both give the time on one thread; the time on the
//! count's threads divides it by the speedup a short probe measures here
//! ([`scaling`]): never more than the CPUs this process may use, however many
//! threads are asked for. When the engine's predicted memory would not fit in this
//! machine's, the estimate says so, builds nothing and gives no time.
//!
//! This layer uses the engine layer (never an engine directly), the run layer's
//! options and host facts, `sampling` and `naive` (the probe's work).

pub(crate) mod scaling;
pub(crate) mod units;

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cpu::Kernel;
use crate::engine::{self, Engine, Request};
use crate::error::Error;
use crate::limits::{resolve_threads, Quantity, DEFAULT_PROBES, DEFAULT_SAMPLE_SECONDS};
use crate::model::placement::Placement;
use crate::pool::build_pool;
use crate::run::count::options::Options;
use crate::run::host::memory::available_bytes;
use crate::sampling::Z95;
use crate::symmetry::Symmetry;

/// An estimate of a count's size, duration and memory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The board size.
    pub n: usize,
    /// The engine the count would run with.
    pub engine: Engine,
    /// The symmetry reduction.
    pub symmetry: Symmetry,
    /// The kernel whose speed was measured.
    pub kernel: Kernel,
    /// Rows fixed to form tasks (the backtracking engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// The number of tasks (the join engine's units); absent when the join engine's
    /// tables would not fit in memory, so were not built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks: Option<usize>,
    /// The backtracking engine: probes drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probes: Option<u64>,
    /// The join engine: units timed (every cost class, the heaviest included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units_sampled: Option<u64>,
    /// The join engine: of the units timed, those too long to run whole in an
    /// estimate, run in part and scaled up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units_partial: Option<u64>,
    /// The join engine: the cost classes its units were sorted into for sampling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_classes: Option<u64>,
    /// The join engine: the seconds it kept timing units after timing two of each
    /// class ([`Sampling::unit_seconds`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_seconds: Option<u64>,
    /// The join engine: whether the sample is thin: fewer than 4 units timed a cost
    /// class on average, and not every unit. Its interval then rests on too few units
    /// to plan on (give it more `unit_seconds`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thin_sample: Option<bool>,
    /// The seed of the probes or of the sample of units.
    pub seed: u64,
    /// The backtracking engine: the estimated nodes (queens placed), as `count --json`
    /// reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<f64>,
    /// The standard error of `nodes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_stderr: Option<f64>,
    /// The 95% interval of `nodes` (plus or minus 1.96 standard errors), low end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_low: Option<f64>,
    /// The 95% interval of `nodes`, high end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_high: Option<f64>,
    /// The backtracking kernel's speed measured on this machine, nodes per second on
    /// one thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_second_per_thread: Option<f64>,
    /// The join engine: the estimated pairs, as `count --json` reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<f64>,
    /// The join engine: the seconds its tables took to build here (part of
    /// `seconds`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_some"
    )]
    pub setup_seconds: Option<f64>,
    /// The threads the estimated count would use.
    pub threads: usize,
    /// The CPUs this process may use: threads past them share them.
    pub cpus: usize,
    /// How many times faster than one thread the count runs on `threads` threads
    /// here: measured by a short probe on `min(threads, cpus)` threads at once (1 for
    /// one thread; never more than the CPUs). The time is the one-thread time
    /// divided by it.
    pub speedup: f64,
    /// The predicted peak memory of the count, in bytes (an upper bound).
    pub memory_bytes: u64,
    /// The memory available to the count, in bytes (the machine's free memory, or the
    /// job's control-group limit when less), where the system tells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_available: Option<u64>,
    /// The memory budget the estimated count would have, in bytes (`--memory`, or the
    /// memory available; absent where neither is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_budget: Option<u64>,
    /// Whether the count fits in its memory budget (it is refused if not).
    pub fits: bool,
    /// The estimated wall-clock seconds on `threads` threads (none when the count
    /// does not fit).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_some"
    )]
    pub seconds: Option<f64>,
    /// The standard error of `seconds` (from the sampling alone).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_some"
    )]
    pub seconds_stderr: Option<f64>,
    /// The 95% interval of `seconds`, low end.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_some"
    )]
    pub seconds_low: Option<f64>,
    /// The 95% interval of `seconds`, high end.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_some"
    )]
    pub seconds_high: Option<f64>,
    /// The estimated CPU time in core-hours (one thread per core).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub core_hours: Option<f64>,
    /// The version of this crate.
    pub version: &'static str,
    /// The git commit of this build, when known ([`crate::build_info::COMMIT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
}

/// A time estimate on one thread: seconds of work, its standard error, and the
/// seconds spent before the work that no thread shares (building tables).
struct Timing {
    setup: f64,
    work: f64,
    stderr: f64,
}

impl Timing {
    /// The wall-clock figures on `e.threads` threads, which run `speedup` times
    /// faster than one: seconds, standard error, the 95% interval, and core-hours.
    fn fill(&self, e: &mut Estimate, speedup: f64) {
        let wall = |work: f64| self.setup + work / speedup;
        e.seconds = Some(wall(self.work));
        e.seconds_stderr = Some(self.stderr / speedup);
        e.seconds_low = Some(wall((self.work - Z95 * self.stderr).max(0.0)));
        e.seconds_high = Some(wall(self.work + Z95 * self.stderr));
        e.core_hours = Some((self.setup + self.work) / 3600.0);
    }
}

/// How an estimate measures the work: the backtracking engine's probes, the join
/// engine's time spent timing units, and the seed of either draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Random probes for the backtracking engine (more probes, narrower spread).
    pub probes: u64,
    /// The seed of the probes or of the sample of units.
    pub seed: u64,
    /// The seconds the join engine keeps timing units after it has timed two of each
    /// cost class (more units, narrower spread), until 64 of every class are timed;
    /// 0 times those two only.
    pub unit_seconds: u64,
}

impl Default for Sampling {
    /// [`DEFAULT_PROBES`] probes, seed 0, [`DEFAULT_SAMPLE_SECONDS`] seconds.
    fn default() -> Sampling {
        Sampling {
            probes: DEFAULT_PROBES,
            seed: 0,
            unit_seconds: DEFAULT_SAMPLE_SECONDS,
        }
    }
}

/// Estimates the time and memory of `count(n, options)`: with `probes` probes seeded
/// by `seed` for the backtracking engine (and a short real search to measure its
/// speed), or a sample of units drawn by `seed` for the join engine, timed for
/// [`DEFAULT_SAMPLE_SECONDS`] after two of each cost class ([`estimate_with`] takes
/// any [`Sampling`]).
///
/// # Errors
/// [`Error::OutOfRange`] for a board size, thread count, split depth or probe count
/// out of range; [`Error::TooManyTasks`] for a split too deep;
/// [`Error::KernelUnsupported`] for a kernel this processor cannot run;
/// [`Error::EngineUnsuited`] for an engine with options it cannot serve;
/// [`Error::ThreadPool`] when the threads cannot start.
pub fn estimate(n: usize, options: &Options, probes: u64, seed: u64) -> Result<Estimate, Error> {
    let sampling = Sampling {
        probes,
        seed,
        ..Sampling::default()
    };
    estimate_with(n, options, &sampling, &|_| {})
}

/// What an estimate is doing, told as it goes (for a display).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EstimateStage {
    /// Building the plan (the join engine's tables, the backtracking task list).
    Planning,
    /// Measuring: drawing probes, or timing units (so many timed so far).
    Measuring {
        /// Units timed so far (0 while probing).
        units: u64,
    },
}

impl Estimate {
    /// An estimate of a count of `n` by `engine` with nothing measured yet.
    fn empty(n: usize, engine: Engine, symmetry: Symmetry, kernel: Kernel, seed: u64) -> Estimate {
        Estimate {
            n,
            engine,
            symmetry,
            kernel,
            split_depth: None,
            tasks: None,
            probes: None,
            units_sampled: None,
            units_partial: None,
            unit_classes: None,
            sample_seconds: None,
            thin_sample: None,
            seed,
            nodes: None,
            nodes_stderr: None,
            nodes_low: None,
            nodes_high: None,
            nodes_per_second_per_thread: None,
            pairs: None,
            setup_seconds: None,
            threads: 1,
            cpus: scaling::cpus(),
            speedup: 1.0,
            memory_bytes: 0,
            memory_available: None,
            memory_budget: None,
            fits: true,
            seconds: None,
            seconds_stderr: None,
            seconds_low: None,
            seconds_high: None,
            core_hours: None,
            version: crate::build_info::VERSION,
            commit: crate::build_info::COMMIT,
        }
    }
}

/// [`estimate()`] with the measurement `sampling`, telling `progress` what it is doing
/// as it goes.
///
/// # Errors
/// As [`estimate()`], and [`Error::OutOfRange`] for a sampling time over
/// [`MAX_SAMPLE_SECONDS`](crate::limits::MAX_SAMPLE_SECONDS).
pub fn estimate_with(
    n: usize,
    options: &Options,
    sampling: &Sampling,
    progress: &(dyn Fn(EstimateStage) + Sync),
) -> Result<Estimate, Error> {
    let Sampling {
        probes,
        seed,
        unit_seconds,
    } = *sampling;
    Quantity::Probes.check(i128::from(probes))?;
    Quantity::SampleSeconds.check(i128::from(unit_seconds))?;
    let threads = resolve_threads(options.threads)?;
    let placement = Placement::empty(n)?;
    let request = Request {
        placement: &placement,
        symmetry: options.symmetry,
        split_depth: options.split_depth,
        threads,
        // An estimate may be for another machine: a budget above what is free here
        // is taken as given.
        memory: options
            .memory
            .or_else(|| available_bytes(threads))
            .unwrap_or(u64::MAX),
    };
    let level = options.kernel.level()?;
    let chosen = engine::choose(options.engine, &request)?;
    let counting = engine::counting(chosen);
    let available = available_bytes(threads);
    let fits = |bytes: u64| available.is_none_or(|a| bytes <= a);
    let mut e = Estimate::empty(n, chosen, options.symmetry, counting.kernel(level), seed);
    e.threads = threads;
    e.memory_available = available;
    e.memory_budget = (request.memory != u64::MAX).then_some(request.memory);
    if let Some(bytes) = counting.predicted_peak_bytes(&request) {
        e.memory_bytes = bytes;
        e.fits = bytes <= request.memory;
        if !e.fits {
            return Ok(e);
        }
    }
    progress(EstimateStage::Planning);
    let start = Instant::now();
    let plan = engine::plan(chosen, &request, level)?.plan;
    let setup = start.elapsed().as_secs_f64();
    e.symmetry = plan.symmetry();
    e.kernel = plan.kernel();
    e.split_depth = plan.split_depth();
    e.tasks = Some(plan.len());
    e.memory_bytes = plan.peak_bytes(threads);
    e.fits = fits(e.memory_bytes);
    // The measurement runs on the threads that can run at once here: more would
    // only share the same CPUs, time each other's waits and, by the thousand, take
    // seconds to start. The count's own threads enter through the speedup below.
    let pool = build_pool(scaling::concurrent(threads))?;
    progress(EstimateStage::Measuring { units: 0 });
    let timing = if let Some(work) = pool.install(|| plan.estimate_work(probes, seed))? {
        // The engine's own estimate: its work, and the speed that makes it time
        // (the planning is part of the work, not of the time).
        let rate = work.per_second_per_thread;
        e.probes = Some(work.samples);
        set_work(&mut e, counting.work(0), work.work, Some(work.stderr));
        e.nodes_per_second_per_thread = Some(rate);
        Timing {
            setup: 0.0,
            work: work.work / rate,
            stderr: work.stderr / rate,
        }
    } else {
        let sample = pool.install(|| {
            let budget = Duration::from_secs(unit_seconds);
            units::sample_units(plan.as_ref(), seed, budget, &|units| {
                progress(EstimateStage::Measuring { units });
            })
        })?;
        e.units_sampled = Some(sample.samples);
        e.sample_seconds = Some(unit_seconds);
        e.units_partial = Some(sample.partial);
        e.unit_classes = Some(sample.classes);
        e.thin_sample = Some(is_thin_sample(sample.samples, sample.classes, plan.len()));
        set_work(&mut e, counting.work(0), sample.work, None);
        e.setup_seconds = Some(setup);
        Timing {
            setup,
            work: sample.seconds,
            stderr: sample.stderr,
        }
    };
    let scaling = scaling::measure(threads);
    e.cpus = scaling.cpus;
    e.speedup = scaling.speedup;
    timing.fill(&mut e, scaling.speedup);
    Ok(e)
}

/// Below this many units timed a cost class on average, a join estimate's sample is
/// thin: a class's spread is then itself estimated from about two units, and the
/// interval may be far too narrow. At n = 26 a default sample (26 units in 13 classes)
/// said 3,809 and 3,406 core-hours where 600 seconds of sample (229 units) said 4,919
/// (4,590 - 5,248) on the same machine.
pub(crate) const THIN_SAMPLE_UNITS_PER_CLASS: u64 = 4;

/// Whether a join estimate that timed `sampled` of its `units` units, sorted into
/// `classes` cost classes, rests on a thin sample: fewer than
/// [`THIN_SAMPLE_UNITS_PER_CLASS`] a class on average, and not every unit.
#[must_use]
pub(crate) fn is_thin_sample(sampled: u64, classes: u64, units: usize) -> bool {
    let every_unit = u64::try_from(units).is_ok_and(|units| sampled >= units);
    !every_unit && sampled < classes.saturating_mul(THIN_SAMPLE_UNITS_PER_CLASS)
}

/// Writes an estimated amount of work, in the unit of `unit`, into its fields: the
/// nodes with their standard error and 95% interval, or the pairs.
fn set_work(e: &mut Estimate, unit: crate::engine::Work, work: f64, stderr: Option<f64>) {
    if unit.nodes().is_some() {
        let stderr = stderr.unwrap_or(0.0);
        e.nodes = Some(work);
        e.nodes_stderr = Some(stderr);
        e.nodes_low = Some((work - Z95 * stderr).max(0.0));
        e.nodes_high = Some(work + Z95 * stderr);
    } else {
        e.pairs = Some(work);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineChoice;
    use crate::limits::MAX_SAMPLE_SECONDS;

    /// The join engine on one thread.
    fn join_options() -> Options {
        Options {
            threads: Some(1),
            engine: EngineChoice::Join,
            ..Options::default()
        }
    }

    #[test]
    fn no_sampling_time_times_two_units_of_each_class() {
        let sampling = Sampling {
            unit_seconds: 0,
            ..Sampling::default()
        };
        let e = estimate_with(14, &join_options(), &sampling, &|_| {}).unwrap();
        let (sampled, classes) = (e.units_sampled.unwrap(), e.unit_classes.unwrap());
        assert!(
            sampled >= classes && sampled <= 2 * classes,
            "{sampled} of {classes}"
        );
        assert_eq!(e.sample_seconds, Some(0));
        assert!(e.seconds.unwrap() > 0.0);
        // About two units a class, far fewer than n = 14's units: a thin sample.
        assert!(usize::try_from(sampled).unwrap() < e.tasks.unwrap());
        assert_eq!(e.thin_sample, Some(true), "{sampled} of {classes}");
        let backtrack = estimate(10, &Options::default(), 1000, 0).unwrap();
        assert_eq!(
            backtrack.thin_sample, None,
            "the backtracking engine draws probes"
        );
    }

    #[test]
    fn a_sample_is_thin_below_four_units_a_class_unless_it_timed_every_unit() {
        assert!(is_thin_sample(26, 13, 5_200_300));
        assert!(is_thin_sample(51, 13, 5_200_300));
        assert!(!is_thin_sample(52, 13, 5_200_300));
        assert!(!is_thin_sample(229, 13, 5_200_300));
        // Every unit timed: nothing left to sample, however few a class.
        assert!(!is_thin_sample(10, 13, 10));
        assert!(is_thin_sample(9, 13, 10));
        assert!(!is_thin_sample(0, 0, 0));
        assert!(!is_thin_sample(u64::MAX, u64::MAX, usize::MAX));
    }

    #[test]
    fn a_sampling_time_past_its_range_is_refused() {
        let sampling = Sampling {
            unit_seconds: MAX_SAMPLE_SECONDS + 1,
            ..Sampling::default()
        };
        let refused = estimate_with(14, &join_options(), &sampling, &|_| {});
        assert!(matches!(refused, Err(Error::OutOfRange(_))), "{refused:?}");
        let backtrack = estimate(10, &Options::default(), 1000, 0).unwrap();
        assert_eq!(backtrack.sample_seconds, None);
    }
}
