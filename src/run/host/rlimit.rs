//! The address-space and data limits of this process (`ulimit -v`, `ulimit -d`,
//! `RLIMIT_AS` and `RLIMIT_DATA`): the room they leave for a run, after what the process
//! maps already and what each worker thread reserves.
//!
//! Unix only (elsewhere there is no limit to read); what the process maps already is
//! read from `/proc/self/status` (Linux; elsewhere the whole limit is counted as room).

/// The address space a worker thread takes beyond what it allocates: the C
/// library's per-thread malloc arena (glibc reserves 64 MiB on 64-bit systems) and its
/// stack (2 MiB).
pub(crate) const THREAD_ADDRESS_SPACE: u64 = 66 << 20;

/// The data a worker thread takes beyond what it allocates: its stack.
pub(crate) const THREAD_DATA: u64 = 2 << 20;

/// The address space and data a run keeps free under a limit, for what no prediction
/// counts: the C library's heaps as they grow and are trimmed, and the small
/// allocations of the run's own bookkeeping (a run's predicted peak fills the rest, so
/// without it an allocation of a few megabytes could abort the run at its limit).
pub(crate) const INCIDENTAL: u64 = 8 << 20;

/// The bytes a run on `threads` workers can still allocate under this process's
/// address-space and data limits (less [`INCIDENTAL`]), or `None` when neither is set.
pub(crate) fn headroom_bytes(threads: usize) -> Option<u64> {
    let threads = u64::try_from(threads).unwrap_or(u64::MAX);
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let room = |limit: Option<u64>, field: &str, per_thread: u64| {
        let used = status_bytes(&status, field).unwrap_or(0);
        limit.map(|limit| {
            limit
                .saturating_sub(used)
                .saturating_sub(threads.saturating_mul(per_thread))
                .saturating_sub(INCIDENTAL)
        })
    };
    let (address_space, data) = limits();
    let space = room(address_space, "VmSize:", THREAD_ADDRESS_SPACE);
    let data = room(data, "VmData:", THREAD_DATA);
    match (space, data) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The soft limits on the address space and on the data of this process, in bytes
/// (`None`: unlimited).
fn limits() -> (Option<u64>, Option<u64>) {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, Resource};
        (
            getrlimit(Resource::As).current,
            getrlimit(Resource::Data).current,
        )
    }
    #[cfg(not(unix))]
    {
        (None, None)
    }
}

/// The value of a `Field:   N kB` line of a `/proc/self/status` text, in bytes.
fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    let mut words = line[field.len()..].split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then(|| value.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_lines() {
        let status = "Name:\tnqueens\nVmSize:\t  10000 kB\nVmData:\t 2048 kB\n";
        assert_eq!(status_bytes(status, "VmSize:"), Some(10_000 * 1024));
        assert_eq!(status_bytes(status, "VmData:"), Some(2 << 20));
        assert_eq!(status_bytes(status, "VmRSS:"), None);
        assert_eq!(status_bytes("VmSize: x kB", "VmSize:"), None);
        // Under the test harness no limit is usually set; where one is, it leaves
        // less than itself.
        if let (Some(limit), _) = limits() {
            assert!(headroom_bytes(1).is_some_and(|room| room < limit));
        }
    }
}
