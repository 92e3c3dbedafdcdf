//! `audit`: independent confirmation of a long run. It draws recorded units from
//! checkpoints at random (seeded, reproducible), recounts each by an independent
//! method and compares.
//!
//! A checkpoint records every finished unit (index, weighted count, work). The audit
//! rebuilds the run's units from the header ([`run`]: the same engine, the same
//! version of its unit list), reads the records in two bounded passes ([`read`]),
//! draws `k` of them ([`draw`]), and recounts each from its description (the engine's
//! `engine::spec`: per-row column masks and the unit's weights) with a search of its
//! own ([`recount`]), sharing no code with the engines' kernels. A backtracking task's
//! nodes are compared too; the join's work (pairs) has no independent measure.
//!
//! If a fraction `f` of a run's recorded units were wrong, a sample of `k` would catch
//! one with probability at least `1 - (1 - f)^k` ([`Audit::catch`]).
//!
//! This layer uses the run layer (checkpoint lines and their checks, the bound a record
//! must keep, the run identity), the engine layer (versions, unit descriptions),
//! `files`, `sampling` and the pool: it sits beside `entry` and `estimate`.

mod draw;
mod read;
mod recount;
mod run;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::engine::spec::Units;
use crate::engine::{Engine, TaskResult};
use crate::error::Error;
use crate::limits::resolve_threads;
use crate::pool::build_pool;
use crate::run::long::identity::RunId;
use crate::symmetry::Symmetry;
use draw::{draw, UnitSet};
use read::{fetch, note_units, shard_of, Lines};
use recount::recount;

/// The most units one audit draws.
pub const MAX_SAMPLE: usize = 10_000_000;

/// The units an audit draws when not told.
pub const DEFAULT_SAMPLE: usize = 100;

/// The fractions of wrong units for which [`Audit::catch`] states the probability.
pub const WRONG_FRACTIONS: [f64; 3] = [0.001, 0.01, 0.1];

/// What an audit draws, and how it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditOptions {
    /// Units to draw (`1..=MAX_SAMPLE`); at least the recorded units draws them all.
    pub sample: usize,
    /// The seed of the draw: the same seed draws the same units of the same files.
    pub seed: u64,
    /// Worker threads (each recounts one unit at a time) [default: every logical CPU].
    pub threads: Option<usize>,
}

/// A drawn unit whose recount differs from its record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The unit's index.
    pub unit: usize,
    /// The unit in words.
    pub description: String,
    /// Where it is recorded: `FILE line L`.
    pub recorded_in: String,
    /// Its recorded weighted count.
    pub recorded: u128,
    /// The weighted count of the independent recount.
    pub recounted: u128,
    /// Its recorded work, when the recount measures the same (nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_work: Option<u128>,
    /// The recount's nodes, when the unit's work is nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recounted_work: Option<u128>,
}

/// The chance that the audit catches a run with a fraction of wrong units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Catch {
    /// The fraction of the recorded units that would be wrong.
    pub fraction_wrong: f64,
    /// The probability that the drawn units include a wrong one (1 when every recorded
    /// unit was drawn).
    pub probability: f64,
}

/// What an audit checked and found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Audit {
    /// The checkpoints read.
    pub files: Vec<String>,
    /// The board size.
    pub n: usize,
    /// The engine that counted the run.
    pub engine: Engine,
    /// The version of its unit list.
    pub units_version: u32,
    /// The run's symmetry mode.
    pub symmetry: Symmetry,
    /// The run's split depth (the backtracking engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// The run's pre-placed queens (empty for none).
    pub placements: String,
    /// The units of the whole run.
    pub units_total: usize,
    /// The units recorded in the files.
    pub units_recorded: usize,
    /// The units drawn and recounted.
    pub units_drawn: usize,
    /// The seed of the draw.
    pub seed: u64,
    /// How the drawn units were recounted.
    pub method: &'static str,
    /// Whether the units' work was compared too (nodes).
    pub work_compared: bool,
    /// The drawn units whose recount agrees with their record.
    pub agreed: usize,
    /// Those whose recount differs.
    pub mismatches: Vec<Mismatch>,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds of the whole audit (reading, drawing, recounting).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds: f64,
    /// The mean seconds of one unit's recount on one thread.
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds_per_unit: f64,
    /// The longest recount of one unit, in seconds.
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub seconds_max_unit: f64,
    /// The chance of catching a run with wrong units, for [`WRONG_FRACTIONS`].
    pub catch: Vec<Catch>,
}

/// The words of [`Audit::method`].
const METHOD: &str = "an independent recursive search of each drawn unit's own constraints \
                      (per-row columns, placed queens), with the unit's weights applied to \
                      each solution; it shares no code with the engines' kernels";

/// Audits the checkpoints `paths` (those of one run, such as its shards'): draws
/// `options.sample` of their recorded units from `options.seed`, recounts each by an
/// independent method and compares.
///
/// # Errors
/// [`Error::Audit`] for files that are missing, not regular files, not checkpoints,
/// damaged, of different runs, of another version of the unit list, or that record
/// nothing; [`Error::OutOfRange`] or [`Error::ThreadPool`] for the threads. A unit
/// that disagrees is no error: it is in [`Audit::mismatches`].
pub fn audit(paths: &[PathBuf], options: &AuditOptions) -> Result<Audit, Error> {
    let start = Instant::now();
    let threads = resolve_threads(options.threads)?;
    let Some(first_path) = paths.first() else {
        return Err(Error::Audit("nothing to audit: no checkpoint given".into()));
    };
    let (first, id) = Lines::open(first_path)?;
    let run = run::rebuild(&id, first.name())?;
    let total = run.units.len();
    let files = note_all(paths, &id, first.name(), total)?;
    let drawn = draw(
        &files.recorded,
        options.sample.clamp(1, MAX_SAMPLE),
        options.seed,
    );
    let records = fetch_drawn(paths, &files, total, &drawn)?;
    let pool = build_pool(threads)?;
    let outcomes = pool.install(|| recount_all(run.units.as_ref(), &records));
    let unit_seconds: f64 = outcomes.iter().map(|(_, s)| s).sum();
    let seconds_max_unit = outcomes.iter().map(|(_, s)| *s).fold(0.0, f64::max);
    let mismatches: Vec<Mismatch> = outcomes.into_iter().filter_map(|(m, _)| m).collect();
    let work_compared = run.units.spec(drawn[0]).rows_above.is_some();
    Ok(Audit {
        files: files.names,
        n: run.n,
        engine: run.engine,
        units_version: run.units_version,
        symmetry: run.symmetry,
        split_depth: run.split_depth,
        placements: run.placements,
        units_total: total,
        units_recorded: files.recorded.len(),
        units_drawn: drawn.len(),
        seed: options.seed,
        method: METHOD,
        work_compared,
        agreed: drawn.len() - mismatches.len(),
        mismatches,
        threads,
        seconds: start.elapsed().as_secs_f64(),
        seconds_per_unit: unit_seconds / count_f64(drawn.len()),
        seconds_max_unit,
        catch: catch(drawn.len(), files.recorded.len()),
    })
}

/// What the first pass found in the files.
struct Noted {
    /// The files' names.
    names: Vec<String>,
    /// The shard each file names (`None` for a whole run).
    shards: Vec<Option<crate::run::long::shard::Shard>>,
    /// The units recorded in any of them.
    recorded: UnitSet,
}

/// First pass: checks that every file of `paths` is a checkpoint of the run `id` (of
/// `first`, with `total` units; any shard) and notes the units they record, each once.
fn note_all(paths: &[PathBuf], id: &RunId, first: &str, total: usize) -> Result<Noted, Error> {
    let same_run = |id: &RunId| id.clone().with("shard", "");
    let mut noted = Noted {
        names: Vec::with_capacity(paths.len()),
        shards: Vec::with_capacity(paths.len()),
        recorded: UnitSet::new(total),
    };
    for path in paths {
        let (mut lines, here) = Lines::open(path)?;
        if let Some(diff) = same_run(&here).difference(&same_run(id)) {
            return Err(Error::Audit(format!(
                "{} is from another run than {first}: {}; audit each run on its own",
                lines.name(),
                diff.describe("there", &format!("in {first}"))
            )));
        }
        let shard = shard_of(&here, lines.name())?;
        note_units(&mut lines, total, shard, &mut noted.recorded)?;
        noted.shards.push(shard);
        noted.names.push(lines.name().to_string());
    }
    if noted.recorded.len() == 0 {
        return Err(Error::Audit(format!(
            "{} records no finished unit yet: nothing to audit",
            noted.names.join(", ")
        )));
    }
    Ok(noted)
}

/// Second pass: the records of the units `drawn` (sorted), with where each is
/// (`FILE line L`), in the order of `drawn`.
fn fetch_drawn(
    paths: &[PathBuf],
    files: &Noted,
    total: usize,
    drawn: &[usize],
) -> Result<Vec<(TaskResult, String)>, Error> {
    let mut wanted = UnitSet::new(total);
    for &i in drawn {
        wanted.insert(i);
    }
    let mut records = Vec::with_capacity(drawn.len());
    for (path, &shard) in paths.iter().zip(&files.shards) {
        let (mut lines, _) = Lines::open(path)?;
        for (result, line) in fetch(&mut lines, total, shard, &wanted)? {
            records.push((result, format!("{} line {line}", lines.name())));
        }
    }
    records.sort_by_key(|(r, _)| r.index);
    if !records
        .iter()
        .map(|(r, _)| r.index)
        .eq(drawn.iter().copied())
    {
        return Err(Error::Audit(format!(
            "{} changed while the audit read it: run the audit again",
            files.names.join(", ")
        )));
    }
    Ok(records)
}

/// Recounts the unit of each record on the current pool, one unit per worker at a
/// time: its mismatch, if any, and the seconds its recount took.
fn recount_all(
    units: &dyn Units,
    records: &[(TaskResult, String)],
) -> Vec<(Option<Mismatch>, f64)> {
    records
        .par_iter()
        .map(|(record, place)| {
            let timer = Instant::now();
            let spec = units.spec(record.index);
            let found = recount(&spec);
            let agrees = found.weighted == record.weighted
                && found.nodes.is_none_or(|nodes| nodes == record.work);
            let mismatch = (!agrees).then(|| Mismatch {
                unit: record.index,
                description: spec.description,
                recorded_in: place.clone(),
                recorded: record.weighted,
                recounted: found.weighted,
                recorded_work: found.nodes.map(|_| record.work),
                recounted_work: found.nodes,
            });
            (mismatch, timer.elapsed().as_secs_f64())
        })
        .collect()
}

/// The chance of drawing a wrong unit among `drawn` of `recorded`, for each of
/// [`WRONG_FRACTIONS`]: `1 - (1 - f)^drawn` (a lower bound: the draw is without
/// replacement), and 1 when every recorded unit was drawn.
fn catch(drawn: usize, recorded: usize) -> Vec<Catch> {
    WRONG_FRACTIONS
        .iter()
        .map(|&f| Catch {
            fraction_wrong: f,
            probability: if drawn >= recorded {
                1.0
            } else {
                1.0 - (1.0 - f).powf(count_f64(drawn))
            },
        })
        .collect()
}

/// A count of units as an `f64` (exact far beyond any run).
#[allow(
    clippy::cast_precision_loss,
    reason = "unit counts are below 2^53, exact in an f64"
)]
fn count_f64(count: usize) -> f64 {
    count as f64
}

impl Audit {
    /// Whether every drawn unit agreed.
    pub fn agrees(&self) -> bool {
        self.mismatches.is_empty()
    }
}
