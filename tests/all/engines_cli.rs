//! Command-line tests of the engine choice: `auto` picks the join engine for whole
//! boards under full symmetry of even n >= 12 (and odd n >= 17) and the backtracking
//! engine elsewhere; both
//! give the published totals and fundamental counts, through plain counts, shards,
//! checkpoints, estimates, verify and bench; what the join engine cannot serve is bad
//! input naming the way out; a count that would not fit in memory is refused before it
//! starts.

use crate::common;

use assert_cmd::Command;
use common::published;
use serde_json::Value;

/// The `nqueens` binary of this crate.
fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("the nqueens binary is built")
}

/// Runs `nqueens args`, expects success, and parses its one line of JSON.
fn json(args: &[&str]) -> Value {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Checks that `nqueens args` is bad input: status 2, one line on stderr containing
/// every string of `names`, nothing on stdout.
fn rejects(args: &[&str], names: &[&str]) {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    for name in names {
        assert!(stderr.contains(name), "{args:?}: {stderr:?} lacks {name:?}");
    }
}

#[test]
fn auto_picks_the_join_engine_for_whole_boards_from_12() {
    for (n, engine) in [
        (11, "backtrack"),
        (12, "join"),
        (13, "backtrack"),
        (14, "join"),
    ] {
        let c = json(&["count", &n.to_string(), "--json"]);
        assert_eq!(c["engine"], engine, "n = {n}: {c}");
        assert_eq!(
            c["total"].as_u64(),
            u64::try_from(published(n).unwrap().total).ok()
        );
        if engine == "join" {
            assert!(c["pairs"].as_u64().unwrap() > 0, "{c}");
            assert!(
                c.get("nodes").is_none() && c.get("split_depth").is_none(),
                "{c}"
            );
            assert_eq!(c["symmetry"], "full");
        } else {
            assert!(c["nodes"].as_u64().unwrap() > 0, "{c}");
            assert!(c.get("pairs").is_none(), "{c}");
        }
    }
    // Options only the backtracking engine serves make auto pick it.
    for extra in [
        &["--symmetry", "mirror"][..],
        &["--split-depth", "3"],
        &["--place", "0:1"],
        &["--kernel", "scalar", "--engine", "backtrack"],
    ] {
        let mut args = vec!["count", "12", "--json"];
        args.extend_from_slice(extra);
        assert_eq!(json(&args)["engine"], "backtrack", "{extra:?}");
    }
}

#[test]
fn both_engines_give_the_published_counts() {
    for n in 4..=16 {
        let p = published(n).unwrap();
        // Backtracking at 15 and 16 is checked by tests/symmetry.rs.
        let engines: &[&str] = if n <= 14 {
            &["join", "backtrack"]
        } else {
            &["join"]
        };
        for &engine in engines {
            for threads in ["1", "2"] {
                let c = json(&[
                    "count",
                    &n.to_string(),
                    "--engine",
                    engine,
                    "--threads",
                    threads,
                    "--unique",
                    "--json",
                ]);
                assert_eq!(c["engine"], engine);
                let total = u128::from(c["total"].as_u64().unwrap());
                let unique = u128::from(c["unique"].as_u64().unwrap());
                assert_eq!((total, unique), (p.total, p.unique), "n = {n}, {engine}");
            }
        }
    }
}

#[test]
fn the_join_engine_refuses_what_it_cannot_serve() {
    rejects(
        &["count", "12", "--engine", "join", "--place", "0:1"],
        &["whole boards", "--engine backtrack"],
    );
    rejects(
        &["count", "12", "--engine", "join", "--symmetry", "none"],
        &["full symmetry, not none", "--engine backtrack"],
    );
    rejects(
        &["count", "12", "--engine", "join", "--split-depth", "2"],
        &["no split depth", "--engine backtrack"],
    );
    rejects(
        &["count", "3", "--engine", "join"],
        &["from N = 4, not N = 3", "--engine backtrack"],
    );
    rejects(
        &["count", "12", "--engine", "dlx"],
        &["unknown engine 'dlx'", "auto, backtrack, join"],
    );
}

#[test]
fn a_count_that_does_not_fit_its_memory_budget_is_refused_before_it_starts() {
    // The join engine fits n = 28 into a few GiB, but not into 8 MiB, nor with 4096
    // threads into what this machine has. (The thread count is given: by default it is
    // the CPUs this process may use, which differ from machine to machine.)
    rejects(
        &["count", "28", "--memory", "8M", "--threads", "2", "--json"],
        &[
            "the join engine needs at least",
            "for N = 28 on 2 threads, more than the budget of 8.0 MiB",
            "raise --memory",
        ],
    );
    rejects(
        &["count", "28", "--threads", "4096", "--json"],
        &["the join engine needs", "of memory for N = 28", "available"],
    );
    rejects(
        &["count", "20", "--memory", "1P"],
        &["a memory budget of 1.0 PiB is more than", "available here"],
    );
    let e = json(&["estimate", "28", "--memory", "8M", "--json"]);
    assert_eq!(e["engine"], "join");
    assert_eq!(e["fits"], false);
    assert!(e.get("seconds").is_none(), "{e}");
    assert_eq!(e["memory_budget"].as_u64(), Some(8 << 20), "{e}");
    assert!(e["memory_bytes"].as_u64().unwrap() > 8 << 20, "{e}");
}

#[test]
fn join_shards_merge_to_the_total_and_the_fundamental_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let report = json(&[
            "count",
            "13",
            "--engine",
            "join",
            "--unique",
            "--shard",
            &format!("{i}/3"),
            "--json",
        ]);
        assert_eq!(report["engine"], "join");
        let path = dir.path().join(format!("s{i}.json"));
        std::fs::write(&path, format!("{report}\n")).unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    let p = published(13).unwrap();
    assert_eq!(merged["total"].as_u64(), u64::try_from(p.total).ok());
    assert_eq!(merged["unique"].as_u64(), u64::try_from(p.unique).ok());
    assert_eq!(merged["engine"], "join");
    assert!(merged["pairs"].as_u64().unwrap() > 0);
    // The shards' seconds add up without float noise (at most 9 decimals).
    let seconds = merged["shard_seconds"].to_string();
    assert!(
        seconds.split('.').nth(1).is_none_or(|d| d.len() <= 9),
        "{seconds}"
    );
    // A backtracking shard does not belong to a join run.
    let other = json(&[
        "count",
        "13",
        "--engine",
        "backtrack",
        "--shard",
        "0/3",
        "--json",
    ]);
    let path = dir.path().join("other.json");
    std::fs::write(&path, format!("{other}\n")).unwrap();
    let output = nqueens()
        .args(["merge", &files[1], &files[2], path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("engine"));
}

#[test]
fn a_join_checkpoint_resumes_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n14.ckpt");
    let path = path.to_str().unwrap();
    let first = json(&["count", "14", "--checkpoint", path, "--json"]);
    assert_eq!(first["engine"], "join");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("nqueens-checkpoint format=2 n=14 engine=join units=2"));
    // Keep the header and a third of the records, as if the run had been killed.
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines[..=(lines.len() - 1) / 3].join("\n") + "\n";
    std::fs::write(path, kept).unwrap();
    let second = json(&["count", "14", "--checkpoint", path, "--json"]);
    assert_eq!(second["total"], first["total"]);
    assert_eq!(second["pairs"], first["pairs"]);
    let resumed = second["resumed"].as_u64().unwrap();
    let ran = second["ran"].as_u64().unwrap();
    assert_eq!(resumed, ((lines.len() - 1) / 3) as u64);
    assert_eq!(resumed + ran, first["tasks"].as_u64().unwrap());
    // The same file under the other engine belongs to another run.
    rejects(
        &["count", "14", "--engine", "backtrack", "--checkpoint", path],
        &["another run", "engine"],
    );
}

#[test]
fn estimate_says_when_its_sample_is_thin() {
    // No sampling time: two units of each cost class, far fewer than n = 14's units.
    let e = json(&["estimate", "14", "--sample-seconds", "0", "--json"]);
    let sampled = e["units_sampled"].as_u64().unwrap();
    let classes = e["unit_classes"].as_u64().unwrap();
    assert!(sampled < e["tasks"].as_u64().unwrap(), "{e}");
    assert!(sampled < 4 * classes, "{e}");
    assert_eq!(e["thin_sample"], true, "{e}");
    let output = nqueens()
        .args(["estimate", "14", "--sample-seconds", "0"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let line = text
        .lines()
        .find(|line| line.starts_with("sample:  thin: "))
        .unwrap_or_else(|| panic!("no thin-sample line in {text}"));
    assert!(
        line.contains(&format!("{sampled} units timed in {classes} cost classes")),
        "{line}"
    );
    assert!(line.contains("more --sample-seconds"), "{line}");
}

#[test]
fn estimate_verify_and_bench_name_the_engine() {
    let e = json(&["estimate", "14", "--json"]);
    assert_eq!(e["engine"], "join");
    assert!(e["units_sampled"].as_u64().unwrap() >= 8, "{e}");
    assert!(e["seconds"].as_f64().unwrap() > 0.0, "{e}");
    assert!(e["memory_bytes"].as_u64().unwrap() > 0);
    let e = json(&[
        "estimate",
        "14",
        "--engine",
        "backtrack",
        "--probes",
        "1000",
        "--json",
    ]);
    assert_eq!(e["engine"], "backtrack");
    assert!(e["nodes"].as_f64().unwrap() > 0.0, "{e}");
    // It draws probes, not units: no thin sample to tell of.
    assert!(e.get("thin_sample").is_none(), "{e}");

    let v = json(&["verify", "--max", "13", "--engine", "join", "--json"]);
    assert_eq!(v["ok"], true);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(
        rows[3]["engine"], "backtrack",
        "n = 3 is below the join engine"
    );
    assert_eq!(rows[13]["engine"], "join");

    let output = nqueens()
        .args([
            "bench",
            "--from",
            "11",
            "--to",
            "12",
            "--runs",
            "2",
            "--sample-time",
            "0.001",
            "--no-save",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let b: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = b["rows"].as_array().unwrap();
    assert_eq!(
        (rows[0]["engine"].as_str(), rows[1]["engine"].as_str()),
        (Some("backtrack"), Some("join"))
    );
    assert!(rows[1]["work"].as_u64().unwrap() > 0);
}

#[test]
fn a_checkpoint_of_the_other_engine_says_which_engine_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n12.ckpt");
    let path = path.to_str().unwrap();
    // Made by the backtracking engine (as by a version before the join engine).
    let first = json(&[
        "count",
        "12",
        "--engine",
        "backtrack",
        "--checkpoint",
        path,
        "--json",
    ]);
    rejects(
        &["count", "12", "--checkpoint", path],
        &[
            "engine is 'join' here but 'backtrack' in the file",
            "resume it with the backtrack engine",
        ],
    );
    let again = json(&[
        "count",
        "12",
        "--engine",
        "backtrack",
        "--checkpoint",
        path,
        "--json",
    ]);
    assert_eq!(again["total"], first["total"]);
    assert_eq!(again["resumed"], first["tasks"]);
}

/// The kernel never chooses the engine: `auto` picks the join engine at n = 16 for every
/// `--kernel` (a kernel this processor lacks is bad input), the join engine accepts
/// every kernel and runs its best path at or below it (AVX2 for `avx512`, until it has
/// an AVX-512 path), and the backtracking engine runs the kernel asked for.
#[test]
fn the_kernel_never_chooses_the_engine() {
    for kernel in nqueens::Kernel::ALL {
        let name = kernel.name();
        if !kernel.is_supported() {
            rejects(&["count", "16", "--kernel", name], &[kernel.needs()]);
            continue;
        }
        // The join's path at or below the kernel's level: AVX-512 only where the
        // processor also has BW and VPOPCNTDQ.
        let join_kernel =
            nqueens::internals::join_kernel(kernel.resolved().unwrap().level().unwrap()).name();
        for args in [
            &["count", "16", "--kernel", name, "--json"][..],
            &[
                "count", "16", "--engine", "join", "--kernel", name, "--json",
            ],
        ] {
            let c = json(args);
            assert_eq!(c["engine"], "join", "{args:?}: {c}");
            assert_eq!(c["kernel"], join_kernel, "{args:?}: {c}");
            assert_eq!(c["total"], 14_772_512, "{args:?}: {c}");
        }
        let b = json(&[
            "count",
            "14",
            "--engine",
            "backtrack",
            "--kernel",
            name,
            "--json",
        ]);
        assert_eq!(b["kernel"], kernel.resolved().unwrap().name(), "{b}");
        assert_eq!(b["total"], 365_596, "{b}");
    }
}

/// The ranks of an MPI job on one node share its memory: each counts its share of what
/// is available (Open MPI's `OMPI_COMM_WORLD_LOCAL_SIZE`, MPICH's `MPI_LOCALNRANKS`).
#[test]
fn mpi_ranks_on_one_node_share_its_memory() {
    let available = |var: Option<(&str, &str)>| {
        let mut cmd = nqueens();
        cmd.args(["estimate", "16", "--json"]);
        if let Some((name, value)) = var {
            cmd.env(name, value);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["memory_available"].as_u64().unwrap()
    };
    let alone = available(None);
    for name in ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"] {
        let shared = available(Some((name, "4")));
        assert!(shared < alone / 3, "{name}: {shared} of {alone}");
    }
    let unreadable = available(Some(("OMPI_COMM_WORLD_LOCAL_SIZE", "many")));
    assert!(unreadable > alone / 2, "{unreadable} of {alone}");
}
