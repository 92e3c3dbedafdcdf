//! Reading the checkpoints an audit checks, in two streaming passes with every line
//! bounded as a run's own reader bounds it: the first checks each file (a regular
//! file, a checkpoint header of the same run, whole records bound to that header by
//! their check, possible, in range and each unit once) and notes which units are
//! recorded; the second fetches the records of the units drawn.
//!
//! A torn last line (a run killed mid-write, or one still writing) is left out, as a
//! resume leaves it out. Anything else that is not a whole record is refused.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::audit::draw::UnitSet;
use crate::engine::TaskResult;
use crate::error::Error;
use crate::files::{open_input, read_line, FileError, Line};
use crate::run::long::checkpoint::format::{
    parse_header, parse_record, BadHeader, HEADER_LIMIT, RECORD_LIMIT,
};
use crate::run::long::identity::{RunId, FORMAT_VERSION};
use crate::run::long::plausible::too_many;
use crate::run::long::shard::Shard;

/// A refusal of the audit's input.
fn refuse(message: String) -> Error {
    Error::Audit(message)
}

/// An open checkpoint whose header was read: its name, its lines, the number of the
/// last line read, and the key its records' checks start from (its header's check).
pub(crate) struct Lines {
    name: String,
    reader: BufReader<File>,
    number: usize,
    key: u64,
}

impl Lines {
    /// Opens `path`, which must be a regular file (a folder, FIFO or device is refused,
    /// and nothing blocks or reads without end: [`open_input`]), and reads its header:
    /// the file, ready for its records, and the run the header names.
    pub(crate) fn open(path: &Path) -> Result<(Lines, RunId), Error> {
        let name = path.display().to_string();
        let file = open_input(path).map_err(|e| match e {
            FileError::Io(e) => refuse(format!("cannot read {name}: {e}")),
            e => refuse(format!(
                "{name} {e}: expected a checkpoint (count --checkpoint FILE)"
            )),
        })?;
        let mut lines = Lines {
            name,
            reader: BufReader::new(file),
            number: 0,
            key: 0,
        };
        let id = lines.header()?;
        Ok((lines, id))
    }

    /// The file's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The next whole record line (without its newline), at most [`RECORD_LIMIT`]
    /// bytes with its newline; `None` at the end, or for a last line without its
    /// newline (torn).
    fn next_record_line(&mut self) -> Result<Option<Vec<u8>>, Error> {
        let mut line = Vec::new();
        let found = read_line(&mut self.reader, &mut line, RECORD_LIMIT)
            .map_err(|e| refuse(format!("cannot read {}: {e}", self.name)))?;
        self.number += 1;
        match found {
            Line::Whole => {
                line.pop();
                Ok(Some(line))
            }
            Line::End => Ok(None),
            Line::TooLong => Err(refuse(format!(
                "{} line {} is longer than any checkpoint record: the file is damaged",
                self.name, self.number
            ))),
        }
    }

    /// Reads the header: the run it names (the key of its records noted).
    fn header(&mut self) -> Result<RunId, Error> {
        let start = self
            .reader
            .fill_buf()
            .map_err(|e| refuse(format!("cannot read {}: {e}", self.name)))?;
        let report = start
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
        if report {
            return Err(refuse(format!(
                "{} is JSON (a shard report?), not a checkpoint: a report holds its shard's \
                 sum, not its units; audit a sharded run through its shards' checkpoints \
                 (count --shard I/K --checkpoint FILE)",
                self.name
            )));
        }
        let mut line = Vec::new();
        let found = read_line(&mut self.reader, &mut line, HEADER_LIMIT)
            .map_err(|e| refuse(format!("cannot read {}: {e}", self.name)))?;
        self.number += 1;
        // A first line too long or without its end is no checkpoint header.
        if found == Line::Whole {
            line.pop();
        } else {
            line.clear();
        }
        let name = &self.name;
        let (id, header) = parse_header(&line).map_err(|bad| match bad {
            BadHeader::NotOurs => refuse(format!(
                "{name} is not an nqueens checkpoint (count --checkpoint FILE)"
            )),
            BadHeader::Format(format) => refuse(format!(
                "{name} is a checkpoint of format {format}, and this build reads format \
                 {FORMAT_VERSION}: audit it with the version that wrote it"
            )),
            BadHeader::Damaged => refuse(format!("{name} has a damaged header line")),
        })?;
        self.key = header.key;
        Ok(id)
    }

    /// The next record, with its line number; `None` at the end. A record must be
    /// whole, bound to the file's header by its check, possible, of a unit below
    /// `units` and of the file's `shard`.
    pub(crate) fn record(
        &mut self,
        units: usize,
        shard: Option<Shard>,
    ) -> Result<Option<(TaskResult, usize)>, Error> {
        let Some(line) = self.next_record_line()? else {
            return Ok(None);
        };
        let (name, number) = (&self.name, self.number);
        let result = parse_record(&line, self.key).ok_or_else(|| {
            refuse(format!(
                "{name} line {number} is damaged or belongs to another run's file"
            ))
        })?;
        if result.index >= units {
            return Err(refuse(format!(
                "{name} line {number} names unit {} but the run has {units} units",
                result.index
            )));
        }
        if too_many(result.weighted, result.work, 1) {
            return Err(refuse(format!(
                "{name} line {number} is impossible: {} solutions from {} work, more than \
                 one unit can find",
                result.weighted, result.work
            )));
        }
        if let Some(s) = shard.filter(|s| result.index % s.count != s.index) {
            return Err(refuse(format!(
                "{name} line {number} records unit {}, which is not in its shard {s}",
                result.index
            )));
        }
        Ok(Some((result, number)))
    }
}

/// The shard a header names (`shard=I/K`), or `None` for `shard=all`.
pub(crate) fn shard_of(id: &RunId, name: &str) -> Result<Option<Shard>, Error> {
    match id.get("shard") {
        None | Some("all") => Ok(None),
        Some(spec) => Shard::parse(spec, |_| None)
            .map(Some)
            .map_err(|_| refuse(format!("{name} names an impossible shard '{spec}'"))),
    }
}

/// First pass: adds the units recorded in the file `lines` (of a run of `units`
/// units) to `recorded`, refusing a unit recorded twice (here or in an earlier file).
pub(crate) fn note_units(
    lines: &mut Lines,
    units: usize,
    shard: Option<Shard>,
    recorded: &mut UnitSet,
) -> Result<(), Error> {
    while let Some((result, number)) = lines.record(units, shard)? {
        if !recorded.insert(result.index) {
            return Err(refuse(format!(
                "{} line {number} records unit {} a second time (in this file or an \
                 earlier one): the files are not the checkpoints of one run's shards",
                lines.name(),
                result.index
            )));
        }
    }
    Ok(())
}

/// Second pass: the records of the file `lines` whose unit is in `wanted`, with the
/// line each is on.
pub(crate) fn fetch(
    lines: &mut Lines,
    units: usize,
    shard: Option<Shard>,
    wanted: &UnitSet,
) -> Result<Vec<(TaskResult, usize)>, Error> {
    let mut found = Vec::new();
    while let Some((result, number)) = lines.record(units, shard)? {
        if wanted.contains(result.index) {
            found.push((result, number));
        }
    }
    Ok(found)
}
