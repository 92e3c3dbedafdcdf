//! # nqueens
//!
//! An exact, parallel N-Queens solution counter.
//!
//! The search is split on its first rows into independent weighted tasks
//! ([`tasks`]), run by a rayon pool, each finished by the non-backtracking bitmask
//! kernel ([`kernel`]); the per-task counts are reduced to an exact `u128` total
//! ([`count()`]). Symmetry reduction ([`Symmetry`]) searches only part of the tree and
//! weights what it finds: mirror halving, or the full 8-fold symmetry of the square
//! ([`canonical`]); fundamental counts follow by Burnside's lemma ([`rotation`]).
//!
//! Beyond counting: the solutions themselves in lexicographic order ([`solutions`],
//! [`board`], [`format`](mod@format)), completions of pre-placed queens ([`placement`],
//! [`count::count_within`]), long runs with checkpoints and shards ([`longrun`],
//! [`checkpoint`], [`shard`]), run-time estimates ([`estimate`]), and, with the `mpi`
//! feature, counts spread over MPI ranks.
//!
//! ```
//! let count = nqueens::count(10, &nqueens::Options::default()).unwrap();
//! assert_eq!(count.total, 724);
//! ```

#![warn(missing_docs)]

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod bench;
pub mod board;
pub mod canonical;
pub mod checkpoint;
pub mod constraints;
pub mod count;
pub mod d4;
pub mod dispatch;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod error;
pub mod estimate;
pub mod format;
pub mod kernel;
mod lane_machine;
pub mod longrun;
pub mod machine;
pub mod naive;
mod names;
pub mod placement;
pub mod published;
pub mod rotation;
mod row_buffers;
pub mod run_id;
pub mod shard;
pub mod solutions;
pub mod symmetry;
pub mod tasks;
pub mod verify;

pub use count::{count, Count, Options};
pub use dispatch::Kernel;
pub use error::Error;
pub use symmetry::Symmetry;

/// The version of this crate, as reported in JSON output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
