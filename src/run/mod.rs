//! Running a count: the plan's units on a pool through the one task loop, and what long
//! runs and MPI add to it. Four folders, one concern each, lowest first:
//!
//! - [`host`]: facts about the machine (the memory available, the job's control
//!   group);
//! - [`count`]: options, set-up (processor level, engine, plan, pool), the task loop,
//!   the stop, and the [`Count`](count::result::Count), assembled in one place;
//! - [`long`]: checkpoints, shards, merge, the run identity, the resumable pass, and
//!   the long run that every count goes through;
//! - [`mpi`]: the same units spread over MPI ranks.
//!
//! This layer uses the engine layer ([`crate::engine`]: it never names an engine), the
//! symmetry layer (fundamental counts) and the board model.

pub(crate) mod count;
pub(crate) mod host;
pub(crate) mod long;
pub(crate) mod mpi;
