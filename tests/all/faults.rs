//! Fault tests of long runs: what a run survives. Each is bounded in time: a run is
//! killed, stopped or refused within seconds, and n = 17 on one thread (a few seconds)
//! is the longest count here.
//!
//! - kill -9 at ten moments of one checkpointed run, every resume exact;
//! - two concurrent runs on one checkpoint: one runs, the other is refused;
//! - SIGTERM, SIGINT and SIGHUP, then resume (n = 16); tasks in flight given up after
//!   the grace; without a checkpoint, a stop at once;
//!
//! What a run's files survive (a full disk, tampered shard reports) is in
//! `faults_files`.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

/// The published count of n = 17.
pub(crate) const TOTAL_17: u64 = 95_815_104;

/// The published count of n = 16.
pub(crate) const TOTAL_16: u64 = 14_772_512;

pub(crate) fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Starts `nqueens args...` with its output captured.
pub(crate) fn start(args: &[&str]) -> Child {
    nqueens()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `nqueens args...` to the end.
pub(crate) fn run(args: &[&str]) -> Output {
    nqueens().args(args).output().unwrap()
}

/// The JSON printed by a successful run.
pub(crate) fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The task records in a checkpoint file (its lines but the header).
pub(crate) fn records(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// Waits until `path` records at least `at_least` tasks (at most 60 s).
pub(crate) fn wait_for_records(path: &Path, at_least: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while records(path) < at_least && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Sends signal `name` (`TERM`, `INT`, `HUP`) to `child`.
pub(crate) fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args(["-s", name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The checkpointed count of `n` on one thread, with JSON output.
fn checkpointed(n: usize, file: &Path) -> Vec<String> {
    let n = n.to_string();
    ["count", &n, "--threads", "1", "--json", "--checkpoint"]
        .iter()
        .map(ToString::to_string)
        .chain([file.display().to_string()])
        .collect()
}

/// The checkpointed count of n = 17 on one thread (a few seconds).
fn count_17(file: &Path) -> Vec<String> {
    checkpointed(17, file)
}

/// The checkpointed count of n = 16 on one thread (under a second).
fn count_16(file: &Path) -> Vec<String> {
    checkpointed(16, file)
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A count's work: its `nodes` (backtracking engine) and `pairs` (join engine), one of
/// them null.
pub(crate) fn work(count: &Value) -> (Value, Value) {
    (count["nodes"].clone(), count["pairs"].clone())
}

/// The work and tasks of the count of `n` (a plain run, made once per test binary).
pub(crate) fn reference(n: usize) -> ((Value, Value), u64) {
    static COUNTS: std::sync::Mutex<Vec<(usize, Value)>> = std::sync::Mutex::new(Vec::new());
    let mut counts = COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let whole = if let Some((_, whole)) = counts.iter().find(|(m, _)| *m == n) {
        whole.clone()
    } else {
        let whole = json(&run(&["count", &n.to_string(), "--json"]));
        counts.push((n, whole.clone()));
        whole
    };
    let work = work(&whole);
    assert!(
        work.0.is_u64() != work.1.is_u64(),
        "nodes or pairs: {whole}"
    );
    (work, whole["tasks"].as_u64().unwrap())
}

#[test]
fn kill_9_at_ten_moments_then_every_resume_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n17.ckpt");
    let args = count_17(&file);
    let (expected_work, tasks) = reference(17);
    // Ten kill moments from a fixed seed, spread over the first second of each run.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut ran_total = 0u64;
    for round in 0..10 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let delay = Duration::from_millis(5 + (seed >> 33) % 1000);
        let before = records(&file) as u64;
        let mut child = start(&strs(&args));
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL
        let out = child.wait_with_output().unwrap();
        let after = records(&file) as u64;
        assert!(
            after >= before,
            "round {round}: records {before} -> {after}"
        );
        if out.status.success() {
            // Finished before the kill: it says what it took and what it ran.
            let done = json(&out);
            assert_eq!(done["resumed"], before, "round {round}");
            assert_eq!(done["ran"], tasks - before, "round {round}");
            assert_eq!(
                (done["total"].as_u64(), work(&done)),
                (Some(TOTAL_17), expected_work.clone())
            );
        }
        // Whatever a killed run recorded, it ran once; a task in flight at the kill
        // (at most one, on one thread) is not recorded and runs again.
        ran_total += after - before;
    }
    let last = json(&run(&strs(&args)));
    assert_eq!(
        (last["total"].as_u64(), work(&last)),
        (Some(TOTAL_17), expected_work.clone())
    );
    let resumed = last["resumed"].as_u64().unwrap();
    let ran = last["ran"].as_u64().unwrap();
    assert_eq!(resumed, ran_total, "the last run took every recorded task");
    assert_eq!(resumed + ran, tasks, "and ran only the others");
    assert_eq!(records(&file) as u64, tasks);
}

#[test]
fn two_runs_on_one_checkpoint_one_runs_the_other_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shared.ckpt");
    let args = count_16(&file);
    let (first, second) = (start(&strs(&args)), start(&strs(&args)));
    let pids = [first.id(), second.id()];
    let outs = [
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    ];
    let codes: Vec<Option<i32>> = outs.iter().map(|o| o.status.code()).collect();
    assert!(
        codes == [Some(0), Some(2)] || codes == [Some(2), Some(0)],
        "{codes:?}"
    );
    let (winner, loser) = if codes[0] == Some(0) { (0, 1) } else { (1, 0) };
    let refusal = String::from_utf8_lossy(&outs[loser].stderr);
    assert_eq!(refusal.lines().count(), 1, "{refusal}");
    assert!(refusal.contains("is in use by another run"), "{refusal}");
    assert!(
        refusal.contains(&format!("pid {}", pids[winner])),
        "{refusal}"
    );
    assert!(outs[loser].stdout.is_empty());
    assert_eq!(json(&outs[winner])["total"], TOTAL_16);
    // The file is whole: a rerun takes every task from it.
    let again = json(&run(&strs(&args)));
    assert_eq!(
        (again["total"].as_u64(), again["ran"].as_u64()),
        (Some(TOTAL_16), Some(0))
    );
    assert!(!Path::new(&format!("{}.owner", file.display())).exists());
}

#[test]
fn a_signal_stops_the_run_saves_it_and_the_rerun_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n16.ckpt");
    let args = count_16(&file);
    let (expected_work, tasks) = reference(16);
    let mut stopped = Vec::new();
    for (name, status, at_least) in [("TERM", 143, 200), ("INT", 130, 1000), ("HUP", 129, 1800)] {
        let child = start(&strs(&args));
        wait_for_records(&file, at_least);
        signal(&child, name);
        let out = child.wait_with_output().unwrap();
        let saved = records(&file);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The run was over before the signal came (nothing to stop), or its count was
        // done and saved whole when the signal came, after the handlers were gone.
        let ended_by_signal = std::os::unix::process::ExitStatusExt::signal(&out.status);
        if out.status.success() || (ended_by_signal.is_some() && saved as u64 == tasks) {
            assert_eq!(saved as u64, tasks);
            continue;
        }
        stopped.push(name);
        assert_eq!(out.status.code(), Some(status), "SIG{name}: {stderr}");
        let expected = format!(
            "interrupted: {} of {} tasks saved in {}; run the same command to resume\n",
            grouped(saved),
            grouped(usize::try_from(tasks).unwrap()),
            file.display()
        );
        assert_eq!(stderr, expected, "SIG{name}");
        assert!(out.stdout.is_empty());
    }
    assert!(
        stopped.contains(&"TERM"),
        "SIGTERM came after the end of the run"
    );
    let saved = records(&file) as u64;
    let last = json(&run(&strs(&args)));
    assert_eq!(
        (last["total"].as_u64(), work(&last)),
        (Some(TOTAL_16), expected_work.clone())
    );
    assert_eq!(last["resumed"].as_u64(), Some(saved));
    assert_eq!(
        last["resumed"].as_u64().unwrap() + last["ran"].as_u64().unwrap(),
        tasks
    );
}

/// `12,345`.
fn grouped(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn tasks_in_flight_are_given_up_after_the_grace_and_without_checkpoint_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("slow.ckpt");
    let file_arg = file.display().to_string();
    // n = 18 split on one row without symmetry: 18 tasks of seconds each.
    let slow = [
        "count",
        "18",
        "--threads",
        "1",
        "--symmetry",
        "none",
        "--split-depth",
        "1",
    ];
    let child = start(&[&slow[..], &["--checkpoint", &file_arg, "--grace", "0.2"]].concat());
    wait_for_records(&file, 0);
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(
        stderr.starts_with("interrupted: 0 of 18 tasks saved in")
            && stderr.contains("(tasks in flight given up after 0.2 s)"),
        "{stderr}"
    );
    // The file holds its header, whole: a resume would start from it.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("nqueens-checkpoint ") && text.ends_with('\n'));

    let child = start(&slow);
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing is saved"));
    assert!(out.stdout.is_empty());
}
