//! The plan of a count: the deterministic list of independent weighted tasks it is
//! split into.
//!
//! - [`seeds`]: where each symmetry mode starts, and which mode stays exact for a
//!   placement;
//! - [`task`]: one [`Task`](task::Task);
//! - [`tasks`]: the seeds expanded row by row into the [`TaskList`](tasks::TaskList);
//! - `version`: the version of the list ([`UNITS_VERSION`]), pinned by a digest.
//!
//! This layer uses the board model, the symmetry layer (the canonical seeds) and the
//! scalar kernel's [`Frontier`](crate::backtrack::search::scalar::Frontier).

pub(crate) mod seeds;
pub(crate) mod task;
pub(crate) mod tasks;
mod version;

pub use tasks::TaskList;
pub(crate) use version::UNITS_VERSION;
