//! Helpers shared by the integration tests: the published table, an independent
//! whole-tree node counter, run options, and proptest strategies.
//!
//! Each test crate compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use nqueens::limits::{max_split_depth, min_split_depth};
use nqueens::{Options, Symmetry};
use proptest::prelude::*;

/// The published table, the one the `verify` command reads and every count checks
/// itself against.
pub use nqueens::published::published;

/// The largest n whose count the tests run for every mode, thread count and depth.
pub const MAX_TESTED_N: usize = 14;

/// The thread counts every library-level sweep uses.
pub const THREADS: [usize; 2] = [1, 2];

/// The published total (OEIS A000170) for `n`.
///
/// # Panics
/// If nothing is published for `n`.
pub fn published_total(n: usize) -> u128 {
    published(n)
        .unwrap_or_else(|| panic!("no published total for n = {n}"))
        .total
}

/// Options of the backtracking engine with an explicit thread count, symmetry mode
/// and split depth (the options these sweep).
pub fn options(threads: usize, symmetry: Symmetry, split_depth: Option<usize>) -> Options {
    Options {
        threads: Some(threads),
        symmetry,
        split_depth,
        engine: nqueens::EngineChoice::Backtrack,
        ..Options::default()
    }
}

/// The largest n for which sweeps also split on every row. Splitting n = 14 on all 14
/// rows builds 27 million tasks (about 1.3 s and 500 MB), too much for a fast suite.
pub const MAX_FULL_SPLIT_N: usize = 13;

/// The split depths a sweep tries for `n`: the smallest, the default (`None`), the
/// middle row and (for n up to [`MAX_FULL_SPLIT_N`]) every row, without repeats.
pub fn sweep_depths(n: usize) -> Vec<Option<usize>> {
    let mut candidates = vec![Some(min_split_depth(n)), None, Some(n / 2)];
    if n <= MAX_FULL_SPLIT_N {
        candidates.push(Some(max_split_depth(n)));
    }
    let mut depths = Vec::new();
    for depth in candidates {
        let valid = depth.is_none_or(|d| d >= min_split_depth(n));
        if valid && !depths.contains(&depth) {
            depths.push(depth);
        }
    }
    depths
}

/// The number of partial boards with `k` non-attacking queens in rows `0..k`, for
/// `k = 0..=n`, found by plain recursive array backtracking (no bitmasks, no code
/// shared with the crate). Entry 0 is the empty board; entry n is A000170.
pub fn tree_levels(n: usize) -> Vec<u64> {
    fn place(n: usize, row: usize, queens: &mut Vec<usize>, levels: &mut [u64]) {
        levels[row] += 1;
        if row == n {
            return;
        }
        for col in 0..n {
            let safe = queens
                .iter()
                .enumerate()
                .all(|(r, &c)| c != col && row - r != col.abs_diff(c));
            if safe {
                queens.push(col);
                place(n, row + 1, queens, levels);
                queens.pop();
            }
        }
    }
    let mut levels = vec![0; n + 1];
    place(n, 0, &mut Vec::with_capacity(n), &mut levels);
    levels
}

/// The size of the whole backtracking tree of an n x n board: every queen placement
/// counted once, the root (empty board) not counted.
pub fn whole_tree_nodes(n: usize) -> u64 {
    tree_levels(n).iter().skip(1).sum()
}

/// Any symmetry mode of the crate.
pub fn any_symmetry() -> impl Strategy<Value = Symmetry> {
    proptest::sample::select(Symmetry::ALL.to_vec())
}

/// A board size in `0..=max_n`, a thread count in `1..=max_threads` and a split depth
/// accepted for that board size.
pub fn run_triple(
    max_n: usize,
    max_threads: usize,
) -> impl Strategy<Value = (usize, usize, usize)> {
    (0..=max_n).prop_flat_map(move |n| {
        (
            Just(n),
            1..=max_threads,
            min_split_depth(n)..=max_split_depth(n),
        )
    })
}

/// The field names every JSON `Count` object carries (the backtracking engine's
/// also carry `nodes` and `split_depth`, the join engine's `pairs`).
pub const COUNT_FIELDS: [&str; 9] = [
    "n", "total", "tasks", "threads", "engine", "symmetry", "kernel", "seconds", "version",
];

/// Checks that `value` is a JSON `Count` with every field, of the right JSON type, and
/// exact integers equal to the given ones.
pub fn check_count_json(value: &serde_json::Value, expected: &nqueens::Count) {
    let object = value.as_object().expect("a JSON object");
    for field in COUNT_FIELDS {
        assert!(object.contains_key(field), "missing field {field}: {value}");
    }
    let int = |field: &str| {
        value[field]
            .as_u64()
            .unwrap_or_else(|| panic!("{field} is not an exact integer: {value}"))
    };
    assert_eq!(int("n"), expected.n as u64);
    assert_eq!(u128::from(int("total")), expected.total);
    let optional = |field: &str| value.get(field).map(|_| u128::from(int(field)));
    assert_eq!(optional("nodes"), expected.work.nodes());
    assert_eq!(optional("pairs"), expected.work.pairs());
    assert_eq!(int("tasks"), expected.tasks as u64);
    assert_eq!(int("threads"), expected.threads as u64);
    assert_eq!(
        value.get("split_depth").map(|_| int("split_depth")),
        expected.split_depth.map(|d| d as u64)
    );
    assert_eq!(value["engine"], expected.engine.name());
    assert_eq!(value["symmetry"], expected.symmetry.name());
    assert_eq!(value["kernel"], expected.kernel.name());
    assert_eq!(value["version"], nqueens::VERSION);
    let seconds = value["seconds"].as_f64().expect("seconds is a number");
    assert!(seconds >= 0.0 && seconds.is_finite(), "seconds = {seconds}");
}
