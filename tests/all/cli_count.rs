//! Command-line tests of the `nqueens` binary: `count`, its output formats, and the
//! handling of bad input (exit status 2, one line on stderr, nothing on stdout, no
//! files); its helpers serve `verify_bench_cli` too.

use crate::common;

use assert_cmd::Command;
use common::{check_count_json, options};
use nqueens::Symmetry;

/// The `nqueens` binary of this crate.
pub(crate) fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("the nqueens binary is built")
}

/// Runs `nqueens args`, expects success, and returns stdout.
pub(crate) fn stdout_of(args: &[&str]) -> String {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// Runs `nqueens args --json` (a `count`) and parses its one line of JSON.
pub(crate) fn count_json(args: &[&str]) -> serde_json::Value {
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let text = stdout_of(&with_json);
    assert!(text.ends_with('\n'), "{text:?}");
    assert_eq!(text.lines().count(), 1, "{text:?}");
    serde_json::from_str(&text).expect("count --json prints JSON")
}

/// Checks the bad-input contract for `nqueens args`: exit status 2, nothing on
/// stdout, exactly one line on stderr, containing every string of `names`.
pub(crate) fn rejects(args: &[&str], names: &[&str]) {
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
    assert_eq!(stdout_of(&["-V"]), version);
    // The long version also says what this processor runs.
    let long = stdout_of(&["--version"]);
    assert!(long.starts_with(&version), "{long}");
    assert!(long.contains("kernels here: scalar"), "{long}");
}

// ---------------------------------------------------------------------------------
// Regressions: option checks that must happen before anything is printed, and the
// ranges named for out-of-range or negative option values.
// ---------------------------------------------------------------------------------

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
