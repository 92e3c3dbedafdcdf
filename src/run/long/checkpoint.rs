//! Checkpoint files: finished tasks recorded durably so that a run can resume.
//!
//! The file is text. The first line identifies the run (see [`RunId`]):
//!
//! ```text
//! nqueens-checkpoint format=1 n=16 units=1 symmetry=mirror split_depth=4 placements= tasks=9844 shard=all check=1f0c...
//! ```
//!
//! and every further line records one finished task as
//! `index weighted_solutions work check` (work: nodes or pairs, by engine), where `check` is an FNV-1a hash of the
//! rest of the line, so that a damaged line is detected. Nothing here depends on what
//! a task is: a record is an index, a weighted count and a measure of work.
//!
//! A run holds the file exclusively ([`crate::run::long::lock`]) from before it reads it
//! until it ends. Each record is written to the file as soon as its task finishes (a
//! killed process loses only the tasks it was running) and the file is synced to disk
//! at most every [`SYNC_INTERVAL`], at once after a stop was requested, and at the
//! end. A write that fails (a full disk) is cut off again and ends the recording, so
//! the file never holds a partial record followed by others. On opening, an
//! unterminated last line (a write torn by a crash) is cut off and its task runs
//! again; a header of another run, a damaged complete line, a duplicated or
//! out-of-range task, or anything that is not a checkpoint is refused.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::long::identity::RunId;
use crate::run::long::lock::Held;
use format::{header_line, parse, record_line};

pub(crate) mod format;

/// The first word of a checkpoint file.
pub(crate) const MAGIC: &str = "nqueens-checkpoint";

/// The longest time between two syncs of the file while tasks finish.
pub(crate) const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// An open checkpoint, held exclusively (see [`crate::run::long::lock`]) and ready to
/// record finished tasks.
#[derive(Debug)]
pub(crate) struct Checkpoint {
    path: PathBuf,
    held: Held,
    writer: Mutex<Writer>,
}

#[derive(Debug)]
struct Writer {
    file: File,
    /// The length of the file's complete records.
    len: u64,
    last_sync: Instant,
    unsynced: bool,
    /// The first write that failed: no record is written after it.
    failed: Option<String>,
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for the run `id` with `tasks` tasks: creates it
    /// if absent, takes its lock, and reads the finished tasks it holds (in file
    /// order). Refuses
    /// ([`Error::Checkpoint`]) a file that another run holds, a file of another run or
    /// a damaged one, without changing it.
    pub(crate) fn open(
        path: &Path,
        id: &RunId,
        tasks: usize,
    ) -> Result<(Checkpoint, Vec<TaskResult>), Error> {
        let header = header_line(id);
        let io = |what: &str| {
            let context = format!("checkpoint {}: cannot {what}", path.display());
            move |source| Error::Io { context, source }
        };
        let refuse = |problem: String| Error::Checkpoint {
            path: path.display().to_string(),
            problem,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io("open it"))?;
        // Nothing is read or changed before the lock is held.
        let held = Held::take(&file, path)?;
        let checkpoint = |file: File, len: u64| Checkpoint {
            path: path.to_path_buf(),
            held,
            writer: Mutex::new(Writer {
                file,
                len,
                last_sync: Instant::now(),
                unsynced: false,
                failed: None,
            }),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io("read it"))?;
        // Empty, or nothing but a prefix of our own header: new, or a crash while it
        // was created.
        let fresh = !bytes.contains(&b'\n') && header.as_bytes().starts_with(&bytes);
        let (keep, resumed) = if fresh {
            file.set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)))
                .and_then(|_| file.write_all(header.as_bytes()))
                .and_then(|()| file.sync_all())
                .map_err(io("write it"))?;
            sync_parent(path);
            (header.len(), Vec::new())
        } else {
            let parsed = parse(&bytes, id, tasks).map_err(refuse)?;
            if parsed.complete_len < bytes.len() {
                file.set_len(parsed.complete_len as u64)
                    .and_then(|()| file.sync_all())
                    .map_err(io("cut its torn last line"))?;
            }
            (parsed.complete_len, parsed.done)
        };
        file.seek(SeekFrom::Start(keep as u64))
            .map_err(io("open it"))?;
        Ok((checkpoint(file, keep as u64), resumed))
    }

    /// The warning to show if the file could not be locked.
    pub(crate) fn lock_warning(&self) -> Option<&str> {
        self.held.warning()
    }

    /// Appends the record of a finished task (written at once, synced in batches, and
    /// at once after a stop was requested). A failed write is cut off the file, and
    /// every later record is refused, so that the file holds only whole records.
    pub(crate) fn record(&self, result: &TaskResult, urgent: bool) -> Result<(), Error> {
        let line = record_line(result);
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(why) = &writer.failed {
            return Err(self.io(std::io::Error::other(why.clone())));
        }
        if let Err(e) = writer.file.write_all(line.as_bytes()) {
            writer.failed = Some(e.to_string());
            let len = writer.len;
            // Cut the partial record, so that later appends cannot follow it.
            let _ = writer.file.set_len(len);
            let _ = writer.file.seek(SeekFrom::Start(len));
            return Err(self.io(e));
        }
        writer.len += line.len() as u64;
        writer.unsynced = true;
        if urgent || writer.last_sync.elapsed() >= SYNC_INTERVAL {
            writer.sync().map_err(|e| self.io(e))?;
        }
        Ok(())
    }

    /// Syncs every record to disk.
    pub(crate) fn finish(&self) -> Result<(), Error> {
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        writer.sync().map_err(|e| self.io(e))
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, source: std::io::Error) -> Error {
        Error::Io {
            context: format!("checkpoint {}: cannot write it", self.path.display()),
            source,
        }
    }
}

impl Drop for Checkpoint {
    /// Removes the owner note while the lock is still held (the file, and with it
    /// the lock, closes after this).
    fn drop(&mut self) {
        self.held.release();
    }
}

impl Writer {
    fn sync(&mut self) -> std::io::Result<()> {
        if self.unsynced {
            self.file.sync_data()?;
            self.unsynced = false;
        }
        self.last_sync = Instant::now();
        Ok(())
    }
}

/// Makes the creation of `path` durable by syncing its directory (best effort).
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtrack::plan::TaskList;
    use crate::run::long::identity::RunIdentity;
    use crate::symmetry::Symmetry;

    /// The tasks of the test run.
    pub(super) const TASKS: usize = 12;

    /// The identity of the test run (n = 8, mirror, split depth 2).
    pub(super) fn id() -> RunId {
        let list = TaskList::build(8, Symmetry::Mirror, Some(2)).unwrap();
        RunIdentity::of(&list, "").fields().with("shard", "all")
    }

    /// A task result whose fields follow from its index.
    pub(super) fn result(index: usize) -> TaskResult {
        TaskResult {
            index,
            weighted: 2 * index as u128,
            work: 100 + index as u128,
        }
    }

    #[test]
    fn create_resume_and_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.txt");
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert!(done.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), header_line(&id()));
        c.record(&result(1), false).unwrap();
        c.record(&result(3), false).unwrap();
        c.finish().unwrap();
        drop(c);
        // A torn last line is cut off.
        let whole = std::fs::read(&path).unwrap();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"5 10 10").unwrap();
        drop(f);
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        assert_eq!(done, vec![result(1), result(3)]);
        c.record(&result(5), false).unwrap();
        c.finish().unwrap();
        drop(c);
        let whole = std::fs::read(&path).unwrap();
        let (_, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(done, vec![result(1), result(3), result(5)]);
        assert_eq!(std::fs::read(&path).unwrap(), whole);

        // Another run's identity is refused and the file is left alone.
        let before = std::fs::read(&path).unwrap();
        let other = id().with("shard", "0/2");
        let e = Checkpoint::open(&path, &other, TASKS).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
        assert!(matches!(e, Error::Checkpoint { .. }));
        assert_eq!(std::fs::read(&path).unwrap(), before);

        // A damaged complete line is refused.
        let text = String::from_utf8(before.clone()).unwrap();
        std::fs::write(&path, text.replacen("\n3 6 ", "\n3 7 ", 1)).unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS).unwrap_err();
        assert!(e.to_string().contains("line 3 is damaged"), "{e}");

        // A duplicated task is refused.
        std::fs::write(&path, format!("{text}{}", record_line(&result(1)))).unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS).unwrap_err();
        assert!(e.to_string().contains("a second time"), "{e}");

        // Garbage is refused, a torn header is restarted.
        std::fs::write(&path, "hello\nworld\n").unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS).unwrap_err();
        assert!(e.to_string().contains("not an nqueens checkpoint"), "{e}");
        std::fs::write(&path, &header_line(&id())[..20]).unwrap();
        let (_, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert!(done.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), header_line(&id()));
    }
}
