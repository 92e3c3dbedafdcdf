//! Facts about the machine a count runs on: the memory available to it
//! ([`memory`]: free memory, bounded by the job's control group, [`cgroup`], and by
//! the process's address-space and data limits, [`rlimit`], and shared by the ranks of
//! an MPI job on the node, [`ranks`]).
//!
//! This folder uses only `error`.

pub(crate) mod cgroup;
pub(crate) mod memory;
pub(crate) mod ranks;
pub(crate) mod rlimit;
