//! The half-board join: the second counting engine, for the whole board under full
//! symmetry (meet in the middle).
//!
//! A solution of the `n x n` board is split by the set `E` of rows whose queen stands
//! in the east half of the columns. For a fixed `E`, the east queens and the west
//! queens form two independent half-boards, each built from two quadrant placements
//! ([`quadrants`], [`halves`]); a west and an east half-board make a solution exactly
//! when they share no diagonal. Counting those pairs ([`pairs`]) over every `E` gives
//! the total; the symmetries of the square ([`weights`]) cut the work by close to 8.
//!
//! The work is a fixed list of independent units ([`units`]), so a run layer can run
//! them on a thread pool, checkpoint them by index, shard them or spread them over MPI
//! ranks:
//!
//! - [`Vectors`]: the vector code of the hot loops (portable, or AVX2 with its token);
//! - [`JoinPlan::new`]: the shared tables and the unit list of one board size;
//!   [`JoinPlan::run_unit`] computes one unit, from any thread;
//! - [`memory::peak_bytes`]: the predicted peak memory, before anything is allocated;
//! - [`MIN_N`], [`MAX_N`]: the board sizes the join counts.
//!
//! Modules: [`bits`] (subset ranks, bit extract), [`layout`] (the board split and the
//! join pattern), [`quadrants`], [`halves`], [`pairs`], [`weights`], [`units`],
//! [`memory`], [`vectors`].
//!
//! This layer may use the board model, `limits`, `error` and the processor-feature
//! tokens ([`crate::cpu`]); it uses the tokens and `limits`, and nothing of `plan`,
//! `run`, `search`, `solutions` or `symmetry` (its own symmetry weights differ).

pub(crate) mod bits;
pub(crate) mod halves;
pub(crate) mod layout;
pub(crate) mod memory;
pub(crate) mod pairs;
pub(crate) mod quadrants;
pub(crate) mod units;
pub(crate) mod vectors;
pub(crate) mod weights;

pub use units::{JoinPlan, UnitOutcome};
pub use vectors::Vectors;

/// The smallest board size the join counts (smaller boards are left to backtracking).
pub const MIN_N: usize = 4;

/// The largest board size the join counts: the crate's largest, where a join pattern
/// (the diagonals both halves reach, `2(n - 1)` bits) takes the 62 bits it may.
pub const MAX_N: usize = crate::limits::MAX_N;

const _: () = assert!(2 * (MAX_N - 1) <= 62, "a join pattern must fit in 62 bits");
