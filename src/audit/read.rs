//! Reading the checkpoints an audit checks, in two streaming passes with every line
//! bounded: the first checks each file (a regular file, a checkpoint header of the
//! same run, whole records in range and each unit once) and notes which units are
//! recorded; the second fetches the records of the units drawn.
//!
//! A torn last line (a run killed mid-write, or one still writing) is left out, as a
//! resume leaves it out. Anything else that is not a whole record is refused.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::audit::draw::UnitSet;
use crate::engine::TaskResult;
use crate::error::Error;
use crate::run::long::checkpoint::format::{parse_header, parse_record};
use crate::run::long::checkpoint::MAGIC;
use crate::run::long::identity::RunId;
use crate::run::long::shard::Shard;

/// The longest header line read (a header is a few hundred bytes).
const MAX_HEADER: u64 = 64 << 10;

/// The longest record line read (a record is at most about 130 bytes).
const MAX_RECORD: u64 = 1 << 10;

/// A refusal of the audit's input.
fn refuse(message: String) -> Error {
    Error::Audit(message)
}

/// An open checkpoint: its name, its lines, and the number of the next line.
pub(crate) struct Lines {
    name: String,
    reader: BufReader<File>,
    number: usize,
}

impl Lines {
    /// Opens `path`, which must be a regular file (a FIFO or a device is refused before
    /// it is opened, so that nothing blocks or reads without end).
    pub(crate) fn open(path: &Path) -> Result<Lines, Error> {
        let name = path.display().to_string();
        let cannot = |e: std::io::Error| refuse(format!("cannot read {name}: {e}"));
        let metadata = std::fs::metadata(path).map_err(cannot)?;
        if !metadata.is_file() {
            return Err(refuse(format!(
                "{name} is not a regular file: expected a checkpoint (count --checkpoint FILE)"
            )));
        }
        let file = File::open(path).map_err(cannot)?;
        Ok(Lines {
            name,
            reader: BufReader::new(file),
            number: 0,
        })
    }

    /// The file's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The next whole line (without its newline), at most `limit` bytes; `None` at the
    /// end, or for a last line without its newline (torn).
    fn next_line(&mut self, limit: u64) -> Result<Option<String>, Error> {
        let mut line = Vec::new();
        (&mut self.reader)
            .take(limit + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| refuse(format!("cannot read {}: {e}", self.name)))?;
        self.number += 1;
        if line.last() != Some(&b'\n') {
            if line.len() as u64 > limit {
                return Err(refuse(format!(
                    "{} line {} is longer than any checkpoint line: not a checkpoint",
                    self.name, self.number
                )));
            }
            return Ok(None);
        }
        line.pop();
        String::from_utf8(line).map(Some).map_err(|_| {
            refuse(format!(
                "{} line {} is damaged (not text)",
                self.name, self.number
            ))
        })
    }

    /// The run the file's header names.
    pub(crate) fn header(&mut self) -> Result<RunId, Error> {
        let start = self
            .reader
            .fill_buf()
            .map_err(|e| refuse(format!("cannot read {}: {e}", self.name)))?;
        let report = start
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
        let line = if report {
            String::new()
        } else {
            self.next_line(MAX_HEADER)?.unwrap_or_default()
        };
        if report {
            return Err(refuse(format!(
                "{} is a shard report, not a checkpoint: a report holds its shard's sum, not \
                 its units; audit a sharded run through its shards' checkpoints (count \
                 --shard I/K --checkpoint FILE)",
                self.name
            )));
        }
        if !line.starts_with(MAGIC) {
            return Err(refuse(format!(
                "{} is not an nqueens checkpoint (count --checkpoint FILE)",
                self.name
            )));
        }
        parse_header(&line)
            .ok_or_else(|| refuse(format!("{} has a damaged header line", self.name)))
    }

    /// The next record, with its line number; `None` at the end. A record must be
    /// whole, of a unit below `units` and of the file's `shard`.
    pub(crate) fn record(
        &mut self,
        units: usize,
        shard: Option<Shard>,
    ) -> Result<Option<(TaskResult, usize)>, Error> {
        let Some(line) = self.next_line(MAX_RECORD)? else {
            return Ok(None);
        };
        let (name, number) = (&self.name, self.number);
        let result = parse_record(&line)
            .ok_or_else(|| refuse(format!("{name} line {number} is damaged")))?;
        if result.index >= units {
            return Err(refuse(format!(
                "{name} line {number} names unit {} but the run has {units} units",
                result.index
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
