//! What a new user meets from the command line: sharded counts with `--unique` merged
//! into the fundamental count, `merge` naming what a wrong file is, and estimates of
//! very long counts on a readable scale.

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

#[test]
fn shards_with_unique_merge_to_the_fundamental_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let out = nqueens()
            .args([
                "count",
                "12",
                "--unique",
                "--shard",
                &format!("{i}/3"),
                "--json",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // Shard 0 carries the rotation-fixed counts; the others have none.
        assert_eq!(report["rot180"].is_u64(), i == 0, "{report}");
        let file = dir.path().join(format!("s{i}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    let out = nqueens()
        .args(["merge", "--json"])
        .args(&files)
        .output()
        .unwrap();
    assert!(out.status.success());
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["total"], 14200);
    assert_eq!(merged["unique"], 1787);
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .success()
        .stdout("14200\n");
}

#[test]
fn merge_names_what_a_wrong_file_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let checkpoint = path("n10.ckpt");
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success();
    let merged = path("merged.json");
    let shard = nqueens()
        .args(["count", "10", "--shard", "0/1", "--json"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(path("s0.json"), &shard).unwrap();
    let whole = nqueens()
        .args(["count", "10", "--json"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(path("count.json"), &whole).unwrap();
    let merge_out = nqueens()
        .args(["merge", "--json"])
        .arg(path("s0.json"))
        .output()
        .unwrap()
        .stdout;
    std::fs::write(&merged, &merge_out).unwrap();
    std::fs::write(path("junk.json"), "hello\n").unwrap();
    std::fs::write(path("two.json"), [&shard[..], b"[1, 2]\n"].concat()).unwrap();
    let cases = [
        (
            "n10.ckpt",
            "n10.ckpt is an nqueens checkpoint, not the output of count --shard I/K --json",
        ),
        (
            "junk.json",
            "junk.json line 1 is not a shard report (expected a JSON object from count --shard I/K --json)",
        ),
        ("two.json", "two.json line 2 is not a shard report (expected a JSON object"),
        ("count.json", "count.json line 1 is the output of count without --shard, not of count --shard I/K --json"),
        ("merged.json", "merged.json line 1 is the output of merge, not of count --shard I/K --json"),
    ];
    for (name, message) in cases {
        nqueens()
            .arg("merge")
            .arg(path(name))
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::contains(message)
                    .and(predicate::str::contains('\n').count(1))
                    .and(predicate::str::contains("column").not()),
            );
    }
}

#[test]
fn estimates_of_ages_read_at_a_glance() {
    let out = nqueens()
        .args([
            "estimate",
            "32",
            "--engine",
            "backtrack",
            "--probes",
            "1000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let time = text.lines().find(|l| l.starts_with("time:")).unwrap();
    // `time:    6.54e7 years on 2 threads (95%: 5.52e7 years .. 7.57e7 years)`
    let years: Vec<&str> = time
        .split_whitespace()
        .zip(time.split_whitespace().skip(1))
        .filter(|(_, unit)| unit.starts_with("years"))
        .map(|(value, _)| value.trim_start_matches('('))
        .collect();
    assert_eq!(years.len(), 3, "{time}");
    for value in years {
        let (mantissa, exponent) = value.split_once('e').expect(time);
        assert_eq!(mantissa.len(), 4, "{time}");
        assert!(mantissa.parse::<f64>().is_ok() && exponent.parse::<u32>().unwrap() >= 3);
    }
}
