//! The search kernels: given row constraints and a partial board, count (or weigh, or
//! visit) its completions.
//!
//! - [`scalar`]: the non-backtracking bitmask search, one node at a time, on any
//!   processor; [`Frontier`](scalar::Frontier) and [`Tally`](scalar::Tally);
//! - [`resolved`]: the kernel that runs at the run's processor level, proven by its
//!   token;
//! - `lanes`: the lane machine the vector kernels share, generic over their operations;
//! - `arch::x86_64`: the AVX2 and AVX-512 kernels.
//!
//! `lanes` and `arch` are compiled on x86-64 only; elsewhere the crate builds with the
//! scalar kernel alone.
//!
//! This layer uses the board model ([`crate::model`]), the processor level and tokens
//! ([`crate::cpu`]) and the class weights of [`crate::backtrack::canonical`].

#[cfg(target_arch = "x86_64")]
pub(crate) mod arch;
#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
pub(crate) mod resolved;
pub(crate) mod scalar;
