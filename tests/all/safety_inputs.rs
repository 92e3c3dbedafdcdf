//! Inputs read with a bound (issue 19): `--checkpoint`, `merge`, `audit`, `compare`
//! and `bench --baseline` refuse `/dev/zero`, a FIFO (without hanging) and a folder, and
//! refuse a 100 MB file that is not theirs within a second and in little memory (under
//! a 100 MB address-space limit, where reading it whole could not even start).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::faults::nqueens;

/// How long a refusal may take (it takes milliseconds; a hang takes forever).
const PATIENCE: Duration = Duration::from_secs(10);

/// The commands that read `input`, each expected to refuse it.
fn readers(input: &Path) -> Vec<Vec<String>> {
    let input = input.display().to_string();
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    vec![
        words(&["count", "10", "--checkpoint", &input]),
        words(&["merge", &input]),
        words(&["audit", &input]),
        words(&["compare", &input, &input]),
        words(&[
            "bench",
            "--from",
            "8",
            "--to",
            "8",
            "--runs",
            "1",
            "--no-save",
            "--baseline",
            &input,
        ]),
    ]
}

/// Runs `nqueens ARGS` (under `ulimit -v KIB` when given), killed after [`PATIENCE`]:
/// its output and how long it took.
fn run_bounded(args: &[String], limit_kib: Option<u64>) -> (Output, Duration) {
    let exe = nqueens().get_program().to_owned();
    let mut command = match limit_kib {
        Some(kib) => {
            let mut c = Command::new("bash");
            c.arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    let start = Instant::now();
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nqueens {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = start.elapsed();
    (child.wait_with_output().unwrap(), elapsed)
}

/// Every reader of `input` refuses it: exit 2, one line holding `words`, nothing on
/// stdout; returns the longest time one took.
fn all_refuse(input: &Path, words: &str, limit_kib: Option<u64>) -> Duration {
    let mut longest = Duration::ZERO;
    for args in readers(input) {
        let (out, took) = run_bounded(&args, limit_kib);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        longest = longest.max(took);
    }
    longest
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_folders_are_refused() {
    all_refuse(
        Path::new("/dev/zero"),
        "is a character device, not a regular file",
        None,
    );
    let dir = tempfile::tempdir().unwrap();
    all_refuse(dir.path(), "is a folder, not a regular file", None);
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo failed");
    all_refuse(&fifo, "is a FIFO", None);
}

#[test]
fn a_large_file_is_refused_quickly_and_unread() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big");
    // 100 MB of zeros (sparse where the filesystem can).
    std::fs::File::create(&big)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let limit = cfg!(target_os = "linux").then_some(100 << 10);
    for args in readers(&big) {
        let (out, took) = run_bounded(&args, limit);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        let expected = if args[0] == "count" || args[0] == "audit" {
            "is not an nqueens checkpoint"
        } else {
            "is 104857600 bytes, more than the 67108864 bytes (64 MiB)"
        };
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(took < Duration::from_secs(1), "{args:?} took {took:?}");
    }
    assert_eq!(std::fs::metadata(&big).unwrap().len(), 100 << 20);
}
