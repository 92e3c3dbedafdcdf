//! Reading shard reports from a file: one JSON object per line, read exactly, and
//! a message that says what a wrong file is instead. A file is read only if it is a
//! regular file of at most [`REPORT_LIMIT`] bytes, one bounded line at a time.

use std::io::{BufReader, Read};
use std::path::Path;

use crate::error::Error;
use crate::files::{open_input, read_line, FileError, Line, REPORT_LIMIT};
use crate::run::long::shard::ShardReport;

/// The longest line of a file of shard reports (a report takes well under 1 KiB).
const LINE_LIMIT: usize = 64 << 10;

/// What a shard report is the output of, for messages.
const WANTED: &str = "count --shard I/K --json";

/// The first word of a checkpoint file (one given to `merge` by mistake).
const CHECKPOINT_HEADER: &str = "nqueens-checkpoint";

/// Reads the shard reports in the file at `path`: a regular file of at most
/// [`REPORT_LIMIT`] bytes (refused from its size, unread, if larger), read one line of
/// at most 64 KiB at a time, each line as in [`read_shard_reports`].
///
/// # Errors
/// [`Error::Merge`] for a file that is not a regular file, too large, or not shard
/// reports (as [`read_shard_reports`] says); [`Error::Io`] when it cannot be read.
pub fn read_shard_report_file(path: &Path) -> Result<Vec<(String, ShardReport)>, Error> {
    let name = path.display().to_string();
    let io = |source| Error::Io {
        context: format!("cannot read {name}"),
        source,
    };
    let refuse = |e: FileError| match e {
        FileError::Io(source) => io(source),
        e => Error::Merge(format!("{name} {e}: expected the output of {WANTED}")),
    };
    let file = open_input(path).map_err(refuse)?;
    let size = file.metadata().map_err(io)?.len();
    if size > REPORT_LIMIT {
        return Err(refuse(FileError::TooLarge {
            size,
            limit: REPORT_LIMIT,
        }));
    }
    let mut reader = BufReader::new(file.take(REPORT_LIMIT + 1));
    let mut lines = Vec::new();
    let mut line = Vec::new();
    let mut read = 0u64;
    for number in 1.. {
        let found = read_line(&mut reader, &mut line, LINE_LIMIT).map_err(io)?;
        read += line.len() as u64;
        if found == Line::TooLong {
            return Err(Error::Merge(format!(
                "{name} line {number} is longer than {} KiB: not the output of {WANTED}",
                LINE_LIMIT >> 10
            )));
        }
        if read > REPORT_LIMIT {
            return Err(refuse(FileError::TooLarge {
                size: read,
                limit: REPORT_LIMIT,
            }));
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            return Err(not_text(&name));
        };
        lines.push((number, text.trim_end_matches(['\n', '\r']).to_string()));
        if found == Line::End {
            break;
        }
    }
    reports_of(&name, lines.iter().map(|(n, l)| (*n, l.as_str())))
}

/// Reads the shard reports in `bytes` (the content of a file named `name`): one JSON
/// object per non-empty line. Each report is named `name`, or `name:LINE` when the
/// file holds several.
///
/// # Errors
/// [`Error::Merge`] for anything else, saying what it is instead where it can tell (a
/// checkpoint, the output of a whole count or of a merge, no JSON object at all).
pub fn read_shard_reports(name: &str, bytes: &[u8]) -> Result<Vec<(String, ShardReport)>, Error> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(not_text(name));
    };
    reports_of(name, text.lines().enumerate().map(|(i, l)| (i + 1, l)))
}

/// The refusal of a file that is not text.
fn not_text(name: &str) -> Error {
    Error::Merge(format!(
        "{name} is not text: expected the output of {WANTED}"
    ))
}

/// The shard reports of the numbered `lines` of the file `name` (blank lines skipped).
fn reports_of<'a>(
    name: &str,
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<(String, ShardReport)>, Error> {
    let fail = |why: String| Err(Error::Merge(why));
    let lines: Vec<(usize, &str)> = lines.filter(|(_, l)| !l.trim().is_empty()).collect();
    let Some(&(_, first)) = lines.first() else {
        return fail(format!("{name} is empty: expected the output of {WANTED}"));
    };
    if first.starts_with(CHECKPOINT_HEADER) {
        return fail(format!(
            "{name} is an nqueens checkpoint, not the output of {WANTED}"
        ));
    }
    let several = lines.len() > 1;
    lines
        .into_iter()
        .map(|(number, line)| {
            let report = parse_report(line)
                .map_err(|why| Error::Merge(format!("{name} line {number} {why}")))?;
            let name = if several {
                format!("{name}:{number}")
            } else {
                name.to_string()
            };
            Ok((name, report))
        })
        .collect()
}

/// Reads one line of a shard output. The numbers are read exactly (up to 2^128 - 1);
/// the error says what the line is instead, and what was expected.
fn parse_report(line: &str) -> Result<ShardReport, String> {
    let error = match serde_json::from_str::<ShardReport>(line) {
        Ok(report) => return Ok(report),
        Err(e) => e,
    };
    let not_an_object = || format!("is not a shard report (expected a JSON object from {WANTED})");
    // Only to tell what the line is: large numbers may lose digits here.
    let Ok(serde_json::Value::Object(value)) = serde_json::from_str::<serde_json::Value>(line)
    else {
        return Err(not_an_object());
    };
    let has = |field: &str| value.contains_key(field);
    if !has("shard") && has("shards") {
        return Err(format!("is the output of merge, not of {WANTED}"));
    }
    if !has("shard") && has("total") {
        return Err(format!(
            "is the output of count without --shard, not of {WANTED}"
        ));
    }
    // serde's message without its position (the line is named already).
    let message = error.to_string();
    let why = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(why, _)| why);
    Err(format!("is not a shard report ({why})"))
}
