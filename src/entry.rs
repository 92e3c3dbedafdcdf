//! The library's ways into a count: [`count`], [`count_within`] and [`run_long`], one
//! path (a count is a long run with the default options), the name a profiler
//! finds it by ([`MEASURED_FUNCTION`]), and the check of the engines' kernels on this
//! processor ([`check_kernels`]).
//!
//! This module uses the run and engine layers.

use crate::cpu::Kernel;
use crate::engine::{counting, Engine};
use crate::error::Error;
use crate::limits::check_board_size;
use crate::model::placement::Placement;
use crate::run::count::options::Options;
use crate::run::count::result::Count;
use crate::run::long::longrun::{self, LongRun, LongRunOptions};
use crate::run::long::resumable::Observer;

/// Counts the solutions of the n-queens problem.
///
/// ```
/// use nqueens::{count, Options, Symmetry};
///
/// let options = Options { threads: Some(2), unique: true, ..Options::default() };
/// let c = count(8, &options).unwrap();
/// assert_eq!((c.total, c.unique), (92, Some(12)));
/// assert!(count(33, &options).is_err());
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] for a board size, thread count or split depth out of range;
/// [`Error::TooManyTasks`] for a split too deep; [`Error::KernelUnsupported`] for a
/// kernel this processor cannot run; [`Error::ThreadPool`] when the threads cannot
/// start; [`Error::KernelMismatch`] when a count of n >= 20 finds its engine's vector
/// kernel counting differently from its scalar one on this processor (see
/// [`check_kernels`]); [`Error::Overflow`] or [`Error::Inconsistent`] only for a bug
/// (never expected).
pub fn count(n: usize, options: &Options) -> Result<Count, Error> {
    check_board_size(n)?;
    count_within(&Placement::empty(n)?, options)
}

/// Counts the solutions that extend `placement` (all solutions for the empty one).
///
/// Symmetry reduction is used only where it stays exact (mirror halving for a
/// placement that is its own mirror image, none for other placements); the result's
/// `symmetry` is the mode actually used. Fundamental counts (`options.unique`) are only
/// defined for the whole board.
///
/// ```
/// use nqueens::{count_within, Options, Placement};
///
/// let corner = Placement::parse(8, "0:0").unwrap();
/// assert_eq!(count_within(&corner, &Options::default()).unwrap().total, 4);
/// ```
///
/// # Errors
/// Those of [`count()`], and [`Error::Placement`] for fundamental counts with placed
/// queens.
pub fn count_within(placement: &Placement, options: &Options) -> Result<Count, Error> {
    run_long(placement, options, &LongRunOptions::default(), &()).map(|run| run.count)
}

/// Checks each engine's kernel at `kernel` (the best one each runs at or below it)
/// against its scalar kernel on this processor: both count a fixed set of cases and
/// must agree. A count of n >= 20 runs its own engine's check before it starts; this
/// runs both engines' (`nqueens verify` does, first). Once per process and kernel, in
/// well under a second; nothing to check for the scalar kernel.
///
/// ```
/// use nqueens::{check_kernels, Kernel};
///
/// assert!(check_kernels(Kernel::Auto).is_ok());
/// assert!(check_kernels(Kernel::Scalar).is_ok());
/// ```
///
/// # Errors
/// [`Error::KernelUnsupported`] for a kernel this processor cannot run;
/// [`Error::KernelMismatch`] naming the first case an engine's kernel counted
/// differently.
pub fn check_kernels(kernel: Kernel) -> Result<(), Error> {
    let level = kernel.level()?;
    for engine in [Engine::Join, Engine::Backtrack] {
        counting(engine).check_kernel(level)?;
    }
    Ok(())
}

/// The path of [`run_long`] as a profiler names it: `nqueens bench --measure
/// instructions` counts the instructions executed inside it (under callgrind), and a
/// test checks that the built binary has it.
pub const MEASURED_FUNCTION: &str = "nqueens::entry::run_long";

/// Runs a count of the completions of `placement` (all solutions for the empty
/// placement) under `options`, limited to a shard, checkpointed and stoppable as `long`
/// says, telling `observer`. Every count in this process goes through here ([`count`]
/// and [`count_within`] with the default long-run options); never inlined, so that a
/// profiler finds it by [`MEASURED_FUNCTION`]. The work is done by the run layer's long run.
///
/// # Errors
/// Those of [`count_within`]; [`Error::Checkpoint`] for a checkpoint file that
/// another run holds, that belongs to another run, or that is damaged; [`Error::Io`]
/// when the checkpoint cannot be read or written; [`Error::Stopped`] when `long.stop`
/// ends the run early.
#[inline(never)]
pub fn run_long(
    placement: &Placement,
    options: &Options,
    long: &LongRunOptions<'_>,
    observer: &dyn Observer,
) -> Result<LongRun, Error> {
    longrun::run(placement, options, long, observer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetry;

    fn filtered(placement: &Placement) -> u128 {
        let mut found = 0;
        crate::naive::for_each_solution(placement.n(), |q| {
            if placement.queens().iter().all(|&(r, c)| q[r] == c) {
                found += 1;
            }
        });
        found
    }

    #[test]
    fn agrees_with_filtering_every_solution() {
        let cases = [
            (8, "0:0"),
            (8, "3:4"),
            (9, "4:4"),
            (9, "0:4"),
            (9, "8:4,0:4"),
            (7, "1:3,5:0"),
            (6, "0:1,1:3"),
            (6, "0:0,1:1"),
            (1, "0:0"),
            (0, ""),
        ];
        for (n, text) in cases {
            let placement = if text.is_empty() {
                Placement::empty(n).unwrap()
            } else {
                Placement::parse(n, text).unwrap()
            };
            for symmetry in Symmetry::ALL {
                for split_depth in [None, Some(n.min(1)), Some(n)] {
                    let options = Options {
                        threads: Some(2),
                        symmetry,
                        split_depth,
                        ..Options::default()
                    };
                    let count = count_within(&placement, &options).unwrap();
                    assert_eq!(count.total, filtered(&placement), "n = {n}, {text}");
                }
            }
        }
    }

    #[test]
    fn reports_the_symmetry_used() {
        let options = Options::default();
        let middle = Placement::parse(9, "4:4").unwrap();
        assert_eq!(
            count_within(&middle, &options).unwrap().symmetry,
            Symmetry::Mirror
        );
        let side = Placement::parse(9, "4:3").unwrap();
        assert_eq!(
            count_within(&side, &options).unwrap().symmetry,
            Symmetry::None
        );
    }

    #[test]
    fn small_counts() {
        for symmetry in Symmetry::ALL {
            let options = Options {
                threads: Some(1),
                symmetry,
                ..Options::default()
            };
            let totals: Vec<u128> = (0..=8).map(|n| count(n, &options).unwrap().total).collect();
            assert_eq!(totals, [1, 1, 0, 0, 2, 10, 4, 40, 92], "{symmetry}");
        }
    }

    #[test]
    fn the_kernels_this_processor_runs_pass_and_the_others_are_refused() {
        for kernel in Kernel::ALL {
            match kernel.level() {
                Ok(_) => assert!(check_kernels(kernel).is_ok(), "{kernel}"),
                Err(_) => assert!(
                    matches!(check_kernels(kernel), Err(Error::KernelUnsupported { .. })),
                    "{kernel}"
                ),
            }
        }
    }
}
