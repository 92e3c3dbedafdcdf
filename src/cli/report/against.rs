//! The result of `bench --against OLD_BINARY`: both binaries timed alternately in one
//! command (as hyperfine does), a ratio and a verdict per rung, as a Markdown table or
//! JSON.
//!
//! The verdict of a rung, with threshold t (0.05 for `--threshold 5`), stands on two
//! ratios of new to old: the median wall times, with the bootstrap interval of their
//! ratio (as `compare` has it; runs taken in turns share the machine's drift, so the
//! interval now covers all the noise), and the median CPU seconds (user and system,
//! which do not count the time spent waiting for a core). It is *regressed* when the
//! whole wall interval lies above 1 + t and the CPU ratio too, *improved* when both
//! lie below 1 / (1 + t), and *unchanged* otherwise. Where the CPU time is too short
//! for the clock's ticks (under [`MIN_CPU_SECONDS`]) or unknown, the wall interval
//! decides alone. The ratio of the minimum wall times (the runs least disturbed) is
//! shown beside it.
//!
//! Uses the report layer's statistics and verdicts.

use std::fmt::Write as _;

use serde::Serialize;

use super::compare::Verdict;
use super::statistics::{ratio_interval, Summary};

/// The shortest median CPU time a verdict uses: the kernel counts it in ticks of 10 ms.
pub const MIN_CPU_SECONDS: f64 = 0.05;

/// One rung timed alternately.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgainstRow {
    /// The board size.
    pub n: usize,
    /// The total both binaries printed.
    pub total: u128,
    /// Wall seconds of each run of the old binary, in order.
    pub old_wall: Vec<f64>,
    /// Wall seconds of each run of the new binary, in order.
    pub new_wall: Vec<f64>,
    /// CPU seconds (user and system) of each run of the old binary, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_cpu: Option<Vec<f64>>,
    /// CPU seconds of each run of the new binary, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_cpu: Option<Vec<f64>>,
    /// The median new wall time over the median old one.
    pub wall_ratio: f64,
    /// The 95% bootstrap interval of `wall_ratio`, low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
    /// The minimum new wall time over the minimum old one.
    pub min_ratio: f64,
    /// The median new CPU time over the median old one (absent when too short to
    /// tell, or unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ratio: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
}

impl AgainstRow {
    /// The row of `n` from its samples, judged with `threshold` (a fraction).
    pub fn judge(
        n: usize,
        total: u128,
        wall: [Vec<f64>; 2],
        cpu: Option<[Vec<f64>; 2]>,
        threshold: f64,
    ) -> AgainstRow {
        let [old_wall, new_wall] = wall;
        let interval = ratio_interval(&old_wall, &new_wall);
        let min_ratio = Summary::of(&new_wall).min / Summary::of(&old_wall).min;
        let cpu_ratio = cpu.as_ref().and_then(|[old, new]| {
            let (old, new) = (Summary::of(old).median, Summary::of(new).median);
            (old >= MIN_CPU_SECONDS && new >= MIN_CPU_SECONDS).then(|| new / old)
        });
        let verdict = verdict(interval.low, interval.high, cpu_ratio, threshold);
        let (old_cpu, new_cpu) = match cpu {
            Some([old, new]) => (Some(old), Some(new)),
            None => (None, None),
        };
        AgainstRow {
            n,
            total,
            old_wall,
            new_wall,
            old_cpu,
            new_cpu,
            wall_ratio: interval.ratio,
            low: interval.low,
            high: interval.high,
            min_ratio,
            cpu_ratio,
            verdict,
        }
    }
}

/// The rule of the module documentation.
fn verdict(low: f64, high: f64, cpu: Option<f64>, threshold: f64) -> Verdict {
    let wall = Verdict::of(low, high, threshold);
    match (wall, cpu.map(|ratio| Verdict::of(ratio, ratio, threshold))) {
        (verdict, None) => verdict,
        (wall, Some(cpu)) if wall == cpu => wall,
        _ => Verdict::Unchanged,
    }
}

/// Both binaries compared over a ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Against {
    /// The old binary, as given.
    pub old: String,
    /// Its `--version` line.
    pub old_version: String,
    /// The new binary (this one).
    pub new: String,
    /// Its version line.
    pub new_version: String,
    /// The count's arguments after `count N`.
    pub arguments: Vec<String>,
    /// Runs of each binary per rung (after one warm-up run of each).
    pub runs: usize,
    /// The smallest change that counts, as a fraction.
    pub threshold: f64,
    /// The rungs, smallest n first.
    pub rows: Vec<AgainstRow>,
    /// The geometric mean of the wall ratios: the whole ladder's speed, new over old.
    pub geometric_mean_ratio: f64,
}

impl Against {
    /// Whether any rung regressed.
    pub fn regressed(&self) -> bool {
        self.count(Verdict::Regressed) > 0
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == verdict).count()
    }

    /// The geometric mean of the rows' wall ratios (1 for no rows).
    #[allow(clippy::cast_precision_loss, reason = "a row count, far below 2^53")]
    pub fn geometric_mean(rows: &[AgainstRow]) -> f64 {
        if rows.is_empty() {
            return 1.0;
        }
        let logs: f64 = rows.iter().map(|r| r.wall_ratio.ln()).sum();
        (logs / rows.len() as f64).exp()
    }

    /// The comparison as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "### nqueens bench --against: new / old, run alternately\n"
        );
        let _ = writeln!(md, "- old: `{}` ({})", self.old, self.old_version);
        let _ = writeln!(md, "- new: `{}` ({})", self.new, self.new_version);
        let _ = writeln!(
            md,
            "- each: `count N {}`, {} runs per rung after a warm-up, taken in turns\n",
            self.arguments.join(" "),
            self.runs
        );
        let _ = writeln!(
            md,
            "| n | old median ms | new median ms | ratio | 95% interval | ratio of minima | old CPU s | new CPU s | CPU ratio | verdict |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---|");
        for r in &self.rows {
            let median = |v: &Option<Vec<f64>>| {
                v.as_ref()
                    .map_or("-".to_string(), |v| format!("{:.2}", Summary::of(v).median))
            };
            let _ = writeln!(
                md,
                "| {} | {:.3} | {:.3} | {:.3} | {:.3} – {:.3} | {:.3} | {} | {} | {} | {} |",
                r.n,
                Summary::of(&r.old_wall).median * 1e3,
                Summary::of(&r.new_wall).median * 1e3,
                r.wall_ratio,
                r.low,
                r.high,
                r.min_ratio,
                median(&r.old_cpu),
                median(&r.new_cpu),
                r.cpu_ratio.map_or("-".to_string(), |c| format!("{c:.3}")),
                r.verdict.word()
            );
        }
        let _ = writeln!(
            md,
            "\nwhole ladder: new / old = {:.3} (geometric mean of the median wall ratios); {} \
             regressed, {} improved, {} unchanged (threshold {}%: the whole wall interval and \
             the CPU ratio must pass it; a CPU time under {MIN_CPU_SECONDS} s leaves the wall \
             interval alone).",
            self.geometric_mean_ratio,
            self.count(Verdict::Regressed),
            self.count(Verdict::Improved),
            self.count(Verdict::Unchanged),
            self.threshold * 100.0
        );
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ratios_must_agree() {
        assert_eq!(verdict(1.2, 1.3, Some(1.2), 0.05), Verdict::Regressed);
        assert_eq!(verdict(1.2, 1.3, Some(1.0), 0.05), Verdict::Unchanged);
        assert_eq!(verdict(1.2, 1.3, None, 0.05), Verdict::Regressed);
        assert_eq!(verdict(0.9, 1.3, None, 0.05), Verdict::Unchanged);
        assert_eq!(verdict(0.8, 0.9, Some(0.8), 0.05), Verdict::Improved);
        assert_eq!(verdict(1.01, 1.02, Some(1.01), 0.05), Verdict::Unchanged);
    }

    #[test]
    fn rows_take_minima_and_medians() {
        let row = AgainstRow::judge(
            12,
            14200,
            [vec![0.010, 0.012, 0.011], vec![0.020, 0.021, 0.030]],
            Some([vec![0.01, 0.01, 0.01], vec![0.02, 0.02, 0.02]]),
            0.05,
        );
        assert!((row.min_ratio - 2.0).abs() < 1e-9);
        assert!((row.wall_ratio - 21.0 / 11.0).abs() < 1e-9);
        assert!(row.low > 1.05);
        assert_eq!(row.cpu_ratio, None, "CPU times too short to tell");
        assert_eq!(row.verdict, Verdict::Regressed);
        let mean = Against::geometric_mean(&[
            row.clone(),
            AgainstRow {
                wall_ratio: 11.0 / 21.0,
                ..row
            },
        ]);
        assert!((mean - 1.0).abs() < 1e-9);
    }
}
