//! Facts about the machine a count runs on: the memory available to it
//! ([`memory`]: free memory, bounded by the job's control group, [`cgroup`]).
//!
//! This folder uses only `error`.

pub(crate) mod cgroup;
pub(crate) mod memory;
