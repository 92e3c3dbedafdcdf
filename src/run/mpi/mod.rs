//! Counts spread over MPI ranks: `distributed` (cargo feature `mpi`) runs the same
//! plan's units on every rank, [`limbs`] their exact sum, [`received`] rank 0's check
//! of each unit reported (in range, not received before), [`requests`] the words of a
//! rank's request; [`launch`] tells an MPI launch
//! apart in every build (to refuse one in a build without MPI).
//!
//! This folder uses the count core ([`crate::run::count`]) and the long-run files
//! ([`crate::run::long`]: checkpoint, identity, resumable pass).

#[cfg(feature = "mpi")]
pub(crate) mod distributed;
pub(crate) mod launch;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod limbs;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod received;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) mod requests;
#[cfg(feature = "mpi")]
pub(crate) mod session;
