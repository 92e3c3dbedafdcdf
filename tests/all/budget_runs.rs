//! Long runs under a memory budget (issue 18): a join count under a small `--memory`
//! (its lists joined in short pieces) is stopped by a signal or killed with -9, and
//! resumed under another budget to the exact total; shards counted under different
//! budgets merge to the exact total. The units do not depend on the budget. (That every
//! unit counts the same with its cells made on demand and its lists in pieces of any
//! cap is tested unit by unit, n = 8..15, in `join::units::tests`.)

use crate::faults::{json, records, run, signal, start, wait_for_records, TOTAL_16, TOTAL_17};

/// A little over the least budget a count of n = 16..17 on two threads accepts (18 MiB):
/// the join's lists then come in short pieces.
const SMALL: &str = "20M";

#[test]
fn a_stopped_or_killed_run_under_a_small_budget_resumes_under_another() {
    let dir = tempfile::tempdir().unwrap();
    for (how, resume_budget) in [("TERM", None), ("KILL", Some("1G"))] {
        let file = dir.path().join(format!("{how}.ckpt"));
        let path = file.to_str().unwrap();
        let first = [
            "count",
            "17",
            "--threads",
            "2",
            "--memory",
            SMALL,
            "--json",
            "--checkpoint",
            path,
        ];
        let child = start(&first);
        wait_for_records(&file, 50);
        signal(&child, how);
        let out = child.wait_with_output().unwrap();
        assert!(
            !out.status.success(),
            "{how}: the run ended before the signal"
        );
        let saved = records(&file);
        assert!(saved >= 50, "{how}: {saved} records");
        let mut again = vec![
            "count",
            "17",
            "--threads",
            "2",
            "--json",
            "--checkpoint",
            path,
        ];
        if let Some(budget) = resume_budget {
            again.extend(["--memory", budget]);
        }
        let resumed = json(&run(&again));
        assert_eq!(resumed["total"], TOTAL_17, "{how}: {resumed}");
        assert_eq!(resumed["engine"], "join", "{how}: {resumed}");
        assert_eq!(resumed["published"], "match", "{how}: {resumed}");
        assert!(
            resumed["resumed"].as_u64().unwrap() >= 50,
            "{how}: {resumed}"
        );
    }
}

#[test]
fn shards_under_different_budgets_merge_to_the_total() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (shard, budget) in [("0/3", SMALL), ("1/3", "64M"), ("2/3", "1G")] {
        let out = run(&[
            "count", "16", "--shard", shard, "--memory", budget, "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = dir.path().join(format!("s{}.json", &shard[..1]));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&run(&args));
    assert_eq!(merged["total"], TOTAL_16, "{merged}");
    assert_eq!(merged["published"], "match", "{merged}");
    // A whole count under the small budget gives the same total at once.
    let whole = json(&run(&["count", "16", "--memory", SMALL, "--json"]));
    assert_eq!(whole["total"], TOTAL_16);
}
