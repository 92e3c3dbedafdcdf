//! Writing results to stdout (the text of a count; a closed pipe is no error), and
//! notes and warnings to stderr unless `--quiet` asked for errors only.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::Count;

use super::numbers::grouped;
use super::{Failure, Outcome};

/// Set by `--quiet`: notes and warnings are not printed.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Makes [`note`] print nothing (`--quiet`), or print again.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note or warning on stderr (one line, or several), unless `--quiet`.
pub fn note(text: &str) {
    if !is_quiet() {
        eprintln!("{text}");
    }
}

/// Prints a count: the total alone (ungrouped, for scripts), `total:`/`unique:` lines
/// with `--unique` (grouped by thousands, for people), or JSON.
pub fn print_count(count: &Count, json: bool) -> Outcome {
    let text = if json {
        serde_json::to_string(count).expect("a count serializes") + "\n"
    } else if let Some(unique) = count.unique {
        format!(
            "total: {}\nunique: {}\n",
            grouped(count.total),
            grouped(unique)
        )
    } else {
        format!("{}\n", count.total)
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` to stdout; a closed pipe is not an error.
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::runtime(format!("cannot write to stdout: {e}"))),
    }
}
