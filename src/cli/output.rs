//! Writing results to stdout: the text of a count and its check against the published
//! values; a pipe closed by its reader is no error (the command ends quietly, status
//! 0), any other failed write is (status 1).

use std::process::ExitCode;

use nqueens::published::Check;
use nqueens::Count;

use super::{Failure, Outcome};

/// The error for a stdout that was closed when the program started (checked before
/// any command runs: see `nqueens::files::stdout_was_closed`).
pub const CLOSED_STDOUT: &str = "error: stdout is closed, so the result would be lost: \
    redirect it to a file, or to /dev/null (>/dev/null) to discard it";

/// Prints a count: the total alone, `total:`/`unique:` lines with `--unique`, or JSON;
/// then its check against the published values ([`verdict`]).
pub fn print_count(count: &Count, json: bool) -> Outcome {
    let text = if json {
        serde_json::to_string(count).expect("a count serializes") + "\n"
    } else if let Some(unique) = count.unique {
        format!("total: {}\nunique: {unique}\n", count.total)
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
