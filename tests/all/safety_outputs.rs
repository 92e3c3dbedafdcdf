//! Outputs that are never lost or clobbered (issue 19): a closed stdout is an error
//! (status 1) for every command that writes to it, a failed write too, while a pipe
//! closed by its reader ends quietly; two bench runs started in the same second keep
//! both reports.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::faults::{nqueens, run};

/// Runs `nqueens ARGS` with its stdout closed (`>&-`).
fn with_stdout_closed(args: &[&str]) -> std::process::Output {
    let exe = nqueens().get_program().to_owned();
    Command::new("bash")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(exe)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Saves `nqueens ARGS`'s stdout in `path`.
fn save(args: &[&str], path: &Path) {
    let out = run(args);
    assert!(out.status.success(), "{args:?}");
    std::fs::write(path, out.stdout).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_an_error_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let (shards, report) = (at("s.json"), at("b.json"));
    save(
        &["count", "8", "--json", "--shard", "0/1"],
        Path::new(&at("s.json")),
    );
    let bench = [
        "bench", "--from", "4", "--to", "4", "--runs", "1", "--warmup", "0",
    ];
    let quick = [&bench[..], &["--sample-time", "0", "--no-save"]].concat();
    save(
        &[&quick[..], &["--json"]].concat(),
        Path::new(&at("b.json")),
    );
    let commands: Vec<Vec<&str>> = vec![
        vec!["count", "12"],
        vec!["count", "12", "--json"],
        vec!["solve", "6"],
        vec!["verify", "--max", "5"],
        quick.clone(),
        vec!["estimate", "12"],
        vec!["merge", &shards],
        vec!["compare", &report, &report],
        vec!["completions", "bash"],
        vec!["man", "count"],
    ];
    for args in &commands {
        let out = with_stdout_closed(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("stdout is closed"), "{args:?}: {stderr}");
    }
    // `man --dir` writes files, not stdout.
    let out = with_stdout_closed(&["man", "--dir", &at("man")]);
    assert_eq!(out.status.code(), Some(0));
    // A discarded stdout is fine, from a shell and from a spawned process.
    let out = Command::new("bash")
        .arg("-c")
        .arg("exec \"$0\" count 8 >/dev/null")
        .arg(nqueens().get_program())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let status = nqueens()
        .args(["count", "8"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    // `/dev/null` open for reading and writing, as Python's `subprocess.DEVNULL` and
    // Node's `stdio: 'ignore'` hand it over, is an open output too.
    let out = Command::new("bash")
        .arg("-c")
        .arg("exec \"$0\" count 8 1<>/dev/null")
        .arg(nqueens().get_program())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg("import subprocess, sys; sys.exit(subprocess.run([sys.argv[1], 'count', '8'], stdout=subprocess.DEVNULL).returncode)")
        .arg(nqueens().get_program())
        .output();
    if let Ok(out) = out {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_an_error_and_a_closed_pipe_is_not() {
    // A full device: the write fails.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = nqueens()
        .args(["count", "12"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write to stdout"), "{stderr}");
    // A reader that stops early (`| head`): quiet, status 0.
    let mut child = nqueens()
        .args(["solve", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_bench_runs_in_the_same_second_keep_both_reports() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    let args = [
        "bench",
        "--from",
        "4",
        "--to",
        "4",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--sample-time",
        "0",
        "--out",
        &out,
    ];
    let start = || {
        nqueens()
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    for child in [a, b] {
        let done = child.wait_with_output().unwrap();
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
    }
    let paths: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(paths.len(), 4, "{paths:?}");
    let with = |ext: &str| {
        paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .count()
    };
    assert_eq!((with("json"), with("md")), (2, 2), "{paths:?}");
}
