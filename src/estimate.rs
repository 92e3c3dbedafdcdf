//! Run-time estimates: Knuth's random probes over the search a count would run.
//!
//! A probe picks one task of the [`TaskList`] uniformly at random and walks from its
//! start board to a leaf, choosing each queen uniformly among the free squares of the
//! next row. With branching factors `d1, d2, ...` along the walk, `d1 + d1*d2 + ...`
//! is an unbiased estimate of the nodes the kernel visits below that task; times the
//! number of tasks, plus the (exact) task-building nodes, it estimates the nodes of the
//! whole count. The mean of many probes and its standard error give the estimate and
//! its spread. A short real count measures this machine's kernel speed, which turns
//! nodes into seconds.
//!
//! The probes are drawn in fixed-size chunks, each from its own generator seeded from
//! the seed and the chunk's number, so the estimate depends only on the seed and the
//! probe count, never on the thread count.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Error;
use crate::limits::{resolve_threads, Quantity};
use crate::plan::TaskList;
use crate::run::count::{count, Options};
use crate::run::tasks::build_pool;
use crate::search::kernel::Kernel;
use crate::symmetry::Symmetry;

/// Probes per independently seeded chunk.
const CHUNK: u64 = 16_384;

/// The width of the stated interval, in standard errors (a 95% normal interval).
pub(crate) const Z95: f64 = 1.96;

/// The least wall-clock time spent calibrating the kernel speed.
pub(crate) const CALIBRATION_SECONDS: f64 = 0.25;

/// An estimate of a count's size and duration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The board size.
    pub n: usize,
    /// The symmetry reduction.
    pub symmetry: Symmetry,
    /// The kernel whose speed was measured.
    pub kernel: Kernel,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
    /// The number of tasks.
    pub tasks: usize,
    /// Probes drawn.
    pub probes: u64,
    /// The seed of the probes.
    pub seed: u64,
    /// The estimated nodes (queens placed) of the count, as `count --json` reports them.
    pub nodes: f64,
    /// The standard error of `nodes`.
    pub nodes_stderr: f64,
    /// The 95% interval of `nodes` (plus or minus 1.96 standard errors), low end.
    pub nodes_low: f64,
    /// The 95% interval of `nodes`, high end.
    pub nodes_high: f64,
    /// The kernel speed measured on this machine, nodes per second on one thread.
    pub nodes_per_second_per_thread: f64,
    /// The threads the estimated count would use.
    pub threads: usize,
    /// The estimated wall-clock seconds on `threads` threads.
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds: f64,
    /// The standard error of `seconds` (from the probes alone).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds_stderr: f64,
    /// The 95% interval of `seconds`, low end.
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds_low: f64,
    /// The 95% interval of `seconds`, high end.
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds_high: f64,
    /// The estimated CPU time in core-hours (one thread per core).
    pub core_hours: f64,
    /// The version of this crate.
    pub version: &'static str,
    /// The git commit of this build, when known ([`crate::COMMIT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
}

/// The node estimate of the probes: mean and standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NodeEstimate {
    /// The estimated nodes, task building included.
    pub nodes: f64,
    /// Its standard error.
    pub stderr: f64,
}

/// Estimates the nodes and time of `count(n, options)` with `probes` probes seeded by
/// `seed`, calibrating the time with a short real count.
///
/// # Errors
/// [`Error::OutOfRange`] for a board size, thread count, split depth or probe count
/// out of range; [`Error::TooManyTasks`] for a split too deep;
/// [`Error::KernelUnsupported`] for a kernel this processor cannot run;
/// [`Error::ThreadPool`] when the threads cannot start.
pub fn estimate(n: usize, options: &Options, probes: u64, seed: u64) -> Result<Estimate, Error> {
    Quantity::Probes.check(i128::from(probes))?;
    let threads = resolve_threads(options.threads)?;
    let list = TaskList::build(n, options.symmetry, options.split_depth)?;
    let pool = build_pool(threads)?;
    let nodes = pool.install(|| estimate_nodes(&list, probes, seed));
    let kernel = options.kernel.resolve()?.kernel();
    let rate = calibrate(n, options.symmetry, kernel)?;
    #[allow(
        clippy::cast_precision_loss,
        reason = "at most MAX_THREADS threads, exact in an f64"
    )]
    let per_second = rate * threads as f64;
    let (low, high) = interval(nodes);
    Ok(Estimate {
        n,
        symmetry: options.symmetry,
        kernel,
        split_depth: list.split_depth,
        tasks: list.len(),
        probes,
        seed,
        nodes: nodes.nodes,
        nodes_stderr: nodes.stderr,
        nodes_low: low,
        nodes_high: high,
        nodes_per_second_per_thread: rate,
        threads,
        seconds: nodes.nodes / per_second,
        seconds_stderr: nodes.stderr / per_second,
        seconds_low: low / per_second,
        seconds_high: high / per_second,
        core_hours: nodes.nodes / rate / 3600.0,
        version: crate::VERSION,
        commit: crate::COMMIT,
    })
}

/// The 95% interval of a node estimate, clamped at zero.
fn interval(e: NodeEstimate) -> (f64, f64) {
    (
        (e.nodes - Z95 * e.stderr).max(0.0),
        e.nodes + Z95 * e.stderr,
    )
}

/// Knuth's estimate of the nodes a count over `list` visits (task building included),
/// from `probes` probes seeded by `seed`, run on the current rayon pool.
#[allow(
    clippy::cast_precision_loss,
    reason = "an estimate: the nearest f64 of the setup nodes, probes and tasks is all it needs"
)]
pub(crate) fn estimate_nodes(list: &TaskList, probes: u64, seed: u64) -> NodeEstimate {
    let setup = list.setup_nodes as f64;
    if list.is_empty() || probes == 0 {
        return NodeEstimate {
            nodes: setup,
            stderr: 0.0,
        };
    }
    let chunks = probes.div_ceil(CHUNK);
    let sums: Vec<(f64, f64)> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = SplitMix64::for_chunk(seed, chunk);
            let size = CHUNK.min(probes - chunk * CHUNK);
            let (mut sum, mut squares) = (0.0, 0.0);
            for _ in 0..size {
                let x = probe(list, &mut rng);
                sum += x;
                squares += x * x;
            }
            (sum, squares)
        })
        .collect();
    let (sum, squares) = sums.iter().fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let count = probes as f64;
    let mean = sum / count;
    let variance = if probes > 1 {
        ((squares - count * mean * mean) / (count - 1.0)).max(0.0)
    } else {
        0.0
    };
    let tasks = list.len() as f64;
    NodeEstimate {
        nodes: setup + tasks * mean,
        stderr: tasks * (variance / count).sqrt(),
    }
}

/// One probe: a random task and a random walk to a leaf, returning the walk's
/// estimate of the nodes below the task's start.
fn probe(list: &TaskList, rng: &mut SplitMix64) -> f64 {
    let pick = rng.below(list.len() as u64);
    let task = &list.tasks[usize::try_from(pick).expect("below the task count, a usize")];
    let constraints = &list.constraints[task.constraints];
    let mut frontier = task.frontier;
    let (mut product, mut total) = (1.0f64, 0.0f64);
    while frontier.row < list.n {
        let mut avail = frontier.available(constraints);
        let branches = avail.count_ones();
        if branches == 0 {
            break;
        }
        product *= f64::from(branches);
        total += product;
        for _ in 0..rng.below(u64::from(branches)) {
            avail &= avail - 1;
        }
        frontier = frontier.place(avail & avail.wrapping_neg());
    }
    total
}

/// The kernel's speed on this machine in nodes per second on one thread, measured by
/// counting growing boards (14 up to 16, or `n`) under `symmetry` with `kernel` until at
/// least [`CALIBRATION_SECONDS`] have passed.
#[allow(
    clippy::cast_precision_loss,
    reason = "a rate: the nearest f64 of the nodes is all it needs"
)]
pub(crate) fn calibrate(n: usize, symmetry: Symmetry, kernel: Kernel) -> Result<f64, Error> {
    let options = Options {
        threads: Some(1),
        symmetry,
        kernel,
        ..Options::default()
    };
    // Boards below 14 finish in milliseconds, too fast to measure the kernel rather
    // than the start of a count.
    let top = n.clamp(4, 16);
    let mut board = top.min(14);
    let (mut nodes, start) = (0u128, Instant::now());
    loop {
        nodes += count(board, &options)?.nodes;
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= CALIBRATION_SECONDS {
            return Ok(nodes as f64 / elapsed);
        }
        board = (board + 1).min(top);
    }
}

/// A small, fast, seedable generator (SplitMix64), so estimates are reproducible.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The generator of chunk `chunk` of the probes seeded by `seed`: its start is a
    /// hash of both, so that the chunks' sequences do not overlap.
    pub(crate) fn for_chunk(seed: u64, chunk: u64) -> Self {
        let mut g = SplitMix64::new(seed);
        let a = g.next_u64();
        let mut h = SplitMix64::new(a ^ chunk.wrapping_mul(0xd6e8_feb8_6659_fd93));
        h.next_u64();
        SplitMix64::new(h.next_u64())
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound` (`bound > 0`), without modulo bias.
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % bound;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(
        clippy::cast_precision_loss,
        reason = "the setup nodes of n = 8, far below 2^53"
    )]
    fn exact_when_the_tasks_are_leaves() {
        // With every row fixed, each task is a leaf: the estimate is the setup alone.
        let list = TaskList::build(8, Symmetry::None, Some(8)).unwrap();
        let e = estimate_nodes(&list, 1000, 7);
        assert_eq!((e.nodes, e.stderr), (list.setup_nodes as f64, 0.0));
    }

    #[test]
    #[allow(
        clippy::cast_precision_loss,
        reason = "the nodes of n = 11, far below 2^53"
    )]
    fn close_to_the_real_count_and_reproducible() {
        let options = Options {
            threads: Some(2),
            symmetry: Symmetry::Mirror,
            split_depth: None,
            ..Options::default()
        };
        let real = count(11, &options).unwrap().nodes as f64;
        let list = TaskList::build(11, Symmetry::Mirror, None).unwrap();
        let e = estimate_nodes(&list, 200_000, 3);
        assert!((e.nodes - real).abs() <= Z95 * e.stderr, "{e:?} vs {real}");
        assert!(e.stderr < 0.02 * real, "{e:?}");
        let pool = build_pool(1).unwrap();
        assert_eq!(pool.install(|| estimate_nodes(&list, 200_000, 3)), e);
    }

    #[test]
    fn below_is_in_range() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[usize::try_from(rng.below(5)).unwrap()] = true;
        }
        assert_eq!(seen, [true; 5]);
    }
}
