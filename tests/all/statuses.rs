//! One rule for exit statuses, on every command: a file that cannot be used (missing,
//! unreadable, a folder, not a regular file) and a bad value are exit status 2, one
//! line on stderr naming the path or the value, nothing on stdout, nothing left
//! behind; with `--json` that line is one JSON object. Checks that must come before
//! any work (bench's `--out` and `--plot`, `verify --split-depth 0`) are here too.
//!
//! "Unreadable" is a file with mode 000; where that is still readable (tests run as
//! root), a procfs file that even root cannot read (`/proc/sys/vm/drop_caches`, mode
//! 0200) stands in for it; where neither exists the case is skipped with a note.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Runs `args`, expects exit status 2 with one line on stderr containing `needle`
/// and nothing on stdout; returns the line.
fn refused(args: &[&str], needle: &str) -> String {
    let out = nqueens()
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    err
}

/// A file this process cannot read, if one can be had (see the module doc).
fn unreadable(dir: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let file = dir.join("locked.json");
    std::fs::write(&file, "{}").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&file).is_err() {
        return Some(file);
    }
    let proc_file = PathBuf::from("/proc/sys/vm/drop_caches");
    if proc_file.exists() && std::fs::read(&proc_file).is_err() {
        return Some(proc_file);
    }
    eprintln!("note: no unreadable file can be made here: that case is skipped");
    None
}

/// A valid bench report to pair with a bad one.
fn good_report(dir: &Path) -> PathBuf {
    let out = nqueens()
        .args([
            "bench",
            "--from",
            "4",
            "--to",
            "5",
            "--runs",
            "1",
            "--json",
            "--no-save",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let file = dir.join("good.json");
    std::fs::write(&file, &out.stdout).unwrap();
    file
}

#[test]
fn files_that_cannot_be_used_are_exit_2_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let good = good_report(dir.path());
    let good = good.to_str().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut cases: Vec<(PathBuf, &str)> = vec![
        (dir.path().join("missing/x.json"), "does not exist"),
        (dir.path().to_path_buf(), "is a folder, not a regular file"),
        (
            PathBuf::from("/dev/null"),
            "a character device, not a regular file",
        ),
        (fifo.clone(), "a FIFO, not a regular file"),
    ];
    if let Some(file) = unreadable(dir.path()) {
        cases.push((file, "permission denied"));
    }
    for (path, problem) in &cases {
        let p = path.to_str().unwrap();
        let start = Instant::now();
        refused(&["merge", p], problem);
        refused(&["compare", p, good], problem);
        refused(&["compare", good, p], problem);
        let bench = [
            "bench",
            "--from",
            "4",
            "--to",
            "5",
            "--runs",
            "1",
            "--no-save",
        ];
        refused(&[&bench[..], &["--baseline", p]].concat(), problem);
        refused(&[&bench[..], &["--against", p]].concat(), problem);
        if path.exists() {
            // A checkpoint in a missing folder is the checkpoint's own case below.
            refused(&["count", "8", "--checkpoint", p], problem);
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{p}: slow refusal"
        );
    }
    let missing = dir.path().join("missing/run.ckpt");
    let line = refused(
        &["count", "8", "--checkpoint", missing.to_str().unwrap()],
        "does not exist",
    );
    assert!(line.contains("checkpoint"), "{line}");
    // Nothing was left behind: no lock note beside a refused checkpoint.
    let fifo_note = format!("{}.owner", fifo.display());
    assert!(!Path::new(&fifo_note).exists());
    assert!(!Path::new("/dev/null.owner").exists());
}

#[test]
fn outputs_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let file = file.to_str().unwrap();
    let missing_plot = dir.path().join("missing/x.svg");
    // A ladder up to 16 would take seconds: the refusals come first, at once.
    let ladder = ["bench", "--from", "14", "--to", "16", "--runs", "3"];
    let start = Instant::now();
    refused(&[&ladder[..], &["--out", file]].concat(), "not a folder");
    refused(
        &[
            &ladder[..],
            &["--no-save", "--plot", missing_plot.to_str().unwrap()],
        ]
        .concat(),
        "does not exist",
    );
    refused(
        &[
            &ladder[..],
            &["--no-save", "--plot", dir.path().to_str().unwrap()],
        ]
        .concat(),
        "a folder",
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the ladder ran first"
    );
    let good = good_report(dir.path());
    let good = good.to_str().unwrap();
    refused(
        &[
            "compare",
            good,
            good,
            "--plot",
            missing_plot.to_str().unwrap(),
        ],
        "does not exist",
    );
    refused(&["man", "--dir", file], "it is a file, not a folder");
    refused(&["man", "--dir", "/dev/null"], "not a folder");
    assert!(!dir.path().join("missing").exists());
}

#[test]
fn bad_values_are_exit_2_on_every_command() {
    refused(&["count", "33"], "from 0 to 32");
    refused(&["count", "10", "--split-depth", "0"], "from 1 to 10");
    refused(
        &["verify", "--max", "8", "--split-depth", "0"],
        "split depth 0 is out of range",
    );
    refused(
        &["bench", "--to", "8", "--split-depth", "0"],
        "split depth 0 is out of range",
    );
    refused(
        &["solve", "4", "--format", "x"],
        "board, leetcode, columns, jsonl",
    );
    refused(&["estimate", "10", "--probes", "0"], "probe count");
    refused(&["estimate", "10", "--probes", "-1"], "probe count");
    refused(
        &["estimate", "10", "--shard-hours", "-1"],
        "from 0.01 to 100000",
    );
    for seconds in ["604801", "-1", "5m", "1.5", ""] {
        refused(
            &["estimate", "16", "--sample-seconds", seconds],
            "sampling time in seconds must be an integer from 0 to 604800",
        );
    }
    refused(&["count", "8", "-j", "0"], "from 1 to 4096");
    refused(
        &["compare", "a", "b", "--threshold", "-1"],
        "percentage from 0 to 1000",
    );
    refused(&["man", "nosuch"], "the commands are count");
    refused(&["completions", "tcsh"], "possible values");
    refused(
        &["count", "8", "--kernel", "x"],
        "auto, scalar, avx2, avx512",
    );
}

#[test]
fn not_our_format_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello\n").unwrap();
    let text = text.to_str().unwrap();
    refused(&["merge", text], "not a shard report");
    refused(&["compare", text, text], "not valid JSON");
    refused(
        &["count", "8", "--checkpoint", text],
        "not an nqueens checkpoint",
    );
    refused(
        &[
            "bench",
            "--to",
            "8",
            "--runs",
            "1",
            "--no-save",
            "--against",
            "/bin/true",
        ],
        "not an nqueens binary",
    );
    refused(
        &[
            "bench",
            "--to",
            "8",
            "--runs",
            "1",
            "--no-save",
            "--against",
            text,
        ],
        "not executable",
    );
}

#[test]
fn with_json_an_error_is_one_json_object_and_the_status_is_kept() {
    for args in [
        &["count", "33", "--json"][..],
        &["merge", "/nonexistent/x.json", "--json"][..],
        &[
            "count",
            "8",
            "--json",
            "--checkpoint",
            "/nonexistent/dir/x.ckpt",
        ][..],
    ] {
        let line = refused(args, "\"status\":2");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert!(
            value["error"]
                .as_str()
                .is_some_and(|e| !e.starts_with("error:")),
            "{value}"
        );
        assert_eq!(value["status"], 2);
    }
}
