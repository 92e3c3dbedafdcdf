//! The bench report: a ladder of rows, each the statistics of repeated measurements,
//! with the facts needed to compare it with another report (machine, build, run
//! settings). Saved as JSON and Markdown ([`super::save`]); read back by [`super::load`].

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use nqueens::internals::round_to_nanos;

use super::facts::CountFacts;
use super::machine::{Build, Machine};
use super::statistics::Summary;

/// The version of the report's JSON layout: 3 names the engine and calls a row's
/// work `work` (nodes for the backtracking engine, pairs for the join engine).
/// [`super::load`] still reads schema 2 (the backtracking engine's, with `nodes`) and
/// the first layout (no `schema` field, one timing per row).
pub const SCHEMA: u32 = 3;

/// What a report measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Wall-clock seconds of each count.
    Time,
    /// Instructions executed by a one-thread count process, counted by valgrind
    /// (callgrind): the same on any machine load.
    Instructions,
}

impl Measure {
    /// The unit of the samples.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Time => "seconds",
            Measure::Instructions => "instructions",
        }
    }
}

/// One rung of the ladder: the count and the statistics of its samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    /// The board size.
    pub n: usize,
    /// The engine that counted (absent from schema 2 and older reports: `backtrack`).
    #[serde(default = "backtrack")]
    pub engine: String,
    /// The kernel (vector path) that ran it (absent from reports before rows named
    /// theirs: the report's `kernel` ran them all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// The computed total.
    pub total: u128,
    /// The work of one count in its engine's unit: nodes (queens placed) for the
    /// backtracking engine, pairs of half-boards for the join engine.
    #[serde(alias = "nodes")]
    pub work: u128,
    /// Tasks the count was split into (the join engine's units).
    pub tasks: usize,
    /// Rows fixed to form tasks (the backtracking engine only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// Counts timed back to back in each sample (a sample is their mean).
    pub batch: u64,
    /// The measurements, in the report's unit, in the order taken.
    #[serde(serialize_with = "serialize_values")]
    pub samples: Vec<f64>,
    /// The smallest sample.
    #[serde(serialize_with = "serialize_value")]
    pub min: f64,
    /// The median sample.
    #[serde(serialize_with = "serialize_value")]
    pub median: f64,
    /// The mean of the samples.
    #[serde(serialize_with = "serialize_value")]
    pub mean: f64,
    /// Their standard deviation.
    #[serde(serialize_with = "serialize_value")]
    pub stddev: f64,
    /// Their median absolute deviation.
    #[serde(serialize_with = "serialize_value")]
    pub mad: f64,
    /// Work per second at the median time (time reports only).
    #[serde(
        default,
        alias = "nodes_per_second",
        skip_serializing_if = "Option::is_none"
    )]
    pub work_per_second: Option<f64>,
}

impl BenchRow {
    /// A row from its count's facts and `samples` of `measure`.
    #[allow(
        clippy::cast_precision_loss,
        reason = "a rate: the nearest f64 of the work is all it needs"
    )]
    pub fn new(count: &CountFacts, batch: u64, samples: Vec<f64>, measure: Measure) -> Self {
        let s = Summary::of(&samples);
        BenchRow {
            n: count.n,
            engine: count.engine.clone(),
            kernel: Some(count.kernel.clone()),
            total: count.total,
            work: count.work,
            tasks: count.tasks,
            split_depth: count.split_depth,
            batch,
            samples,
            min: s.min,
            median: s.median,
            mean: s.mean,
            stddev: s.stddev,
            mad: s.mad,
            work_per_second: (measure == Measure::Time && s.median > 0.0)
                .then(|| (count.work as f64 / s.median).round()),
        }
    }

    /// The summary of the samples.
    pub fn summary(&self) -> Summary {
        Summary::of(&self.samples)
    }
}

/// A whole benchmark run, with the facts needed to compare it with others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// The layout version, [`SCHEMA`].
    pub schema: u32,
    /// When the run started (UTC).
    pub date: String,
    /// What the samples measure.
    pub measure: Measure,
    /// The machine it ran on.
    pub machine: Machine,
    /// The build that ran.
    pub build: Build,
    /// Worker threads of each count.
    pub threads: usize,
    /// The engine asked for (`auto` picks one per row; absent from schema 2 and older
    /// reports: `backtrack`).
    #[serde(default = "backtrack")]
    pub engine: String,
    /// The symmetry mode.
    pub symmetry: String,
    /// The kernel asked for (`auto` picks the highest this processor runs; each row
    /// names the kernel that ran it, which for the join engine may be lower).
    pub kernel: String,
    /// Samples per row.
    pub runs: usize,
    /// Warm-up samples per row, not recorded.
    pub warmup: usize,
    /// The rows, smallest n first.
    pub rows: Vec<BenchRow>,
}

/// The engine of reports that do not name one.
fn backtrack() -> String {
    "backtrack".to_string()
}

impl BenchReport {
    /// The file stem of this report:
    /// `bench-<date>-<host>-<engine>-<symmetry>-<kernel>-t<threads>`, with
    /// `-instructions` for instruction counts.
    pub fn file_stem(&self) -> String {
        let date: String = self
            .date
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == 'T')
            .collect();
        let host: String = self
            .machine
            .host
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let suffix = match self.measure {
            Measure::Time => "",
            Measure::Instructions => "-instructions",
        };
        format!(
            "bench-{date}-{host}-{}-{}-{}-t{}{suffix}",
            self.engine, self.symmetry, self.kernel, self.threads
        )
    }

    /// A short label for legends and tables: the commit (or version) and the date.
    pub fn label(&self) -> String {
        format!("{} {}", self.build.label(), self.date)
    }

    /// The report as a Markdown document.
    pub fn to_markdown(&self) -> String {
        let m = &self.machine;
        let b = &self.build;
        let unknown = || "unknown".to_string();
        let mut md = String::new();
        let _ = writeln!(md, "# nqueens bench, {}\n", self.date);
        let _ = writeln!(md, "- host: {}", m.host);
        let _ = writeln!(md, "- cpu: {} ({} logical CPUs)", m.cpu, m.logical_cpus);
        let _ = writeln!(md, "- os: {}", m.os.clone().unwrap_or_else(unknown));
        let _ = writeln!(md, "- vector features: {}", m.vector_features.join(" "));
        let _ = writeln!(
            md,
            "- build: nqueens {}, commit {}, {}",
            b.version,
            b.commit.clone().unwrap_or_else(unknown),
            b.rustc.clone().unwrap_or_else(unknown)
        );
        let _ = writeln!(md, "- measure: {}", self.measure.unit());
        let _ = writeln!(
            md,
            "- threads: {}, engine: {}, symmetry: {}, kernel: {}",
            self.threads, self.engine, self.symmetry, self.kernel
        );
        let _ = writeln!(md, "- runs: {}, warm-up: {}\n", self.runs, self.warmup);
        md.push_str(&table(self.measure, &self.rows));
        md
    }

    /// The report as pretty-printed JSON, ending in a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes") + "\n"
    }
}

/// The header of the ladder table for `measure`. The work rate is in each row's
/// engine's unit (nodes for `backtrack`, pairs for `join`).
pub fn table_header(measure: Measure) -> String {
    match measure {
        Measure::Time => {
            "| n | engine | kernel | total | min ms | median ms | mean ms | ± σ ms | MAD ms | work/s | samples |\n\
             |---:|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                .to_string()
        }
        Measure::Instructions => {
            "| n | engine | kernel | total | min | median | mean | ± σ | spread | instructions/work | samples |\n\
             |---:|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                .to_string()
        }
    }
}

/// The ladder as a Markdown (and terminal) table.
pub fn table(measure: Measure, rows: &[BenchRow]) -> String {
    let mut out = table_header(measure);
    for row in rows {
        let _ = writeln!(out, "{}", table_row(measure, row));
    }
    out
}

/// One row of [`table`].
#[allow(
    clippy::cast_precision_loss,
    reason = "instructions per unit of work, printed to two places: the nearest f64 of the work is all it needs"
)]
pub fn table_row(measure: Measure, row: &BenchRow) -> String {
    match measure {
        Measure::Time => {
            let ms = |s: f64| format!("{:.3}", s * 1e3);
            format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3e} | {}×{} |",
                row.n,
                row.engine,
                row.kernel.as_deref().unwrap_or("-"),
                row.total,
                ms(row.min),
                ms(row.median),
                ms(row.mean),
                ms(row.stddev),
                ms(row.mad),
                row.work_per_second.unwrap_or(0.0),
                row.samples.len(),
                row.batch
            )
        }
        Measure::Instructions => format!(
            "| {} | {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.3}% | {:.2} | {} |",
            row.n,
            row.engine,
            row.kernel.as_deref().unwrap_or("-"),
            row.total,
            row.min,
            row.median,
            row.mean,
            row.stddev,
            row.summary().spread_percent(),
            if row.work > 0 {
                row.median / row.work as f64
            } else {
                0.0
            },
            row.samples.len()
        ),
    }
}

/// A measured value as JSON: whole numbers (instruction counts) as integers, others
/// rounded to the nanosecond.
#[allow(
    clippy::cast_possible_truncation,
    reason = "a whole number below 9e15 in magnitude, exact in an i64"
)]
fn value_json(value: f64) -> serde_json::Value {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        serde_json::Value::from(value as i64)
    } else {
        serde_json::Value::from(round_to_nanos(value))
    }
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's `serialize_with` passes a reference"
)]
fn serialize_value<S: serde::Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    value_json(*value).serialize(s)
}

fn serialize_values<S: serde::Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(|&v| value_json(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_without_float_noise() {
        assert_eq!(
            value_json(2.503_553_692_999_999_7).to_string(),
            "2.503553693"
        );
        assert_eq!(value_json(16_044_898.0).to_string(), "16044898");
        assert_eq!(value_json(0.0).to_string(), "0");
    }
}
