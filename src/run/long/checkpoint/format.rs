//! The text of a checkpoint file (format 2) and its streaming reader.
//!
//! The header line names the run, checks itself and leaves room for the holder:
//!
//! ```text
//! nqueens-checkpoint format=2 n=12 units=1 ... shard=all check=HHHHHHHHHHHHHHHH owner pid=P host=H<spaces>
//! ```
//!
//! The run's fields include the version of its engine's unit list (`units=`): a file
//! of another list, or of none, is refused with one line saying which version made
//! it. `check` is the FNV-1a hash of everything before ` check=`; the owner slot after
//! `owner ` is [`OWNER_WIDTH`] bytes, rewritten in place by each run that takes the
//! file's lock and blanked when it ends (it is not checked: it only names the holder).
//!
//! Each record line is `index weighted work check`, where `check` is the FNV-1a hash of
//! the rest of the line *started from the header's check*: a record is bound to its
//! run, so a line moved from another run's file (another board size, engine, symmetry
//! or shard) fails its check, and so does one of an edited header. A record must also
//! be possible: no more weighted solutions than one unit doing its work can find
//! ([`crate::run::long::plausible`], the bound `merge` puts on a shard total).
//!
//! The reader takes the header with a bounded read ([`HEADER_LIMIT`]) and refuses a
//! file that is not a checkpoint of this run before it reads any further; records are
//! read one bounded line at a time ([`RECORD_LIMIT`]) into a [`Resumed`] (a bitset and
//! checked sums), never the whole file. [`parse_header`] and [`parse_record`] serve
//! `audit` too, which learns the run (and its records' key) from the header.

use std::io::BufRead;

use crate::engine::{Engine, TaskResult};
use crate::files::{read_line, Line};
use crate::run::long::checkpoint::MAGIC;
use crate::run::long::identity::{Difference, RunId, FORMAT_VERSION, UNITS_KEY};
use crate::run::long::plausible::too_many;
use crate::run::long::resumed::Resumed;

/// The longest header line read: far more than any identity takes.
pub(crate) const HEADER_LIMIT: usize = 4096;

/// The longest record line read: three 39-digit numbers, a 16-digit check, three
/// spaces and the newline take 137 bytes.
pub(crate) const RECORD_LIMIT: usize = 160;

/// The width of the owner slot at the end of the header line.
pub(crate) const OWNER_WIDTH: usize = 96;

/// What the header says when a file is not a checkpoint at all.
const NOT_OURS: &str = "is not an nqueens checkpoint (refusing to use or overwrite it)";

/// A header line and what the records of its file depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// The whole line, newline included.
    pub(crate) line: String,
    /// Its check, which every record's check starts from.
    pub(crate) key: u64,
    /// Where its owner slot starts (bytes from the start of the file).
    pub(crate) owner_at: usize,
}

impl Header {
    /// The header of run `id`, its owner slot holding `owner`.
    pub(crate) fn of(id: &RunId, owner: &str) -> Header {
        let body = format!("{MAGIC} {id}");
        let key = fnv1a(body.as_bytes());
        let fixed = format!("{body} check={key:016x} owner ");
        Header {
            owner_at: fixed.len(),
            line: format!("{fixed}{}\n", owner_slot(owner)),
            key,
        }
    }
}

/// `owner` cut or padded with spaces to [`OWNER_WIDTH`] bytes (ASCII, no newline).
pub(crate) fn owner_slot(owner: &str) -> String {
    let clean: String = owner
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { ' ' })
        .take(OWNER_WIDTH)
        .collect();
    format!("{clean:<OWNER_WIDTH$}")
}

/// The line recording `result` in the file whose header check is `key`, newline
/// included.
pub(crate) fn record_line(key: u64, result: &TaskResult) -> String {
    let body = format!("{} {} {}", result.index, result.weighted, result.work);
    format!("{body} {:016x}\n", fnv1a_from(key, body.as_bytes()))
}

/// The 64-bit FNV-1a hash of `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a over `bytes` started from `state` instead of the usual offset basis. Each
/// step is a bijection of the state, so two states give two hashes of the same bytes.
fn fnv1a_from(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// What a checkpoint file holds.
#[derive(Debug)]
pub(crate) enum Found {
    /// Nothing yet: empty, or a header torn while it was first written.
    Fresh,
    /// A checkpoint of this run.
    Ours(Contents),
}

/// The contents of a checkpoint of this run.
#[derive(Debug)]
pub(crate) struct Contents {
    /// Its header's check and owner slot.
    pub(crate) header: Header,
    /// Its finished units and their sums.
    pub(crate) resumed: Resumed,
    /// The length of its complete lines (a torn last line is beyond it).
    pub(crate) complete_len: u64,
}

/// Why a file was not read: a refusal (its words) or a failed read.
#[derive(Debug)]
pub(crate) enum Problem {
    /// The file is not a checkpoint of this run, or is damaged.
    Refused(String),
    /// Reading failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for Problem {
    fn from(e: std::io::Error) -> Self {
        Problem::Io(e)
    }
}

/// Reads the checkpoint in `reader` expected to belong to `id` (the header `ours`),
/// with `tasks` tasks: its header first, then its records one by one.
pub(crate) fn read(
    reader: &mut impl BufRead,
    id: &RunId,
    ours: &Header,
    tasks: usize,
) -> Result<Found, Problem> {
    let refuse = |why: String| Err(Problem::Refused(why));
    let mut line = Vec::with_capacity(RECORD_LIMIT);
    match read_line(reader, &mut line, HEADER_LIMIT)? {
        Line::Whole => {}
        Line::End if is_torn_header(&line, ours) => return Ok(Found::Fresh),
        Line::End | Line::TooLong => return refuse(NOT_OURS.into()),
    }
    let header = header_of_run(&line[..line.len() - 1], id)?;
    let mut complete_len = header.line.len() as u64;
    let mut resumed = Resumed::new(tasks);
    for number in 2.. {
        match read_line(reader, &mut line, RECORD_LIMIT)? {
            Line::Whole => {}
            // A torn last line (a write cut by a crash) is cut off and redone.
            Line::End => break,
            Line::TooLong => return refuse(damaged(number)),
        }
        let Some(result) = parse_record(&line[..line.len() - 1], header.key) else {
            return refuse(damaged(number));
        };
        if result.index >= tasks {
            return refuse(format!(
                "line {number} names task {} but the run has {tasks} tasks",
                result.index
            ));
        }
        if too_many(result.weighted, result.work, 1) {
            return refuse(format!(
                "line {number} is impossible: {} solutions from {} work, more than one unit \
                 can find (refusing to use the file)",
                result.weighted, result.work
            ));
        }
        if let Err(why) = resumed.add(&result) {
            return refuse(format!("line {number} {why}"));
        }
        complete_len += line.len() as u64;
    }
    Ok(Found::Ours(Contents {
        header,
        resumed,
        complete_len,
    }))
}

/// The refusal of damaged line `number`.
fn damaged(number: usize) -> String {
    format!("line {number} is damaged or belongs to another run's file (refusing to use the file)")
}

/// Whether `bytes` (a whole file without a newline) is empty or a prefix of the
/// header `ours` (up to its owner slot, whose bytes may be anything): a file created
/// by a run of this identity that was cut while it wrote the header.
fn is_torn_header(bytes: &[u8], ours: &Header) -> bool {
    let fixed = bytes.len().min(ours.owner_at);
    bytes.len() < ours.line.len() && bytes[..fixed] == ours.line.as_bytes()[..fixed]
}

/// Parses a header line (without its newline) of a file expected to belong to `id`,
/// refusing one of another run, another checkpoint format or another unit list.
fn header_of_run(bytes: &[u8], id: &RunId) -> Result<Header, Problem> {
    let refuse = |why: String| Err(Problem::Refused(why));
    let (found, header) = match parse_header(bytes) {
        Ok(parsed) => parsed,
        Err(BadHeader::NotOurs) => return refuse(NOT_OURS.into()),
        Err(BadHeader::Format(format)) => {
            return refuse(format_change(&format, &FORMAT_VERSION.to_string()))
        }
        Err(BadHeader::Damaged) => return refuse(header_damaged()),
    };
    if let Some(diff) = id.difference(&found) {
        if diff.key == UNITS_KEY {
            return refuse(units_refusal(&diff, &found));
        }
        let advice = match (diff.key.as_str(), &diff.other) {
            ("engine", Some(engine)) => {
                format!("resume it with the {engine} engine, or use another file for this run")
            }
            _ => "use another file for this run".to_string(),
        };
        return refuse(format!(
            "belongs to another run ({}): {advice}",
            diff.describe("here", "in the file")
        ));
    }
    Ok(header)
}

/// Why a line is not the header of a checkpoint this version reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BadHeader {
    /// It does not start as a checkpoint does: not a checkpoint at all.
    NotOurs,
    /// A checkpoint in another format than [`FORMAT_VERSION`] (the one it names).
    Format(String),
    /// A checkpoint header whose check, fields or owner slot are damaged.
    Damaged,
}

/// Parses a header line (without its newline) of a checkpoint in this version's
/// format: the run it names and the header (with the key its records' checks start
/// from). A run's reader compares the run with its own; `audit` learns the run from it.
///
/// # Errors
/// [`BadHeader`]: not a checkpoint, another format, a damaged header.
pub(crate) fn parse_header(bytes: &[u8]) -> Result<(RunId, Header), BadHeader> {
    let rest = bytes
        .strip_prefix(MAGIC.as_bytes())
        .and_then(|rest| rest.strip_prefix(b" "))
        .ok_or(BadHeader::NotOurs)?;
    let rest = std::str::from_utf8(rest).map_err(|_| BadHeader::Damaged)?;
    let format = rest
        .split(' ')
        .next()
        .and_then(|w| w.strip_prefix("format="));
    if let Some(format) = format.filter(|f| *f != FORMAT_VERSION.to_string()) {
        return Err(BadHeader::Format(format.to_string()));
    }
    let (fields, after) = rest.split_once(" check=").ok_or(BadHeader::Damaged)?;
    let body_len = MAGIC.len() + 1 + fields.len();
    let key = fnv1a(&bytes[..body_len]);
    let owner_at = body_len + " check=".len() + 16 + " owner ".len();
    let holds = after.len() == 16 + " owner ".len() + OWNER_WIDTH
        && after.get(..16) == Some(&format!("{key:016x}"))
        && after.get(16..23) == Some(" owner ");
    let found = RunId::parse(fields)
        .filter(|_| holds)
        .ok_or(BadHeader::Damaged)?;
    let header = Header {
        line: format!("{}\n", String::from_utf8_lossy(bytes)),
        key,
        owner_at,
    };
    Ok((found, header))
}

/// The refusal of a file whose unit-list version (`diff`, this run's against the
/// file's) differs: one made with another list, or before versions were recorded.
fn units_refusal(diff: &Difference, found: &RunId) -> String {
    let engine = found.get("engine").unwrap_or(Engine::UNNAMED.name());
    let here = diff.this.as_deref().unwrap_or("?");
    match &diff.other {
        None => format!(
            "records no version of the {engine} engine's unit list (it was written before \
             checkpoints recorded one), so its tasks cannot be told from this build's \
             (version {here}): finish it with the nqueens that started it, or use another \
             file for this run"
        ),
        Some(there) => format!(
            "was written with version {there} of the {engine} engine's unit list, and this \
             build uses version {here}: finish it with a build of version {there}, or use \
             another file for this run"
        ),
    }
}

/// The refusal of a damaged header.
fn header_damaged() -> String {
    "its first line (the header) is damaged (refusing to use or overwrite it)".into()
}

/// The refusal of a file in checkpoint format `found` where this version writes
/// `expected`.
fn format_change(found: &str, expected: &str) -> String {
    let older = matches!(
        (found.parse::<u32>(), expected.parse::<u32>()),
        (Ok(f), Ok(e)) if f < e
    );
    if older {
        format!(
            "is in checkpoint format {found}, which this version no longer reads: format \
             {expected} binds every record to its run, so that records from another file are \
             refused. Finish the run with the version that wrote it, or use a new file"
        )
    } else {
        format!(
            "is in checkpoint format {found}, written by a later version (this one writes \
             format {expected}): resume it with that version, or use a new file"
        )
    }
}

/// Parses a record line (without its newline) of a file whose header check is `key`
/// ([`Header::key`]): `None` for a damaged line or one of another run's file.
pub(crate) fn parse_record(line: &[u8], key: u64) -> Option<TaskResult> {
    let line = std::str::from_utf8(line).ok()?;
    let (body, check) = line.rsplit_once(' ')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let lower_hex = check.len() == 16
        && check
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !lower_hex || u64::from_str_radix(check, 16).ok()? != fnv1a_from(key, body.as_bytes()) {
        return None;
    }
    let mut words = body.split(' ');
    let mut number = || words.next().filter(|w| digits(w));
    let result = TaskResult {
        index: number()?.parse().ok()?,
        weighted: number()?.parse().ok()?,
        work: number()?.parse().ok()?,
    };
    words.next().is_none().then_some(result)
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
