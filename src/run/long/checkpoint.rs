//! Checkpoint files: finished tasks recorded durably so that a run can resume.
//!
//! The file is text (format 2, see [`format`]). The first line identifies the run (see
//! [`RunId`]), checks itself and holds the owner slot:
//!
//! ```text
//! nqueens-checkpoint format=2 n=16 units=1 symmetry=mirror split_depth=4 placements= tasks=9844 shard=all check=1f0c... owner pid=4711 host=node17
//! ```
//!
//! and every further line records one finished task as
//! `index weighted_solutions work check` (work: nodes or pairs, by engine), where `check`
//! hashes the rest of the line from the header's check, so that a damaged line, or one
//! taken from another run's file, is detected. Nothing here depends on what a task is:
//! a record is an index, a weighted count and a measure of work.
//!
//! The file is opened without following a symbolic link, and only if it is a regular
//! file ([`crate::files::open_for_update`]). A run holds it exclusively
//! ([`crate::run::long::lock`]) from before it reads it until it ends, and names
//! itself in the header's owner slot meanwhile (blanked at the end). Each record is
//! written to the file as soon as its task finishes (a killed process loses only the
//! tasks it was running) and the file is synced to disk at most every
//! [`SYNC_INTERVAL`], at once after a stop was requested, and at the end. A write that
//! fails (a full disk) is cut off again and ends the recording, so the file never holds
//! a partial record followed by others. On opening, the header is read first (a bounded
//! read) and the records streamed one bounded line at a time into a bitset and checked
//! sums; an unterminated last line (a write torn by a crash) is cut off and its task
//! runs again; a header of another run or format, a damaged or impossible complete
//! line, a duplicated or out-of-range task, or anything that is not a checkpoint is
//! refused, the file unchanged.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::engine::TaskResult;
use crate::error::Error;
use crate::files::{open_for_update, FileError};
use crate::run::long::identity::RunId;
use crate::run::long::lock::{describe_owner, owner_text, take, Lock, OWNER_WAIT};
use crate::run::long::resumed::Resumed;
use format::{owner_slot, read, record_line, Found, Header, Problem, HEADER_LIMIT};

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
    /// Why the file is not locked, if it is not.
    unlocked: Option<String>,
    /// The check of the file's header, which every record's check starts from.
    key: u64,
    /// Where the header's owner slot starts.
    owner_at: u64,
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
    /// if absent, takes its lock, and reads the finished tasks it holds. Refuses
    /// ([`Error::Checkpoint`]) a symbolic link, anything but a regular file, a file
    /// that another run holds, a file of another run or format, or a damaged one,
    /// without changing it.
    pub(crate) fn open(
        path: &Path,
        id: &RunId,
        tasks: usize,
    ) -> Result<(Checkpoint, Resumed), Error> {
        let io = |what: &str| {
            let context = format!("checkpoint {}: cannot {what}", path.display());
            move |source| Error::Io { context, source }
        };
        let refuse = |problem: String| Error::Checkpoint {
            path: path.display().to_string(),
            problem,
        };
        let mut file = open_for_update(path).map_err(|e| match e {
            FileError::Io(source) => io("open it")(source),
            refusal => refuse(refusal.to_string()),
        })?;
        // Nothing is read or changed before the lock is held.
        let unlocked = match take(&file, path) {
            Lock::Held => None,
            Lock::Unsupported(warning) => Some(warning),
            Lock::Busy => {
                let holder =
                    holder(&file).unwrap_or_else(|| "its pid and host are not known".to_string());
                return Err(refuse(format!(
                    "is in use by another run ({holder}): wait for it to end or stop it; \
                     two runs on one checkpoint would record the same tasks twice"
                )));
            }
        };
        let ours = Header::of(id, &owner_text());
        let found = read(&mut BufReader::new(&file), id, &ours, tasks).map_err(|p| match p {
            Problem::Refused(why) => refuse(why),
            Problem::Io(source) => io("read it")(source),
        })?;
        let (header, resumed, len) = match found {
            Found::Fresh => {
                file.set_len(0)
                    .and_then(|()| file.seek(SeekFrom::Start(0)))
                    .and_then(|_| file.write_all(ours.line.as_bytes()))
                    .and_then(|()| file.sync_all())
                    .map_err(io("write it"))?;
                sync_parent(path);
                let len = ours.line.len() as u64;
                (ours, Resumed::new(tasks), len)
            }
            Found::Ours(contents) => {
                if contents.complete_len < file.metadata().map_err(io("read it"))?.len() {
                    file.set_len(contents.complete_len)
                        .and_then(|()| file.sync_all())
                        .map_err(io("cut its torn last line"))?;
                }
                // Name this run in the owner slot (not synced: it only informs).
                file.seek(SeekFrom::Start(contents.header.owner_at as u64))
                    .and_then(|_| file.write_all(owner_slot(&owner_text()).as_bytes()))
                    .map_err(io("write it"))?;
                (contents.header, contents.resumed, contents.complete_len)
            }
        };
        file.seek(SeekFrom::Start(len)).map_err(io("open it"))?;
        let checkpoint = Checkpoint {
            path: path.to_path_buf(),
            unlocked,
            key: header.key,
            owner_at: header.owner_at as u64,
            writer: Mutex::new(Writer {
                file,
                len,
                last_sync: Instant::now(),
                unsynced: false,
                failed: None,
            }),
        };
        Ok((checkpoint, resumed))
    }

    /// The warning to show if the file could not be locked.
    pub(crate) fn lock_warning(&self) -> Option<&str> {
        self.unlocked.as_deref()
    }

    /// Appends the record of a finished task (written at once, synced in batches, and
    /// at once after a stop was requested). A failed write is cut off the file, and
    /// every later record is refused, so that the file holds only whole records.
    pub(crate) fn record(&self, result: &TaskResult, urgent: bool) -> Result<(), Error> {
        let line = record_line(self.key, result);
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
    /// Blanks the owner slot while the lock is still held (the file, and with it the
    /// lock, closes after this); best effort: the slot only informs.
    fn drop(&mut self) {
        let writer = self
            .writer
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let blank = owner_slot("");
        let _ = writer
            .file
            .seek(SeekFrom::Start(self.owner_at))
            .and_then(|_| writer.file.write_all(blank.as_bytes()));
    }
}

/// The holder named in the owner slot of the checkpoint `file` (held by another
/// process), read again for up to [`OWNER_WAIT`] while it names nobody (the holder
/// writes it just after it takes the lock).
fn holder(file: &File) -> Option<String> {
    let start = Instant::now();
    loop {
        let mut head = Vec::with_capacity(HEADER_LIMIT);
        let mut reader = file;
        let read = reader
            .seek(SeekFrom::Start(0))
            .and_then(|_| reader.take(HEADER_LIMIT as u64).read_to_end(&mut head));
        let owner = read.ok().and_then(|_| {
            let text = String::from_utf8_lossy(&head);
            let line = text.lines().next()?;
            let (_, slot) = line.split_once(" owner ")?;
            describe_owner(slot)
        });
        if owner.is_some() || start.elapsed() >= OWNER_WAIT {
            return owner;
        }
        std::thread::sleep(Duration::from_millis(5));
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

    /// The finished indices of `resumed`.
    fn indices(resumed: &Resumed) -> Vec<usize> {
        resumed.indices().collect()
    }

    /// The header line of the file at `path` (without its owner slot).
    fn header_of(path: &Path) -> String {
        let text = std::fs::read_to_string(path).unwrap();
        let line = text.lines().next().unwrap();
        line.split_once(" owner ").unwrap().0.to_string()
    }

    #[test]
    fn create_resume_and_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.txt");
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(done.count(), 0);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(&format!("owner {}", owner_text())), "{text}");
        c.record(&result(1), false).unwrap();
        c.record(&result(3), false).unwrap();
        c.finish().unwrap();
        drop(c);
        // The owner slot is blanked at the end.
        let whole = std::fs::read(&path).unwrap();
        assert!(!String::from_utf8_lossy(&whole).contains("pid="));
        // A torn last line is cut off.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"5 10 10").unwrap();
        drop(f);
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(std::fs::read(&path).unwrap().len(), whole.len());
        assert_eq!(indices(&done), [1, 3]);
        assert_eq!((done.sums().total, done.sums().work), (8, 204));
        c.record(&result(5), false).unwrap();
        c.finish().unwrap();
        drop(c);
        let whole = std::fs::read(&path).unwrap();
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(indices(&done), [1, 3, 5]);
        drop(c);
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
        let second = text.lines().nth(1).unwrap();
        std::fs::write(&path, format!("{text}{second}\n")).unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS).unwrap_err();
        assert!(e.to_string().contains("a second time"), "{e}");

        // Garbage is refused, a torn header is restarted.
        std::fs::write(&path, "hello\nworld\n").unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS).unwrap_err();
        assert!(e.to_string().contains("not an nqueens checkpoint"), "{e}");
        let header = Header::of(&id(), "").line;
        std::fs::write(&path, &header[..20]).unwrap();
        let (c, done) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        assert_eq!(done.count(), 0);
        drop(c);
        assert_eq!(header_of(&path), header.split_once(" owner ").unwrap().0);
    }

    #[test]
    fn a_second_run_is_refused_and_told_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        let (first, _) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        let e = Checkpoint::open(&path, &id(), TASKS)
            .unwrap_err()
            .to_string();
        let me = describe_owner(&owner_text()).unwrap();
        assert!(
            e.contains("is in use by another run") && e.contains(&me),
            "{e}"
        );
        drop(first);
        let (again, _) = Checkpoint::open(&path, &id(), TASKS).unwrap();
        drop(again);
        // Nothing but the checkpoint was ever written.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
