//! Command-line tests of the `nqueens` binary: `count`, `verify` and `bench`, their
//! output formats, and the handling of bad input (exit status 2, one line on stderr,
//! nothing on stdout, no files).

use crate::common;

use assert_cmd::Command;
use common::{check_count_json, options, published_total};
use nqueens::Symmetry;

/// The `nqueens` binary of this crate.
fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("the nqueens binary is built")
}

/// Runs `nqueens args`, expects success, and returns stdout.
fn stdout_of(args: &[&str]) -> String {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// Runs `nqueens args --json` (a `count`) and parses its one line of JSON.
fn count_json(args: &[&str]) -> serde_json::Value {
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let text = stdout_of(&with_json);
    assert!(text.ends_with('\n'), "{text:?}");
    assert_eq!(text.lines().count(), 1, "{text:?}");
    serde_json::from_str(&text).expect("count --json prints JSON")
}

/// Checks the bad-input contract for `nqueens args`: exit status 2, nothing on
/// stdout, exactly one line on stderr, containing every string of `names`.
fn rejects(args: &[&str], names: &[&str]) {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{args:?} printed on stdout: {:?}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(stderr.ends_with('\n'), "{args:?}: {stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    assert!(!stderr.trim().is_empty(), "{args:?}: empty message");
    for name in names {
        assert!(stderr.contains(name), "{args:?}: {stderr:?} lacks {name:?}");
    }
}

#[test]
fn count_prints_the_total_alone() {
    let output = nqueens().args(["count", "8"]).output().unwrap();
    assert!(output.status.success());
    assert_eq!(output.stdout, b"92\n");
    assert!(output.stderr.is_empty());
    for (n, total) in [("0", "1\n"), ("1", "1\n"), ("2", "0\n"), ("3", "0\n")] {
        assert_eq!(stdout_of(&["count", n]), total, "count {n}");
    }
    assert_eq!(stdout_of(&["count", "13", "--threads", "2"]), "73712\n");
}

#[test]
fn count_json_has_every_field_with_exact_integers() {
    let value = count_json(&["count", "12"]);
    assert_eq!(value["n"], 12);
    assert_eq!(value["total"], 14_200);
    assert!(value["threads"].as_u64().unwrap() >= 1);
    assert!(value["tasks"].as_u64().unwrap() >= 1);
    assert_eq!(value["engine"], "join");
    assert!(value["pairs"].as_u64().unwrap() >= 14_200 / 8);
    let value = count_json(&["count", "12", "--engine", "backtrack"]);
    assert!(value["nodes"].as_u64().unwrap() >= 14_200);
    assert_eq!(value["version"], nqueens::VERSION);

    for symmetry in Symmetry::ALL {
        let value = count_json(&[
            "count",
            "12",
            "--threads",
            "2",
            "--split-depth",
            "4",
            "--symmetry",
            symmetry.name(),
        ]);
        let library = nqueens::count(12, &options(2, symmetry, Some(4))).unwrap();
        check_count_json(&value, &library);
    }
}

#[test]
fn json_total_is_an_integer_literal() {
    let text = stdout_of(&["count", "12", "--threads", "1", "--json"]);
    assert!(text.contains("\"total\":14200"), "{text}");
}

#[test]
fn threads_flag_sets_the_pool_size() {
    for threads in [1u64, 2, 3] {
        let t = threads.to_string();
        let value = count_json(&["count", "10", "--threads", &t]);
        assert_eq!(value["total"], 724);
        assert_eq!(value["threads"], threads);
    }
}

#[test]
fn symmetry_flag_accepts_every_mode() {
    for symmetry in Symmetry::ALL {
        let name = symmetry.name();
        assert_eq!(
            stdout_of(&["count", "10", "--symmetry", name]),
            "724\n",
            "{name}"
        );
        let value = count_json(&["count", "11", "--symmetry", name, "--threads", "2"]);
        assert_eq!(value["symmetry"], name);
        assert_eq!(value["total"], 2_680);
    }
}

#[test]
fn symmetry_none_counts_the_whole_tree() {
    for (n, nodes) in [("10", 35_538), ("12", 856_188)] {
        for threads in ["1", "2"] {
            let value = count_json(&["count", n, "--symmetry", "none", "--threads", threads]);
            assert_eq!(value["nodes"], nodes, "n = {n}, {threads} threads");
        }
    }
}

#[test]
fn split_depth_flag_sets_the_depth() {
    for depth in 1..=10u64 {
        let d = depth.to_string();
        let value = count_json(&["count", "10", "--split-depth", &d, "--threads", "2"]);
        assert_eq!(value["total"], 724, "depth {depth}");
        assert_eq!(value["split_depth"], depth);
    }
    assert_eq!(stdout_of(&["count", "0", "--split-depth", "0"]), "1\n");
}

#[test]
fn bad_board_sizes_are_rejected() {
    rejects(&["count", "abc"], &["0 to 32"]);
    rejects(&["count", "-1"], &["0 to 32"]);
    rejects(&["count", "33"], &["0 to 32"]);
    rejects(&["count", "8.5"], &["0 to 32"]);
    rejects(&["count", ""], &["0 to 32"]);
    rejects(&["count"], &["0 to 32"]);
}

#[test]
fn bad_thread_counts_are_rejected() {
    rejects(&["count", "8", "--threads", "0"], &["1 to 4096"]);
    rejects(&["count", "8", "--threads", "4097"], &["1 to 4096"]);
    rejects(&["count", "8", "--threads", "-2"], &["-2"]);
    rejects(&["count", "8", "--threads", "many"], &["1 to 4096"]);
}

#[test]
fn bad_split_depths_are_rejected() {
    rejects(&["count", "8", "--split-depth", "9"], &["1 to 8"]);
    rejects(&["count", "8", "--split-depth", "0"], &["1 to 8"]);
    rejects(&["count", "12", "--split-depth", "13"], &["1 to 12"]);
}

#[test]
fn bad_symmetry_names_every_mode() {
    let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
    rejects(&["count", "8", "--symmetry", "diagonal"], &names);
    rejects(&["count", "8", "--symmetry", ""], &names);
}

#[test]
fn unknown_flags_and_extra_arguments_are_rejected() {
    rejects(&["count", "8", "--bogus"], &["--bogus"]);
    rejects(&["count", "8", "9"], &["9"]);
    rejects(&["count", "8", "--threads"], &["--threads"]);
    rejects(&["frobnicate"], &["frobnicate"]);
}

#[test]
fn help_and_version_succeed() {
    assert!(stdout_of(&["--help"]).contains("count"));
    assert!(stdout_of(&["count", "--help"]).contains("--symmetry"));
    let version = match nqueens::COMMIT {
        Some(commit) => format!("nqueens {} (commit {commit})\n", nqueens::VERSION),
        None => format!("nqueens {}\n", nqueens::VERSION),
    };
    assert_eq!(stdout_of(&["--version"]), version);
}

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

// ---------------------------------------------------------------------------------
// Regressions: option checks that must happen before anything is printed, and the
// ranges named for out-of-range or negative option values.
// ---------------------------------------------------------------------------------

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

/// A split depth above 32 names the range that N accepts (1 to N), not a parser range.
#[test]
fn split_depth_above_32_names_the_real_range() {
    rejects(&["count", "8", "--split-depth", "33"], &["1 to 8"]);
}

/// A negative `--threads` or `--split-depth` reaches the range check (not clap's
/// unknown-flag error), so the message names the accepted range.
#[test]
fn negative_option_values_name_the_range() {
    rejects(&["count", "8", "--threads", "-2"], &["1 to 4096"]);
    rejects(&["count", "8", "--split-depth", "-1"], &["1 to 8"]);
}

#[test]
fn every_kernel_gives_the_same_count_and_nodes() {
    let scalar = count_json(&["count", "13", "--kernel", "scalar", "--threads", "2"]);
    assert_eq!(scalar["kernel"], "scalar");
    assert_eq!(scalar["total"], 73_712);
    let auto = count_json(&["count", "13", "--kernel", "auto", "--threads", "2"]);
    let resolved = nqueens::Kernel::Auto.resolved().unwrap();
    assert_eq!(auto["kernel"], resolved.name());
    assert_eq!(
        (&auto["total"], &auto["nodes"]),
        (&scalar["total"], &scalar["nodes"])
    );
    for kernel in [nqueens::Kernel::Avx2, nqueens::Kernel::Avx512] {
        let name = kernel.name();
        if kernel.is_supported() {
            let value = count_json(&["count", "13", "--kernel", name, "--unique"]);
            assert_eq!(value["kernel"], name);
            assert_eq!(value["unique"], 9_233);
            assert_eq!(value["nodes"], scalar["nodes"]);
        } else {
            let needs = kernel.needs();
            rejects(
                &["count", "13", "--kernel", name],
                &[needs, "--kernel auto"],
            );
            rejects(&["verify", "--kernel", name], &[needs]);
            rejects(&["bench", "--no-save", "--kernel", name], &[needs]);
        }
    }
}

#[test]
fn bad_kernel_names_every_kernel() {
    rejects(
        &["count", "8", "--kernel", "sse2"],
        &["sse2", "auto", "scalar", "avx2", "avx512"],
    );
    rejects(&["verify", "--kernel", ""], &["auto, scalar, avx2, avx512"]);
}
