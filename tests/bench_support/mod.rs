//! Helpers shared by the bench and compare CLI tests: running the binary, the
//! bad-input contract, the fixture report, scaled copies, and verdict columns.
//!
//! Each test crate compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The `nqueens` binary of this crate.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("the nqueens binary is built")
}

/// What a run printed and its exit status.
pub struct Run {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `nqueens args` and collects what it printed.
pub fn run(args: &[&str]) -> Run {
    let output = nqueens().args(args).output().unwrap();
    Run {
        status: output.status.code(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// The bad-input contract: status 2, nothing on stdout, one line on stderr holding
/// every string of `names`.
pub fn refused(args: &[&str], names: &[&str]) {
    let r = run(args);
    assert_eq!(r.status, Some(2), "{args:?}: {}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?} printed {:?}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {:?}", r.stderr);
    for name in names {
        assert!(
            r.stderr.contains(name),
            "{args:?}: {:?} lacks {name:?}",
            r.stderr
        );
    }
}

/// `tests/data/bench-time.json`: a report measured once on the development machine
/// (`taskset -c 1 nice -n -15 nqueens bench --from 8 --to 13 --runs 20 --sample-time
/// 0.05 --threads 1 --json`), so that verdicts on scaled copies never depend on this
/// machine's load.
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-time.json")
}

/// Parses a JSON file.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes `value` as `dir/name` and returns the path.
pub fn write_json(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// `report` with every measured value multiplied by `factor`.
pub fn scaled(report: &Value, factor: f64) -> Value {
    let mut report = report.clone();
    for row in report["rows"].as_array_mut().unwrap() {
        for sample in row["samples"].as_array_mut().unwrap() {
            *sample = Value::from(sample.as_f64().unwrap() * factor);
        }
        for field in ["min", "median", "mean", "stddev", "mad"] {
            row[field] = Value::from(row[field].as_f64().unwrap() * factor);
        }
    }
    report
}

/// The verdict column of a Markdown comparison.
pub fn verdicts(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| n "))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            cells[cells.len() - 2].trim_matches('*').to_string()
        })
        .collect()
}

/// A fresh small bench report (time, one thread) as JSON text.
pub fn fresh_report(extra: &[&str]) -> String {
    let mut args = vec![
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
        "--json",
        "--no-save",
    ];
    args.extend_from_slice(extra);
    let r = run(&args);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    r.stdout
}
