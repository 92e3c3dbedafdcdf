//! Every unit's weighted count against a brute-force enumeration of the solutions
//! with the documented symmetry weights (odd and even boards), and the claim behind
//! the long-diagonal weights. The portable vector code runs here; `tests/join.rs`
//! checks that every vector path gives each unit the same outcome.

use super::compute::{self, UnitScratch};
use super::list::UnitKind;
use super::{JoinPlan, Orientation};
use crate::cpu::{Kernel, Level};
use crate::join::layout::Layout;
use crate::join::memory::{longest_list_estimate, Fit};
use crate::join::units::Caps;
use crate::join::weights::{west_weight, Start, StartShape};

/// Every solution of the `n x n` board, as the column of each row's queen.
fn solutions(n: usize) -> Vec<Vec<usize>> {
    fn place(n: usize, placed: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let row = placed.len();
        if row == n {
            out.push(placed.clone());
            return;
        }
        for col in 0..n {
            let safe = placed
                .iter()
                .enumerate()
                .all(|(r, &c)| c != col && row - r != c.abs_diff(col));
            if safe {
                placed.push(col);
                place(n, placed, out);
                placed.pop();
            }
        }
    }
    let mut out = Vec::new();
    place(n, &mut Vec::new(), &mut out);
    out
}

/// The rows of `solution` whose queen is in the columns `columns`, as a mask.
fn rows_where(solution: &[usize], columns: impl Fn(usize) -> bool) -> u64 {
    (0..solution.len())
        .filter(|&r| columns(solution[r]))
        .map(|r| 1u64 << r)
        .sum()
}

/// The weighted count unit `kind` must find, by brute force over `all` the solutions.
fn expected_count(n: usize, kind: UnitKind, all: &[Vec<usize>]) -> u128 {
    let h = n / 2;
    let layout = Layout::new(u32::try_from(n).unwrap());
    let n32 = u32::try_from(n).unwrap();
    let mut total = 0u128;
    for s in all {
        let east_rows = rows_where(s, |c| c >= n - h);
        let west_rows = rows_where(s, |c| c < h);
        let weight = match kind {
            UnitKind::Rows {
                start: Start::Empty,
                east_rows: e,
            } if east_rows == e => {
                let (ns, ew) = StartShape::new(&layout, Start::Empty).row_weights(n32, e);
                let on_main = (0..n).find(|&r| s[r] == r);
                let on_anti = (0..n).find(|&r| s[r] + r == n - 1);
                let east_on_long =
                    on_main.is_some_and(|r| s[r] >= h) || on_anti.is_some_and(|r| s[r] >= h);
                if east_on_long {
                    0
                } else {
                    west_weight(on_main.is_some(), on_anti.is_some(), ns, ew)
                }
            }
            UnitKind::Rows {
                start: Start::Center,
                east_rows: e,
            } if s[h] == h && east_rows == e => {
                let (ns, ew) = StartShape::new(&layout, Start::Center).row_weights(n32, e);
                ns * ew
            }
            UnitKind::ArmsWest { west_rows: w } => {
                let row = (0..n)
                    .find(|&r| s[r] == h)
                    .expect("a queen in every column");
                let counted =
                    west_rows == w && row >= h + 2 && row < 2 * h && s[h] > h && s[h] < row;
                if counted {
                    8
                } else {
                    0
                }
            }
            UnitKind::ArmsRow { row, west_rows: w } => {
                let row = row as usize;
                let counted = s[row] == h && west_rows == w && s[h] > h && s[h] < row;
                if counted {
                    8
                } else {
                    0
                }
            }
            UnitKind::Rows { .. } => 0,
        };
        total += u128::from(weight);
    }
    total
}

#[test]
fn every_unit_matches_brute_force_weights() {
    for n in 6..=11 {
        let all = solutions(n);
        let plan = JoinPlan::new(n, Level::Portable);
        let mut sum = 0u128;
        for index in 0..plan.len() {
            let got = plan.run_unit(index).weighted;
            let want = expected_count(n, plan.units.unit(index), &all);
            assert_eq!(
                got,
                want,
                "n = {n}, unit {index}: {:?}",
                plan.units.unit(index)
            );
            sum += got;
        }
        assert_eq!(sum, all.len() as u128, "n = {n}");
    }
}

#[test]
fn long_diagonal_classes_pair_up() {
    // The solutions with the main-diagonal queen in the east are as many as with it in
    // the west, class by class of the anti-diagonal queen (and the other way round).
    for n in [8usize, 10, 12] {
        let h = n / 2;
        // [main][anti]: 0 no queen on it, 1 a west queen, 2 an east queen.
        let mut classes = [[0u64; 3]; 3];
        for s in solutions(n) {
            let side = |r: Option<usize>| match r {
                None => 0,
                Some(r) if s[r] < h => 1,
                Some(_) => 2,
            };
            let main = side((0..n).find(|&r| s[r] == r));
            let anti = side((0..n).find(|&r| s[r] + r == n - 1));
            classes[main][anti] += 1;
        }
        for (other, row) in classes.iter().enumerate() {
            assert_eq!(classes[1][other], classes[2][other], "n = {n}");
            assert_eq!(row[1], row[2], "n = {n}");
        }
    }
}

#[test]
fn units_name_their_rows_in_order() {
    // Even boards: row sets from the empty start; odd boards: the centre start first,
    // the middle-column queen's rows last.
    let even = JoinPlan::new(8, Level::Portable);
    let first = even.units.unit(0);
    assert!(
        matches!(
            first,
            UnitKind::Rows {
                start: Start::Empty,
                ..
            }
        ),
        "{first:?}"
    );
    let odd = JoinPlan::new(9, Level::Portable);
    let first = odd.units.unit(0);
    assert!(
        matches!(
            first,
            UnitKind::Rows {
                start: Start::Center,
                ..
            }
        ),
        "{first:?}"
    );
    let last = odd.units.unit(odd.len() - 1);
    assert!(matches!(last, UnitKind::ArmsRow { row: 8, .. }), "{last:?}");
}

#[test]
fn the_longest_lists_are_as_the_memory_model_expects() {
    for n in 8..=16 {
        let plan = JoinPlan::new(n, Kernel::Auto.level().unwrap());
        let mut scratch = UnitScratch::default();
        for index in 0..plan.len() {
            compute::run(&plan.tables, plan.units.unit(index), &mut scratch);
        }
        // Odd boards take their even neighbour's estimate, and their `ArmsWest` units'
        // west lists, free of the middle-column queen, are longer (measured: up to
        // 1.72 times up to n = 17); the longest come in pieces where the estimate
        // sets the cap.
        let estimate = longest_list_estimate(u32::try_from(n).unwrap());
        let expected = if n % 2 == 1 { 2 * estimate } else { estimate };
        let longest = scratch.longest_list as u64;
        assert!(
            longest <= expected,
            "n = {n}: a list of {longest}, expected at most {expected}"
        );
    }
}

/// The plan of `n` with the table, or cells made on demand from row sets held whole up
/// to `row_set_limit` placements (else walked cell by cell), and pieces of at most
/// `cap` half-boards a side.
fn cut_plan(n: u32, table: bool, row_set_limit: usize, cap: usize) -> JoinPlan {
    let fit = Fit {
        table,
        caps: Caps {
            stored: cap,
            items: cap,
        },
        row_set_limit: if table { 0 } else { row_set_limit },
        peak: 0,
    };
    JoinPlan::with_fit(n, Kernel::Auto.level().unwrap(), fit, u64::MAX, 2).unwrap()
}

#[test]
fn pieces_and_cells_on_demand_give_every_unit_the_same_count() {
    pieces_and_cells_on_demand_agree(8..=14);
}

#[test]
fn pieces_and_cells_on_demand_give_every_unit_of_n_15_the_same_count() {
    pieces_and_cells_on_demand_agree(15..=15);
}

/// Every unit of every `n` counts alike from the table, from cells made on demand
/// (joined from their row sets' parts, walked, and both in one unit; whole, or the
/// larger cell of a split streamed), and cut into pieces of a few half-boards.
fn pieces_and_cells_on_demand_agree(sizes: std::ops::RangeInclusive<u32>) {
    for n in sizes {
        let whole = JoinPlan::new(n as usize, Kernel::Auto.level().unwrap());
        // Pieces of one or seven half-boards cut every unit into as many pieces as
        // it has outer half-boards; from n = 14 on, pieces of 64 reach the same
        // code in a fraction of the time.
        let small = |cap: usize| if n <= 13 { cap } else { 64 };
        // A limit below the larger row sets' placements leaves them to the walks per
        // cell (and a limit of 0, every row set).
        let some = usize::try_from(crate::join::quadrants::placement_count(n / 2) / 64).unwrap();
        let all = usize::MAX;
        // The least cell limit (the cells of the fewer queens whole): every larger cell
        // is streamed, joined or walked, as only n >= 26 streams them in a count.
        let streamed = |mut plan: JoinPlan| {
            plan.tables.cell_limit =
                usize::try_from(crate::join::cells::max_cell_len(n / 4)).unwrap();
            plan
        };
        let plans = [
            cut_plan(n, false, all, usize::MAX / 2),
            cut_plan(n, false, 0, usize::MAX / 2),
            cut_plan(n, false, some, usize::MAX / 2),
            cut_plan(n, true, 0, small(7)),
            cut_plan(n, false, all, small(1)),
            cut_plan(n, false, 0, small(1)),
            cut_plan(n, false, some, small(3)),
            streamed(cut_plan(n, false, all, usize::MAX / 2)),
            streamed(cut_plan(n, false, 0, small(3))),
            streamed(cut_plan(n, false, some, small(1))),
        ];
        let mut scratch = UnitScratch::default();
        for index in 0..whole.len() {
            let kind = whole.units.unit(index);
            let want = compute::run(&whole.tables, kind, &mut scratch).weighted;
            for (i, plan) in plans.iter().enumerate() {
                let got = compute::run(&plan.tables, kind, &mut scratch).weighted;
                assert_eq!(got, want, "n = {n}, unit {index}, plan {i}");
            }
        }
        // Every piece of a cut plan holds at most its cap plus one inner list (with
        // the table, an odd board's arms groups are walked at once).
        for table in [false, true] {
            let mut scratch = UnitScratch::default();
            let plan = cut_plan(n, table, all, 16);
            for index in 0..plan.len() {
                compute::run(&plan.tables, plan.units.unit(index), &mut scratch);
            }
            let inner = crate::join::memory::inner_len(n / 2);
            let longest = scratch.longest_list as u64;
            assert!(
                longest <= 16 + inner,
                "n = {n}, table {table}: a piece of {longest}"
            );
        }
    }
}

#[test]
fn every_orientation_gives_every_unit_the_same_count() {
    // The west side stored wherever it is the longer (class mode on every path the
    // plan runs, the odd boards' guarded groups included), whole and in pieces (a
    // stored piece then meets items stored in its place and items counted against it,
    // and is prepared again after the former), against the east side always stored.
    for n in 8..=15u32 {
        let level = Kernel::Auto.level().unwrap();
        let east = JoinPlan::new(n as usize, level).with_orientation(Orientation::EastStored);
        let plans = [
            JoinPlan::new(n as usize, level).with_orientation(Orientation::LongerStored),
            JoinPlan::new(n as usize, Level::Portable).with_orientation(Orientation::LongerStored),
            cut_plan(n, true, 0, 7).with_orientation(Orientation::LongerStored),
            cut_plan(n, false, 0, 64).with_orientation(Orientation::LongerStored),
        ];
        let mut scratch = UnitScratch::default();
        let mut west_stored = 0;
        for index in 0..east.len() {
            let kind = east.units.unit(index);
            let want = compute::run(&east.tables, kind, &mut scratch);
            for (i, plan) in plans.iter().enumerate() {
                let got = compute::run(&plan.tables, kind, &mut scratch);
                assert_eq!(
                    got.weighted, want.weighted,
                    "n = {n}, unit {index}, plan {i}"
                );
                west_stored += usize::from(i == 0 && got.pairs != want.pairs);
            }
        }
        // (Below n = 12 the lists are short enough for the plain loop, whose work is
        // the same either way round.)
        assert!(
            n < 12 || west_stored > 0,
            "n = {n}: no unit stored its west side"
        );
    }
}

#[test]
fn plans_are_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<JoinPlan>();
}
