//! How much faster a count runs on several threads than on one, on this machine now:
//! the divisor of an estimate's one-thread time.
//!
//! Threads past the CPUs this process may use add nothing (they share the same
//! cores), so a count on `threads` threads runs at most `min(threads, cpus)` at once;
//! and even those rarely scale perfectly (hyper-threads share a core, other
//! processes share the machine, a turbo clock drops as more cores run). A short probe
//! measures it: the same CPU-bound work runs on one thread, then on that many threads
//! at once, and the ratio of their throughputs is the speedup.
//!
//! Uses the lowest layers only (`naive`, as the probe's work).

use std::time::{Duration, Instant};

/// How long each half of the probe (one thread, then all) runs.
pub(crate) const PROBE: Duration = Duration::from_millis(150);

/// The board the probe solves over and over: about 100 µs a time, so the probe's
/// end is never late by much.
const PROBE_BOARD: usize = 8;

/// What the probe found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scaling {
    /// The CPUs this process may use.
    pub(crate) cpus: usize,
    /// The threads that can run at once: the count's threads, at most `cpus`.
    pub(crate) concurrent: usize,
    /// The measured speedup of `concurrent` threads over one, from 1 to `concurrent`.
    pub(crate) speedup: f64,
}

/// The CPUs this process may use (1 when the system does not say).
pub(crate) fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// How many of a count's `threads` can run at once here: at least 1, at most
/// [`cpus`]. An estimate measures its work on that many threads.
pub(crate) fn concurrent(threads: usize) -> usize {
    threads.clamp(1, cpus())
}

/// Measures the speedup of a count on `threads` threads over one thread.
pub(crate) fn measure(threads: usize) -> Scaling {
    let cpus = cpus();
    let concurrent = concurrent(threads);
    let speedup = if concurrent == 1 {
        1.0
    } else {
        let one = throughput(1);
        let all = throughput(concurrent);
        bounded_speedup(all / one, concurrent)
    };
    Scaling {
        cpus,
        concurrent,
        speedup,
    }
}

/// A measured ratio kept within what `concurrent` threads can give: at least 1 (a
/// count never uses fewer threads than one), at most `concurrent`; a ratio that is
/// no number (no probe finished) counts as 1.
#[allow(
    clippy::cast_precision_loss,
    reason = "at most MAX_THREADS threads, exact in an f64"
)]
fn bounded_speedup(ratio: f64, concurrent: usize) -> f64 {
    if ratio.is_finite() {
        ratio.clamp(1.0, concurrent as f64)
    } else {
        1.0
    }
}

/// Boards solved per second by `threads` threads running at once for [`PROBE`].
#[allow(
    clippy::cast_precision_loss,
    reason = "a rate: the nearest f64 of the count is all it needs"
)]
fn throughput(threads: usize) -> f64 {
    let start = Instant::now();
    let deadline = start + PROBE;
    let solved: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| scope.spawn(move || solve_until(deadline)))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    solved as f64 / start.elapsed().as_secs_f64()
}

/// Solves the probe board until `deadline`; returns how many times.
fn solve_until(deadline: Instant) -> u64 {
    let mut solved = 0;
    while Instant::now() < deadline {
        std::hint::black_box(crate::naive::count_solutions(std::hint::black_box(
            PROBE_BOARD,
        )));
        solved += 1;
    }
    solved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp, reason = "1.0 is set, not computed")]
    #[allow(clippy::cast_precision_loss, reason = "a CPU count, far below 2^52")]
    fn one_thread_needs_no_probe_and_more_threads_than_cpus_share_them() {
        let one = measure(1);
        assert_eq!((one.concurrent, one.speedup), (1, 1.0));
        let many = measure(4096);
        assert_eq!(many.concurrent, many.cpus);
        assert!((1.0..=many.cpus as f64).contains(&many.speedup), "{many:?}");
    }

    #[test]
    fn thousands_of_threads_are_measured_on_the_cpus() {
        assert_eq!(concurrent(0), 1);
        assert_eq!(concurrent(1), 1);
        assert_eq!(concurrent(4096), cpus());
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "clamped values are returned exactly")]
    fn ratios_stay_within_the_threads() {
        assert_eq!(bounded_speedup(0.5, 2), 1.0);
        assert_eq!(bounded_speedup(1.8, 2), 1.8);
        assert_eq!(bounded_speedup(7.0, 4), 4.0);
        assert_eq!(bounded_speedup(f64::NAN, 4), 1.0);
    }
}
