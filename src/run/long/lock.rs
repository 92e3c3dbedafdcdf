//! Exclusive use of a checkpoint file: one run at a time.
//!
//! A run takes an exclusive lock on the open checkpoint file itself
//! ([`File::try_lock`]: `flock` on Unix, `LockFileEx` on Windows) before it reads or
//! changes a byte of it, and holds it until the file is closed. The operating system
//! drops the lock when the process ends, however it ends, so a lock left by a killed
//! run never blocks a resume.
//!
//! The lock itself does not say who holds it, so the holder writes its pid and host
//! ([`owner_text`]) into the owner slot of the file's own header, which a refused run
//! quotes ([`describe_owner`]). No other file is written: nothing beside the
//! checkpoint is created, followed, overwritten or removed. Where the filesystem
//! cannot lock (some network filesystems), the run is told so and goes on unlocked.
//!
//! This module uses nothing else of the crate.

use std::fs::{File, TryLockError};
use std::path::Path;

/// How taking the lock went.
#[derive(Debug)]
pub(crate) enum Lock {
    /// Locked by this process (until the file is closed).
    Held,
    /// Another process holds it.
    Busy,
    /// The filesystem cannot lock the file: the warning to show.
    Unsupported(String),
}

/// Takes the exclusive lock of `file` (opened from `path`) for this process.
pub(crate) fn take(file: &File, path: &Path) -> Lock {
    match file.try_lock() {
        Ok(()) => Lock::Held,
        Err(TryLockError::WouldBlock) => Lock::Busy,
        Err(TryLockError::Error(e)) => Lock::Unsupported(format!(
            "checkpoint {}: cannot be locked here ({e}); going on without a lock, so make \
             sure no other run uses it",
            path.display()
        )),
    }
}

/// How long a refused run waits for the holder's owner slot, which the holder writes
/// just after it takes the lock and reads the file: a run refused in between would
/// not name it.
pub(crate) const OWNER_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// The text of this process's owner slot: `pid=P host=H`.
pub(crate) fn owner_text() -> String {
    format!("pid={} host={}", std::process::id(), host_name())
}

/// `pid P on host H` from an owner slot, if it holds a pid.
pub(crate) fn describe_owner(text: &str) -> Option<String> {
    let mut pid = None;
    let mut host = None;
    for word in text.split_whitespace() {
        if let Some(p) = word.strip_prefix("pid=") {
            pid = p.parse::<u32>().ok();
        } else if let Some(h) = word.strip_prefix("host=") {
            host = Some(h);
        }
    }
    let pid = pid?;
    Some(match host {
        Some(host) if !host.is_empty() => format!("pid {pid} on host {host}"),
        _ => format!("pid {pid}"),
    })
}

/// This machine's host name, where the platform tells it.
fn host_name() -> String {
    let from_file = |path: &str| std::fs::read_to_string(path).ok();
    from_file("/proc/sys/kernel/hostname")
        .or_else(|| from_file("/etc/hostname"))
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|h| h.trim().replace(char::is_whitespace, "_"))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_busy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        let open = || {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .unwrap()
        };
        let (first, second) = (open(), open());
        assert!(matches!(take(&first, &path), Lock::Held));
        assert!(matches!(take(&second, &path), Lock::Busy));
        drop(first);
        // The lock goes with the file: the next run takes it.
        assert!(matches!(take(&second, &path), Lock::Held));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn owners_are_read_leniently() {
        let me = format!("pid {} on host {}", std::process::id(), host_name());
        assert_eq!(describe_owner(&owner_text()).unwrap(), me);
        assert_eq!(
            describe_owner("pid=12 host=a   ").unwrap(),
            "pid 12 on host a"
        );
        assert_eq!(describe_owner("pid=12").unwrap(), "pid 12");
        assert_eq!(describe_owner("garbage"), None);
        assert_eq!(describe_owner("      "), None);
    }
}
