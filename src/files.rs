//! Files without surprises: inputs that are regular files only, read with a bound;
//! files we update opened without following a symbolic link; and a stdout that was
//! closed, told from one that discards on purpose.
//!
//! - [`open_input`] refuses a folder, a FIFO (which would hang a reader), a device
//!   (`/dev/zero` never ends) or a socket before and after opening it, and opens it
//!   non-blocking, so that a FIFO put in its place in between cannot hang either;
//! - [`read_whole`] reads such a file up to a limit, refusing a larger one from its
//!   size before reading a byte;
//! - [`read_line`] reads one line of at most a given length from a buffered reader,
//!   so that a file of one endless line is refused after a few kilobytes;
//! - [`open_for_update`] opens (or creates) a file we append to, refusing a symbolic
//!   link at its path and anything that is not a regular file.
//!
//! This module uses only the standard library (and `rustix` on Unix); every layer may
//! use it.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{BufRead, Read};
use std::path::Path;

/// The largest JSON report (a bench report, a file of shard reports) read whole.
pub const REPORT_LIMIT: u64 = 64 << 20;

/// Why a file was not read (or opened).
#[derive(Debug)]
pub enum FileError {
    /// It is not a regular file: what it is instead (`a folder`, `a FIFO`, ...).
    NotRegular(&'static str),
    /// A symbolic link stands where a file we update should be.
    Symlink,
    /// It is larger than its kind of file can be.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Opening or reading it failed.
    Io(std::io::Error),
}

impl FileError {
    /// Whether the file itself is wrong (not a regular file, a link, too large), as
    /// opposed to the system failing to read it ([`FileError::Io`]).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, FileError::Io(_))
    }
}

impl fmt::Display for FileError {
    /// The problem, to follow the file's name: `is a FIFO, not a regular file`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotRegular(what) => write!(f, "is {what}, not a regular file"),
            FileError::Symlink => f.write_str(
                "is a symbolic link: refusing to follow it (give the path of the file itself)",
            ),
            FileError::TooLarge { size, limit } => write!(
                f,
                "is {size} bytes, more than the {limit} bytes ({} MiB) that this kind of \
                 file can be",
                limit >> 20
            ),
            FileError::Io(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

impl From<std::io::Error> for FileError {
    fn from(e: std::io::Error) -> Self {
        FileError::Io(e)
    }
}

/// What a file that is not a regular file is, or `None` for a regular file.
pub fn kind(metadata: &Metadata) -> Option<&'static str> {
    let t = metadata.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    if t.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Refuses `metadata` unless it is a regular file's.
fn regular(metadata: &Metadata) -> Result<(), FileError> {
    kind(metadata).map_or(Ok(()), |what| Err(FileError::NotRegular(what)))
}

/// Adds the flags that keep an open from blocking (a FIFO) and, with `nofollow`, from
/// following a symbolic link.
#[cfg_attr(not(unix), allow(unused_variables))]
fn safe_flags(options: &mut OpenOptions, nofollow: bool) {
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = OFlags::NONBLOCK;
        if nofollow {
            flags |= OFlags::NOFOLLOW;
        }
        #[allow(
            clippy::cast_possible_wrap,
            reason = "open(2) flags are small bit values, passed as the C int they are"
        )]
        options.custom_flags(flags.bits() as i32);
    }
}

/// Opens the input `path` for reading: a regular file (a symbolic link to one is
/// fine), checked before it is opened and again on the open file, and opened
/// non-blocking, so that no FIFO or device is ever read.
///
/// # Errors
/// [`FileError::NotRegular`] for anything but a regular file; [`FileError::Io`] when
/// it cannot be opened (missing, unreadable).
pub fn open_input(path: &Path) -> Result<File, FileError> {
    regular(&std::fs::metadata(path)?)?;
    let mut options = OpenOptions::new();
    options.read(true);
    safe_flags(&mut options, false);
    let file = options.open(path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// The content of the input `path` ([`open_input`]), refused without being read if it
/// is larger than `limit` bytes.
///
/// # Errors
/// Those of [`open_input`]; [`FileError::TooLarge`] past `limit`; [`FileError::Io`]
/// when reading fails.
pub fn read_whole(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_input(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    // A file that grows while it is read is still cut at the limit.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > limit {
        return Err(FileError::TooLarge { size: read, limit });
    }
    Ok(bytes)
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, its newline included, is in the buffer.
    Whole,
    /// The input ended: the buffer holds the unterminated rest (maybe empty).
    End,
    /// The line is longer than the limit: the buffer holds its first `limit` bytes.
    TooLong,
}

/// Reads one line of at most `limit` bytes (the newline included) from `reader` into
/// `line` (cleared first). Never holds more than `limit` bytes, however long the line.
///
/// # Errors
/// When reading fails.
pub fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    line.clear();
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(Line::End);
        }
        let room = limit - line.len();
        let window = &available[..available.len().min(room)];
        if let Some(at) = window.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&window[..=at]);
            reader.consume(at + 1);
            return Ok(Line::Whole);
        }
        let taken = window.len();
        line.extend_from_slice(window);
        reader.consume(taken);
        if line.len() == limit {
            return Ok(Line::TooLong);
        }
    }
}

/// Opens `path` for reading and writing, creating it if absent: never through a
/// symbolic link at `path` (refused), never anything but a regular file (refused
/// before it is opened where it can be told, and on the open file), never blocking.
///
/// # Errors
/// [`FileError::Symlink`], [`FileError::NotRegular`]; [`FileError::Io`] when it
/// cannot be opened or created.
pub fn open_for_update(path: &Path) -> Result<File, FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => return Err(FileError::Symlink),
        Ok(m) => regular(&m)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::Io(e)),
    }
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    safe_flags(&mut options, true);
    let file = options.open(path).map_err(|e| {
        // A link planted between the check and the open: ELOOP under O_NOFOLLOW.
        let planted = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if planted {
            FileError::Symlink
        } else {
            FileError::Io(e)
        }
    })?;
    regular(&file.metadata()?)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let text = b"ab\ncdefgh\nij";
        let mut reader = std::io::BufReader::with_capacity(2, &text[..]);
        let mut line = Vec::new();
        assert_eq!(read_line(&mut reader, &mut line, 4).unwrap(), Line::Whole);
        assert_eq!(line, b"ab\n");
        assert_eq!(read_line(&mut reader, &mut line, 4).unwrap(), Line::TooLong);
        assert_eq!(line, b"cdef");
        let mut reader = std::io::BufReader::new(&b"ij"[..]);
        assert_eq!(read_line(&mut reader, &mut line, 4).unwrap(), Line::End);
        assert_eq!(line, b"ij");
        assert_eq!(read_line(&mut reader, &mut line, 4).unwrap(), Line::End);
        assert!(line.is_empty());
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_whole(dir.path(), 10).unwrap_err();
        assert!(matches!(e, FileError::NotRegular("a folder")), "{e}");
        let file = dir.path().join("f");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read_whole(&file, 5).unwrap(), b"hello");
        let e = read_whole(&file, 4).unwrap_err();
        assert!(
            matches!(e, FileError::TooLarge { size: 5, limit: 4 }),
            "{e}"
        );
        #[cfg(unix)]
        {
            let e = read_whole(Path::new("/dev/zero"), 10).unwrap_err();
            assert!(
                e.is_refusal() && e.to_string().contains("character device"),
                "{e}"
            );
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert!(read_whole(&link, 5).is_ok());
            let e = open_for_update(&link).unwrap_err();
            assert!(matches!(e, FileError::Symlink), "{e}");
            let dangling = dir.path().join("dangling");
            std::os::unix::fs::symlink(dir.path().join("absent"), &dangling).unwrap();
            assert!(matches!(
                open_for_update(&dangling),
                Err(FileError::Symlink)
            ));
            assert!(!dir.path().join("absent").exists());
        }
        assert!(open_for_update(&dir.path().join("new")).is_ok());
        assert!(matches!(
            open_for_update(dir.path()),
            Err(FileError::NotRegular(_))
        ));
    }
}
