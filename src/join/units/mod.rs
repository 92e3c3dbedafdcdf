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
pub(crate) mod list;
pub(crate) mod orientation;
mod sides;
mod size;
mod spec;
mod stored;
#[cfg(test)]
mod tests;
mod timing;
mod version;

use std::sync::{Mutex, PoisonError};

use crate::cpu::Level;
use crate::error::Error;
use crate::join::layout::Layout;
pub(crate) use crate::join::memory::Caps;
use crate::join::memory::{self, Fit};
use crate::join::path::Path;
use crate::join::quadrants::QuadrantTable;
use crate::join::weights::Start;
use crate::join::{MAX_N, MIN_N};
use compute::UnitScratch;
pub(crate) use list::max_len;
use list::{UnitKind, UnitList};
pub use orientation::Orientation;
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
    /// Every quadrant placement, when the table fits the memory budget (else cells are
    /// made on demand).
    quadrants: Option<QuadrantTable>,
    /// The most half-boards a piece of each side of a unit holds.
    caps: Caps,
    /// The most placements of a quadrant row set held whole, when cells are made on
    /// demand (`join::cells::RowSetCells`; 0: each cell is walked alone).
    row_set_limit: usize,
    /// The most placements of a cell made on demand held at once
    /// (`join::halves::CELL_LIMIT`; smaller in tests, to stream cells).
    cell_limit: usize,
    /// The processor level of the run.
    level: Level,
    /// The code path of the hot loops: the best at or below `level`.
    path: Path,
    /// How each piece's stored side is chosen.
    orientation: Orientation,
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
    /// The memory budget the plan was made for, in bytes.
    budget: u64,
    /// The buffer sets not in use.
    idle: Mutex<Vec<UnitScratch>>,
}

/// `n` as the join's board size.
///
/// # Panics
/// If `n` is outside `MIN_N..=MAX_N`.
fn board_size(n: usize) -> u32 {
    assert!(
        (MIN_N..=MAX_N).contains(&n),
        "the join counts n = {MIN_N}..={MAX_N}, not {n}"
    );
    u32::try_from(n).expect("n <= 32")
}

impl JoinPlan {
    /// Builds the tables and the unit list of board size `n`, with hot loops at the
    /// processor level `level`, with no memory limit of note (the table when its size
    /// is known, one piece per side per unit as long as the lists are as expected).
    ///
    /// # Panics
    /// If `n` is outside `MIN_N..=MAX_N`.
    pub fn new(n: usize, level: Level) -> JoinPlan {
        JoinPlan::within(n, level, u64::MAX, 1).expect("memory for the join's tables")
    }

    /// Builds the plan of board size `n` at `level` to run on `threads` threads within
    /// `budget` bytes (see `join::memory`); its quadrant table is built on as many.
    ///
    /// # Errors
    /// [`Error::MemoryBudget`] with the least budget that would do, when `budget` is
    /// less; [`Error::OutOfMemory`] when the tables cannot be had;
    /// [`Error::ThreadPool`] when the table's threads cannot start.
    ///
    /// # Panics
    /// If `n` is outside `MIN_N..=MAX_N`.
    pub fn within(n: usize, level: Level, budget: u64, threads: usize) -> Result<JoinPlan, Error> {
        let n = board_size(n);
        let fit = memory::fit(n, memory::units_bound(n), threads, budget).map_err(|least| {
            Error::MemoryBudget {
                engine: "join",
                n: n as usize,
                threads,
                needed: least,
                budget,
            }
        })?;
        JoinPlan::with_fit(n, level, fit, budget, threads)
    }

    /// Builds the plan of board size `n` at `level` as `fit` says, for `budget`, its
    /// quadrant table on `threads` threads.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the tables cannot be had, [`Error::ThreadPool`] when
    /// the table's threads cannot start.
    pub(super) fn with_fit(
        n: u32,
        level: Level,
        fit: Fit,
        budget: u64,
        threads: usize,
    ) -> Result<JoinPlan, Error> {
        let layout = Layout::new(n);
        let quadrants = if fit.table {
            Some(QuadrantTable::try_new(layout.half, threads)?)
        } else {
            None
        };
        let units = UnitList::new(&layout);
        Ok(JoinPlan {
            tables: Tables {
                layout,
                quadrants,
                level,
                path: Path::at(level),
                caps: fit.caps,
                row_set_limit: fit.row_set_limit,
                cell_limit: crate::join::halves::CELL_LIMIT,
                orientation: Orientation::default(),
            },
            units,
            budget,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The number of units of board size `n`, without building a plan.
    ///
    /// # Panics
    /// If `n` is outside `MIN_N..=MAX_N`.
    pub(crate) fn units_of(n: usize) -> usize {
        UnitList::new(&Layout::new(board_size(n))).len()
    }

    /// This plan with its stored sides chosen by `orientation` (the default is
    /// [`Orientation::ByLength`]; the others are for tests and measurements). The
    /// units' weighted counts are the same every way; their work is not.
    #[must_use]
    pub fn with_orientation(mut self, orientation: Orientation) -> JoinPlan {
        self.tables.orientation = orientation;
        self
    }

    /// The peak bytes of this plan run on `threads` threads (an upper bound), within
    /// its budget where it fits, else the least budget that would do.
    pub(crate) fn peak_bytes(&self, threads: usize) -> u64 {
        let n = self.tables.layout.n;
        let units = u64::try_from(self.units.len()).unwrap_or(u64::MAX);
        memory::fit(n, units, threads, self.budget).map_or_else(|least| least, |fit| fit.peak)
    }

    /// Whether the plan holds the quadrant table (else it makes cells on demand).
    #[allow(dead_code, reason = "read by the estimate")]
    pub(crate) fn holds_table(&self) -> bool {
        self.tables.quadrants.is_some()
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

    /// The code path the plan's hot loops run.
    pub(crate) fn path(&self) -> Path {
        self.tables.path
    }

    /// The cost class of unit `index`: the number of north rows of its east row set
    /// (even boards and the centre start, each its own range), or for an arms unit the
    /// number of its middle-column queen rows (`ArmsWest`; `ArmsRow` after them) and
    /// the number of north rows of its west row set.
    /// Units of one class have lists of about one length.
    pub(crate) fn unit_class(&self, index: usize) -> u32 {
        let layout = &self.tables.layout;
        let h = layout.half;
        let north = |rows: u64| (rows & layout.north_rows()).count_ones();
        match self.units.unit(index) {
            UnitKind::Rows {
                start: Start::Center,
                east_rows,
            } => h + 1 + north(east_rows),
            UnitKind::Rows { east_rows, .. } => north(east_rows),
            UnitKind::ArmsWest { west_rows } => {
                let rows = list::arms_west_rows(h, west_rows).count();
                let rows = u32::try_from(rows).expect("fewer than h rows");
                2 * (h + 1) + rows * (h + 1) + north(west_rows)
            }
            UnitKind::ArmsRow { west_rows, .. } => {
                2 * (h + 1) + (h - 1) * (h + 1) + north(west_rows)
            }
        }
    }

    /// The sampling weight of unit `index` (see [`size`]): a relative figure, at
    /// least 1, that an estimate draws its units in proportion to.
    pub(crate) fn unit_weight(&self, index: usize) -> f64 {
        size::sampling_weight(&self.tables, self.units.unit(index))
    }

    /// The time and work of unit `index` on one thread, run whole or in part (see
    /// [`timing`]).
    ///
    /// # Panics
    /// If `index` is not below [`JoinPlan::len`].
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the worker's buffers cannot be had.
    pub(crate) fn time_unit(
        &self,
        index: usize,
    ) -> Result<crate::engine::interface::TimedUnit, Error> {
        let kind = self.units.unit(index);
        let mut scratch = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        let inner =
            usize::try_from(memory::inner_len(self.tables.layout.half)).unwrap_or(usize::MAX);
        let timed = scratch
            .try_reserve(self.tables.caps, inner)
            .map(|()| timing::time(&self.tables, kind, &mut scratch, timing::TARGET));
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(scratch);
        timed
    }

    /// Computes unit `index`. Units are independent: any order, any thread, any
    /// machine gives the same outcome.
    ///
    /// # Panics
    /// If `index` is not below [`JoinPlan::len`], or if memory runs out (see
    /// [`JoinPlan::try_run_unit`]).
    pub fn run_unit(&self, index: usize) -> UnitOutcome {
        self.try_run_unit(index)
            .expect("memory for a unit's buffers")
    }

    /// [`JoinPlan::run_unit`] with the worker's buffers first reserved for the plan's
    /// pieces (its caps, `join::memory`), so that they do not grow while the unit
    /// runs; [`Error::OutOfMemory`] when that room cannot be had.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    ///
    /// # Panics
    /// If `index` is not below [`JoinPlan::len`].
    pub fn try_run_unit(&self, index: usize) -> Result<UnitOutcome, Error> {
        let kind = self.units.unit(index);
        let mut scratch = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        let inner =
            usize::try_from(memory::inner_len(self.tables.layout.half)).unwrap_or(usize::MAX);
        let outcome = scratch
            .try_reserve(self.tables.caps, inner)
            .map(|()| compute::run(&self.tables, kind, &mut scratch));
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(scratch);
        outcome
    }
}
