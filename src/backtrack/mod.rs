//! The backtracking engine: the bitmask search over a deterministic task list. It
//! serves every option: the three symmetry modes, pre-placed queens, any split depth;
//! its work is nodes (queens placed).
//!
//! - [`plan`]: the task list (seeds of each symmetry mode, expanded row by row);
//! - [`canonical`]: the seeds of the full 8-fold reduction and the weight of a
//!   solution's class;
//! - [`search`]: the kernels that finish a task (scalar; AVX2 and AVX-512 on x86-64),
//!   the best one at or below the run's level ([`search::resolved::Resolved`]);
//! - [`task`]: one task run by its kernel;
//! - [`probes`]: Knuth's random probes, its own estimate of a count's nodes;
//! - [`kernel_check`]: its vector kernel against the scalar one on a fixed set of
//!   starts, before a long count;
//! - [`spec`]: its tasks described for an independent recount (`audit`);
//! - [`engine`]: the engine interface ([`crate::engine::interface`]) over all of them.
//!
//! This layer uses the board model, the symmetry modes, the processor tokens
//! ([`crate::cpu`]), `sampling` and the engine interface; nothing of the join engine
//! or of the layers above.

pub(crate) mod canonical;
pub(crate) mod engine;
pub(crate) mod kernel_check;
pub(crate) mod plan;
pub(crate) mod probes;
pub(crate) mod search;
pub(crate) mod spec;
pub(crate) mod task;
