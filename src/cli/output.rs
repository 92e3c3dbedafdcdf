//! Writing results to stdout: the text of a count and its check against the published
//! values; a pipe closed by its reader is no error (the command ends quietly, status
//! 0), any other failed write is (status 1). Notes and warnings go to stderr unless
//! `--quiet` asked for errors only.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::published::Check;
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

/// The error for a stdout that was closed when the program started (checked before
/// any command runs: see `super::closed_stdout`).
pub const CLOSED_STDOUT: &str = "stdout is closed, so the result would be lost: \
    redirect it to a file, or to /dev/null (>/dev/null) to discard it";

/// Prints a count: the total alone (ungrouped, for scripts), `total:`/`unique:` lines
/// with `--unique` (grouped by thousands, for people), or JSON; then its check against
/// the published values ([`verdict`]).
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
    Ok(verdict(count.published, count.disagreement.as_deref()))
}

/// The exit status of a printed count or merge that compared itself with the
/// published values: 0 unless it disagreed, then 1 after an error line that names the
/// computed and the published values (the count is on stdout all the same).
pub fn verdict(check: Check, disagreement: Option<&str>) -> ExitCode {
    if check == Check::Mismatch {
        eprintln!(
            "error: {}",
            disagreement.unwrap_or("the count differs from the published value")
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Writes `text` to stdout; a pipe closed by its reader is not an error, any other
/// failed write is (status 1).
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::runtime(format!("cannot write to stdout: {e}"))),
    }
}
