//! A job's memory limit is the memory it has: a join count in a control group limited to
//! 1 GiB (as Slurm's `--mem=1G` or a Kubernetes limit would set it) is refused before
//! it starts, with the limit as the figure, even on a machine with more free memory;
//! `estimate` reports the same limit. Making a control group needs root and a writable
//! cgroup mount: where that is not possible the test says so and checks nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A new memory control group limited to `bytes`, or why none could be made.
struct LimitedGroup {
    dir: PathBuf,
}

impl LimitedGroup {
    fn new(bytes: u64) -> Result<Self, String> {
        let membership = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("no /proc/self/cgroup: {e}"))?;
        let (mount, path, limit_file) = if let Some(line) = membership.lines().find(|l| {
            l.split(':')
                .nth(1)
                .is_some_and(|c| c.split(',').any(|c| c == "memory"))
        }) {
            let path = line.splitn(3, ':').nth(2).unwrap_or("/").to_string();
            ("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes")
        } else if let Some(line) = membership.lines().find(|l| l.starts_with("0::")) {
            ("/sys/fs/cgroup", line[3..].to_string(), "memory.max")
        } else {
            return Err("no memory control group".into());
        };
        let own = Path::new(mount).join(path.trim_start_matches('/'));
        let parent = if own.is_dir() {
            own
        } else {
            PathBuf::from(mount)
        };
        let dir = parent.join(format!("nqueens-test-{}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let group = LimitedGroup { dir };
        std::fs::write(group.dir.join(limit_file), bytes.to_string())
            .map_err(|e| format!("cannot set {limit_file}: {e}"))?;
        Ok(group)
    }

    /// Runs the nqueens binary with `args` inside the group.
    fn run(&self, args: &str) -> std::process::Output {
        let script = format!(
            "echo $$ > {}/cgroup.procs && exec {} {args}",
            self.dir.display(),
            env!("CARGO_BIN_EXE_nqueens")
        );
        Command::new("sh").args(["-c", &script]).output().unwrap()
    }
}

impl Drop for LimitedGroup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[test]
fn a_join_count_over_the_jobs_memory_limit_is_refused_before_it_starts() {
    let group = match LimitedGroup::new(1 << 30) {
        Ok(group) => group,
        Err(why) => {
            eprintln!("skipped: no memory control group could be made here ({why})");
            return;
        }
    };
    // The group allows 1 GiB: a budget of 2 GiB is refused, and so is n = 24 on 4096
    // threads (each thread needs some MiB of its own).
    for (command, expected) in [
        (
            "count 24 --memory 2G --json",
            "a memory budget of 2.0 GiB is more than the",
        ),
        ("count 24 --threads 4096 --json", "of memory for N = 24"),
    ] {
        let output = group.run(command);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
        assert!(output.stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{command}: {stderr}");
        assert!(stderr.contains("available here"), "{command}: {stderr}");
    }
    let output = group.run("estimate 24 --threads 4096 --json");
    assert!(output.status.success());
    let e: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(e["fits"], false, "{e}");
    assert!(e["memory_available"].as_u64().unwrap() <= 1 << 30, "{e}");
    assert!(e["memory_budget"].as_u64().unwrap() <= 1 << 30, "{e}");
}
