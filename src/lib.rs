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
//!   [`Kernel`], fundamental counts), giving a [`Count`].
//! - **Solutions**: [`Solutions`] iterates over the [`Board`]s in lexicographic order;
//!   [`write_solutions`] writes them in a [`Format`] from a parallel search, in the same
//!   order.
//! - **Long runs**: [`run_long`] resumes from and records to a checkpoint file (held
//!   exclusively), runs a [`Shard`] of the tasks, reports each finished task to an
//!   [`Observer`] and stops early when a [`Stop`] is requested; [`merge`] checks and
//!   sums a complete set of sealed [`ShardReport`]s. With the `mpi` feature,
//!   `count_distributed` spreads a count over MPI ranks.
//! - **Estimates**: [`estimate()`] predicts a count's size and time (Knuth's probes).
//!
//! Every fallible call returns an [`Error`] that carries the rejected value and its
//! accepted range as data.
//!
//! ## Inside
//!
//! The search is split on its first rows into independent weighted tasks (`plan`), run
//! by a rayon pool (`run`), each finished by a bitmask kernel (`search`: scalar, or AVX2
//! and AVX-512 chosen at run time); the per-task counts are reduced to an exact `u128`
//! total. Symmetry reduction (`symmetry`) searches only part of the tree and weights
//! what it finds; fundamental counts follow by Burnside's lemma. The layers, lowest
//! first: `model` (boards, placements, formats), `symmetry`, `search`, `plan`, `run`,
//! then `solutions` and `estimate`; each uses only the layers below it.

#![deny(missing_docs, unreachable_pub)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod cpu;
mod error;
mod estimate;
mod join;
pub mod limits;
mod model;
#[doc(hidden)]
pub mod naive;
mod names;
mod plan;
mod run;
mod search;
mod seconds;
mod solutions;
mod symmetry;

/// The published table, shared with the binary's `verify` (tests only).
#[cfg(test)]
#[allow(unreachable_pub, dead_code)]
#[path = "cli/report/published.rs"]
mod published;

pub use error::{Error, Unsuited};
pub use estimate::{estimate, Estimate};
pub use limits::MAX_N;
pub use model::board::{Board, BoardError};
pub use model::format::Format;
pub use model::placement::{Placement, PlacementError};
pub use names::UnknownName;
pub use run::count::{count, count_within, Count, Options};
#[cfg(feature = "mpi")]
pub use run::distributed::count_distributed;
pub use run::engine::Engine;
pub use run::launch::{launched_by_mpi, refuse_mpi_launch};
pub use run::longrun::{run as run_long, LongRun, LongRunOptions};
pub use run::merge::{merge, read_shard_reports, MergeOptions, Merged};
pub use run::resumable::{Observer, Started};
pub use run::shard::{Shard, ShardReport};
pub use run::stop::Stop;
pub use run::tasks::TaskResult;
pub use search::kernel::Kernel;
pub use solutions::{write_solutions, ListOptions, Listing, Solutions};
pub use symmetry::Symmetry;

/// The version of this crate, as reported in JSON output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this crate was built from (`-dirty` with uncommitted changes), when
/// the build knew it (see `build.rs`).
pub const COMMIT: Option<&str> = option_env!("NQUEENS_GIT_COMMIT");

/// Internals for this crate's own tests and benchmarks (not part of the API: they may
/// change at any time).
#[doc(hidden)]
pub mod internals {
    #[cfg(target_arch = "x86_64")]
    pub use crate::cpu::x86_64::Avx2;
    pub use crate::join::pairs::{
        count as count_disjoint_pairs, plain_count as plain_count_disjoint_pairs, tagged,
        PairCounts, PairScratch, CLASS_COUNT, MAX_COUNT_LEN,
    };
    pub use crate::join::{memory::peak_bytes as join_peak_bytes, JoinPlan, UnitOutcome, Vectors};
    pub use crate::join::{MAX_N as JOIN_MAX_N, MIN_N as JOIN_MIN_N};
    pub use crate::model::constraints::Constraints;
    pub use crate::plan::{max_split_depth, min_split_depth, TaskList};
    pub use crate::search::kernel::Resolved;
    pub use crate::search::scalar::{count as scalar_count, Frontier, Tally};
    pub use crate::seconds::{round_to_nanos, serialize as serialize_seconds};
    pub use crate::symmetry::rotation::{fixed_by, Rotation};
}
