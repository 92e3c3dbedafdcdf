//! `nqueens audit`: every unit of whole runs recounted (n = 15 and 16 with the join
//! engine, both parities; backtracking runs with their nodes), a checkpoint with one
//! edited unit count (its record check recomputed as format 2 makes it, from the
//! header's check, so that the file still reads) caught with both counts, and the files
//! an audit refuses.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Runs `count` with `args` and a checkpoint at `file`.
fn checkpoint(file: &Path, args: &[&str]) {
    nqueens()
        .arg("count")
        .args(args)
        .arg("--checkpoint")
        .arg(file)
        .assert()
        .success();
}

/// The JSON of a successful `audit` of `files` with `args`.
fn audited(files: &[&Path], args: &[&str]) -> serde_json::Value {
    let out = nqueens()
        .arg("audit")
        .args(files)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The 64-bit FNV-1a hash of `bytes`, started from `state`.
fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The usual FNV-1a offset basis: a header's check hashes its fields from it.
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// The width of a checkpoint header's owner slot (after `owner `).
const OWNER_WIDTH: usize = 96;

/// A checkpoint header line (without its newline) of `fields` (`nqueens-checkpoint
/// format=2 ...`, up to ` check=`) with its check and a blank owner slot, and the key
/// its records' checks start from (that check).
fn header_of(fields: &str) -> (String, u64) {
    let key = fnv1a(FNV_BASIS, fields.as_bytes());
    let blank = " ".repeat(OWNER_WIDTH);
    (format!("{fields} check={key:016x} owner {blank}"), key)
}

/// The key of a checkpoint's records: the check in its `header` line.
fn key_of(header: &str) -> u64 {
    let check = header.split_once(" check=").unwrap().1;
    u64::from_str_radix(&check[..16], 16).unwrap()
}

/// A record line (without its newline) of `body` (`index weighted work`) in the file
/// whose records' key is `key`: its check hashes `body` from the key (format 2).
fn record_of(body: &str, key: u64) -> String {
    format!("{body} {:016x}", fnv1a(key, body.as_bytes()))
}

#[test]
fn every_unit_of_whole_join_runs_agrees() {
    let dir = tempfile::tempdir().unwrap();
    // An odd board and an even one (the library's tests recount n = 8..=14).
    for n in ["13", "14"] {
        let file = dir.path().join(format!("n{n}.ckpt"));
        checkpoint(&file, &[n, "--engine", "join"]);
        let a = audited(&[&file], &["--sample", "all"]);
        assert_eq!(a["engine"], "join");
        assert_eq!(a["units_drawn"], a["units_total"], "n = {n}");
        assert_eq!(a["agreed"], a["units_total"], "n = {n}");
        assert_eq!(a["work_compared"], false);
        assert!(a["catch"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["probability"] == 1.0));
    }
}

#[test]
fn backtracking_runs_agree_nodes_included() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &["11", "--engine", "backtrack"],
        &["10", "--symmetry", "mirror", "--split-depth", "4"],
        &["9", "--place", "4:4", "--symmetry", "none"],
    ];
    for (i, args) in cases.into_iter().enumerate() {
        let file = dir.path().join(format!("b{i}.ckpt"));
        checkpoint(&file, args);
        let a = audited(&[&file], &["--sample", "all", "--threads", "2"]);
        assert_eq!(a["engine"], "backtrack", "{args:?}");
        assert_eq!(a["work_compared"], true);
        assert_eq!(a["agreed"], a["units_total"], "{args:?}");
    }
}

#[test]
fn shards_are_audited_through_their_checkpoints_and_draws_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<_> = (0..3)
        .map(|i| {
            let file = dir.path().join(format!("s{i}.ckpt"));
            checkpoint(&file, &["14", "--shard", &format!("{i}/3"), "--json"]);
            file
        })
        .collect();
    let files: Vec<&Path> = shards.iter().map(std::path::PathBuf::as_path).collect();
    let a = audited(&files, &["--sample", "30", "--seed", "7"]);
    assert_eq!(a["units_recorded"], a["units_total"]);
    assert_eq!(a["units_drawn"], 30);
    assert_eq!(a["seed"], 7);
    let p = a["catch"][1]["probability"].as_f64().unwrap();
    assert!((p - (1.0 - 0.99f64.powi(30))).abs() < 1e-12, "{p}");
    // One shard's checkpoint given twice: its units would count twice.
    nqueens()
        .arg("audit")
        .args([&shards[0], &shards[0]])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a second time"));
}

#[test]
fn an_edited_unit_count_is_caught_with_both_counts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n12.ckpt");
    checkpoint(&file, &["12"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The first unit with solutions: its count one higher, its check recomputed the
    // way format 2 makes it (from the header's check), so that the record reads.
    let key = key_of(&lines[0]);
    let (at, unit, weighted) = lines
        .iter()
        .enumerate()
        .skip(1)
        .find_map(|(at, line)| {
            let words: Vec<&str> = line.split(' ').collect();
            let weighted: u128 = words[1].parse().unwrap();
            (weighted > 0).then(|| (at, words[0].to_string(), weighted))
        })
        .unwrap();
    let words: Vec<String> = lines[at].split(' ').map(str::to_string).collect();
    let body = format!("{} {} {}", words[0], weighted + 1, words[2]);
    lines[at] = record_of(&body, key);
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = nqueens()
        .arg("audit")
        .arg(&file)
        .args(["--sample", "all"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let wanted = format!("error: unit {unit} (east rows {{");
    assert!(stderr.starts_with(&wanted), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "line {} with {} solutions, and an independent recount gives {weighted}",
            at + 1,
            weighted + 1
        )),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 DISAGREE"), "{stdout}");
    // The resume does not see the edit: its check holds, and one more solution is
    // within the bound a record must keep (a unit's weighted solutions are at most
    // 8 x its work, the bound is 8 x (work + 1)), so the record is read. The audit
    // is what catches it, and the count's own check against the published total,
    // which prints the count and exits 1 naming both values.
    let work: u128 = words[2].parse().unwrap();
    assert!(
        weighted < 8 * (work + 1),
        "one more solution is within the bound"
    );
    nqueens()
        .args(["count", "12", "--checkpoint"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout("14201\n")
        .stderr(predicate::str::contains("published total is 14200"));
}

#[test]
fn what_an_audit_cannot_check_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |files: &[&Path], message: &str| {
        nqueens()
            .arg("audit")
            .args(files)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    };
    let report = dir.path().join("s0.json");
    let out = nqueens()
        .args(["count", "10", "--shard", "0/2", "--json"])
        .output()
        .unwrap();
    std::fs::write(&report, out.stdout).unwrap();
    refused(&[&report], "(a shard report?), not a checkpoint");
    refused(&[&dir.path().join("missing")], "cannot read");
    refused(&[dir.path()], "is a folder, not a regular file");
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "hello\n").unwrap();
    refused(&[&other], "is not an nqueens checkpoint");
    let a = dir.path().join("a.ckpt");
    let b = dir.path().join("b.ckpt");
    checkpoint(&a, &["10"]);
    checkpoint(&b, &["11"]);
    refused(&[&a, &b], "is from another run than");
    // A whole checkpoint of another unit list: its header check recomputed, and its
    // records' checks too (they start from the header's), as that build writes them.
    let text = std::fs::read_to_string(&a).unwrap();
    let (header, records) = text.split_once('\n').unwrap();
    let fields = header
        .split_once(" check=")
        .unwrap()
        .0
        .replace("units=1", "units=2");
    let (newer_header, newer_key) = header_of(&fields);
    let mut newer_text = newer_header + "\n";
    for record in records.lines() {
        let body = record.rsplit_once(' ').unwrap().0;
        newer_text.push_str(&record_of(body, newer_key));
        newer_text.push('\n');
    }
    let newer = dir.path().join("newer.ckpt");
    std::fs::write(&newer, newer_text).unwrap();
    refused(
        &[&newer],
        "was written with version 2 of the backtrack engine's unit list",
    );
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&newer)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("version 2").and(predicate::str::contains("version 1")));
    let empty = dir.path().join("empty.ckpt");
    std::fs::write(&empty, header.to_string() + "\n").unwrap();
    refused(&[&empty], "records no finished unit yet");
    nqueens()
        .args(["audit", "x", "--sample", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from 1 to 10000000, or all"));
}

#[test]
fn records_of_another_run_or_impossible_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ckpt"), dir.path().join("b.ckpt"));
    checkpoint(&a, &["10", "--engine", "backtrack"]);
    checkpoint(&b, &["10", "--engine", "backtrack", "--symmetry", "none"]);
    let text = std::fs::read_to_string(&a).unwrap();
    let header = text.lines().next().unwrap();
    let refused = |records: &[String], message: &str| {
        let file = dir.path().join("mixed.ckpt");
        std::fs::write(&file, format!("{header}\n{}\n", records.join("\n"))).unwrap();
        nqueens()
            .arg("audit")
            .arg(&file)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    };
    // Records of another run's checkpoint (their checks start from its header's).
    let spliced: Vec<String> = std::fs::read_to_string(&b)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    refused(
        &spliced,
        "line 2 is damaged or belongs to another run's file",
    );
    // A record with a valid check, but more solutions than one unit can find.
    let forged = record_of("0 1000000 1", key_of(header));
    refused(
        &[forged],
        "line 2 is impossible: 1000000 solutions from 1 work",
    );
}
