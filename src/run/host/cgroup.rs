//! The memory limit of this process's control group: what a batch scheduler (Slurm's
//! `--mem`), Kubernetes (`resources.limits.memory`) or Docker (`--memory`) allows the
//! job, which can be far less than the machine's free memory that `/proc/meminfo`
//! shows.
//!
//! Both cgroup versions are read (Linux only; elsewhere there is no limit to read):
//! - v2: `memory.max` and `memory.current` of the group named by the `0::` line of
//!   `/proc/self/cgroup`, under `/sys/fs/cgroup`;
//! - v1: `memory.limit_in_bytes` and `memory.usage_in_bytes` of the group named by the
//!   `memory` line, under `/sys/fs/cgroup/memory`.
//!
//! Inside a container the group's path is often not visible under the mount, which then
//! shows the container's own group: the mount's top directory is read instead. The
//! group's reclaimable page cache (`inactive_file` in `memory.stat`) counts as free, as
//! the kernel would reclaim it before killing the job.

use std::path::{Path, PathBuf};

/// Limits at or above this many bytes mean "no limit" (cgroup v1 writes a page-rounded
/// `i64::MAX`).
const UNLIMITED: u64 = 1 << 62;

/// The bytes this process's control group can still allocate (its limit less its
/// usage, the reclaimable cache counted as free), or `None` when there is no limit or
/// the system does not tell.
pub(crate) fn headroom_bytes() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let group = memory_group(&membership)?;
    group_dirs(&group)
        .into_iter()
        .find_map(|dir| read_headroom(&dir, group.version))
}

/// The cgroup version whose files describe the memory group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    V1,
    V2,
}

/// This process's memory group: its version and its path in the hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    version: Version,
    path: String,
}

/// The memory group named in a `/proc/self/cgroup` text: the v1 `memory` controller's
/// line if there is one (a hybrid system keeps memory in v1), else the v2 `0::` line.
fn memory_group(membership: &str) -> Option<Group> {
    let mut v2 = None;
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if controllers.split(',').any(|c| c == "memory") {
            return Some(Group {
                version: Version::V1,
                path: path.to_string(),
            });
        }
        if id == "0" && controllers.is_empty() {
            v2 = Some(Group {
                version: Version::V2,
                path: path.to_string(),
            });
        }
    }
    v2
}

/// The directories that may hold the group's files: its own under the mount, then the
/// mount's top (a container's view of its own group).
fn group_dirs(group: &Group) -> Vec<PathBuf> {
    let mount = match group.version {
        Version::V1 => Path::new("/sys/fs/cgroup/memory"),
        Version::V2 => Path::new("/sys/fs/cgroup"),
    };
    let own = mount.join(group.path.trim_start_matches('/'));
    if own == mount {
        vec![own]
    } else {
        vec![own, mount.to_path_buf()]
    }
}

/// The headroom read from one directory, or `None` when its files are missing or say
/// there is no limit.
fn read_headroom(dir: &Path, version: Version) -> Option<u64> {
    let (limit_file, usage_file, cache_key) = match version {
        Version::V1 => (
            "memory.limit_in_bytes",
            "memory.usage_in_bytes",
            "total_inactive_file",
        ),
        Version::V2 => ("memory.max", "memory.current", "inactive_file"),
    };
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let limit = parse_limit(&read(limit_file)?)?;
    let usage: u64 = read(usage_file)?.trim().parse().ok()?;
    let cache = read("memory.stat").and_then(|stat| stat_value(&stat, cache_key));
    Some(headroom(limit, usage, cache.unwrap_or(0)))
}

/// A limit file's value, or `None` for no limit (`max`, or a huge number).
fn parse_limit(text: &str) -> Option<u64> {
    let limit: u64 = text.trim().parse().ok()?;
    (limit < UNLIMITED).then_some(limit)
}

/// The value of `key` in a `memory.stat` text.
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}

/// What is left of `limit` when `usage` is in use, `cache` of it reclaimable.
fn headroom(limit: u64, usage: u64, cache: u64) -> u64 {
    limit.saturating_sub(usage.saturating_sub(cache))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_memory_group_of_either_version() {
        let v1 = "9:name=systemd:/\n4:memory:/slurm/uid_1/job_7\n0::/\n";
        assert_eq!(
            memory_group(v1),
            Some(Group {
                version: Version::V1,
                path: "/slurm/uid_1/job_7".into()
            })
        );
        let v2 = "0::/system.slice/job.scope\n";
        assert_eq!(
            memory_group(v2),
            Some(Group {
                version: Version::V2,
                path: "/system.slice/job.scope".into()
            })
        );
        assert_eq!(memory_group("garbage\n3:cpu:/\n"), None);
        let joint = "5:cpu,memory:/kubepods/pod1\n";
        assert_eq!(memory_group(joint).map(|g| g.version), Some(Version::V1));
    }

    #[test]
    fn reads_limits_and_stats() {
        assert_eq!(parse_limit("8589934592\n"), Some(8 << 30));
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712\n"), None);
        let stat = "cache 10\ntotal_inactive_file 4096\ninactive_file 7\n";
        assert_eq!(stat_value(stat, "total_inactive_file"), Some(4096));
        assert_eq!(stat_value(stat, "inactive_file"), Some(7));
        assert_eq!(stat_value(stat, "active_file"), None);
    }

    #[test]
    fn headroom_counts_the_cache_as_free_and_never_wraps() {
        assert_eq!(headroom(100, 30, 10), 80);
        assert_eq!(headroom(100, 130, 0), 0);
        assert_eq!(headroom(100, 5, 10), 100);
    }

    #[test]
    fn a_group_directory_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("memory.max"), "1000\n").unwrap();
        std::fs::write(dir.path().join("memory.current"), "300\n").unwrap();
        std::fs::write(dir.path().join("memory.stat"), "inactive_file 100\n").unwrap();
        assert_eq!(read_headroom(dir.path(), Version::V2), Some(800));
        std::fs::write(dir.path().join("memory.max"), "max\n").unwrap();
        assert_eq!(read_headroom(dir.path(), Version::V2), None);
        assert_eq!(read_headroom(dir.path(), Version::V1), None);
    }

    #[test]
    fn the_group_directories_fall_back_to_the_mount() {
        let group = Group {
            version: Version::V1,
            path: "/a/b".into(),
        };
        assert_eq!(
            group_dirs(&group),
            [
                PathBuf::from("/sys/fs/cgroup/memory/a/b"),
                PathBuf::from("/sys/fs/cgroup/memory")
            ]
        );
        let root = Group {
            version: Version::V2,
            path: "/".into(),
        };
        assert_eq!(group_dirs(&root), [PathBuf::from("/sys/fs/cgroup")]);
    }
}
