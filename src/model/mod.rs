//! The board model: boards, pre-placed queens, the symmetries of the square, and the
//! text of a solution.
//!
//! - [`constraints`]: the per-row column masks every search runs under;
//! - [`placement`]: pre-placed queens (`R:C,...`), validated, as constraints;
//! - [`d4`]: the 8 symmetries of the square acting on squares and boards;
//! - [`board`]: one solution, its images and its renderings;
//! - [`format`]: the output formats of `solve` and their fast writers.
//!
//! This is the lowest layer: it uses nothing of the crate but the limits and the naming
//! macro, and every other layer may use it.

pub(crate) mod board;
pub(crate) mod constraints;
pub(crate) mod d4;
pub(crate) mod format;
pub(crate) mod placement;
