//! Memory before a run: what the join engine will need, what is available to it, and a
//! refusal before anything is allocated when the first exceeds the second.

use crate::error::Error;
use crate::run::cgroup;
use crate::run::engine::Engine;

/// The memory a new run can have without swapping or being killed: `MemAvailable` from
/// `/proc/meminfo` (Linux), or less when this process's control group has a memory limit
/// with less room left ([`cgroup`]); `None` where the system tells neither.
pub(crate) fn available_bytes() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| parse_mem_available(&text));
    match (machine, cgroup::headroom_bytes()) {
        (Some(machine), Some(group)) => Some(machine.min(group)),
        (machine, group) => machine.or(group),
    }
}

/// The `MemAvailable` line of a `/proc/meminfo` text, in bytes.
fn parse_mem_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        _ => None,
    }
}

/// The peak memory of a backtracking count of `tasks` tasks on `threads` workers (an
/// upper bound): the task list, each worker's vector-kernel buffers and stack, and a
/// few MiB for the process.
pub(crate) fn backtrack_peak_bytes(tasks: usize, threads: usize) -> u64 {
    const PROCESS: u64 = 8 << 20;
    const PER_THREAD: u64 = 4 << 20;
    let task = std::mem::size_of::<crate::plan::tasks::Task>() as u64;
    PROCESS
        .saturating_add(task.saturating_mul(tasks as u64))
        .saturating_add(PER_THREAD.saturating_mul(threads as u64))
}

/// The peak memory the join engine needs for a board of size `n` on `threads` workers
/// (an upper bound, predicted before anything is allocated).
pub(crate) fn join_peak_bytes(n: usize, threads: usize) -> u64 {
    crate::join::memory::peak_bytes(n, threads)
}

/// Refuses a join count of size `n` on `threads` workers that would need more memory
/// than is available to it ([`available_bytes`]). Where the system does not tell, the
/// run goes on.
///
/// # Errors
/// [`Error::Memory`] with both figures.
pub(crate) fn check_join(n: usize, threads: usize) -> Result<(), Error> {
    let needed = join_peak_bytes(n, threads);
    match available_bytes() {
        Some(available) if needed > available => Err(Error::Memory {
            engine: Engine::Join.name(),
            n,
            needed,
            available,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24000000 kB\nMemFree:  1 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(parse_mem_available(text), Some(23_000_000 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: x kB\n"), None);
        assert!(available_bytes().is_none_or(|b| b > 0));
    }
}
