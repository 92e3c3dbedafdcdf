//! Running a count: the pool, the one task loop, and what long runs add to it.
//!
//! - [`count`]: [`Options`](count::Options), [`Count`](count::Count) and the plain
//!   count;
//! - [`longrun`]: counts limited to a shard, resumed from a checkpoint, watched task
//!   by task;
//! - [`resumable`]: what a long run adds to the task loop whatever its tasks are
//!   (checkpoint, observer, [`stop`]);
//! - [`checkpoint`] (held by [`lock`]), [`shard`], [`merge`], [`identity`]: the files
//!   and reports of long runs and the run identity they share;
//! - `distributed` (feature `mpi`): the same tasks spread over MPI ranks; [`launch`]
//!   tells an MPI launch apart in every build.
//!
//! This layer uses the task plan ([`crate::plan`]), the kernels ([`crate::search`]),
//! the symmetry layer (fundamental counts) and the board model.

pub(crate) mod checkpoint;
pub(crate) mod count;
#[cfg(feature = "mpi")]
pub(crate) mod distributed;
pub(crate) mod identity;
pub(crate) mod launch;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod limbs;
pub(crate) mod lock;
pub(crate) mod longrun;
pub(crate) mod merge;
pub(crate) mod resumable;
pub(crate) mod shard;
pub(crate) mod stop;
pub(crate) mod tasks;
