//! The readers of outside input, fed arbitrary and damaged bytes: shard reports (as
//! `merge` reads them) and placement lists (`--place`). Every input gives a value or
//! an error, which the command reports with exit status 2; never a panic or a hang.
//! (Checkpoint files are fuzzed next to their parser, in `src/run/checkpoint.rs`.)

use nqueens::{merge, read_shard_reports, MergeOptions, Placement, ShardReport};
use proptest::prelude::*;

/// The sealed report of shard `shard` of 2 of the count of n = 8 (made once).
fn report(shard: usize) -> ShardReport {
    static REPORTS: std::sync::OnceLock<[ShardReport; 2]> = std::sync::OnceLock::new();
    REPORTS.get_or_init(|| [run_shard(0), run_shard(1)])[shard].clone()
}

/// Runs shard `shard` of 2 of the count of n = 8.
fn run_shard(shard: usize) -> ShardReport {
    let options = nqueens::Options {
        threads: Some(1),
        ..nqueens::Options::default()
    };
    let long = nqueens::LongRunOptions {
        shard: Some(nqueens::Shard {
            index: shard,
            count: 2,
        }),
        ..nqueens::LongRunOptions::default()
    };
    let placement = Placement::empty(8).unwrap();
    nqueens::run_long(&placement, &options, &long, &())
        .unwrap()
        .shard_report()
        .unwrap()
}

/// A shard report's line with some bytes changed, cut or inserted.
fn damaged_report() -> impl Strategy<Value = Vec<u8>> {
    let line = serde_json::to_string(&report(1)).unwrap();
    (
        proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        proptest::option::of(any::<prop::sample::Index>()),
        proptest::option::of((any::<prop::sample::Index>(), "[0-9a-z:,\"{}\\[\\]-]{1,8}")),
    )
        .prop_map(move |(changes, cut, insert)| {
            let mut bytes = line.clone().into_bytes();
            for (at, byte) in changes {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            if let Some((at, text)) = insert {
                let at = at.index(bytes.len() + 1);
                bytes.splice(at..at, text.bytes());
            }
            if let Some(cut) = cut {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            bytes
        })
}

/// A report with arbitrary numbers, sealed, so that the checks behind the seal run.
fn sealed_nonsense() -> impl Strategy<Value = ShardReport> {
    (
        (
            0usize..40,
            proptest::option::of(0usize..40),
            0usize..5,
            0usize..5,
        ),
        (
            any::<usize>(),
            any::<usize>(),
            any::<u128>(),
            proptest::option::of(any::<u128>()),
        ),
        (
            proptest::option::of(any::<u128>()),
            proptest::option::of(any::<u128>()),
            proptest::option::of(any::<usize>()),
            proptest::option::of(any::<usize>()),
        ),
        "[0-9:, ]{0,12}",
    )
        .prop_map(
            |(
                (n, split_depth, shard, shards),
                (tasks, tasks_total, total, nodes),
                (rot180, rot90, resumed, ran),
                placements,
            )| {
                ShardReport {
                    n,
                    split_depth,
                    shard,
                    shards,
                    tasks,
                    tasks_total,
                    total,
                    nodes,
                    rot180,
                    rot90,
                    resumed,
                    ran,
                    placements,
                    ..report(0)
                }
                .sealed()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Any bytes, a damaged report or a sealed report of nonsense, merged with a true
    /// shard: a total or a refusal, never a panic.
    #[test]
    fn shard_reports_are_read_or_refused(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..200),
            damaged_report(),
            sealed_nonsense().prop_map(|r| serde_json::to_vec(&r).unwrap()),
        ]
    ) {
        if let Ok(reports) = read_shard_reports("fuzzed", &bytes) {
            let mut set = vec![("zero".to_string(), report(0))];
            set.extend(reports);
            if let Ok(merged) = merge(&set, &MergeOptions::default()) {
                // Only the true report, sealed, can complete the set.
                prop_assert_eq!(merged.total, 92);
            }
            let _ = merge(&set, &MergeOptions { allow_unsealed: true });
        }
    }

    /// Any text as placed queens on any board: a placement of non-attacking queens on
    /// the board, or a refusal.
    #[test]
    fn placement_lists_are_read_or_refused(
        n in 0usize..=33,
        text in prop_oneof![
            any::<String>(),
            "[0-9:, -]{0,24}",
            proptest::collection::vec((0u32..40, 0u32..40), 0..5).prop_map(|pairs| {
                pairs
                    .iter()
                    .map(|(r, c)| format!("{r}:{c}"))
                    .collect::<Vec<_>>()
                    .join(",")
            }),
        ]
    ) {
        if let Ok(placement) = Placement::parse(n, &text) {
            prop_assert_eq!(placement.n(), n);
            for &(row, column) in placement.queens() {
                prop_assert!(row < n && column < n);
            }
        }
    }
}
