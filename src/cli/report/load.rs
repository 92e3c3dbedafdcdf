//! Reading bench reports back: the current layout ([`SCHEMA`]) and the first one (no
//! `schema` field, one timing per row, as in the older files of `results/`), which is
//! converted on reading. Anything else is refused with a one-line reason, and only a
//! regular file of at most 64 MiB is read at all (`nqueens::files`).

use std::path::Path;

use serde::Deserialize;

use super::bench::{BenchReport, BenchRow, Measure, SCHEMA};
use super::machine::{Build, Machine};

/// Reads the bench report at `path`: a regular file of at most
/// [`REPORT_LIMIT`](nqueens::files::REPORT_LIMIT) bytes (a larger one, a folder, a FIFO
/// or a device is refused unread). The error is one line naming the file.
pub fn load(path: &Path) -> Result<BenchReport, String> {
    use nqueens::files::{read_whole, FileError, REPORT_LIMIT};
    let name = path.display();
    let bytes = read_whole(path, REPORT_LIMIT).map_err(|e| match e {
        FileError::Io(e) => format!("cannot read {name}: {e}"),
        e => format!("{name} {e}: expected a bench report"),
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{name}: not an nqueens bench report (not text)"))?;
    parse(&text).map_err(|reason| format!("{name}: {reason}"))
}

/// Parses the text of a bench report.
pub fn parse(text: &str) -> Result<BenchReport, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    let object = value
        .as_object()
        .ok_or("not an nqueens bench report (not a JSON object)")?;
    let report = match (object.get("schema"), object.get("rows")) {
        // Schema 2 is schema 3 of the backtracking engine, with `nodes` for `work`
        // (read by aliases and defaults).
        (Some(schema), _)
            if schema.as_u64() == Some(u64::from(SCHEMA)) || schema.as_u64() == Some(2) =>
        {
            let mut report = serde_json::from_str::<BenchReport>(text)
                .map_err(|e| format!("not a valid nqueens bench report ({e})"))?;
            report.schema = SCHEMA;
            report
        }
        (Some(schema), _) => {
            return Err(format!(
                "bench report schema {schema}, but this nqueens reads schemas 2 and {SCHEMA} \
                 and the first layout (no schema field)"
            ))
        }
        (None, Some(_)) => serde_json::from_str::<LegacyReport>(text)
            .map_err(|e| format!("not an nqueens bench report ({e})"))?
            .into_current(),
        (None, None) => {
            return Err("not an nqueens bench report (it has no \"schema\" and no \"rows\")".into())
        }
    };
    check(&report)?;
    Ok(report)
}

/// The checks serde cannot make: rows with samples, each positive and finite.
fn check(report: &BenchReport) -> Result<(), String> {
    for row in &report.rows {
        if row.samples.is_empty() {
            return Err(format!("row n = {} has no samples", row.n));
        }
        if let Some(bad) = row.samples.iter().find(|s| !s.is_finite() || **s < 0.0) {
            return Err(format!("row n = {} has a sample of {bad}", row.n));
        }
    }
    Ok(())
}

/// A report of the first layout.
#[derive(Deserialize)]
struct LegacyReport {
    date: String,
    host: String,
    cpu: String,
    logical_cpus: usize,
    threads: usize,
    symmetry: String,
    kernel: String,
    version: String,
    rows: Vec<LegacyRow>,
}

/// A row of the first layout: one timing.
#[derive(Deserialize)]
struct LegacyRow {
    n: usize,
    total: u128,
    seconds: f64,
    nodes: u128,
    nodes_per_second: f64,
    tasks: usize,
    split_depth: usize,
}

impl LegacyReport {
    /// The same facts in the current layout: each row is one sample.
    fn into_current(self) -> BenchReport {
        BenchReport {
            schema: SCHEMA,
            date: self.date,
            measure: Measure::Time,
            machine: Machine {
                host: self.host,
                cpu: self.cpu,
                logical_cpus: self.logical_cpus,
                os: None,
                arch: None,
                vector_features: Vec::new(),
            },
            build: Build {
                version: self.version,
                commit: None,
                rustc: None,
                profile: None,
                compiled_features: Vec::new(),
            },
            threads: self.threads,
            engine: "backtrack".to_string(),
            symmetry: self.symmetry,
            kernel: self.kernel,
            runs: 1,
            warmup: 0,
            rows: self
                .rows
                .into_iter()
                .map(|r| BenchRow {
                    n: r.n,
                    engine: "backtrack".to_string(),
                    kernel: None,
                    total: r.total,
                    work: r.nodes,
                    tasks: r.tasks,
                    split_depth: Some(r.split_depth),
                    batch: 1,
                    samples: vec![r.seconds],
                    min: r.seconds,
                    median: r.seconds,
                    mean: r.seconds,
                    stddev: 0.0,
                    mad: 0.0,
                    work_per_second: Some(r.nodes_per_second),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_older_reports_in_results_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let mut loaded = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("bench-") && path.extension().is_some_and(|e| e == "json") {
                let report = load(&path).unwrap();
                assert!(!report.rows.is_empty(), "{name}");
                assert_eq!(report.measure, Measure::Time);
                loaded += 1;
            }
        }
        assert!(loaded >= 5, "found {loaded} reports");
    }

    #[test]
    fn foreign_and_damaged_files_are_refused() {
        let cases = [
            ("", "not valid JSON"),
            ("{\"rows\": [", "not valid JSON"),
            ("[1, 2]", "not a JSON object"),
            ("{\"n\": 8, \"total\": 92}", "no \"schema\" and no \"rows\""),
            ("{\"schema\": 99}", "schema 99"),
            ("{\"schema\": 2, \"rows\": []}", "missing field"),
            ("{\"rows\": [{\"n\": 8}]}", "not an nqueens bench report"),
        ];
        for (text, expected) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.contains(expected), "{text}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
