//! The independent recount against the engines, on every unit of small boards: the
//! join's units of n = 8 to 14 (both parities: the even start, the centre start and
//! the arms units), and the backtracking tasks of every symmetry mode, split depths and
//! placed queens (weighted counts and nodes).

use super::recount::recount;
use crate::cpu::Level;
use crate::engine::{counting, Engine, Request};
use crate::model::placement::Placement;
use crate::symmetry::Symmetry;

/// Recounts every unit of `engine`'s run of `request` and compares it with the plan's
/// own count (and nodes, where the work is nodes); returns the units checked.
fn every_unit_agrees(engine: Engine, request: &Request<'_>) -> usize {
    let units = counting(engine).units(request).unwrap();
    let plan = counting(engine).plan(request, Level::Portable).unwrap();
    assert_eq!(units.len(), plan.len());
    for index in 0..plan.len() {
        let spec = units.spec(index);
        let found = recount(&spec);
        let ran = plan.run(index).unwrap();
        let what = || {
            format!(
                "{engine} n = {}, unit {index}: {}",
                plan.n(),
                spec.description
            )
        };
        assert_eq!(found.weighted, ran.weighted, "{}", what());
        if let Some(nodes) = found.nodes {
            assert_eq!(nodes, ran.work, "{}", what());
        }
    }
    plan.len()
}

/// The engine of that name (engines are named, not matched on, outside the engine layer).
fn engine(name: &str) -> Engine {
    name.parse().unwrap()
}

fn whole(n: usize, symmetry: Symmetry, split_depth: Option<usize>) -> Request<'static> {
    let placement = Box::leak(Box::new(Placement::empty(n).unwrap()));
    Request {
        placement,
        symmetry,
        split_depth,
        threads: 1,
        memory: u64::MAX,
    }
}

#[test]
fn every_join_unit_of_n_8_to_14_recounts_to_its_count() {
    // n = 15 and 16 (some 20 s of recounts) are audited whole through the command, in
    // tests/all/audit_cli.rs.
    for n in 8..=14 {
        let checked = every_unit_agrees(engine("join"), &whole(n, Symmetry::Full, None));
        assert!(checked > 0, "n = {n}");
    }
}

#[test]
fn every_backtracking_task_recounts_to_its_count_and_nodes() {
    for n in 4..=11 {
        for symmetry in Symmetry::ALL {
            for depth in [None, Some(1), Some(n / 2)] {
                every_unit_agrees(engine("backtrack"), &whole(n, symmetry, depth));
            }
        }
    }
    for (n, queens) in [(9, "4:4"), (10, "0:1,9:8"), (8, "3:4")] {
        let placement = Placement::parse(n, queens).unwrap();
        for symmetry in Symmetry::ALL {
            let request = Request {
                placement: &placement,
                symmetry,
                split_depth: Some(3),
                threads: 1,
                memory: u64::MAX,
            };
            every_unit_agrees(engine("backtrack"), &request);
        }
    }
}
