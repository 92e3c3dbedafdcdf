//! Command-line tests of `verify` and `bench`: their tables, JSON and report files, and
//! their bad input (exit status 2, one line on stderr, nothing on stdout, no files).

use crate::cli_count::{nqueens, rejects, stdout_of};
use crate::common::{self, published_total};

#[test]
fn verify_prints_a_header_and_one_row_per_n() {
    let output = nqueens().args(["verify", "--max", "10"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12, "{text}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "n",
            "total",
            "published",
            "unique",
            "published",
            "ok",
            "engine",
            "kernel",
            "seconds"
        ]
    );
    for (n, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells.len(), 9, "{line}");
        let total = published_total(n).to_string();
        let unique = common::published(n).unwrap().unique.to_string();
        assert_eq!(
            cells[..6],
            [
                n.to_string(),
                total.clone(),
                total,
                unique.clone(),
                unique,
                "ok".into()
            ]
        );
        let engine = if n >= 12 && n.is_multiple_of(2) {
            "join"
        } else {
            "backtrack"
        };
        assert_eq!(cells[6], engine, "{line}");
        assert!(["scalar", "avx2", "avx512"].contains(&cells[7]), "{line}");
        assert!(cells[8].parse::<f64>().is_ok(), "{line}");
    }
}

#[test]
fn verify_json_lists_the_rows() {
    let text = stdout_of(&["verify", "--max", "6", "--json", "--threads", "1"]);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["ok"], true);
    let rows = value["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(row["n"], n);
        assert_eq!(
            u128::from(row["total"].as_u64().unwrap()),
            published_total(n)
        );
        assert_eq!(row["ok"], true);
    }
}

#[test]
fn verify_rejects_a_max_without_published_values() {
    rejects(&["verify", "--max", "28"], &["0 to 27"]);
}

#[test]
fn bench_writes_one_json_and_one_markdown_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let output = nqueens()
        .args([
            "bench",
            "--from",
            "4",
            "--to",
            "8",
            "--threads",
            "1",
            "--runs",
            "3",
            "--out",
            out,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let table = String::from_utf8(output.stdout).unwrap();
    assert_eq!(table.lines().count(), 2 + 5, "{table}");
    // Boards this small leave too few rows below their tasks for a vector kernel.
    assert!(table.contains("| 8 | backtrack | scalar | 92 |"), "{table}");

    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let extensions: Vec<_> = files
        .iter()
        .map(|p| p.extension().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(extensions, ["json", "md"], "{files:?}");
    assert_eq!(files[0].file_stem(), files[1].file_stem());

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(json["threads"], 1);
    let rows = json["rows"].as_array().unwrap();
    let ns: Vec<u64> = rows.iter().map(|r| r["n"].as_u64().unwrap()).collect();
    assert_eq!(ns, [4, 5, 6, 7, 8]);
    for row in rows {
        let n = usize::try_from(row["n"].as_u64().unwrap()).unwrap();
        assert_eq!(
            u128::from(row["total"].as_u64().unwrap()),
            published_total(n)
        );
    }
    let markdown = std::fs::read_to_string(&files[1]).unwrap();
    assert!(
        markdown.contains("| 8 | backtrack | scalar | 92 |"),
        "{markdown}"
    );
}

#[test]
fn bench_no_save_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    let out = out.to_str().unwrap();
    let table = stdout_of(&[
        "bench",
        "--from",
        "4",
        "--to",
        "6",
        "--threads",
        "1",
        "--runs",
        "3",
        "--no-save",
        "--out",
        out,
    ]);
    assert!(table.contains("| 6 | backtrack | scalar | 4 |"), "{table}");
    assert!(!dir.path().join("reports").exists());
}

#[test]
fn bench_rejects_a_descending_ladder_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    let out = out.to_str().unwrap();
    rejects(
        &["bench", "--from", "9", "--to", "8", "--out", out],
        &["9", "8"],
    );
    rejects(&["bench", "--from", "33", "--out", out], &["0 to 32"]);
    rejects(
        &[
            "bench",
            "--from",
            "4",
            "--to",
            "5",
            "--threads",
            "0",
            "--out",
            out,
        ],
        &["1 to 4096"],
    );
    assert!(!dir.path().join("reports").exists());
}

/// `bench` checks `--split-depth` for every rung before it prints the table header.
#[test]
fn bench_bad_split_depth_prints_nothing_on_stdout() {
    rejects(
        &[
            "bench",
            "--from",
            "4",
            "--to",
            "8",
            "--split-depth",
            "9",
            "--no-save",
        ],
        &["1 to 4"],
    );
}

/// `verify --split-depth D` runs many sizes, so D is capped into each board's range; it
/// must never fail part-way after the header went to stdout.
#[test]
fn verify_with_split_depth_works_or_is_rejected_cleanly() {
    for depth in ["0", "1", "3"] {
        let output = nqueens()
            .args(["verify", "--max", "6", "--split-depth", depth])
            .output()
            .unwrap();
        let clean_rejection = output.status.code() == Some(2) && output.stdout.is_empty();
        assert!(
            output.status.success() || clean_rejection,
            "verify --split-depth {depth}: status {:?}, stdout {:?}, stderr {:?}",
            output.status.code(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
    }
}
