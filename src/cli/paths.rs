//! Checks of the files and folders named on the command line, made before a command
//! runs: one rule for every command. A file that cannot be used (missing, unreadable,
//! a folder, not a regular file) and an output whose folder does not exist are bad
//! input: one line naming the path and the problem, exit status 2, before anything
//! is counted, printed or written. What fails later, while running (a full disk), is
//! exit status 1.
//!
//! Uses the standard library and the command line's [`Failure`] only.

use std::fs::{File, Metadata, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::Failure;

/// Checks that `path` is a regular file this process can read (`what` names it:
/// "the report", "the shard report"), following symbolic links. Nothing is read
/// (a FIFO or a device is never opened, so a check never hangs).
pub fn input_file(path: &Path, what: &str) -> Result<(), Failure> {
    let metadata = std::fs::metadata(path)
        .map_err(|e| refused(path, what, &format!("cannot read it: {}", reason(&e))))?;
    regular(path, what, &metadata)?;
    File::open(path)
        .map(drop)
        .map_err(|e| refused(path, what, &format!("cannot read it: {}", reason(&e))))
}

/// Checks a checkpoint: a file that may not exist yet (then its folder must), or a
/// regular file this process can read and write.
pub fn checkpoint_file(path: &Path) -> Result<(), Failure> {
    const WHAT: &str = "the checkpoint";
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => existing_folder(path, WHAT),
        Err(e) => Err(refused(
            path,
            WHAT,
            &format!("cannot read it: {}", reason(&e)),
        )),
        Ok(metadata) => {
            regular(path, WHAT, &metadata)?;
            OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map(drop)
                .map_err(|e| {
                    refused(
                        path,
                        WHAT,
                        &format!("cannot read and write it: {}", reason(&e)),
                    )
                })
        }
    }
}

/// Checks a file to be written (a plot): its folder must exist, and the file, if it
/// exists, must be a regular file (it is replaced).
pub fn output_file(path: &Path, what: &str) -> Result<(), Failure> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => existing_folder(path, what),
        Err(e) => Err(refused(path, what, &reason(&e))),
        Ok(metadata) => regular(path, what, &metadata),
    }
}

/// Checks a folder to be written into (created, with its parents, if missing): it
/// must be a folder if it exists; else the nearest existing ancestor must be one.
pub fn output_folder(path: &Path, what: &str) -> Result<(), Failure> {
    let mut at: PathBuf = path.to_path_buf();
    loop {
        match std::fs::metadata(&at) {
            Ok(metadata) if metadata.is_dir() => {
                return if metadata.permissions().readonly() {
                    let problem = if at == path {
                        "it is read-only".to_string()
                    } else {
                        format!("{} is read-only", at.display())
                    };
                    Err(refused(path, what, &problem))
                } else {
                    Ok(())
                };
            }
            Ok(metadata) => {
                let problem = if at == path {
                    format!("it is {}, not a folder", kind(&metadata))
                } else {
                    format!("{} is {}, not a folder", at.display(), kind(&metadata))
                };
                return Err(refused(path, what, &problem));
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if !at.pop() || at.as_os_str().is_empty() {
                    return Ok(());
                }
            }
            Err(e) => return Err(refused(path, what, &reason(&e))),
        }
    }
}

/// The folder of `path` must exist and be a folder (the file is created in it).
fn existing_folder(path: &Path, what: &str) -> Result<(), Failure> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match std::fs::metadata(folder) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(metadata) => Err(refused(
            path,
            what,
            &format!("{} is {}, not a folder", folder.display(), kind(&metadata)),
        )),
        Err(e) => Err(refused(
            path,
            what,
            &format!("its folder {}: {}", folder.display(), reason(&e)),
        )),
    }
}

/// A regular file passes; anything else is refused, naming what it is.
fn regular(path: &Path, what: &str, metadata: &Metadata) -> Result<(), Failure> {
    if metadata.is_file() {
        Ok(())
    } else {
        Err(refused(
            path,
            what,
            &format!("it is {}, not a regular file", kind(metadata)),
        ))
    }
}

/// What a path that is not a regular file is, for a message.
fn kind(metadata: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = metadata.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if metadata.is_dir() {
        "a folder"
    } else if metadata.is_file() {
        "a file"
    } else {
        "not a file"
    }
}

/// An I/O error in a few plain words (the OS's own words otherwise).
fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::NotFound => "it does not exist".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::IsADirectory => "it is a folder, not a regular file".to_string(),
        ErrorKind::NotADirectory => "a part of the path is not a folder".to_string(),
        _ => e.to_string(),
    }
}

/// The failure for `path`, as one line: `the report /x/y.json: it does not exist`.
fn refused(path: &Path, what: &str, problem: &str) -> Failure {
    Failure::usage(format!("{what} {}: {problem}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<(), Failure>) -> String {
        let failure = result.expect_err("refused");
        assert_eq!(failure.status, 2);
        failure.message
    }

    #[test]
    fn inputs_that_cannot_be_used_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        assert!(message(input_file(&missing, "the report")).ends_with(": it does not exist"));
        assert!(message(input_file(dir.path(), "the report"))
            .ends_with("it is a folder, not a regular file"));
        let file = dir.path().join("x.json");
        std::fs::write(&file, "{}").unwrap();
        assert!(input_file(&file, "the report").is_ok());
        assert!(message(input_file(Path::new("/dev/null"), "the report"))
            .ends_with("it is a character device, not a regular file"));
    }

    #[test]
    fn outputs_need_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.svg");
        assert!(output_file(&file, "the plot").is_ok());
        assert!(
            message(output_file(&dir.path().join("no/x.svg"), "the plot"))
                .contains("does not exist")
        );
        assert!(message(output_file(dir.path(), "the plot")).contains("a folder"));
        assert!(output_folder(&dir.path().join("a/b"), "the folder").is_ok());
        std::fs::write(&file, "").unwrap();
        assert!(message(output_folder(&file, "the folder")).contains("not a folder"));
        assert!(message(output_folder(&file.join("sub"), "the folder")).contains("not a folder"));
        assert!(checkpoint_file(&dir.path().join("n.ckpt")).is_ok());
        assert!(message(checkpoint_file(&dir.path().join("no/n.ckpt"))).contains("does not exist"));
    }
}
