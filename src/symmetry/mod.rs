//! What counting makes of the symmetries of the square.
//!
//! - [`mode`]: the [`Symmetry`] reduction a count uses (none, mirror, full);
//! - [`canonical`]: the seeds of the full 8-fold reduction and the weight of a
//!   solution's class;
//! - [`rotation`]: the solutions fixed by the half and quarter turns, and the
//!   fundamental count by Burnside's lemma.
//!
//! This layer uses the board model ([`crate::model`]: constraints and the 8 symmetries
//! of [`crate::model::d4`]).

pub(crate) mod canonical;
pub(crate) mod mode;
pub(crate) mod rotation;

pub use mode::Symmetry;
