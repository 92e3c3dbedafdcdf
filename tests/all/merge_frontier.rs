//! `merge` at the frontier: a complete, sealed set of 1,000 synthetic shard reports of
//! the join engine's 18,203,098 units at n = 27 (made-up but possible sums that add up
//! to the published total) merges in seconds and matches; a set mixing two versions of
//! the unit list is refused; a set whose total is wrong prints it and exits 1 naming
//! both values.

use std::time::Instant;

use assert_cmd::Command;
use nqueens::{Engine, Shard, ShardReport, Symmetry};
use predicates::prelude::*;

/// The units of the join engine at n = 27.
const UNITS_27: usize = 18_203_098;

/// The published total and rotation-fixed counts of n = 27.
const TOTAL_27: u128 = 234_907_967_154_122_528;

/// Shard `shard` of `shards` of a run of n = 27 whose totals add up to `total` (shard
/// 0 with the rotation-fixed counts), sealed.
fn report(shard: usize, shards: usize, total: u128) -> ShardReport {
    let k = shards as u128;
    let part = total / k + u128::from(shard == 0) * (total % k);
    ShardReport {
        n: 27,
        engine: Some(Engine::Join),
        units: Some(2),
        symmetry: Symmetry::Full,
        split_depth: None,
        placements: String::new(),
        shard,
        shards,
        tasks: Shard {
            index: shard,
            count: shards,
        }
        .share(UNITS_27),
        tasks_total: UNITS_27,
        total: part,
        nodes: None,
        pairs: Some(part),
        rot180: (shard == 0).then_some(320_403_024),
        rot90: (shard == 0).then_some(0),
        threads: 64,
        kernel: Some(nqueens::Kernel::Avx2),
        seconds: 3600.0,
        version: nqueens::VERSION.to_string(),
        commit: None,
        resumed: None,
        ran: None,
        check: None,
    }
    .sealed()
}

/// Writes the reports into ten files of a hundred lines each; returns the files.
fn write_set(dir: &std::path::Path, reports: &[ShardReport]) -> Vec<std::path::PathBuf> {
    reports
        .chunks(100)
        .enumerate()
        .map(|(i, chunk)| {
            let path = dir.join(format!("part{i}.json"));
            let lines: Vec<String> = chunk
                .iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect();
            std::fs::write(&path, lines.join("\n") + "\n").unwrap();
            path
        })
        .collect()
}

fn merge(files: &[std::path::PathBuf]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nqueens")
        .unwrap()
        .arg("merge")
        .arg("--json")
        .args(files)
        .assert()
}

#[test]
fn a_complete_set_of_n_27_merges_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let reports: Vec<_> = (0..1000).map(|i| report(i, 1000, TOTAL_27)).collect();
    let files = write_set(dir.path(), &reports);
    let start = Instant::now();
    let out = merge(&files).success().get_output().stdout.clone();
    let seconds = start.elapsed().as_secs_f64();
    assert!(seconds < 10.0, "the merge took {seconds} s");
    let merged: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&format!("\"total\":{TOTAL_27}")), "{text}");
    assert!(text.contains("\"unique\":29363495934315694"), "{text}");
    assert_eq!(merged["tasks"], UNITS_27);
    assert_eq!(merged["units"], 2);
    assert_eq!(merged["published"], "match");
}

#[test]
fn a_set_mixing_unit_lists_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut reports: Vec<_> = (0..1000).map(|i| report(i, 1000, TOTAL_27)).collect();
    reports[500].units = Some(3);
    reports[500] = reports[500].clone().sealed();
    let files = write_set(dir.path(), &reports);
    merge(&files)
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "part5.json:1 was counted with version 3 of the join engine's unit list and ",
        ))
        .stderr(predicate::str::contains("part0.json:1 with version 2: "));
}

#[test]
fn a_wrong_total_is_printed_and_exits_1_naming_both_values() {
    let dir = tempfile::tempdir().unwrap();
    let reports: Vec<_> = (0..1000).map(|i| report(i, 1000, TOTAL_27 + 8)).collect();
    let files = write_set(dir.path(), &reports);
    merge(&files)
        .code(1)
        .stdout(predicate::str::contains(format!(
            "\"total\":{}",
            TOTAL_27 + 8
        )))
        .stdout(predicate::str::contains("\"published\":\"mismatch\""))
        .stderr(predicate::str::contains(format!(
            "n = 27 gave a total of {} where the published total is {TOTAL_27}",
            TOTAL_27 + 8
        )));
}
