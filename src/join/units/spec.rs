//! The join's units described for an independent recount ([`crate::engine::spec`]):
//! which solutions a unit counts, as per-row column masks, and the weights its
//! definition gives them (`join::weights`), with nothing of how the join counts them.
//!
//! - Even `n` ([`Start::Empty`]): the rows of `E` hold their queen in the east half,
//!   off both long diagonals; the others in the west half. A solution weighs `ns(E)`
//!   times 2 to the number of its queens on the long diagonals, or `ns(E) * ew(E)` if
//!   it has none there.
//! - Odd `n`, the centre start: the queen at `(h, h)`, the rows of `E` east, the others
//!   west, weight `ns(E) * ew(E)`.
//! - Odd `n`, an `ArmsRow` unit: the middle-column queen at `(row, h)`, the rows of
//!   `W` west, the others east, and one term per column `h < col < row` of the
//!   middle-row queen, weight 8.
//! - Odd `n`, an `ArmsWest` unit: the rows of `W` west; one term per middle-column
//!   queen row `h + 2 <= row < 2h` outside `W` and column `h < col < row` of the
//!   middle-row queen, with the other rows east, weight 8.

use super::list::{arms_west_rows, UnitKind, UnitList};
use crate::engine::spec::{rows_in_words, Term, UnitSpec, Units, Weighing};
use crate::join::layout::Layout;
use crate::join::weights::{west_weight, Start, StartShape};
use crate::model::constraints::Constraints;

/// The units of one board size, as [`Units`].
pub(crate) struct JoinUnits {
    /// The board geometry.
    layout: Layout,
    /// The units.
    list: UnitList,
}

impl JoinUnits {
    /// The units of board size `n` (`MIN_N..=MAX_N`, checked by the caller).
    pub(crate) fn new(n: usize) -> JoinUnits {
        let layout = Layout::new(u32::try_from(n).expect("n <= 32"));
        let list = UnitList::new(&layout);
        JoinUnits { layout, list }
    }

    /// The constraints of a board whose `west` rows hold their queen in the west half
    /// and `east` rows in the east half (each further limited by `east_row`), with the
    /// queens `placed` (row, column).
    fn constraints(
        &self,
        west: u64,
        east: u64,
        east_row: impl Fn(u32) -> u32,
        placed: &[(u32, u32)],
    ) -> Constraints {
        let n = self.layout.n;
        let mask = |columns: u64| u32::try_from(columns).expect("columns of n <= 32");
        let mut constraints = Constraints::new(n as usize);
        for row in 0..n {
            let allowed = if west >> row & 1 == 1 {
                mask(self.layout.west_columns())
            } else if east >> row & 1 == 1 {
                mask(self.layout.east_columns()) & east_row(row)
            } else {
                placed
                    .iter()
                    .filter(|&&(r, _)| r == row)
                    .fold(0, |m, &(_, c)| m | 1 << c)
            };
            constraints.restrict(row as usize, allowed);
        }
        constraints
    }

    /// The terms of the middle-column queen at `(row, h)` with the west rows
    /// `west_rows` (the others east): one per column `h < col < row` of the middle-row
    /// queen, weight 8.
    fn arms_terms(&self, row: u32, west_rows: u64) -> impl Iterator<Item = Term> + '_ {
        let h = self.layout.half;
        let free_rows = self.layout.all_rows() & !(1 << h) & !(1 << row);
        (h + 1..row).map(move |col| Term {
            constraints: self.constraints(
                west_rows,
                free_rows & !west_rows,
                |_| !0,
                &[(h, col), (row, h)],
            ),
            weighing: Weighing::Each(8),
        })
    }
}

impl Units for JoinUnits {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn spec(&self, index: usize) -> UnitSpec {
        let layout = &self.layout;
        let (n, h) = (layout.n, layout.half);
        let (terms, description) = match self.list.unit(index) {
            UnitKind::Rows { start, east_rows } => {
                let shape = StartShape::new(layout, start);
                let west_rows = shape.free_rows & !east_rows;
                let (ns, ew) = shape.row_weights(n, east_rows);
                let term = if shape.uses_diagonal_symmetry() {
                    // East queens stay off both long diagonals: (r, r) and (r, n-1-r).
                    let off_long = |row: u32| !(1 << row | 1 << (n - 1 - row));
                    let weight = |main, anti| u64::from(west_weight(main, anti, ns, ew));
                    Term {
                        constraints: self.constraints(west_rows, east_rows, off_long, &[]),
                        weighing: Weighing::ByLongDiagonals([
                            weight(false, false),
                            weight(true, false),
                            weight(true, true),
                        ]),
                    }
                } else {
                    let centre = [(h, h)];
                    Term {
                        constraints: self.constraints(west_rows, east_rows, |_| !0, &centre),
                        weighing: Weighing::Each(u64::from(ns * ew)),
                    }
                };
                let what = match start {
                    Start::Center => "the centre queen and east rows",
                    Start::Empty | Start::Arms { .. } => "east rows",
                };
                (vec![term], format!("{what} {}", rows_in_words(east_rows)))
            }
            UnitKind::ArmsWest { west_rows } => {
                let terms = arms_west_rows(h, west_rows)
                    .flat_map(|row| self.arms_terms(row, west_rows))
                    .collect();
                let description = format!(
                    "west rows {}, the middle-column queen in every other row from {} to \
                     {}, and for each the middle-row queen in columns {} to one before its row",
                    rows_in_words(west_rows),
                    h + 2,
                    2 * h - 1,
                    h + 1
                );
                (terms, description)
            }
            UnitKind::ArmsRow { row, west_rows } => {
                let terms = self.arms_terms(row, west_rows).collect();
                let description = format!(
                    "the middle-column queen in row {row}, west rows {}, the middle-row \
                     queen in columns {} to {}",
                    rows_in_words(west_rows),
                    h + 1,
                    row - 1
                );
                (terms, description)
            }
        };
        UnitSpec {
            terms,
            rows_above: None,
            description,
        }
    }
}
