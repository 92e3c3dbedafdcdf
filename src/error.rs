//! The errors of the library. Each carries what was rejected (and, for numbers, the
//! accepted range) as data; the words are the library's, free of command-line flags, and
//! callers such as the `nqueens` command choose how to report them.

use thiserror::Error;

use crate::limits::OutOfRange;
use crate::model::placement::PlacementError;

/// Why a count (or another library call) could not run.
#[derive(Debug, Error)]
pub enum Error {
    /// A number outside its accepted range (the range is in the value).
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    /// The requested kernel cannot run on this processor.
    #[error("the {kernel} kernel needs {needs}, which this processor lacks")]
    KernelUnsupported {
        /// The kernel's name.
        kernel: &'static str,
        /// The processor features it needs.
        needs: &'static str,
    },
    /// The requested engine cannot count with these options.
    #[error("the {engine} engine {reason}")]
    EngineUnsuited {
        /// The engine's name.
        engine: &'static str,
        /// What it cannot do.
        reason: Unsuited,
    },
    /// The count would need more memory than is available to it: the machine's free
    /// memory, or less if the job's control group (Slurm, Kubernetes, Docker) or the
    /// process's address-space or data limit (`ulimit -v`, `ulimit -d`) allows less
    /// (checked before anything is allocated).
    #[error(
        "the {engine} engine needs {} of memory for N = {n}, and {} is available here (free memory, the job's memory limit, or the address space that ulimit -v/-d leaves)",
        human_bytes_up(*needed),
        human_bytes(*available)
    )]
    Memory {
        /// The engine's name.
        engine: &'static str,
        /// The board size.
        n: usize,
        /// The predicted peak, in bytes.
        needed: u64,
        /// What the system says is available, in bytes.
        available: u64,
    },
    /// The count would need more memory than the budget it was given
    /// ([`crate::Options::memory`]) on its threads.
    #[error(
        "the {engine} engine needs at least {} of memory for N = {n} on {threads} thread{}, more than the budget of {}",
        human_bytes_up(*needed),
        if *threads == 1 { "" } else { "s" },
        human_bytes(*budget)
    )]
    MemoryBudget {
        /// The engine's name.
        engine: &'static str,
        /// The board size.
        n: usize,
        /// Worker threads.
        threads: usize,
        /// The least budget that would do, in bytes.
        needed: u64,
        /// The budget given, in bytes.
        budget: u64,
    },
    /// The memory budget asked for is more than is available here.
    #[error(
        "a memory budget of {} is more than the {} available here (free memory, or the job's memory limit)",
        human_bytes(*budget),
        human_bytes(*available)
    )]
    MemoryOverAvailable {
        /// The budget asked for, in bytes.
        budget: u64,
        /// What the system says is available, in bytes.
        available: u64,
    },
    /// An allocation failed while the count ran (memory beyond what was checked
    /// before it started was taken, or the check could not tell): the finished tasks
    /// of a checkpointed run are kept.
    #[error("out of memory while {during} ({} more could not be had)", human_bytes(*bytes))]
    OutOfMemory {
        /// What was being built.
        during: &'static str,
        /// The bytes asked for.
        bytes: u64,
    },
    /// The requested split would create too many tasks to hold in memory.
    #[error(
        "split depth {depth} gives more than {limit} tasks for N = {n}: choose a smaller depth"
    )]
    TooManyTasks {
        /// The board size.
        n: usize,
        /// The depth that overflowed.
        depth: usize,
        /// The task limit.
        limit: usize,
    },
    /// Pre-placed queens that are not a valid placement (or fundamental counts asked
    /// for with placed queens).
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// The counts break Burnside's lemma: a bug, never expected.
    #[error("internal error: total {total}, rot180 {rot180} and rot90 {rot90} for N = {n} do not give a whole number of classes")]
    Inconsistent {
        /// The board size.
        n: usize,
        /// The total.
        total: u128,
        /// Solutions fixed by the half turn.
        rot180: u128,
        /// Solutions fixed by the quarter turn.
        rot90: u128,
    },
    /// An engine's vector kernel counted a case of its check before a long count
    /// differently from the engine's scalar kernel on this processor: its counts cannot
    /// be trusted here.
    #[error("the {engine} engine's {kernel} kernel counted {case} differently from its scalar kernel on this processor ({got}; scalar: {want}): its counts cannot be trusted here")]
    KernelMismatch {
        /// The engine's name.
        engine: &'static str,
        /// The kernel's name.
        kernel: &'static str,
        /// The case.
        case: String,
        /// What the kernel counted.
        got: String,
        /// What the scalar kernel counted.
        want: String,
    },
    /// A sum left the `u128` range (a damaged input, never a real count).
    #[error("{0} overflows 128 bits")]
    Overflow(&'static str),
    /// The thread pool could not be built.
    #[error("cannot start the thread pool: {0}")]
    ThreadPool(String),
    /// A checkpoint file cannot be used for this run (another run's, or corrupt).
    #[error("checkpoint {path}: {problem}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A shard specification is malformed or out of range.
    #[error("{0}")]
    Shard(String),
    /// A shard report's seal fails, or it has none (see `ShardReport::seal`).
    #[error("{}", if *missing { format!("{name} has no seal (check value): it was written before shard reports were sealed, or edited") } else { format!("{name} fails its seal check: the report was damaged or edited after it was written") })]
    ShardSeal {
        /// Where the report came from.
        name: String,
        /// Whether the seal is missing (rather than wrong).
        missing: bool,
    },
    /// A set of shard outputs cannot be merged.
    #[error("{0}")]
    Merge(String),
    /// Files that an audit cannot check (not checkpoints, damaged, of different runs,
    /// or of another unit list); the message names the file and the problem.
    #[error("{0}")]
    Audit(String),
    /// The run was asked to stop ([`crate::Stop`]) before all its tasks ran; those that
    /// finished are saved in the checkpoint, if it has one.
    #[error("stopped: {saved} of {tasks} tasks saved{}", checkpoint.as_ref().map(|c| format!(" in {c}")).unwrap_or_default())]
    Stopped {
        /// The tasks whose results the checkpoint holds (0 without one).
        saved: usize,
        /// The tasks of the run (its shard's).
        tasks: usize,
        /// The checkpoint file, if any.
        checkpoint: Option<String>,
    },
    /// The program was started by an MPI launcher, with several ranks, but built
    /// without MPI support: each rank would count everything on its own.
    #[error("started by an MPI launcher with several ranks ({variable}={value}), but built without MPI support")]
    MpiUnsupported {
        /// The launcher's variable that told.
        variable: &'static str,
        /// Its value.
        value: String,
    },
    /// A distributed (MPI) run failed.
    #[error("MPI: {0}")]
    Mpi(String),
    /// Reading or writing a file failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// Why an engine cannot count with the options given (said of the engine, which
/// [`Error::EngineUnsuited`] names: "the join engine " + this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Unsuited {
    /// It counts whole boards, not the completions of placed queens.
    #[error("counts whole boards, not the completions of placed queens")]
    Placement,
    /// It uses full symmetry only (the mode asked for is named).
    #[error("uses full symmetry, not {0}")]
    Symmetry(&'static str),
    /// Its work units are fixed: there is no split depth to choose.
    #[error("has no split depth: its work units are fixed")]
    SplitDepth,
    /// The board is smaller than it handles.
    #[error("counts boards from N = {min}, not N = {n}")]
    BoardSize {
        /// The board size.
        n: usize,
        /// The smallest it handles.
        min: usize,
    },
}

/// A byte count in the largest fitting binary unit, e.g. `1.5 GiB`.
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    #[allow(
        clippy::cast_precision_loss,
        reason = "a size for people to read: three digits are plenty"
    )]
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Like [`human_bytes`], rounded up in its last digit: for a need, so that a need just
/// above a budget never reads as equal to it ("needs 14.1 MiB", not "14.0 MiB").
pub(crate) fn human_bytes_up(bytes: u64) -> String {
    let shown = human_bytes(bytes);
    let Some((value, unit)) = shown.split_once(' ') else {
        return shown;
    };
    match (value.parse::<f64>(), unit) {
        (_, "bytes") | (Err(_), _) => shown,
        (Ok(v), _) => {
            let step = 1u64
                << (10
                    * (["KiB", "MiB", "GiB", "TiB", "PiB"]
                        .iter()
                        .position(|u| *u == unit)
                        .map_or(0, |p| p + 1)));
            #[allow(
                clippy::cast_precision_loss,
                reason = "a size for people to read: three digits are plenty"
            )]
            let exact = bytes as f64 / step as f64;
            if exact > v {
                format!("{:.1} {unit}", v + 0.1)
            } else {
                shown
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_people() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(67 << 30), "67.0 GiB");
    }

    #[test]
    fn a_need_is_rounded_up() {
        assert_eq!(human_bytes_up(14 << 20), "14.0 MiB");
        assert_eq!(human_bytes_up((14 << 20) + 1), "14.1 MiB");
        assert_eq!(human_bytes_up(512), "512 bytes");
    }
}
