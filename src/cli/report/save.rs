//! Saving a bench report: `<stem>.json` and `<stem>.md` in the output folder, each
//! written whole to a unique temporary file in that folder and then linked to its
//! name without replacing anything there. Two runs started in the same second get
//! `<stem>-2`, `<stem>-3`, ...; a file or symbolic link planted at a name, temporary or
//! final, is never written through, replaced or removed.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use nqueens::Error;
use tempfile::NamedTempFile;

use super::bench::BenchReport;

/// How many names are tried (`<stem>`, `<stem>-2`, ...) before giving up.
const MAX_NAMES: usize = 1000;

impl BenchReport {
    /// Writes the report as `<stem>.json` and `<stem>.md` into `dir` (created if
    /// missing), the stem made unique by a suffix where either name is taken, and
    /// returns their paths.
    ///
    /// # Errors
    /// [`Error::Io`] when the folder or a file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(PathBuf, PathBuf), Error> {
        let io = |context: String| move |source| Error::Io { context, source };
        std::fs::create_dir_all(dir).map_err(io(format!("cannot create {}", dir.display())))?;
        let json = staged(dir, &self.to_json())?;
        let md = staged(dir, &self.to_markdown())?;
        let stem = self.file_stem();
        let (mut json, mut md) = (Some(json), Some(md));
        for attempt in 1..=MAX_NAMES {
            let name = match attempt {
                1 => stem.clone(),
                k => format!("{stem}-{k}"),
            };
            let (json_path, md_path) = (
                dir.join(format!("{name}.json")),
                dir.join(format!("{name}.md")),
            );
            if taken(&json_path) || taken(&md_path) {
                continue;
            }
            let staged_json = json.take().expect("kept until it is saved");
            match staged_json.persist_noclobber(&json_path) {
                Ok(_) => {}
                Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                    json = Some(e.file);
                    continue;
                }
                Err(e) => return Err(io(format!("cannot write {}", json_path.display()))(e.error)),
            }
            // A bench run takes a name by its JSON: only something else can have
            // put a Markdown file here since `taken` looked.
            let staged_md = md.take().expect("kept until it is saved");
            return match staged_md.persist_noclobber(&md_path) {
                Ok(_) => Ok((json_path, md_path)),
                Err(e) => Err(io(format!(
                    "saved {} but cannot write {}",
                    json_path.display(),
                    md_path.display()
                ))(e.error)),
            };
        }
        Err(Error::Io {
            context: format!("cannot save the report in {}", dir.display()),
            source: std::io::Error::other(format!("{MAX_NAMES} names of {stem} are taken")),
        })
    }
}

/// Whether something (a file, a folder, a symbolic link) is at `path`.
fn taken(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// `text` in a new temporary file of a unique, unguessable name in `dir`, synced.
fn staged(dir: &Path, text: &str) -> Result<NamedTempFile, Error> {
    let io = |source| Error::Io {
        context: format!("cannot write a temporary file in {}", dir.display()),
        source,
    };
    let mut file = NamedTempFile::new_in(dir).map_err(io)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.as_file().sync_all())
        .map_err(io)?;
    Ok(file)
}
