//! The errors of the library.

use thiserror::Error;

/// Why a count (or another library call) could not run.
#[derive(Debug, Error)]
pub enum Error {
    /// The board size is outside `0..=32`.
    #[error("board size {n} is out of range: N must be from 0 to 32")]
    BoardSize {
        /// The rejected size.
        n: usize,
    },
    /// The split depth is outside `1..=n`.
    #[error("split depth {depth} is out of range: for N = {n} it must be from {} to {n}", crate::tasks::min_split_depth(*n))]
    SplitDepth {
        /// The board size.
        n: usize,
        /// The rejected depth.
        depth: i64,
    },
    /// The thread count is 0.
    #[error(
        "thread count {threads} is out of range: it must be from 1 to {}",
        crate::count::MAX_THREADS
    )]
    Threads {
        /// The rejected count.
        threads: usize,
    },
    /// The requested kernel cannot run on this processor.
    #[error("the {kernel} kernel needs {needs}, which this processor lacks: use --kernel auto or scalar")]
    KernelUnsupported {
        /// The kernel's name.
        kernel: &'static str,
        /// The processor features it needs.
        needs: &'static str,
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
    /// Pre-placed queens that are not a valid placement.
    #[error(transparent)]
    Placement(#[from] crate::placement::PlacementError),
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
    /// A set of shard outputs cannot be merged.
    #[error("{0}")]
    Merge(String),
    /// An estimate option is out of range.
    #[error("{0}")]
    Estimate(String),
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

impl Error {
    /// Whether the error is the caller's input (exit status 2 on the command line)
    /// rather than a failure while running (exit status 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::BoardSize { .. }
                | Error::SplitDepth { .. }
                | Error::Threads { .. }
                | Error::KernelUnsupported { .. }
                | Error::TooManyTasks { .. }
                | Error::Placement(_)
                | Error::Checkpoint { .. }
                | Error::Shard(_)
                | Error::Estimate(_)
        )
    }
}
