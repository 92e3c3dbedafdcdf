//! Running a count: the pool, the one task loop, and what long runs add to it.
//!
//! - [`count`]: [`Options`](count::Options), [`Count`](count::Count) and the plain
//!   count;
//! - [`longrun`]: counts limited to a shard, resumed from a checkpoint, watched task
//!   by task;
//! - [`checkpoint`], [`shard`], [`identity`]: the files and reports of long runs and
//!   the run identity they share;
//! - `distributed` (feature `mpi`): the same tasks spread over MPI ranks.
//!
//! This layer uses the task plan ([`crate::plan`]), the kernels ([`crate::search`]),
//! the symmetry layer (fundamental counts) and the board model.

pub(crate) mod checkpoint;
pub(crate) mod count;
#[cfg(feature = "mpi")]
pub(crate) mod distributed;
pub(crate) mod identity;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod limbs;
pub(crate) mod longrun;
pub(crate) mod shard;
pub(crate) mod tasks;
