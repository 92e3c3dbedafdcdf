//! Long runs from the command line: checkpoints (kill and resume), shards and merge,
//! progress on stderr, estimates.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use assert_cmd::Command as AssertCommand;
use predicates::prelude::*;

fn nqueens() -> AssertCommand {
    AssertCommand::cargo_bin("nqueens").unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = nqueens().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn killed_run_resumes_to_the_exact_total() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.ckpt");
    let run = [
        "count",
        "15",
        "--symmetry",
        "none",
        "--json",
        "--checkpoint",
    ];
    // One thread: the whole count takes a few seconds, so it is killed mid-run.
    let mut child = Command::cargo_bin("nqueens")
        .unwrap()
        .args(run)
        .arg(&file)
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while lines(&file) < 200 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let recorded = lines(&file);
    let whole = json(&["count", "15", "--symmetry", "none", "--json"]);
    let tasks = usize::try_from(whole["tasks"].as_u64().unwrap()).unwrap();
    assert!(
        recorded >= 200 && recorded <= tasks,
        "{recorded} of {tasks} lines"
    );
    // A write torn by the crash: cut off and redone.
    let mut text = std::fs::read(&file).unwrap();
    text.extend_from_slice(b"99999 123");
    std::fs::write(&file, text).unwrap();

    let resumed = json(&[&run[..], &[file.to_str().unwrap()]].concat());
    assert_eq!(resumed["total"], 2_279_184);
    assert_eq!(resumed["total"], whole["total"]);
    assert_eq!(resumed["nodes"], whole["nodes"]);
    assert_eq!(lines(&file), tasks + 1);
    // Resuming a finished run runs nothing and prints the same.
    nqueens()
        .args(["count", "15", "--symmetry", "none", "--checkpoint"])
        .arg(&file)
        .assert()
        .success()
        .stdout("2279184\n");
}

#[test]
fn foreign_and_garbage_checkpoints_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c");
    nqueens()
        .args(["count", "9", "--checkpoint"])
        .arg(&file)
        .assert()
        .success()
        .stdout("352\n");
    let before = std::fs::read(&file).unwrap();
    for other in [
        &["10"][..],
        &["9", "--symmetry", "none"],
        &["9", "--split-depth", "2"],
        &["9", "--shard", "0/2"],
    ] {
        nqueens()
            .arg("count")
            .args(other)
            .arg("--checkpoint")
            .arg(&file)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("belongs to another run"));
    }
    assert_eq!(std::fs::read(&file).unwrap(), before);

    std::fs::write(&file, "some notes\nnot a checkpoint\n").unwrap();
    nqueens()
        .args(["count", "9", "--checkpoint"])
        .arg(&file)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("not an nqueens checkpoint"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "some notes\nnot a checkpoint\n"
    );

    // A damaged record in the middle is corruption, not a torn write.
    let text = String::from_utf8(before).unwrap();
    let mut damaged: Vec<String> = text.lines().map(String::from).collect();
    damaged[3] = damaged[3].replacen(' ', " 9", 1);
    std::fs::write(&file, damaged.join("\n") + "\n").unwrap();
    nqueens()
        .args(["count", "9", "--checkpoint"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 4 is damaged"));
}

#[test]
fn shards_merge_to_the_total() {
    let dir = tempfile::tempdir().unwrap();
    let whole = json(&["count", "11", "--json"]);
    for k in [1usize, 2, 3, 7] {
        let mut files = Vec::new();
        for i in 0..k {
            let out = nqueens()
                .args(["count", "11", "--json", "--shard", &format!("{i}/{k}")])
                .output()
                .unwrap();
            assert!(out.status.success());
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                (report["shard"].as_u64(), report["shards"].as_u64()),
                (Some(i as u64), Some(k as u64))
            );
            let file = dir.path().join(format!("k{k}-{i}.json"));
            std::fs::write(&file, &out.stdout).unwrap();
            files.push(file);
        }
        nqueens()
            .arg("merge")
            .args(&files)
            .assert()
            .success()
            .stdout("2680\n");
        let merged = json(
            &[
                &["merge", "--json"][..],
                &files
                    .iter()
                    .map(|f| f.to_str().unwrap())
                    .collect::<Vec<_>>(),
            ]
            .concat(),
        );
        assert_eq!(merged["total"], whole["total"]);
        assert_eq!(merged["nodes"], whole["nodes"]);
        assert_eq!(merged["tasks"], whole["tasks"]);
    }
    let f = |name: &str| dir.path().join(name);
    // Missing, duplicated and mixed sets are refused as bad input.
    nqueens()
        .arg("merge")
        .args([f("k3-0.json"), f("k3-2.json")])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("shards missing: 1/3"));
    nqueens()
        .arg("merge")
        .args([
            f("k3-0.json"),
            f("k3-1.json"),
            f("k3-1.json"),
            f("k3-2.json"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("shard 1/3 is given twice"));
    nqueens()
        .arg("merge")
        .args([f("k3-0.json"), f("k3-1.json"), f("k7-2.json")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from another run"));
    std::fs::write(f("junk.json"), "14200\n").unwrap();
    nqueens()
        .arg("merge")
        .arg(f("junk.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "junk.json line 1 is not a shard report (expected a JSON object from count --shard I/K --json)",
        ));
}

#[test]
fn bad_shards_are_usage_errors() {
    for bad in ["3/3", "0/0", "1", "a/b", "-1/3"] {
        nqueens()
            .args(["count", "8", "--shard", bad])
            .env_remove("SLURM_ARRAY_TASK_ID")
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::contains("bad shard").and(predicate::str::contains('\n').count(1)),
            );
    }
    nqueens()
        .args(["count", "8", "--shard", "auto/4"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .assert()
        .code(2);
    let out = nqueens()
        .args(["count", "12", "--shard", "auto/4", "--json"])
        .env("JOB_COMPLETION_INDEX", "3")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["shard"], 3);
}

#[test]
fn progress_goes_to_stderr_only_when_asked() {
    // stderr is a pipe here, not a terminal: nothing unless forced.
    nqueens()
        .args(["count", "11"])
        .assert()
        .success()
        .stdout("2680\n")
        .stderr("");
    nqueens()
        .args(["count", "11", "--progress"])
        .assert()
        .success()
        .stdout("2680\n")
        .stderr(
            predicate::str::contains("tasks")
                .and(predicate::str::contains("done: 2,680 solutions")),
        );
    nqueens()
        .args(["count", "11", "--progress", "--no-progress"])
        .assert()
        .success()
        .stdout("2680\n")
        .stderr("");
}

/// The join engine's estimate times two units of each cost class, then keeps timing
/// units for `--sample-seconds` (a longer time, more units; its range is checked in
/// `statuses`).
#[test]
fn join_estimate_samples_for_the_time_given() {
    let args = |seconds: &str| {
        json(&[
            "estimate",
            "16",
            "--engine",
            "join",
            "--threads",
            "1",
            "--sample-seconds",
            seconds,
            "--json",
        ])
    };
    let only_two = args("0");
    let classes = only_two["unit_classes"].as_u64().unwrap();
    let sampled = only_two["units_sampled"].as_u64().unwrap();
    assert!(
        sampled <= 2 * classes,
        "{sampled} units of {classes} classes"
    );
    assert_eq!(only_two["sample_seconds"], 0);
    let longer = args("1");
    assert!(
        longer["units_sampled"].as_u64().unwrap() > sampled,
        "{longer} against {only_two}"
    );
    assert_eq!(longer["sample_seconds"], 1);
}

#[test]
fn estimate_is_within_its_spread() {
    let count = json(&["count", "12", "--engine", "backtrack", "--json"]);
    let real = count["nodes"].as_f64().unwrap();
    let e = json(&[
        "estimate",
        "12",
        "--engine",
        "backtrack",
        "--json",
        "--seed",
        "5",
        "--probes",
        "200000",
    ]);
    let (low, high) = (
        e["nodes_low"].as_f64().unwrap(),
        e["nodes_high"].as_f64().unwrap(),
    );
    assert!(low <= real && real <= high, "{real} not in {low}..{high}");
    assert!(e["seconds"].as_f64().unwrap() > 0.0);
    // The kernel the count runs (at n = 12 the tasks are too small for a vector one).
    assert_eq!(e["kernel"], count["kernel"]);
    assert!(e["seconds_low"].as_f64().unwrap() <= e["seconds_high"].as_f64().unwrap());
    // The same seed gives the same node estimate.
    let again = json(&[
        "estimate",
        "12",
        "--engine",
        "backtrack",
        "--json",
        "--seed",
        "5",
        "--probes",
        "200000",
    ]);
    assert_eq!(again["nodes"], e["nodes"]);
    nqueens()
        .args(["estimate", "33"])
        .assert()
        .code(2)
        .stdout("");
    nqueens()
        .args(["estimate", "12", "--probes", "0"])
        .assert()
        .code(2)
        .stdout("");
    nqueens()
        .args(["estimate", "10", "--kernel", "scalar"])
        .assert()
        .success()
        .stdout(predicate::str::contains("core-").and(predicate::str::contains("scalar kernel")));
}
