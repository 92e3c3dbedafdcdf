//! Command-line tests of `bench` reports: the schema 3 JSON on stdout, bad repetition
//! settings, the plot (valid SVG with the expected series), the build named by
//! `verify --json` and `count --json`, and the stability of the instruction-count
//! measure.

use crate::bench_support;

use std::path::Path;

use bench_support::{fixture, fresh_report, read_json, refused, run, scaled, write_json};
use serde_json::Value;

#[test]
fn bench_json_is_a_schema_3_report_on_stdout() {
    let text = fresh_report(&[]);
    let report: Value = serde_json::from_str(&text).expect("stdout is one JSON report");
    assert_eq!(report["schema"], 3);
    assert_eq!(report["engine"], "auto");
    assert_eq!(report["measure"], "time");
    assert_eq!(report["runs"], 5);
    assert_eq!(report["warmup"], 1);
    assert_eq!(report["threads"], 1);
    let machine = &report["machine"];
    for field in [
        "host",
        "cpu",
        "logical_cpus",
        "os",
        "arch",
        "vector_features",
    ] {
        assert!(
            !machine[field].is_null(),
            "machine lacks {field}: {machine}"
        );
    }
    assert_eq!(report["build"]["version"], nqueens::VERSION);
    if let Some(commit) = nqueens::COMMIT {
        assert_eq!(report["build"]["commit"], commit);
    }
    assert!(report["build"]["rustc"]
        .as_str()
        .unwrap()
        .starts_with("rustc "));
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        assert_eq!(row["samples"].as_array().unwrap().len(), 5);
        assert!(row["engine"].is_string(), "{row}");
        assert!(row["work"].as_u64().is_some(), "{row}");
        for field in ["min", "median", "mean", "stddev", "mad", "work_per_second"] {
            assert!(row[field].as_f64().is_some(), "row lacks {field}: {row}");
        }
        assert!(row["min"].as_f64() <= row["median"].as_f64());
    }
    // Seconds to the nanosecond at most: no float noise such as 2.5035536929999997.
    for number in text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-')) {
        if let Some((_, decimals)) = number.split_once('.') {
            assert!(decimals.len() <= 9, "{number} has float noise");
        }
    }
}

/// The SVG of a plot: its legend texts and the number of markers of each colour.
fn parse_plot(path: &Path) -> (Vec<String>, Vec<usize>) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the plot is valid XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    let mut colours: Vec<(String, usize)> = Vec::new();
    // Each marker is a filled circle (plotters adds an outline with fill="none").
    for circle in doc.descendants().filter(|n| n.has_tag_name("circle")) {
        let fill = circle.attribute("fill").unwrap_or("none").to_string();
        if fill == "none" {
            continue;
        }
        match colours.iter_mut().find(|(c, _)| *c == fill) {
            Some((_, count)) => *count += 1,
            None => colours.push((fill, 1)),
        }
    }
    (texts, colours.into_iter().map(|(_, count)| count).collect())
}

#[test]
fn the_plot_is_svg_with_one_series_per_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_json(&fixture());
    let rows = report["rows"].as_array().unwrap().len();
    let new = write_json(dir.path(), "new.json", &report);
    let old = write_json(dir.path(), "old.json", &scaled(&report, 0.9));
    let svg = dir.path().join("both.svg");
    let plot = svg.to_str().unwrap();
    let r = run(&["compare", &old, &new, "--threshold", "50", "--plot", plot]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    let (texts, markers) = parse_plot(&svg);
    // Both reports' series, and the ratio panel's.
    assert_eq!(markers, [rows, rows, rows], "{texts:?}");
    assert!(
        texts.iter().any(|t| t.starts_with("baseline ")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.starts_with("new ")), "{texts:?}");
    assert!(texts.iter().any(|t| t == "board size n"), "{texts:?}");
    assert!(
        texts.iter().any(|t| t == "seconds (log scale)"),
        "{texts:?}"
    );

    // bench --plot alone draws one series.
    let single = dir.path().join("one.svg");
    let r = run(&[
        "bench",
        "--from",
        "5",
        "--to",
        "8",
        "--threads",
        "1",
        "--runs",
        "2",
        "--sample-time",
        "0.001",
        "--no-save",
        "--plot",
        single.to_str().unwrap(),
    ]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    let (_, markers) = parse_plot(&single);
    assert_eq!(markers, [4]);
}

#[test]
fn bench_rejects_bad_repetition_settings() {
    refused(
        &["bench", "--runs", "0", "--no-save"],
        &["--runs", "1 to 1000"],
    );
    refused(&["bench", "--warmup", "-1", "--no-save"], &["--warmup"]);
    refused(
        &["bench", "--sample-time", "x", "--no-save"],
        &["--sample-time"],
    );
    refused(
        &["compare", "a.json", "b.json", "--threshold", "-5"],
        &["--threshold"],
    );
    refused(
        &[
            "bench",
            "--measure",
            "instructions",
            "--threads",
            "2",
            "--no-save",
        ],
        &["one thread", "--threads"],
    );
}

#[test]
fn verify_and_count_json_name_their_build() {
    let r = run(&["verify", "--max", "8", "--threads", "1", "--json"]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    let value: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(value["threads"], 1);
    assert!(value["kernel"].is_string());
    assert_eq!(value["symmetry"], "full");
    assert_eq!(value["version"], nqueens::VERSION);
    assert_eq!(value["rows"][8]["total"], 92);
    assert!(value["rows"][8].get("computed").is_none());
    let r = run(&["count", "10", "--json"]);
    let count: Value = serde_json::from_str(&r.stdout).unwrap();
    match nqueens::COMMIT {
        Some(commit) => {
            assert_eq!(value["commit"], commit);
            assert_eq!(count["commit"], commit);
        }
        None => assert!(value.get("commit").is_none() && count.get("commit").is_none()),
    }
}

/// Five runs of the same build under callgrind: the instruction counts agree within
/// 0.5% (they agree to within a few hundred instructions). Skipped, with a message,
/// where valgrind is missing.
#[test]
fn instruction_counts_are_stable() {
    let r = run(&[
        "bench",
        "--measure",
        "instructions",
        "--from",
        "9",
        "--to",
        "10",
        "--runs",
        "5",
        "--json",
        "--no-save",
    ]);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    if report["measure"] == "time" {
        // Written to the stream itself, past the test harness's capture, so that the
        // skip shows in every run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED instruction_counts_are_stable: {}",
            r.stderr.trim()
        );
        assert!(r.stderr.contains("measuring time instead"), "{}", r.stderr);
        return;
    }
    assert_eq!(report["measure"], "instructions");
    assert_eq!(report["threads"], 1);
    for row in report["rows"].as_array().unwrap() {
        #[allow(
            clippy::cast_precision_loss,
            reason = "instruction counts of small boards, far below 2^53"
        )]
        let samples: Vec<f64> = row["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().expect("instruction counts are integers") as f64)
            .collect();
        assert_eq!(samples.len(), 5);
        let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
        let max = samples.iter().copied().fold(0.0, f64::max);
        let spread = (max - min) / min;
        eprintln!(
            "n = {}: instruction spread {:.4}%",
            row["n"],
            spread * 100.0
        );
        assert!(min > 0.0 && spread < 0.005, "n = {}: {samples:?}", row["n"]);
    }
    // The CI gate: compared with itself, unchanged; against a baseline that did 2% less
    // work, regressed at a 1% threshold.
    let dir = tempfile::tempdir().unwrap();
    let path = write_json(dir.path(), "counted.json", &report);
    let svg = dir.path().join("counted.svg");
    let gate = |baseline: &str| {
        run(&[
            "compare",
            baseline,
            &path,
            "--threshold",
            "1",
            "--plot",
            svg.to_str().unwrap(),
        ])
    };
    let r = gate(&path);
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains("instructions against the baseline"),
        "{}",
        r.stdout
    );
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("instructions (log scale)"));
    let lighter = write_json(dir.path(), "lighter.json", &scaled(&report, 1.0 / 1.02));
    let r = gate(&lighter);
    assert_eq!(r.status, Some(1), "{}", r.stdout);
    assert!(r.stdout.contains("2 regressed"), "{}", r.stdout);
}
