//! Random sampling for estimates: a seeded generator ([`rng`]), the calling thread's
//! CPU clock ([`cpu_clock`]) and the mean of samples with its standard error. A lowest layer: it uses nothing of the crate, so that both
//! an engine (the backtracking engine's probes) and the estimate layer above the
//! engines can use it.

pub(crate) mod cpu_clock;
pub(crate) mod rng;

/// The width of the stated interval, in standard errors (a 95% normal interval).
pub(crate) const Z95: f64 = 1.96;

/// The mean of `count` samples and its standard error, from the samples' sum and sum of
/// squares (no variance from fewer than two samples).
#[allow(
    clippy::cast_precision_loss,
    reason = "a sample count, exact in an f64 far beyond any run"
)]
pub(crate) fn mean_and_stderr(sum: f64, squares: f64, count: u64) -> (f64, f64) {
    let n = count as f64;
    let mean = sum / n;
    let variance = if count > 1 {
        ((squares - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    (mean, (variance / n).sqrt())
}
