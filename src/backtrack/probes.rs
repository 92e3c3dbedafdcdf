//! Knuth's random probes over the search a backtracking count would run.
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

use crate::backtrack::plan::TaskList;
use crate::backtrack::search::resolved::Resolved;
use crate::backtrack::task::run_task;
use crate::sampling::mean_and_stderr;
use crate::sampling::rng::SplitMix64;
use crate::symmetry::Symmetry;

/// Probes per independently seeded chunk.
const CHUNK: u64 = 16_384;

/// The least wall-clock time spent calibrating the kernel speed.
pub(crate) const CALIBRATION_SECONDS: f64 = 0.25;

/// The node estimate of the probes: mean and standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NodeEstimate {
    /// The estimated nodes, task building included.
    pub(crate) nodes: f64,
    /// Its standard error.
    pub(crate) stderr: f64,
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
    let (mean, stderr) = mean_and_stderr(sum, squares, probes);
    let tasks = list.len() as f64;
    NodeEstimate {
        nodes: setup + tasks * mean,
        stderr: tasks * stderr,
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
/// counting growing boards (14 up to 16, or `n`) under `symmetry` with `kernel`, task
/// by task on the calling thread, until at least [`CALIBRATION_SECONDS`] have passed.
#[allow(
    clippy::cast_precision_loss,
    reason = "a rate: the nearest f64 of the nodes is all it needs"
)]
pub(crate) fn calibrate(n: usize, symmetry: Symmetry, kernel: Resolved) -> f64 {
    // Boards below 14 finish in milliseconds, too fast to measure the kernel rather
    // than the start of a count.
    let top = n.clamp(4, 16);
    let mut board = top.min(14);
    let (mut nodes, start) = (0u128, Instant::now());
    loop {
        let list = TaskList::build(board, symmetry, None).expect("a board from 4 to 16");
        nodes += u128::from(list.setup_nodes);
        nodes += (0..list.len())
            .map(|i| run_task(&list, i, kernel).work)
            .sum::<u128>();
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= CALIBRATION_SECONDS {
            return nodes as f64 / elapsed;
        }
        board = (board + 1).min(top);
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
        let list = TaskList::build(11, Symmetry::Mirror, None).unwrap();
        let kernel = Resolved::of(crate::cpu::Kernel::Auto).unwrap();
        let searched: u128 = (0..list.len())
            .map(|i| run_task(&list, i, kernel).work)
            .sum();
        let real = (searched + u128::from(list.setup_nodes)) as f64;
        let e = estimate_nodes(&list, 200_000, 3);
        assert!(
            (e.nodes - real).abs() <= crate::sampling::Z95 * e.stderr,
            "{e:?} vs {real}"
        );
        assert!(e.stderr < 0.02 * real, "{e:?}");
        let pool = crate::pool::build_pool(1).unwrap();
        assert_eq!(pool.install(|| estimate_nodes(&list, 200_000, 3)), e);
    }
}
