//! The processor: what the user asks of it ([`Kernel`]: auto, scalar, avx2, avx512) and
//! what it is proven to run ([`Level`]), made once per run.
//!
//! - [`x86_64`]: zero-sized proof tokens (`BitOps`, `Avx2`, `Avx512`) that only a
//!   run-time detection makes. Code compiled for instructions a baseline build lacks
//!   takes one of them as a parameter; holding one is the proof that the processor has
//!   the features, so the callers' `unsafe` blocks name the token as their
//!   justification and never check again.
//! - [`level`]: the [`Level`] of a run, the highest of portable < bit operations < AVX2
//!   < AVX-512 that the user's kernel choice allows and the processor runs, holding the
//!   token of that level (each level's token proves the levels below it).
//! - [`kernel`]: the user's [`Kernel`] choice, and [`Kernel::level`], the one
//!   detection of a run.
//!
//! Both counting engines take the level and run their best path at or below it.
//!
//! This is the lowest layer: it uses only `names` (choice names) and `error`. On
//! processors other than x86-64 the tokens do not exist and every level is portable.

pub(crate) mod kernel;
pub(crate) mod level;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

pub use kernel::Kernel;
pub use level::Level;
