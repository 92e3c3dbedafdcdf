//! Long runs: counts limited to a shard, resumed from and recorded to a checkpoint,
//! watched unit by unit, and stopped gracefully.
//!
//! - [`longrun`]: the run itself (every count of this process goes through it);
//! - [`resumable`]: what a long run adds to the task loop whatever its units are
//!   (checkpoint, observer, stop);
//! - [`checkpoint`] (held by [`lock`]), [`shard`], [`merge`], [`identity`]: the files
//!   and reports of long runs and the run identity they share; [`plausible`]: what
//!   units can possibly report, bounding both a shard total and a checkpoint record;
//! - [`resumed`]: what a resumed checkpoint holds (a bitset of the finished units and
//!   their sums).
//!
//! This folder uses the count core ([`crate::run::count`]), the engine layer (the
//! identity fields and work unit of each engine) and [`crate::files`] (opening files
//! safely, reading them with a bound).

pub(crate) mod checkpoint;
pub(crate) mod identity;
pub(crate) mod lock;
pub(crate) mod longrun;
pub(crate) mod merge;
pub(crate) mod plausible;
pub(crate) mod resumable;
pub(crate) mod resumed;
pub(crate) mod shard;
