//! Comparing two bench reports row by row: the ratio of medians with its bootstrap
//! interval, and a verdict.
//!
//! The verdict rule, with threshold t (a fraction: 0.05 for `--threshold 5`):
//! - *regressed* when the whole interval lies above 1 + t (the new run is slower, or
//!   does more work, by more than t, beyond what the spread of either run explains);
//! - *improved* when the whole interval lies below 1 / (1 + t);
//! - *unchanged* otherwise: no change, a change smaller than t, or one the spread
//!   cannot tell from noise.
//!
//! Reports measured differently (time against instructions), in another symmetry mode,
//! over other board sizes, or with other totals are refused; other machines, kernels,
//! thread counts and builds only bring warnings.

use std::fmt::Write as _;

use serde::Serialize;

use super::bench::{BenchReport, BenchRow, Measure};
use super::statistics::{ratio_interval, CONFIDENCE};

/// The verdict on one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Slower (or more work) beyond the threshold and the spread.
    Regressed,
    /// Faster (or less work) beyond the threshold and the spread.
    Improved,
    /// Neither.
    Unchanged,
}

impl Verdict {
    /// The rule of the module documentation for an interval `low..=high` of new/old.
    pub fn of(low: f64, high: f64, threshold: f64) -> Verdict {
        if low > 1.0 + threshold {
            Verdict::Regressed
        } else if high < 1.0 / (1.0 + threshold) {
            Verdict::Improved
        } else {
            Verdict::Unchanged
        }
    }

    /// The verdict as a table shows it (a regression in bold).
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Regressed => "**regressed**",
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
        }
    }
}

/// One compared row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowComparison {
    /// The board size.
    pub n: usize,
    /// The baseline's median.
    pub baseline: f64,
    /// The new run's median.
    pub new: f64,
    /// new / baseline.
    pub ratio: f64,
    /// The interval of the ratio, low end.
    pub low: f64,
    /// The interval of the ratio, high end.
    pub high: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// Two reports compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// What both measure.
    pub measure: Measure,
    /// The smallest change that counts, as a fraction.
    pub threshold: f64,
    /// The baseline's label (commit or version, date).
    pub baseline_label: String,
    /// The new run's label.
    pub new_label: String,
    /// The rows, smallest n first.
    pub rows: Vec<RowComparison>,
    /// Differences between the runs that make the ratios less meaningful.
    pub warnings: Vec<String>,
}

/// Compares `new` with `baseline`; `Err` is one line saying why they cannot be
/// compared.
pub fn compare(
    baseline: &BenchReport,
    new: &BenchReport,
    threshold: f64,
) -> Result<Comparison, String> {
    refuse_mismatch(baseline, new)?;
    let rows = baseline
        .rows
        .iter()
        .zip(&new.rows)
        .map(|(old, new)| {
            let r = ratio_interval(&old.samples, &new.samples);
            RowComparison {
                n: old.n,
                baseline: old.median,
                new: new.median,
                ratio: r.ratio,
                low: r.low,
                high: r.high,
                verdict: Verdict::of(r.low, r.high, threshold),
            }
        })
        .collect();
    Ok(Comparison {
        measure: new.measure,
        threshold,
        baseline_label: baseline.label(),
        new_label: new.label(),
        rows,
        warnings: warnings(baseline, new),
    })
}

/// Whether a run of `measure` in `symmetry` over `sizes` could be compared with
/// `baseline`: `Err` is one line saying why not (checked before a bench starts).
pub fn check_plan(
    baseline: &BenchReport,
    measure: Measure,
    symmetry: &str,
    sizes: &[usize],
) -> Result<(), String> {
    if baseline.measure != measure {
        return Err(format!(
            "cannot compare a baseline of {} with {}: measure both the same way (--measure)",
            baseline.measure.unit(),
            measure.unit()
        ));
    }
    if baseline.symmetry != symmetry {
        return Err(format!(
            "cannot compare symmetry mode {} with {symmetry}: their rows count different trees; \
             run both with the same --symmetry",
            baseline.symmetry
        ));
    }
    let old_sizes: Vec<usize> = baseline.rows.iter().map(|row| row.n).collect();
    if old_sizes != sizes {
        return Err(format!(
            "cannot compare rows n = {} with rows n = {}: run both with the same --from and --to",
            ranges(&old_sizes),
            ranges(sizes)
        ));
    }
    if sizes.is_empty() {
        return Err("cannot compare: the reports have no rows".to_string());
    }
    Ok(())
}

/// The differences that make a comparison meaningless, as one line.
fn refuse_mismatch(baseline: &BenchReport, new: &BenchReport) -> Result<(), String> {
    let sizes: Vec<usize> = new.rows.iter().map(|row| row.n).collect();
    check_plan(baseline, new.measure, &new.symmetry, &sizes)?;
    for (old, new) in baseline.rows.iter().zip(&new.rows) {
        if old.total != new.total {
            return Err(format!(
                "cannot compare n = {}: the totals differ ({} and {}), so one build counts wrong",
                old.n, old.total, new.total
            ));
        }
        if old.median <= 0.0 || new.median <= 0.0 {
            return Err(format!("cannot compare n = {}: a median of zero", old.n));
        }
    }
    Ok(())
}

/// The differences between the runs that a reader should know of.
fn warnings(baseline: &BenchReport, new: &BenchReport) -> Vec<String> {
    let mut warnings = Vec::new();
    if new.measure == Measure::Time && baseline.date != new.date {
        warnings.push(format!(
            "wall times measured at different times ({} and {}): the intervals cover the \
             noise within each run, not the drift of the machine's load and clock between \
             them; for a verdict on time run both builds alternately in one command \
             (bench --against OLD_BINARY), and gate on instruction counts",
            baseline.date, new.date
        ));
    }
    let (a, b) = (&baseline.machine, &new.machine);
    if a.cpu != b.cpu || a.logical_cpus != b.logical_cpus || a.host != b.host {
        warnings.push(format!(
            "different machines: {} ({} CPUs, {}) and {} ({} CPUs, {})",
            a.cpu, a.logical_cpus, a.host, b.cpu, b.logical_cpus, b.host
        ));
    }
    let mut differs = |what: &str, old: String, new: String| {
        if old != new {
            warnings.push(format!("different {what}: {old} and {new}"));
        }
    };
    differs("kernels", baseline.kernel.clone(), new.kernel.clone());
    differs(
        "thread counts",
        baseline.threads.to_string(),
        new.threads.to_string(),
    );
    if !baseline.build.compiled_features.is_empty() || !new.build.compiled_features.is_empty() {
        differs(
            "compiled CPU features",
            baseline.build.compiled_features.join(" "),
            new.build.compiled_features.join(" "),
        );
    }
    if let (Some(old), Some(new)) = (&baseline.build.profile, &new.build.profile) {
        differs("build profiles", old.clone(), new.clone());
    }
    let engines: Vec<String> = baseline
        .rows
        .iter()
        .zip(&new.rows)
        .filter(|(o, n)| o.engine != n.engine)
        .map(|(o, n)| format!("{} ({} and {})", o.n, o.engine, n.engine))
        .collect();
    if !engines.is_empty() {
        warnings.push(format!(
            "different engines for n = {}: the rows compare two algorithms",
            engines.join(", ")
        ));
    }
    // A row that names no kernel (an older report) ran its report's.
    let row_kernel = |report: &BenchReport, row: &BenchRow| {
        row.kernel.clone().unwrap_or_else(|| report.kernel.clone())
    };
    let kernels: Vec<String> = baseline
        .rows
        .iter()
        .zip(&new.rows)
        .map(|(o, n)| (o.n, row_kernel(baseline, o), row_kernel(new, n)))
        .filter(|(_, o, n)| o != n)
        .map(|(n, o, k)| format!("{n} ({o} and {k})"))
        .collect();
    if !kernels.is_empty() {
        warnings.push(format!(
            "different kernels for n = {}: the rows ran other code",
            kernels.join(", ")
        ));
    }
    let trees: Vec<String> = baseline
        .rows
        .iter()
        .zip(&new.rows)
        .filter(|(o, n)| o.engine == n.engine && o.work != n.work)
        .map(|(o, _)| o.n.to_string())
        .collect();
    if !trees.is_empty() {
        warnings.push(format!(
            "different work for n = {}: the searches differ (split depth or algorithm)",
            trees.join(", ")
        ));
    }
    warnings
}

/// `8..16` for a run of consecutive sizes, else the list.
fn ranges(sizes: &[usize]) -> String {
    match sizes {
        [] => "(none)".to_string(),
        [one] => one.to_string(),
        [first, .., last] if last - first + 1 == sizes.len() => format!("{first}..{last}"),
        _ => sizes
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl Comparison {
    /// Whether any row regressed.
    pub fn regressed(&self) -> bool {
        self.count(Verdict::Regressed) > 0
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == verdict).count()
    }

    /// The comparison as Markdown, for a terminal or a CI job summary.
    pub fn to_markdown(&self) -> String {
        let mut md = String::new();
        let percent = self.threshold * 100.0;
        let _ = writeln!(
            md,
            "### nqueens bench: {} against the baseline\n",
            self.measure.unit()
        );
        let _ = writeln!(md, "- baseline: `{}`", self.baseline_label);
        let _ = writeln!(md, "- new: `{}`\n", self.new_label);
        let unit = match self.measure {
            Measure::Time => "ms",
            Measure::Instructions => "instructions",
        };
        let _ = writeln!(
            md,
            "| n | baseline {unit} | new {unit} | ratio | {:.0}% interval | verdict |",
            CONFIDENCE * 100.0
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|:---:|---|");
        let value = |v: f64| match self.measure {
            Measure::Time => format!("{:.3}", v * 1e3),
            Measure::Instructions => format!("{v:.0}"),
        };
        for r in &self.rows {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {:.3} | {:.3} – {:.3} | {} |",
                r.n,
                value(r.baseline),
                value(r.new),
                r.ratio,
                r.low,
                r.high,
                r.verdict.word()
            );
        }
        let _ = writeln!(
            md,
            "\n{} regressed, {} improved, {} unchanged (threshold {percent}%: a row counts when \
             its whole interval lies beyond it).",
            self.count(Verdict::Regressed),
            self.count(Verdict::Improved),
            self.count(Verdict::Unchanged)
        );
        for w in &self.warnings {
            let _ = writeln!(md, "\n> warning: {w}");
        }
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        assert_eq!(Verdict::of(1.06, 1.2, 0.05), Verdict::Regressed);
        assert_eq!(Verdict::of(1.04, 1.2, 0.05), Verdict::Unchanged);
        assert_eq!(Verdict::of(0.9, 1.1, 0.05), Verdict::Unchanged);
        assert_eq!(Verdict::of(0.8, 0.95, 0.05), Verdict::Improved);
        assert_eq!(Verdict::of(0.8, 0.96, 0.05), Verdict::Unchanged);
        assert_eq!(Verdict::of(1.001, 1.001, 0.0), Verdict::Regressed);
    }

    #[test]
    fn size_ranges() {
        assert_eq!(ranges(&[8, 9, 10]), "8..10");
        assert_eq!(ranges(&[8, 10]), "8, 10");
        assert_eq!(ranges(&[12]), "12");
    }
}
