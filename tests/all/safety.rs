//! The attacks of issue 19 on checkpoint files, each refused with exit status 2, one
//! line on stderr and the file untouched: records spliced from another run's file
//! (another engine, symmetry or board size), a forged record, a file of the old
//! format; and the lock's owner, which never writes, follows or removes a file beside
//! the checkpoint, nor a symbolic link at the checkpoint's own path.

use std::path::{Path, PathBuf};

use crate::faults::{json, nqueens, run};

/// The header and record lines of a finished checkpoint of `count N ARGS`.
fn checkpoint(dir: &Path, name: &str, args: &[&str]) -> (String, Vec<String>) {
    let path = dir.join(name);
    let out = nqueens()
        .arg("count")
        .args(args)
        .arg("--checkpoint")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines().map(str::to_string);
    let header = lines.next().unwrap();
    (header, lines.collect())
}

/// Runs `count ARGS --checkpoint FILE` on a file holding `text`: it must be refused
/// (exit 2, one line on stderr holding `words`, nothing on stdout), the file unchanged.
fn refused(dir: &Path, text: &str, args: &[&str], words: &str) {
    let path = dir.join("attack.ckpt");
    std::fs::write(&path, text).unwrap();
    let out = nqueens()
        .arg("count")
        .args(args)
        .arg("--checkpoint")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{args:?}");
}

/// `header` followed by `records`, one per line.
fn file(header: &str, records: &[String]) -> String {
    let mut text = format!("{header}\n");
    for r in records {
        text.push_str(r);
        text.push('\n');
    }
    text
}

/// The 64-bit FNV-1a hash of `bytes`, started from `state`.
fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The usual FNV-1a offset basis (the check of format 1).
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

#[test]
fn spliced_records_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let damaged = "line 2 is damaged or belongs to another run's file";
    // A join header of count 12 with the records of a backtracking count 12.
    let (join, _) = checkpoint(d, "join.ckpt", &["12", "--engine", "join"]);
    let (_, backtrack) = checkpoint(d, "bt.ckpt", &["12", "--engine", "backtrack"]);
    refused(d, &file(&join, &backtrack), &["12"], damaged);
    // A full-symmetry n = 13 header with the records of a mirror run.
    let full = ["13", "--engine", "backtrack", "--symmetry", "full"];
    let (full_header, _) = checkpoint(d, "full.ckpt", &full);
    let mirror = ["13", "--engine", "backtrack", "--symmetry", "mirror"];
    let (_, mirror_records) = checkpoint(d, "mirror.ckpt", &mirror);
    refused(d, &file(&full_header, &mirror_records), &full, damaged);
    // An n = 14 file (a third of its records) with n = 12 records appended.
    let (n14, n14_records) = checkpoint(d, "n14.ckpt", &["14"]);
    let (_, n12_records) = checkpoint(d, "n12.ckpt", &["12"]);
    let mut mixed = n14_records[..n14_records.len() / 3].to_vec();
    let first_foreign = mixed.len() + 2;
    mixed.extend(n12_records);
    let words = format!("line {first_foreign} is damaged or belongs to another run's file");
    refused(d, &file(&n14, &mixed), &["14"], &words);
    // The untouched n = 14 file still resumes exactly.
    let whole = json(&run(&["count", "14", "--json"]));
    let path = d.join("n14.ckpt");
    std::fs::write(&path, file(&n14, &n14_records[..n14_records.len() / 3])).unwrap();
    let resumed = json(&run(&[
        "count",
        "14",
        "--json",
        "--checkpoint",
        path.to_str().unwrap(),
    ]));
    assert_eq!(resumed["total"], whole["total"]);
}

#[test]
fn forged_records_and_old_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (header, records) = checkpoint(d, "c.ckpt", &["12"]);
    // One forged record, its check made as format 1 made it.
    let body = "0 1000000 1";
    let old_way = format!("{body} {:016x}", fnv1a(FNV_BASIS, body.as_bytes()));
    refused(d, &file(&header, &[old_way]), &["12"], "line 2 is damaged");
    // The same record with the check of format 2 (started from the header's check):
    // more than one unit can find.
    let key = header.split_once(" check=").unwrap().1;
    let key = u64::from_str_radix(&key[..16], 16).unwrap();
    let new_way = format!("{body} {:016x}", fnv1a(key, body.as_bytes()));
    refused(
        d,
        &file(&header, &[new_way]),
        &["12"],
        "line 2 is impossible",
    );
    // A checkpoint of format 1 (the header as it was written before).
    let fields = header.split_once(" check=").unwrap().0;
    let old_fields = fields.replacen("format=2", "format=1", 1);
    let old_header = format!(
        "{old_fields} check={:016x}",
        fnv1a(FNV_BASIS, old_fields.as_bytes())
    );
    refused(
        d,
        &file(&old_header, &records[..3]),
        &["12"],
        "is in checkpoint format 1, which this version no longer reads",
    );
}

/// A fresh folder with a checkpoint path in it.
fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    (dir, path)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn no_owner_note_is_written_followed_or_removed() {
    use std::os::unix::fs::symlink;
    // A planted `run.ckpt.owner -> victim.txt` symlink: the victim is unchanged.
    let (dir, path) = folder();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    symlink(&victim, dir.path().join("run.ckpt.owner")).unwrap();
    let out = json(&run(&[
        "count",
        "10",
        "--json",
        "--checkpoint",
        path.to_str().unwrap(),
    ]));
    assert_eq!(out["total"], 724);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::symlink_metadata(dir.path().join("run.ckpt.owner"))
        .unwrap()
        .file_type()
        .is_symlink());
    // An existing `notes.owner` is neither overwritten nor removed by --checkpoint notes.
    let notes = dir.path().join("notes");
    std::fs::write(dir.path().join("notes.owner"), "mine\n").unwrap();
    let out = json(&run(&[
        "count",
        "10",
        "--json",
        "--checkpoint",
        notes.to_str().unwrap(),
    ]));
    assert_eq!(out["total"], 724);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.owner")).unwrap(),
        "mine\n"
    );
    // Nothing but the checkpoints was created.
    assert_eq!(
        names(dir.path()),
        [
            "notes",
            "notes.owner",
            "run.ckpt",
            "run.ckpt.owner",
            "victim.txt"
        ]
    );
}

#[test]
fn a_refused_run_leaves_nothing_behind() {
    let (dir, _) = folder();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1 localhost\n").unwrap();
    refused(
        dir.path(),
        "127.0.0.1 localhost\n",
        &["12"],
        "not an nqueens checkpoint",
    );
    let out = nqueens()
        .args(["count", "12", "--checkpoint"])
        .arg(&hosts)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&hosts).unwrap(),
        "127.0.0.1 localhost\n"
    );
    assert_eq!(names(dir.path()), ["attack.ckpt", "hosts"]);
}

#[cfg(unix)]
#[test]
fn a_symlink_at_the_checkpoint_path_is_refused() {
    use std::os::unix::fs::symlink;
    let (dir, path) = folder();
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "not yours\n").unwrap();
    for pointed in [target.clone(), dir.path().join("absent")] {
        let _ = std::fs::remove_file(&path);
        symlink(&pointed, &path).unwrap();
        let out = nqueens()
            .args(["count", "10", "--checkpoint"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("is a symbolic link: refusing to follow it"),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "not yours\n");
    assert!(!dir.path().join("absent").exists());
}
