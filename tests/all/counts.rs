//! Library-level checks of the parallel counter: published totals for every symmetry
//! mode, thread count and split depth; node counts; agreement with the independent
//! textbook backtracking; the JSON form of a `Count`.

use crate::common;

use std::collections::HashMap;

use common::{
    any_symmetry, check_count_json, options, published_total, run_triple, sweep_depths,
    tree_levels, whole_tree_nodes, MAX_TESTED_N, THREADS,
};
use nqueens::internals::{scalar_count as search, Constraints, Frontier, TaskList};
use nqueens::limits::{max_split_depth, min_split_depth};
use nqueens::{count, naive, Error, Symmetry};
use proptest::prelude::*;

/// Counts every n in `ns` with every mode, thread count and sweep depth, and checks the
/// total against A000170 and that nodes and tasks do not depend on the thread count.
fn sweep(ns: std::ops::RangeInclusive<usize>) {
    for n in ns {
        for symmetry in Symmetry::ALL {
            for depth in sweep_depths(n) {
                let mut first: Option<nqueens::Count> = None;
                for threads in THREADS {
                    let c = count(n, &options(threads, symmetry, depth)).unwrap();
                    let what = format!("n = {n}, {symmetry}, depth {depth:?}, {threads} threads");
                    assert_eq!(c.total, published_total(n), "{what}");
                    assert_eq!(c.threads, threads, "{what}");
                    assert_eq!(c.symmetry, symmetry, "{what}");
                    if let Some(d) = depth {
                        assert_eq!(c.split_depth, Some(d), "{what}");
                    }
                    if let Some(one) = &first {
                        assert_eq!(
                            c.work.nodes(),
                            one.work.nodes(),
                            "nodes depend on threads: {what}"
                        );
                        assert_eq!(c.tasks, one.tasks, "tasks depend on threads: {what}");
                        assert_eq!(c.split_depth, one.split_depth, "{what}");
                    } else {
                        first = Some(c);
                    }
                }
            }
        }
    }
}

#[test]
fn published_totals_up_to_12() {
    sweep(0..=12);
}

#[test]
fn published_totals_13() {
    sweep(13..=13);
}

#[test]
fn published_totals_14() {
    sweep(MAX_TESTED_N..=MAX_TESTED_N);
}

#[test]
fn sweep_depths_cover_one_default_middle_and_every_row() {
    assert_eq!(sweep_depths(0), [Some(0), None]);
    assert_eq!(sweep_depths(1), [Some(1), None]);
    assert_eq!(sweep_depths(13), [Some(1), None, Some(6), Some(13)]);
    assert_eq!(sweep_depths(14), [Some(1), None, Some(7)]);
}

#[test]
fn nodes_and_tasks_do_not_depend_on_up_to_four_threads() {
    for symmetry in Symmetry::ALL {
        let one = count(11, &options(1, symmetry, Some(4))).unwrap();
        for threads in 2..=4 {
            let c = count(11, &options(threads, symmetry, Some(4))).unwrap();
            assert_eq!(
                (c.total, c.work.nodes(), c.tasks),
                (one.total, one.work.nodes(), one.tasks),
                "{symmetry}, {threads} threads"
            );
        }
    }
}

#[test]
fn bitmask_counter_agrees_with_textbook_backtracking() {
    for n in 0..=10 {
        let expected = naive::count_solutions(n);
        let kernel = search(&Constraints::new(n), Frontier::ROOT);
        assert_eq!(kernel.solutions, expected, "kernel, n = {n}");
        for symmetry in Symmetry::ALL {
            for threads in THREADS {
                let c = count(n, &options(threads, symmetry, None)).unwrap();
                assert_eq!(c.total, u128::from(expected), "n = {n}, {symmetry}");
            }
        }
    }
}

/// The frontier the kernel reaches after the textbook search's first `depth` queens
/// (column `c` is bit `c`).
fn prefix_frontier(queens: &[usize], depth: usize) -> Frontier {
    queens[..depth]
        .iter()
        .fold(Frontier::ROOT, |f, &col| f.place(1 << col))
}

#[test]
fn every_whole_tree_task_agrees_with_textbook_prefixes() {
    for n in 1..=9 {
        for depth in min_split_depth(n)..=max_split_depth(n) {
            let list = TaskList::build(n, Symmetry::None, Some(depth)).unwrap();
            let levels = tree_levels(n);
            assert_eq!(list.len() as u64, levels[depth], "n = {n}, depth {depth}");
            assert_eq!(
                list.setup_nodes,
                levels[1..=depth].iter().sum::<u64>(),
                "n = {n}, depth {depth}"
            );
            let mut from_tasks: HashMap<Frontier, u64> = HashMap::new();
            for task in &list.tasks {
                assert_eq!(task.weight, 1);
                assert_eq!(task.frontier.row, depth);
                let tally = search(&list.constraints[task.constraints], task.frontier);
                if tally.solutions > 0 {
                    *from_tasks.entry(task.frontier).or_default() += tally.solutions;
                }
            }
            let mut from_naive: HashMap<Frontier, u64> = HashMap::new();
            naive::for_each_solution(n, |queens| {
                *from_naive
                    .entry(prefix_frontier(queens, depth))
                    .or_default() += 1;
            });
            assert_eq!(from_tasks, from_naive, "n = {n}, depth {depth}");
        }
    }
}

#[test]
fn whole_tree_node_counts() {
    assert_eq!(whole_tree_nodes(10), 35_538);
    assert_eq!(whole_tree_nodes(12), 856_188);
    for (n, nodes) in [(10, 35_538), (12, 856_188)] {
        for depth in sweep_depths(n).into_iter().chain([Some(3), Some(n - 1)]) {
            for threads in THREADS {
                let c = count(n, &options(threads, Symmetry::None, depth)).unwrap();
                assert_eq!(
                    c.work.nodes(),
                    Some(nodes),
                    "n = {n}, depth {depth:?}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn whole_tree_nodes_match_the_independent_tree_for_every_depth() {
    for n in 0..=11 {
        let expected = whole_tree_nodes(n);
        for depth in min_split_depth(n)..=max_split_depth(n) {
            let c = count(n, &options(2, Symmetry::None, Some(depth))).unwrap();
            assert_eq!(
                c.work.nodes(),
                Some(u128::from(expected)),
                "n = {n}, depth {depth}"
            );
        }
    }
}

#[test]
fn count_json_fields_are_exact() {
    for symmetry in Symmetry::ALL {
        let c = count(12, &options(2, symmetry, Some(4))).unwrap();
        let value = serde_json::to_value(&c).unwrap();
        check_count_json(&value, &c);
        assert_eq!(value["n"], 12);
        assert_eq!(value["total"], 14_200);
        assert_eq!(value["threads"], 2);
        assert_eq!(value["split_depth"], 4);
        assert_eq!(value["symmetry"], symmetry.name());
        let text = serde_json::to_string(&c).unwrap();
        assert!(text.contains("\"total\":14200,"), "{text}");
    }
    let c = count(10, &options(1, Symmetry::None, None)).unwrap();
    let value = serde_json::to_value(&c).unwrap();
    check_count_json(&value, &c);
    assert_eq!(value["nodes"], 35_538);
}

#[test]
fn bad_options_carry_their_ranges() {
    use nqueens::limits::{OutOfRange, Quantity};
    let ok = options(1, Symmetry::default(), None);
    let board = count(33, &ok).unwrap_err();
    assert!(
        matches!(
            board,
            Error::OutOfRange(OutOfRange {
                quantity: Quantity::BoardSize,
                value: 33,
                min: 0,
                max: 32
            })
        ),
        "{board:?}"
    );
    assert!(board.to_string().contains("0 to 32"), "{board}");

    for depth in [0, 9, 32] {
        let e = count(8, &options(1, Symmetry::None, Some(depth))).unwrap_err();
        assert!(
            matches!(
                e,
                Error::OutOfRange(OutOfRange {
                    quantity: Quantity::SplitDepth { n: 8 },
                    min: 1,
                    max: 8,
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("1 to 8"), "{e}");
    }

    let threads = count(8, &options(0, Symmetry::None, None)).unwrap_err();
    assert!(
        matches!(
            threads,
            Error::OutOfRange(OutOfRange {
                quantity: Quantity::Threads,
                value: 0,
                min: 1,
                max: 4096
            })
        ),
        "{threads:?}"
    );
    assert!(threads.to_string().contains("1 to 4096"), "{threads}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_splits_and_thread_counts(
        (n, threads, depth) in run_triple(12, 4),
        symmetry in any_symmetry(),
    ) {
        let c = count(n, &options(threads, symmetry, Some(depth))).unwrap();
        prop_assert_eq!(c.total, published_total(n));
        prop_assert_eq!(c.split_depth, Some(depth));
        prop_assert_eq!(c.threads, threads);
        let one = count(n, &options(1, symmetry, Some(depth))).unwrap();
        prop_assert_eq!(c.work.nodes(), one.work.nodes());
        prop_assert_eq!(c.tasks, one.tasks);
        if symmetry == Symmetry::None {
            prop_assert_eq!(c.work.nodes(), Some(u128::from(whole_tree_nodes(n))));
        }
    }
}
