//! Proof of processor features: zero-sized tokens that only a run-time detection makes.
//!
//! Code compiled for instructions a baseline build lacks (AVX2, AVX-512, BMI, POPCNT)
//! takes one of these tokens as a parameter; holding one is the proof that the
//! processor has the features, so the callers' `unsafe` blocks name the token as their
//! justification and never check again. Both counting engines use them: the
//! backtracking kernels ([`crate::search`]) and the half-board join (`crate::join`).
//!
//! This is the lowest layer: it uses nothing of the crate. On processors other than
//! x86-64 it is empty, and the portable code runs.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
