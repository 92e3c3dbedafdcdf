//! Writing results to stdout: the text of a count, and a closed pipe that is no error.

use std::process::ExitCode;

use nqueens::Count;

use super::numbers::grouped;
use super::{Failure, Outcome};

/// Prints a count: the total alone (ungrouped, for scripts), `total:`/`unique:` lines
/// with `--unique` (grouped by thousands, for people), or JSON.
pub fn print_count(count: &Count, json: bool) -> Outcome {
    let text = if json {
        serde_json::to_string(count).expect("a count serializes") + "\n"
    } else if let Some(unique) = count.unique {
        format!("total: {}\nunique: {}\n", grouped(count.total), grouped(unique))
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
