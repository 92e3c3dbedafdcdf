//! Exclusive use of a checkpoint file: one run at a time.
//!
//! A run takes an exclusive lock on the open checkpoint file itself
//! ([`File::try_lock`]: `flock` on Unix, `LockFileEx` on Windows) before it reads or
//! changes a byte of it, and holds it until the file is closed. The operating system
//! drops the lock when the process ends, however it ends, so a lock left by a killed
//! run never blocks a resume.
//!
//! The lock itself does not say who holds it, so the holder also writes its pid and
//! host into an *owner note* beside the file (`FILE.owner`), which a refused run
//! quotes. The note is informational only: it is removed when the run ends, a stale one
//! (left by a killed run) means nothing and is overwritten, and nothing is decided by
//! it. Where the filesystem cannot lock (some network filesystems), the run is told so
//! and goes on unlocked.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// How a checkpoint file is held.
#[derive(Debug)]
pub(crate) enum Held {
    /// Locked by this process; the owner note to remove at the end.
    Locked {
        /// The owner note beside the file.
        note: PathBuf,
    },
    /// The filesystem cannot lock it: why (for a warning).
    Unlocked(String),
}

impl Held {
    /// Locks `file` (opened from `path`) for this process, or refuses
    /// ([`Error::Checkpoint`]) if another process holds it, naming that process where
    /// its owner note tells.
    pub(crate) fn take(file: &File, path: &Path) -> Result<Held, Error> {
        let note = owner_note(path);
        match file.try_lock() {
            Ok(()) => {
                // Best effort: the note only helps a refused run name this one.
                let _ = std::fs::write(&note, owner_text());
                Ok(Held::Locked { note })
            }
            Err(TryLockError::WouldBlock) => {
                let holder = read_owner(&note)
                    .unwrap_or_else(|| "its pid and host are not known".to_string());
                Err(Error::Checkpoint {
                    path: path.display().to_string(),
                    problem: format!(
                        "is in use by another run ({holder}): wait for it to end or stop \
                         it; two runs on one checkpoint would record the same tasks twice"
                    ),
                })
            }
            Err(TryLockError::Error(e)) => Ok(Held::Unlocked(format!(
                "checkpoint {}: cannot be locked here ({e}); going on without a lock, so \
                 make sure no other run uses it",
                path.display()
            ))),
        }
    }

    /// The warning to show when the file could not be locked.
    pub(crate) fn warning(&self) -> Option<&str> {
        match self {
            Held::Unlocked(why) => Some(why),
            Held::Locked { .. } => None,
        }
    }

    /// Removes the owner note (before the lock is released with the file).
    pub(crate) fn release(&self) {
        if let Held::Locked { note } = self {
            let _ = std::fs::remove_file(note);
        }
    }
}

/// The owner note of the checkpoint at `path`: `FILE.owner`.
pub(crate) fn owner_note(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".owner");
    PathBuf::from(name)
}

/// How long a refused run waits for the holder's owner note, which the holder writes
/// just after it takes the lock: a run refused in between would not name it.
const OWNER_NOTE_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// The holder named by the owner note `note` (`pid P on host H`), read again for up to
/// [`OWNER_NOTE_WAIT`] while it is absent or holds no pid (it may not be written yet).
fn read_owner(note: &Path) -> Option<String> {
    let start = std::time::Instant::now();
    loop {
        let owner = std::fs::read_to_string(note)
            .ok()
            .and_then(|text| describe_owner(&text));
        if owner.is_some() || start.elapsed() >= OWNER_NOTE_WAIT {
            return owner;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The text of this process's owner note: `pid=P host=H`.
fn owner_text() -> String {
    format!("pid={} host={}\n", std::process::id(), host_name())
}

/// `pid P on host H` from an owner note, if it holds a pid.
fn describe_owner(text: &str) -> Option<String> {
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
    fn a_second_holder_is_refused_and_named() {
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
        let held = Held::take(&first, &path).unwrap();
        assert!(held.warning().is_none());
        let e = Held::take(&second, &path).unwrap_err().to_string();
        let me = format!("pid {} on host {}", std::process::id(), host_name());
        assert!(
            e.contains("is in use by another run") && e.contains(&me),
            "{e}"
        );
        held.release();
        assert!(!owner_note(&path).exists());
        drop(first);
        // The lock goes with the file: the next run takes it.
        let again = Held::take(&second, &path).unwrap();
        again.release();
    }

    #[test]
    fn owner_notes_are_read_leniently() {
        assert_eq!(
            describe_owner("pid=12 host=a\n").unwrap(),
            "pid 12 on host a"
        );
        assert_eq!(describe_owner("pid=12").unwrap(), "pid 12");
        assert_eq!(describe_owner("garbage"), None);
    }
}
