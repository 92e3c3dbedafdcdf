//! What counting makes of the symmetries of the square.
//!
//! - [`mode`]: the [`Symmetry`] reduction a count uses (none, mirror, full);
//! - [`rotation`]: the solutions fixed by the half and quarter turns, and the
//!   fundamental count by Burnside's lemma.
//!
//! This layer uses the board model ([`crate::model`]: constraints and the 8 symmetries
//! of [`crate::model::d4`]).

pub(crate) mod mode;
pub(crate) mod rotation;

pub use mode::Symmetry;
