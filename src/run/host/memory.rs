//! Memory before a run: what is available to it, and a refusal before anything is
//! allocated when an engine's predicted need exceeds it.

use crate::engine::Request;
use crate::error::Error;
use crate::run::host::{cgroup, ranks, rlimit};

/// The memory a new run on `threads` workers can have without swapping, being killed
/// or failing to allocate: `MemAvailable` from `/proc/meminfo` (Linux), or less when
/// this process's control group has a memory limit with less room left ([`cgroup`]),
/// or when its address-space or data limit leaves less ([`rlimit`]); `None` where the
/// system tells none of them. The ranks of an MPI job on this node share the machine's
/// and the control group's memory: each counts its share ([`ranks`]).
pub(crate) fn available_bytes(threads: usize) -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| parse_mem_available(&text));
    let share = |bytes: Option<u64>| bytes.map(|b| b / ranks::local_ranks());
    [
        share(machine),
        share(cgroup::headroom_bytes()),
        rlimit::headroom_bytes(threads),
    ]
    .into_iter()
    .flatten()
    .min()
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

/// The memory budget of a run: `asked` (a `--memory` option) if any, else what is
/// available ([`available_bytes`]); `u64::MAX` where neither is known.
///
/// # Errors
/// [`Error::MemoryOverAvailable`] when `asked` is more than is available.
pub(crate) fn budget(asked: Option<u64>, threads: usize) -> Result<u64, Error> {
    let available = available_bytes(threads);
    match (asked, available) {
        (Some(budget), Some(available)) if budget > available => {
            Err(Error::MemoryOverAvailable { budget, available })
        }
        (Some(budget), _) => Ok(budget),
        (None, available) => Ok(available.unwrap_or(u64::MAX)),
    }
}

/// Refuses a count by `engine` of `request` that would need `needed` bytes, more than
/// its budget (given as an option when `given`, else what is available).
///
/// # Errors
/// [`Error::MemoryBudget`] or [`Error::Memory`], with both figures.
pub(crate) fn check(
    engine: &'static str,
    request: &Request<'_>,
    given: bool,
    needed: u64,
) -> Result<(), Error> {
    if needed <= request.memory {
        return Ok(());
    }
    let n = request.placement.n();
    Err(if given {
        Error::MemoryBudget {
            engine,
            n,
            threads: request.threads,
            needed,
            budget: request.memory,
        }
    } else {
        Error::Memory {
            engine,
            n,
            needed,
            available: request.memory,
        }
    })
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
        assert!(available_bytes(2).is_none_or(|b| b > 0));
    }
}
