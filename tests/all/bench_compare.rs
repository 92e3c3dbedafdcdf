//! Command-line tests of `compare` and `bench --baseline`: verdicts and exit statuses
//! on scaled baselines, refused and damaged reports, warnings, older reports.
//!
//! Verdicts on scaled baselines use the fixture report, never a fresh run, so they do
//! not depend on this machine's load; a fresh run is only compared with itself or with
//! copies scaled far beyond any noise.

use crate::bench_support;

use std::path::Path;

use bench_support::{fixture, fresh_report, read_json, refused, run, scaled, verdicts, write_json};
use serde_json::Value;

#[test]
fn compare_a_run_with_itself_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let text = fresh_report(&[]);
    let path = dir.path().join("run.json");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let r = run(&["compare", path, path]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    assert_eq!(verdicts(&r.stdout), ["unchanged"; 4], "{}", r.stdout);
    assert!(r.stdout.contains("| 9 |"), "{}", r.stdout);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn scaled_baselines_give_the_right_verdicts_and_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let new = fixture();
    let new = new.to_str().unwrap();
    let report = read_json(Path::new(new));
    let rows = report["rows"].as_array().unwrap().len();
    // A baseline twice as fast, 1.25 times as fast, as fast, and slower.
    for (factor, verdict, status) in [
        (0.5, "regressed", 1),
        (0.8, "regressed", 1),
        (1.0, "unchanged", 0),
        (1.25, "improved", 0),
    ] {
        let baseline = write_json(dir.path(), "old.json", &scaled(&report, factor));
        let r = run(&["compare", &baseline, new]);
        assert_eq!(r.status, Some(status), "factor {factor}: {}", r.stderr);
        assert_eq!(
            verdicts(&r.stdout),
            vec![verdict; rows],
            "factor {factor}: {}",
            r.stdout
        );
    }
    // A 25% slowdown is no regression when the threshold is 30%.
    let baseline = write_json(dir.path(), "old.json", &scaled(&report, 0.8));
    let r = run(&["compare", &baseline, new, "--threshold", "30"]);
    assert_eq!(r.status, Some(0));
    assert_eq!(verdicts(&r.stdout), vec!["unchanged"; rows]);
    // The same as JSON.
    let r = run(&["compare", &baseline, new, "--json"]);
    assert_eq!(r.status, Some(1));
    let value: Value = serde_json::from_str(&r.stdout).unwrap();
    let row = &value["rows"][0];
    assert!(
        (row["ratio"].as_f64().unwrap() - 1.25).abs() < 1e-9,
        "{row}"
    );
    assert!(row["low"].as_f64() > Some(1.05) && row["high"].as_f64() >= row["ratio"].as_f64());
    assert_eq!(row["verdict"], "regressed");
}

#[test]
fn mismatched_reports_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_json(&fixture());
    let new = write_json(dir.path(), "new.json", &report);

    let mut fewer = report.clone();
    fewer["rows"].as_array_mut().unwrap().pop();
    let fewer = write_json(dir.path(), "fewer.json", &fewer);
    refused(&["compare", &fewer, &new], &["rows n =", "--from and --to"]);

    let mut mirror = report.clone();
    mirror["symmetry"] = Value::from("mirror");
    let mirror = write_json(dir.path(), "mirror.json", &mirror);
    refused(
        &["compare", &mirror, &new],
        &["symmetry mode mirror", "full"],
    );

    let mut counted = report.clone();
    counted["measure"] = Value::from("instructions");
    let counted = write_json(dir.path(), "counted.json", &counted);
    refused(&["compare", &counted, &new], &["instructions", "--measure"]);

    let mut wrong = report.clone();
    wrong["rows"][0]["total"] = Value::from(93);
    let wrong = write_json(dir.path(), "wrong.json", &wrong);
    refused(&["compare", &wrong, &new], &["totals differ"]);
}

#[test]
fn damaged_or_foreign_files_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = fixture();
    let good = good.to_str().unwrap();
    let text = std::fs::read_to_string(good).unwrap();
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let count = dir.path().join("count.json");
    std::fs::write(&count, "{\"n\":8,\"total\":92,\"nodes\":586}\n").unwrap();
    let words = dir.path().join("words.json");
    std::fs::write(&words, "hello\n").unwrap();
    let missing = dir.path().join("missing.json");
    for (path, why) in [
        (&cut, "not valid JSON"),
        (&count, "not an nqueens bench report"),
        (&words, "not valid JSON"),
        (&missing, "cannot read"),
    ] {
        let path = path.to_str().unwrap();
        refused(&["compare", path, good], &[path, why]);
        refused(&["compare", good, path], &[path, why]);
    }
}

#[test]
fn other_machines_and_kernels_bring_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_json(&fixture());
    let new = write_json(dir.path(), "new.json", &report);
    let mut other = report.clone();
    other["machine"]["cpu"] = Value::from("Some Other CPU");
    other["kernel"] = Value::from("scalar");
    let other = write_json(dir.path(), "other.json", &other);
    let r = run(&["compare", &other, &new]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("warning: different machines"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("warning: different kernels: scalar and"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("> warning: different machines"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_older_reports_in_results_still_compare() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let old = results.join("bench-20261122T060120-vm-full-avx512-t1.json");
    let old = old.to_str().unwrap();
    let r = run(&["compare", old, old]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    assert_eq!(verdicts(&r.stdout).len(), 9);
}

#[test]
fn bench_with_a_baseline_gives_a_verdict_and_a_status() {
    let dir = tempfile::tempdir().unwrap();
    let report: Value = serde_json::from_str(&fresh_report(&[])).unwrap();
    let args = |baseline: &str| {
        vec![
            "bench",
            "--from",
            "6",
            "--to",
            "9",
            "--threads",
            "1",
            "--runs",
            "5",
            "--sample-time",
            "0.005",
            "--no-save",
            "--baseline",
        ]
        .into_iter()
        .map(str::to_string)
        .chain([baseline.to_string()])
        .collect::<Vec<String>>()
    };
    // A baseline a thousand times faster: every row regressed, status 1.
    let fast = write_json(dir.path(), "fast.json", &scaled(&report, 0.001));
    let a = args(&fast);
    let r = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert_eq!(
        verdicts(r.stdout.split("### ").nth(1).unwrap()),
        ["regressed"; 4]
    );
    // A thousand times slower: every row improved, status 0.
    let slow = write_json(dir.path(), "slow.json", &scaled(&report, 1000.0));
    let a = args(&slow);
    let r = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    assert_eq!(
        verdicts(r.stdout.split("### ").nth(1).unwrap()),
        ["improved"; 4]
    );
    // A baseline over other sizes is refused before anything runs.
    refused(
        &[
            "bench",
            "--from",
            "6",
            "--to",
            "8",
            "--no-save",
            "--baseline",
            &fast,
        ],
        &["rows n = 6..9 with rows n = 6..8"],
    );
}
