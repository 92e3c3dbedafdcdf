//! `verify`: compute totals and compare them with the published values.

use serde::Serialize;

use nqueens::{count, Error, Options};

use nqueens::published::published;

/// One line of a verification: computed counts next to the published ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyRow {
    /// The board size.
    pub n: usize,
    /// The computed total (named as in `count --json`).
    pub total: u128,
    /// The published total (A000170), if known.
    pub published: Option<u128>,
    /// The computed number of fundamental solutions.
    pub unique: u128,
    /// The published number of fundamental solutions (A002562), if known.
    pub published_unique: Option<u128>,
    /// Whether both counts agree with the published ones (false when nothing is published).
    pub ok: bool,
    /// The engine that counted.
    pub engine: String,
    /// The kernel (vector path) that ran it.
    pub kernel: String,
    /// Time of the count (written rounded to the nanosecond).
    #[serde(serialize_with = "nqueens::internals::serialize_seconds")]
    pub seconds: f64,
}

/// A whole verification, as `verify --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyReport {
    /// Whether every row agrees with the published values.
    pub ok: bool,
    /// The kernel asked for (each row names the kernel that ran it).
    pub kernel: String,
    /// Worker threads of each count.
    pub threads: usize,
    /// The symmetry mode.
    pub symmetry: String,
    /// The version of nqueens.
    pub version: &'static str,
    /// The git commit of the build, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
    /// The rows, n = 0 first.
    pub rows: Vec<VerifyRow>,
}

/// Checks both engines' kernels on this processor ([`nqueens::check_kernels`]), then
/// counts n = 0..=max with `options` (a split depth is capped at each n) and compares
/// each total with A000170 and each fundamental count with A002562, calling `on_row` as
/// soon as each row is known.
pub fn verify(
    max: usize,
    options: &Options,
    mut on_row: impl FnMut(&VerifyRow),
) -> Result<VerifyReport, Error> {
    // Both engines' kernels on this processor first, whatever the boards.
    nqueens::check_kernels(options.kernel)?;
    let mut rows = Vec::with_capacity(max + 1);
    let mut threads = nqueens::limits::resolve_threads(options.threads)?;
    for n in 0..=max {
        let options = Options {
            unique: true,
            ..options.for_board(n)
        };
        let c = count(n, &options)?;
        threads = c.threads;
        let unique = c.unique.expect("unique was asked for");
        let expected = published(n);
        let row = VerifyRow {
            n,
            total: c.total,
            published: expected.map(|p| p.total),
            unique,
            published_unique: expected.map(|p| p.unique),
            ok: expected.is_some_and(|p| p.total == c.total && p.unique == unique),
            engine: c.engine.to_string(),
            kernel: c.kernel.to_string(),
            seconds: c.seconds,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(VerifyReport {
        ok: rows.iter().all(|r| r.ok),
        kernel: options.kernel.to_string(),
        threads,
        symmetry: options.symmetry.to_string(),
        version: nqueens::VERSION,
        commit: nqueens::COMMIT,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_range_verifies() {
        let mut seen = 0;
        let report = verify(9, &Options::default(), |_| seen += 1).unwrap();
        assert_eq!(seen, 10);
        assert!(report.ok && report.rows.iter().all(|r| r.ok));
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["rows"][8]["total"], 92);
        assert_eq!(json["version"], nqueens::VERSION);
        assert!(json["kernel"].is_string() && json["threads"].is_u64());
    }
}
