//! A unit described in the board's own terms, for an independent recount (`audit`):
//! which solutions it counts (per-row column masks) and how it weighs each, with no
//! word of how its engine counts them.
//!
//! Each engine describes its units ([`Units`]); `audit` recounts a description with a
//! search of its own and compares the result with what a checkpoint recorded. This
//! file uses only the board model.

use crate::model::constraints::Constraints;

/// How a unit weighs each solution its constraints allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weighing {
    /// Every solution counts this much.
    Each(u64),
    /// This much times the size of the solution's class under the 8 symmetries of the
    /// square when the solution is the lexicographically smallest member of its class
    /// (as the sequence of its rows' columns), and 0 otherwise.
    ByClass(u64),
    /// By how many queens stand on the two long diagonals (row = column, and row +
    /// column = n - 1): `[on neither, on one, on both]`.
    ByLongDiagonals([u64; 3]),
}

/// A part of a unit: the solutions that `constraints` allow, weighed by `weighing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    /// The columns each row may take.
    pub(crate) constraints: Constraints,
    /// The weight of each solution.
    pub(crate) weighing: Weighing,
}

/// What one unit counts: the weighed solutions of its terms, added up (its recorded
/// `weighted`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnitSpec {
    /// Its terms.
    pub(crate) terms: Vec<Term>,
    /// When the unit's work is the queens its search placed (the backtracking
    /// engine's nodes): the rows above its start, each limited to the one column of
    /// its queen, whose placements its work does not count. `None` when its work is
    /// another measure (the join engine's pairs), which no other method reproduces.
    pub(crate) rows_above: Option<usize>,
    /// The unit in words, for messages.
    pub(crate) description: String,
}

/// The units of one run, described without the tables that count them (cheap to
/// build at any board size the engine counts).
pub(crate) trait Units: Sync + Send {
    /// The number of units (equal to the plan's).
    fn len(&self) -> usize;

    /// Unit `index` described.
    ///
    /// # Panics
    /// If `index` is not below [`Units::len`].
    fn spec(&self, index: usize) -> UnitSpec;
}

/// The rows of `mask` as a list for people: `{0, 3, 5}`.
pub(crate) fn rows_in_words(mask: u64) -> String {
    let rows: Vec<String> = (0..64)
        .filter(|r| mask >> r & 1 == 1)
        .map(|r: u32| r.to_string())
        .collect();
    format!("{{{}}}", rows.join(", "))
}
