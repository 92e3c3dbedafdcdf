//! The join's work: [`JoinPlan`] holds the shared read-only tables and the fixed list
//! of independent units ([`list`]), and computes any unit on any thread
//! ([`compute`]); [`spec`] describes the units for an independent recount, `version`
//! names the list ([`UNITS_VERSION`]) and pins it by a digest.
//!
//! **Weighted count.** A unit's `weighted` is the sum, over its joined pairs (west
//! half-board, east half-board), of the west half-board's weight (see
//! `join::weights`). The sum over all units is the number of solutions of the board.
//!
//! **Work measure.** `pairs` counts the (west half-board, east pattern slot) pairs the
//! pair counter evaluated (see `join::pairs`).

mod compute;
mod list;
mod spec;
#[cfg(test)]
mod tests;
mod version;

use std::sync::{Mutex, PoisonError};

use crate::cpu::Level;
use crate::error::Error;
use crate::join::layout::Layout;
use crate::join::quadrants::QuadrantTable;
use crate::join::{MAX_N, MIN_N};
use compute::UnitScratch;
use list::UnitList;
pub(crate) use list::{list_bytes, max_len};
pub(crate) use spec::JoinUnits;
pub(crate) use version::UNITS_VERSION;

/// What one unit found, and its work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitOutcome {
    /// The unit's weighted number of solutions (see the module docs).
    pub weighted: u128,
    /// The pair evaluations of the pair counter. A unit evaluates at most
    /// `h * h! * (h! + 511)` pairs (`h = n / 2`; a half-board list holds at most `h!`),
    /// which fits in `u64` up to n = 25 only, hence `u128`; in practice a unit of n = 17
    /// evaluates about `10^6`, growing some 30-fold every two board sizes.
    pub pairs: u128,
}

/// The read-only data every unit of one board size needs.
pub(crate) struct Tables {
    /// The board geometry.
    layout: Layout,
    /// Every quadrant placement.
    quadrants: QuadrantTable,
    /// The processor level of the hot loops (each runs its best path at or below it).
    level: Level,
}

/// The join of one board size: its tables and its units.
///
/// [`JoinPlan::run_unit`] takes `&self` and may run on many threads at once: each call
/// borrows a set of buffers from the plan's pool (taking a new one when all are in
/// use) and returns it when done, so a plan holds one set per concurrent call, freed
/// with the plan.
pub struct JoinPlan {
    /// The shared tables.
    tables: Tables,
    /// The units.
    units: UnitList,
    /// The buffer sets not in use.
    idle: Mutex<Vec<UnitScratch>>,
}

impl JoinPlan {
    /// Builds the tables and the unit list of board size `n` for the vector code
    /// the processor level `level`. Check the memory first (`join::memory::peak_bytes`): the tables grow
    /// about elevenfold every two board sizes.
    ///
    /// # Panics
    /// If `n` is outside `MIN_N..=MAX_N`.
    pub fn new(n: usize, level: Level) -> JoinPlan {
        JoinPlan::try_new(n, level).expect("memory for the join's tables")
    }

    /// [`JoinPlan::new`], or [`Error::OutOfMemory`] when the tables cannot be had.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    ///
    /// # Panics
    /// If `n` is outside `MIN_N..=MAX_N`.
    pub fn try_new(n: usize, level: Level) -> Result<JoinPlan, Error> {
        assert!(
            (MIN_N..=MAX_N).contains(&n),
            "the join counts n = {MIN_N}..={MAX_N}, not {n}"
        );
        let n = u32::try_from(n).expect("n <= 32");
        let layout = Layout::new(n);
        let quadrants = QuadrantTable::try_new(layout.half)?;
        let units = UnitList::new(&layout);
        Ok(JoinPlan {
            tables: Tables {
                layout,
                quadrants,
                level,
            },
            units,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.tables.layout.n as usize
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether the plan has no unit (never: every board size has at least one).
    pub fn is_empty(&self) -> bool {
        self.units.len() == 0
    }

    /// The processor level the plan runs at.
    pub fn level(&self) -> Level {
        self.tables.level
    }

    /// Computes unit `index`. Units are independent: any order, any thread, any
    /// machine gives the same outcome.
    ///
    /// # Panics
    /// If `index` is not below [`JoinPlan::len`], or if memory runs out (see
    /// [`JoinPlan::try_run_unit`]).
    pub fn run_unit(&self, index: usize) -> UnitOutcome {
        self.try_run_unit(index, 0)
            .expect("memory for a unit's buffers")
    }

    /// [`JoinPlan::run_unit`] with the worker's buffers first reserved for half-board
    /// lists of `longest` patterns (the memory model's bound, `join::memory`), so
    /// that they do not grow while the unit runs; [`Error::OutOfMemory`] when that
    /// room cannot be had.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    ///
    /// # Panics
    /// If `index` is not below [`JoinPlan::len`].
    pub fn try_run_unit(&self, index: usize, longest: usize) -> Result<UnitOutcome, Error> {
        let kind = self.units.unit(index);
        let mut scratch = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        let outcome = scratch
            .try_reserve(longest)
            .map(|()| compute::run(&self.tables, kind, &mut scratch));
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(scratch);
        outcome
    }
}
