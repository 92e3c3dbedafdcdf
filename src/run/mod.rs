//! Running a count: the engine's work, the pool, the one task loop, and what long runs
//! add to it.
//!
//! - [`engine`] and [`work`]: the counting engines (backtracking, half-board join), the
//!   choice between them, and the units each one's work is split into; [`memory`]:
//!   the memory a run needs, checked before it starts against what the machine, or the
//!   job's control group ([`cgroup`]), has available;
//! - [`tasks`]: the one task loop (with a [`stop`]) and its checked sums;
//! - [`count`]: [`Options`](count::Options), [`Count`](count::Count) and the plain
//!   count;
//! - [`longrun`]: counts limited to a shard, resumed from a checkpoint, watched unit
//!   by unit; [`resumable`]: what a long run adds to the task loop whatever its units
//!   are (checkpoint, observer, stop);
//! - [`checkpoint`] (held by [`lock`]), [`shard`], [`merge`], [`identity`]: the files
//!   and reports of long runs and the run identity they share;
//! - `distributed` (feature `mpi`): the same units spread over MPI ranks ([`limbs`]:
//!   their exact sum); [`launch`] tells an MPI launch apart in every build.
//!
//! This layer uses the engines below it (the task plan [`crate::plan`] with the
//! kernels of [`crate::search`], and [`crate::join`]), the symmetry layer (fundamental
//! counts) and the board model.

pub(crate) mod cgroup;
pub(crate) mod checkpoint;
pub(crate) mod count;
#[cfg(feature = "mpi")]
pub(crate) mod distributed;
pub(crate) mod engine;
pub(crate) mod identity;
pub(crate) mod launch;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod limbs;
pub(crate) mod lock;
pub(crate) mod longrun;
pub(crate) mod memory;
pub(crate) mod merge;
pub(crate) mod resumable;
pub(crate) mod shard;
pub(crate) mod stop;
pub(crate) mod tasks;
pub(crate) mod work;
