//! Shards: a count split over independent jobs, and the sealed reports they write.
//!
//! Shard `I/K` runs the tasks whose index `i` in the deterministic task list has
//! `i % K == I`. Its [`ShardReport`] (one JSON object) records the run it belongs to
//! and its partial totals, sealed by a hash of its content ([`ShardReport::seal`]);
//! [`crate::run::long::merge`] reads and sums a complete set of them.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::cpu::Kernel;
use crate::engine::{counting, Engine, Work};
use crate::error::Error;
use crate::limits::Quantity;
use crate::run::long::identity::RunIdentity;
use crate::symmetry::Symmetry;

/// The environment variables that may hold the shard index for `--shard auto/K`, in
/// the order they are consulted (Slurm job arrays, Kubernetes Indexed Jobs).
pub(crate) const INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// One shard of a count: index `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The shard index, `0..count`.
    pub index: usize,
    /// The number of shards.
    pub count: usize,
}

impl Shard {
    /// Parses `I/K`, or `auto/K` with the index read through `var` from the first set
    /// variable of `SLURM_ARRAY_TASK_ID` and `JOB_COMPLETION_INDEX`.
    ///
    /// # Errors
    /// [`Error::Shard`], saying why, for text of another form, a count outside
    /// `1..=MAX_SHARDS`, an index not below the count, or `auto` without either
    /// variable.
    pub fn parse(spec: &str, var: impl Fn(&str) -> Option<String>) -> Result<Shard, Error> {
        let bad = |why: String| Error::Shard(format!("bad shard '{spec}': {why}"));
        let form = "expected I/K (or auto/K) with integers 0 <= I < K";
        let (i, k) = spec.split_once('/').ok_or_else(|| bad(form.into()))?;
        let count = Quantity::Shards
            .parse(k)
            .ok()
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(|| bad(Quantity::Shards.expectation()))?;
        let (index_text, source) = if i.trim() == "auto" {
            let (name, value) = INDEX_VARIABLES
                .iter()
                .find_map(|name| var(name).map(|v| (*name, v)))
                .ok_or_else(|| {
                    bad(format!(
                        "auto needs one of {} to be set",
                        INDEX_VARIABLES.join(", ")
                    ))
                })?;
            (value, format!(" (from {name})"))
        } else {
            (i.to_string(), String::new())
        };
        let index: usize = index_text.trim().parse().map_err(|_| {
            bad(format!(
                "I{source} must be an integer from 0 to {}, not '{index_text}'",
                count - 1
            ))
        })?;
        if index >= count {
            return Err(bad(format!(
                "I{source} must be from 0 to {}, not {index}",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }

    /// The task indices of this shard among `tasks` tasks.
    pub fn indices(&self, tasks: usize) -> Vec<usize> {
        (self.index..tasks).step_by(self.count.max(1)).collect()
    }

    /// How many of `tasks` tasks this shard runs (the length of
    /// [`Shard::indices`], without listing them).
    pub fn share(&self, tasks: usize) -> usize {
        tasks.saturating_sub(self.index).div_ceil(self.count.max(1))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The output of one shard (`count --shard I/K --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardReport {
    /// The board size.
    pub n: usize,
    /// The engine that counted (absent from the outputs of versions before the join
    /// engine: they are `backtrack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
    /// The version of the engine's list of units the shard's tasks come from (absent
    /// from the outputs of versions before it was recorded: `merge` refuses those).
    /// Covered by the seal like every field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<u32>,
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks (the backtracking engine only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// Pre-placed queens (empty when none).
    #[serde(default)]
    pub placements: String,
    /// The shard index.
    pub shard: usize,
    /// The number of shards.
    pub shards: usize,
    /// The tasks this shard ran.
    pub tasks: usize,
    /// The tasks of the whole count.
    pub tasks_total: usize,
    /// The weighted solutions found by this shard.
    pub total: u128,
    /// The backtracking engine's work: the queens this shard placed (shard 0 also
    /// carries the task-building nodes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u128>,
    /// The join engine's work: the pairs of half-boards this shard evaluated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u128>,
    /// Shard 0 of a run with `--unique`: the solutions fixed by the half turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rot180: Option<u128>,
    /// Shard 0 of a run with `--unique`: the solutions fixed by the quarter turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rot90: Option<u128>,
    /// Worker threads used.
    pub threads: usize,
    /// The kernel that ran it (shards may run on different processors; absent from
    /// the outputs of versions before kernels were named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<Kernel>,
    /// Wall-clock seconds of this shard.
    pub seconds: f64,
    /// The version of the crate that ran it.
    pub version: String,
    /// The git commit it was built from, when its build knew it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// With a checkpoint: the tasks taken from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed: Option<usize>,
    /// With a checkpoint: the tasks run by the process that wrote the report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ran: Option<usize>,
    /// The seal: the SHA-256 of the report's canonical form, as 64 hex digits (see
    /// [`ShardReport::seal`]). Absent from the outputs of versions before sealing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

impl ShardReport {
    /// The seal of this report: the SHA-256 of its canonical form, the compact JSON of
    /// every field but `check`, in the order of this struct, as 64 lowercase hex
    /// digits.
    ///
    /// A plain hash, not a keyed one: it detects damage and edits (a changed digit, a
    /// removed field, a tool that rounded a large integer), which is what a set of
    /// shard files copied between clusters needs. It does not stop someone who means
    /// to forge a report and recomputes the hash; a key would have to be shared with
    /// every job, and would then be no secret.
    ///
    /// # Panics
    /// Never in practice: it would take `serde_json` failing on a struct of numbers,
    /// strings and lists.
    pub fn seal(&self) -> String {
        let canonical = ShardReport {
            check: None,
            ..self.clone()
        };
        let text = serde_json::to_string(&canonical).expect("a shard report serializes");
        let mut hex = String::with_capacity(64);
        for byte in Sha256::digest(text.as_bytes()) {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    /// This report with its seal in `check`.
    #[must_use]
    pub fn sealed(self) -> ShardReport {
        let check = Some(self.seal());
        ShardReport { check, ..self }
    }

    /// Whether `check` holds this report's seal: `None` when it has no seal at all.
    pub fn seal_holds(&self) -> Option<bool> {
        self.check.as_ref().map(|check| *check == self.seal())
    }

    /// The engine that counted ([`Engine::UNNAMED`] for reports that do not say).
    pub(crate) fn engine(&self) -> Engine {
        self.engine.unwrap_or(Engine::UNNAMED)
    }

    /// The shard's work, if it reports exactly one work field and that is its engine's
    /// unit.
    pub(crate) fn work(&self) -> Option<Work> {
        let work = Work::from_fields(self.nodes, self.pairs)?;
        let unit = counting(self.engine()).work(0).unit();
        (work.unit() == unit).then_some(work)
    }

    /// The run this shard belongs to.
    pub(crate) fn identity(&self) -> RunIdentity {
        RunIdentity {
            n: self.n,
            engine: self.engine(),
            units: self.units,
            symmetry: self.symmetry,
            split_depth: self.split_depth,
            placements: self.placements.clone(),
            tasks: self.tasks_total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn parses_specs() {
        assert_eq!(
            Shard::parse("1/3", none).unwrap(),
            Shard { index: 1, count: 3 }
        );
        for bad in ["3/3", "0/0", "x/2", "1", "1/", "/2", "-1/2", "1/-2"] {
            let e = Shard::parse(bad, none).unwrap_err();
            assert!(matches!(e, Error::Shard(_)), "{bad}");
        }
        let slurm = |v: &str| (v == "SLURM_ARRAY_TASK_ID").then(|| "2".to_string());
        assert_eq!(Shard::parse("auto/4", slurm).unwrap().index, 2);
        let k8s = |v: &str| (v == "JOB_COMPLETION_INDEX").then(|| "5".to_string());
        let e = Shard::parse("auto/4", k8s).unwrap_err().to_string();
        assert!(
            e.contains("from JOB_COMPLETION_INDEX") && e.contains("0 to 3"),
            "{e}"
        );
        assert!(Shard::parse("auto/4", none)
            .unwrap_err()
            .to_string()
            .contains("SLURM_ARRAY_TASK_ID"));
    }

    #[test]
    fn indices_partition_the_tasks() {
        let mut all: Vec<usize> = (0..3)
            .flat_map(|i| Shard { index: i, count: 3 }.indices(10))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert!(Shard { index: 4, count: 5 }.indices(3).is_empty());
        for tasks in 0..20 {
            for count in 1..6 {
                for index in 0..count {
                    let shard = Shard { index, count };
                    assert_eq!(shard.share(tasks), shard.indices(tasks).len());
                }
            }
        }
    }
}
