//! Fault tests of what a run's files survive: a full disk (a 16 KiB tmpfs, when the
//! test may mount one), and tampered shard reports.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::faults::{json, nqueens, records, reference, run, work, TOTAL_16};

#[test]
fn a_full_disk_is_a_clear_error_and_the_file_resumes_on_a_roomy_one() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    std::fs::create_dir(&small).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=16k", "tmpfs"])
        .arg(&small)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("SKIPPED a_full_disk...: cannot mount a 16 KiB tmpfs here (needs root)");
        return;
    }
    let file = small.join("n16.ckpt");
    let args = ["count", "16", "--threads", "1", "--json", "--checkpoint"];
    let out = nqueens().args(args).arg(&file).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let kept = std::fs::read(&file).unwrap();
    let _ = Command::new("umount").arg(&small).status();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot write it") && stderr.contains("No space left"),
        "{stderr}"
    );
    // Whole records only, and a roomy disk resumes them to the exact total.
    assert_eq!(kept.last(), Some(&b'\n'));
    let roomy = dir.path().join("n16.ckpt");
    std::fs::write(&roomy, &kept).unwrap();
    let saved = records(&roomy) as u64;
    assert!(saved > 0);
    let done = json(&nqueens().args(args).arg(&roomy).output().unwrap());
    assert_eq!(done["total"], TOTAL_16);
    assert_eq!(done["resumed"].as_u64(), Some(saved));
    assert_eq!(work(&done), reference(16).0);
}

#[test]
fn tampered_shard_reports_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    for i in 0..2 {
        let out = run(&["count", "12", "--json", "--shard", &format!("{i}/2")]);
        assert!(out.status.success());
        std::fs::write(path(&format!("s{i}.json")), &out.stdout).unwrap();
    }
    let merge = |files: &[&str], extra: &[&str]| {
        nqueens()
            .arg("merge")
            .args(extra)
            .args(files.iter().map(|f| path(f)))
            .output()
            .unwrap()
    };
    let ok = merge(&["s0.json", "s1.json"], &[]);
    assert_eq!(String::from_utf8_lossy(&ok.stdout), "14200\n");
    let text = std::fs::read_to_string(path("s1.json")).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let total = value["total"].as_u64().unwrap();

    let refused = |file: &str, contents: String, extra: &[&str], words: &str| {
        std::fs::write(path(file), contents).unwrap();
        let out = merge(&["s0.json", file], extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {stderr}");
        assert!(out.stdout.is_empty(), "{file}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(words), "{file}: {stderr}");
    };
    // A changed total.
    refused(
        "changed.json",
        text.replace(
            &format!("\"total\":{total}"),
            &format!("\"total\":{}", total + 8),
        ),
        &[],
        "fails its seal check",
    );
    // A removed field: a required one, and ones that may be absent (the join
    // engine's work among them: this count ran on it).
    assert_eq!(value["engine"], "join");
    for field in ["total", "pairs", "kernel"] {
        let mut removed = value.clone();
        removed.as_object_mut().unwrap().remove(field);
        let words = if field == "total" {
            "missing field"
        } else {
            "fails its seal check"
        };
        refused("removed.json", removed.to_string(), &[], words);
    }
    // A wrapped total: 2^128 - 1 (sealed anew, or with the seal removed).
    let mut wrapped: nqueens::ShardReport = serde_json::from_str(&text).unwrap();
    wrapped.total = u128::MAX;
    let resealed = serde_json::to_string(&wrapped.clone().sealed()).unwrap();
    refused("wrapped.json", resealed, &[], "is impossible");
    wrapped.check = None;
    let unsealed = serde_json::to_string(&wrapped).unwrap();
    refused("wrapped.json", unsealed.clone(), &[], "has no seal");
    refused(
        "wrapped.json",
        unsealed,
        &["--allow-unsealed"],
        "is impossible",
    );
    // A duplicated line.
    refused("twice.json", format!("{text}{text}"), &[], "is given twice");
    // An old report without a seal merges only when allowed, with a warning.
    value.as_object_mut().unwrap().remove("check");
    std::fs::write(path("old.json"), value.to_string()).unwrap();
    let old = merge(&["s0.json", "old.json"], &["--allow-unsealed"]);
    assert_eq!(String::from_utf8_lossy(&old.stdout), "14200\n");
    assert!(String::from_utf8_lossy(&old.stderr).contains("has no seal: merged unchecked"));
}
