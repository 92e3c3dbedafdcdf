//! # nqueens
//!
//! An exact, parallel N-Queens solution counter.
//!
//! ```
//! let count = nqueens::count(10, &nqueens::Options::default()).unwrap();
//! assert_eq!(count.total, 724);
//! ```
//!
//! What the crate offers:
//!
//! - **Counts**: [`count()`] and [`count_within()`] (the completions of a
//!   [`Placement`]) with [`Options`] (threads, [`Symmetry`] reduction, task split,
//!   [`Kernel`], [`EngineChoice`], fundamental counts), giving a [`Count`] with its
//!   [`Engine`] and [`Work`].
//! - **Solutions**: [`Solutions`] iterates over the [`Board`]s in lexicographic order;
//!   [`write_solutions`] writes them in a [`Format`] from a parallel search, in the same
//!   order.
//! - **Long runs**: [`run_long`] resumes from and records to a checkpoint file (held
//!   exclusively), runs a [`Shard`] of the tasks, reports each finished task to an
//!   [`Observer`] and stops early when a [`Stop`] is requested; [`merge`] checks and
//!   sums a complete set of sealed [`ShardReport`]s. With the `mpi` feature,
//!   `count_distributed` spreads a count over MPI ranks.
//! - **Checks**: a whole count and a merge compare themselves with the [`published`]
//!   values (their `published` field); [`audit()`] recounts a sample of a checkpoint's
//!   recorded units by an independent method.
//! - **Estimates**: [`estimate()`] predicts a count's size, time and memory (Knuth's
//!   probes for the backtracking engine, a timed sample of units for the join engine);
//!   [`estimate_with`] takes the [`Sampling`] (probes, seed, time spent timing units).
//! - **Files**: [`files`] opens inputs that are regular files only, with bounded
//!   reads, and files to update without following a symbolic link.
//!
//! Every fallible call returns an [`Error`] that carries the rejected value and its
//! accepted range as data.
//!
//! ## Inside
//!
//! A count asks the engine layer (`engine`) for a plan: a deterministic list of
//! independent units from one of two engines, the bitmask backtracking search
//! (`backtrack`: task list, scalar/AVX2/AVX-512 kernels) or the half-board join (`join`).
//! The run layer (`run`) runs the units on a rayon pool through one task loop, with
//! checkpoints, shards and MPI, and sums them exactly in `u128`. The processor level
//! (`cpu`) is detected once per run from the [`Kernel`] choice; each engine runs its best
//! path at or below it. Symmetry reduction (`symmetry`) and fundamental counts by
//! Burnside's lemma sit beside them. Every whole count checks itself against the
//! [`published`] table (which never supplies a count). The layers, lowest first:
//! `build_info`, `files`, `limits`, `published`, `cpu`, `model`, `pool`, `sampling`,
//! `symmetry`; the engines `backtrack` and `join` (siblings); `engine`; `run`; then
//! `entry`, `solutions`, `estimate` and `audit`. Each uses only the layers below it.

#![deny(missing_docs, unreachable_pub)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod audit;
mod backtrack;
mod build_info;
mod cpu;
mod engine;
mod entry;
mod error;
mod estimate;
pub mod files;
mod join;
pub mod limits;
mod model;
#[doc(hidden)]
pub mod naive;
mod names;
mod pool;
pub mod published;
mod run;
mod sampling;
mod seconds;
mod solutions;
mod symmetry;

pub use audit::{
    audit, Audit, AuditOptions, Catch, Mismatch, DEFAULT_SAMPLE, MAX_SAMPLE, WRONG_FRACTIONS,
};
pub use build_info::{COMMIT, VERSION};
pub use cpu::Kernel;
pub use engine::{Engine, EngineChoice, TaskResult, Work};
pub use entry::{check_kernels, count, count_within, run_long, MEASURED_FUNCTION};
pub use error::{Error, Unsuited};
pub use estimate::{estimate, estimate_with, Estimate, EstimateStage, Sampling};
pub use limits::MAX_N;
pub use model::board::{Board, BoardError};
pub use model::format::Format;
pub use model::placement::{Placement, PlacementError};
pub use names::UnknownName;
pub use run::count::options::Options;
pub use run::count::result::Count;
pub use run::count::stop::Stop;
pub use run::long::longrun::{LongRun, LongRunOptions};
pub use run::long::merge::{
    merge, read_shard_report_file, read_shard_reports, MergeOptions, Merged,
};
pub use run::long::resumable::{Observer, Started};
pub use run::long::shard::{Shard, ShardReport};
#[cfg(feature = "mpi")]
pub use run::mpi::distributed::count_distributed;
pub use run::mpi::launch::{launched_by_mpi, refuse_mpi_launch};
#[cfg(feature = "mpi")]
pub use run::mpi::session::finalize_mpi;
pub use solutions::{write_solutions, ListOptions, Listing, Solutions};
pub use symmetry::Symmetry;

/// Internals for this crate's own tests and benchmarks (not part of the API: they may
/// change at any time).
#[doc(hidden)]
pub mod internals {
    pub use crate::backtrack::kernel_check::check as check_backtrack_kernel;
    pub use crate::backtrack::plan::TaskList;
    pub use crate::backtrack::search::resolved::Resolved;
    pub use crate::backtrack::search::scalar::{count as scalar_count, Frontier, Tally};
    pub use crate::cpu::Level;
    pub use crate::join::kernel_check::check as check_join_kernel;
    pub use crate::join::pairs::{
        count as count_disjoint_pairs,
        count_by_stored_class as count_disjoint_pairs_by_stored_class,
        plain_count as plain_count_disjoint_pairs, tagged, PairCounts, PairScratch, CLASS_COUNT,
        MAX_COUNT_LEN,
    };
    pub use crate::join::{JoinPlan, Orientation, UnitOutcome};
    pub use crate::join::{MAX_N as JOIN_MAX_N, MIN_N as JOIN_MIN_N};

    /// The kernel the join's hot loops run at `level` (its best path at or below it).
    pub fn join_kernel(level: Level) -> crate::Kernel {
        crate::join::path::Path::at(level).kernel()
    }
    pub use crate::model::constraints::Constraints;
    pub use crate::seconds::{round_to_nanos, serialize as serialize_seconds};
    pub use crate::symmetry::rotation::{fixed_by, Rotation};
}
