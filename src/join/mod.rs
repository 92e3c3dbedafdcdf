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
//! - [`JoinPlan::new`]: the shared tables and the unit list of one board size, with
//!   the processor level (`crate::cpu::Level`) its hot loops run at, which picks
//!   their [`path`]: portable, AVX2, or AVX-512 (with BW and VPOPCNTDQ);
//!   [`JoinPlan::run_unit`] computes one unit, from any thread;
//! - [`memory::fit`]: how a plan fits a memory budget, and its predicted peak, before
//!   anything is allocated;
//! - [`MIN_N`], [`MAX_N`]: the board sizes the join counts;
//! - [`kernel_check`]: its AVX2 or AVX-512 path against the portable one on a fixed
//!   set of cases, before a long count;
//! - [`engine`]: the engine interface (`crate::engine::interface`) over all of it.
//!
//! Modules: [`alloc`] (fallible large allocations), [`bits`] (subset ranks, bit
//! extract), [`cells`] (quadrant cells made on demand), [`layout`] (the board split and
//! the join pattern), [`path`], [`quadrants`], [`halves`], [`pairs`], [`weights`],
//! [`units`], [`memory`], [`engine`].
//!
//! This layer may use the board model, `limits`, `error`, the processor level and
//! tokens ([`crate::cpu`]) and the engine interface; nothing of the backtracking
//! engine, `run`, `solutions` or the layers above (its own symmetry weights differ
//! from `symmetry`'s; it names the symmetry mode only to report it).

pub(crate) mod alloc;
pub(crate) mod bits;
pub(crate) mod cells;
pub(crate) mod engine;
pub(crate) mod halves;
pub(crate) mod kernel_check;
pub(crate) mod layout;
pub(crate) mod memory;
pub(crate) mod pairs;
pub(crate) mod path;
pub(crate) mod quadrants;
pub(crate) mod units;
pub(crate) mod weights;

pub use units::{JoinPlan, Orientation, UnitOutcome};

/// The smallest board size the join counts (smaller boards are left to backtracking).
pub const MIN_N: usize = 4;

/// The largest board size the join counts: the crate's largest, where a join pattern
/// (the diagonals both halves reach, `2(n - 1)` bits) takes the 62 bits it may.
pub const MAX_N: usize = crate::limits::MAX_N;

const _: () = assert!(2 * (MAX_N - 1) <= 62, "a join pattern must fit in 62 bits");
