//! Reading shard reports from a file: one JSON object per line, read exactly, and
//! a message that says what a wrong file is instead.

use crate::error::Error;
use crate::run::long::shard::ShardReport;

/// What a shard report is the output of, for messages.
const WANTED: &str = "count --shard I/K --json";

/// The first word of a checkpoint file (one given to `merge` by mistake).
const CHECKPOINT_HEADER: &str = "nqueens-checkpoint";

/// Reads the shard reports in `bytes` (the content of a file named `name`): one JSON
/// object per non-empty line. Each report is named `name`, or `name:LINE` when the
/// file holds several.
///
/// # Errors
/// [`Error::Merge`] for anything else, saying what it is instead where it can tell (a
/// checkpoint, the output of a whole count or of a merge, no JSON object at all).
pub fn read_shard_reports(name: &str, bytes: &[u8]) -> Result<Vec<(String, ShardReport)>, Error> {
    let fail = |why: String| Err(Error::Merge(why));
    let Ok(text) = std::str::from_utf8(bytes) else {
        return fail(format!(
            "{name} is not text: expected the output of {WANTED}"
        ));
    };
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
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
                .map_err(|why| Error::Merge(format!("{name} line {} {why}", number + 1)))?;
            let name = if several {
                format!("{name}:{}", number + 1)
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
