//! Measuring one rung of the ladder by wall-clock time, and assembling the report.
//!
//! A row starts with one count that checks the total and sizes the batch: a sample is
//! the mean time of `batch` counts run back to back, with `batch` chosen so that a
//! sample lasts at least the sample time (small boards take microseconds, far below the
//! clock's and the scheduler's noise). Then come the warm-up samples (thrown away) and
//! the recorded ones.

use std::time::Instant;

use nqueens::{count, Error, Options};

use super::bench::{BenchReport, BenchRow, Measure, SCHEMA};
use super::facts::CountFacts;
use super::machine::{utc_timestamp, Build, Machine};
use nqueens::published::published;

/// How many samples to take, and how long each lasts at least.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Recorded samples per row.
    pub runs: usize,
    /// Samples per row run first and thrown away.
    pub warmup: usize,
    /// The least duration of a time sample, in seconds.
    pub sample_time: f64,
}

/// Checks a total against the published one: a benchmark of a wrong count is
/// worthless.
pub fn check_total(n: usize, total: u128) -> Result<(), String> {
    match published(n) {
        Some(p) if p.total != total => Err(format!(
            "n = {n}: the count gave {total}, but the published total is {}: this build counts \
             wrong",
            p.total
        )),
        _ => Ok(()),
    }
}

/// Times `count(n, options)` as described in the module documentation.
pub fn time_row(
    n: usize,
    options: &Options,
    settings: &Settings,
) -> Result<(BenchRow, CountFacts), String> {
    let options = options.for_board(n);
    let run = || count(n, &options).map_err(|e: Error| e.to_string());
    let first = run()?;
    check_total(n, first.total)?;
    let batches = (settings.sample_time / first.seconds.max(1e-9))
        .ceil()
        .clamp(1.0, 1e6);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a whole number from 1 to 10^6 (rounded up and clamped), exact in a u64"
    )]
    let batch = batches as u64;
    let sample = || -> Result<f64, String> {
        let start = Instant::now();
        for _ in 0..batch {
            let c = run()?;
            if c.total != first.total {
                return Err(format!(
                    "n = {n}: one count gave {}, another {}",
                    first.total, c.total
                ));
            }
        }
        Ok(start.elapsed().as_secs_f64() / batches)
    };
    for _ in 0..settings.warmup {
        sample()?;
    }
    let samples = (0..settings.runs)
        .map(|_| sample())
        .collect::<Result<Vec<f64>, String>>()?;
    let facts = CountFacts::from(&first);
    Ok((BenchRow::new(&facts, batch, samples, Measure::Time), facts))
}

/// The report of a finished ladder; `facts` is the last row's count (for threads;
/// `None` for an empty ladder, which takes them from `options`). The report names the
/// engine and kernel asked for; each row, those that ran it.
pub fn assemble(
    date: String,
    measure: Measure,
    settings: &Settings,
    options: &Options,
    facts: Option<&CountFacts>,
    rows: Vec<BenchRow>,
) -> BenchReport {
    let threads = facts.map_or_else(
        || nqueens::limits::resolve_threads(options.threads).unwrap_or(1),
        |f| f.threads,
    );
    BenchReport {
        schema: SCHEMA,
        date,
        measure,
        machine: Machine::this(),
        build: Build::this(),
        threads,
        engine: options.engine.to_string(),
        symmetry: options.symmetry.to_string(),
        kernel: options.kernel.to_string(),
        runs: settings.runs,
        warmup: if measure == Measure::Time {
            settings.warmup
        } else {
            0
        },
        rows,
    }
}

/// The current time, for [`assemble`] (taken when the ladder starts).
pub fn start_date() -> String {
    utc_timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_statistics() {
        let options = Options {
            threads: Some(1),
            ..Options::default()
        };
        let settings = Settings {
            runs: 3,
            warmup: 1,
            sample_time: 0.002,
        };
        let mut rows = Vec::new();
        let mut last = None;
        for n in 4..=6 {
            let (row, facts) = time_row(n, &options, &settings).unwrap();
            assert_eq!(row.samples.len(), 3);
            assert!(row.batch >= 1);
            assert!(
                row.min <= row.median
                    && row.median <= row.samples.iter().copied().fold(0.0, f64::max)
            );
            rows.push(row);
            last = Some(facts);
        }
        assert_eq!(rows.iter().map(|r| r.total).collect::<Vec<_>>(), [2, 10, 4]);
        let report = assemble(
            start_date(),
            Measure::Time,
            &settings,
            &options,
            last.as_ref(),
            rows,
        );
        assert_eq!(report.threads, 1);
        let dir = tempfile::tempdir().unwrap();
        // A symbolic link planted at the temporary name of earlier versions is left
        // alone, and so is its target.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let planted = dir.path().join(format!("{}.tmp", report.file_stem()));
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let (json, md) = report.save(dir.path()).unwrap();
        // Saved again in the same second: both reports are kept.
        let (json2, md2) = report.save(dir.path()).unwrap();
        assert_ne!((&json, &md), (&json2, &md2));
        assert!(
            json2.to_string_lossy().ends_with("-2.json"),
            "{}",
            json2.display()
        );
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            std::fs::read_to_string(&json2).unwrap()
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        let stem = report.file_stem();
        let mut expected = vec![
            format!("{stem}-2.json"),
            format!("{stem}-2.md"),
            format!("{stem}.json"),
            format!("{stem}.md"),
            "victim".to_string(),
        ];
        if cfg!(unix) {
            expected.push(format!("{stem}.tmp"));
        }
        expected.sort();
        assert_eq!(names, expected);
        let back = super::super::load::load(&json).unwrap();
        assert_eq!(back.rows.len(), 3);
        assert_eq!(back.rows[1].samples.len(), 3);
        // Boards this small leave too few rows below their tasks for a vector kernel.
        assert!(std::fs::read_to_string(md)
            .unwrap()
            .contains("| 6 | backtrack | scalar | 4 |"));
    }

    #[test]
    fn wrong_totals_are_caught() {
        assert!(check_total(8, 92).is_ok());
        assert!(check_total(8, 93)
            .unwrap_err()
            .contains("published total is 92"));
        assert!(check_total(30, 1).is_ok());
    }
}
