//! Full symmetry and fundamental counts: `--symmetry full` and `--unique` against the
//! published values (A000170, A002562, A032522, A033148) and against the other modes.

use crate::common;

use common::published;
use nqueens::internals::{fixed_by, Rotation};
use nqueens::{count, Options, Symmetry};
use proptest::prelude::*;

fn full(threads: usize, split_depth: Option<usize>) -> Options {
    Options {
        threads: Some(threads),
        symmetry: Symmetry::Full,
        split_depth,
        unique: true,
        ..Options::default()
    }
}

#[test]
fn totals_and_fundamental_counts_up_to_14() {
    for n in 0..=14 {
        let p = published(n).unwrap();
        for threads in [1, 2] {
            for depth in common::sweep_depths(n) {
                let c = count(n, &full(threads, depth)).unwrap();
                assert_eq!(c.total, p.total, "total n={n} t={threads} d={depth:?}");
                assert_eq!(
                    c.unique,
                    Some(p.unique),
                    "unique n={n} t={threads} d={depth:?}"
                );
                assert_eq!(c.rot180, Some(p.rot180), "rot180 n={n}");
                assert_eq!(c.rot90, Some(p.rot90), "rot90 n={n}");
            }
        }
    }
}

#[test]
fn totals_and_fundamental_counts_for_15_and_16() {
    for n in [15, 16] {
        let p = published(n).unwrap();
        for engine in [
            nqueens::EngineChoice::Backtrack,
            nqueens::EngineChoice::Join,
        ] {
            let options = Options {
                engine,
                ..full(2, None)
            };
            let c = count(n, &options).unwrap();
            assert_eq!(Some(c.engine), engine.engine());
            let found = (c.total, c.unique);
            assert_eq!(found, (p.total, Some(p.unique)), "n = {n}, {engine}");
        }
    }
}

#[test]
fn rotation_fixed_counts_up_to_16() {
    for n in 0..=16 {
        let p = published(n).unwrap();
        assert_eq!(
            fixed_by(n, Rotation::HalfTurn),
            p.rot180,
            "A032522, n = {n}"
        );
        assert_eq!(
            fixed_by(n, Rotation::QuarterTurn),
            p.rot90,
            "A033148, n = {n}"
        );
    }
}

#[test]
fn the_three_modes_agree_up_to_13() {
    for n in 0..=13 {
        let totals: Vec<(u128, Option<u128>)> = Symmetry::ALL
            .iter()
            .map(|&symmetry| {
                let c = count(
                    n,
                    &Options {
                        threads: Some(2),
                        symmetry,
                        split_depth: None,
                        unique: true,
                        ..Options::default()
                    },
                )
                .unwrap();
                (c.total, c.unique)
            })
            .collect();
        assert!(
            totals.windows(2).all(|w| w[0] == w[1]),
            "n = {n}: {totals:?}"
        );
    }
}

#[test]
fn full_symmetry_searches_a_quarter_of_the_tree_or_less() {
    let nodes = |symmetry| {
        count(
            14,
            &Options {
                threads: Some(2),
                symmetry,
                engine: nqueens::EngineChoice::Backtrack,
                ..Options::default()
            },
        )
        .unwrap()
        .work
        .nodes()
        .expect("the backtracking engine counts nodes")
    };
    let (none, full) = (nodes(Symmetry::None), nodes(Symmetry::Full));
    assert!(full * 4 <= none + none / 10, "full {full} vs none {none}");
}

#[test]
fn full_is_the_default() {
    assert_eq!(Options::default().symmetry, Symmetry::Full);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any split depth and thread count gives the published counts and the same nodes.
    #[test]
    fn random_depths_and_threads((n, threads, depth) in common::run_triple(12, 4)) {
        let p = published(n).unwrap();
        let c = count(n, &full(threads, Some(depth))).unwrap();
        prop_assert_eq!(c.total, p.total);
        prop_assert_eq!(c.unique, Some(p.unique));
        let single = count(n, &full(1, Some(depth))).unwrap();
        prop_assert_eq!(c.work.nodes(), single.work.nodes());
        prop_assert_eq!(c.tasks, single.tasks);
    }
}

fn nqueens_stdout(args: &[&str]) -> String {
    let output = assert_cmd::Command::cargo_bin("nqueens")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{args:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn cli_unique_plain_output_is_labelled() {
    assert_eq!(
        nqueens_stdout(&["count", "12", "--unique"]),
        "total: 14,200\nunique: 1,787\n"
    );
    assert_eq!(
        nqueens_stdout(&["count", "1", "--unique"]),
        "total: 1\nunique: 1\n"
    );
    assert_eq!(
        nqueens_stdout(&["count", "3", "--unique"]),
        "total: 0\nunique: 0\n"
    );
}

#[test]
fn cli_unique_json_fields() {
    let text = nqueens_stdout(&["count", "13", "--unique", "--json", "--symmetry", "mirror"]);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["total"], 73712);
    assert_eq!(value["unique"], 9233);
    assert_eq!(value["rot180"], 136);
    assert_eq!(value["rot90"], 8);
    assert_eq!(value["symmetry"], "mirror");
    let plain = nqueens_stdout(&["count", "13", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert_eq!(value["symmetry"], "full");
    assert!(value.get("unique").is_none());
}
