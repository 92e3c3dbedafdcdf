//! Shards: a count split over independent jobs, and the merge of their outputs.
//!
//! Shard `I/K` runs the tasks whose index `i` in the deterministic task list has
//! `i % K == I`. Its [`ShardReport`] (one JSON object) records the run it belongs to
//! and its partial totals; [`merge`] sums a complete set of reports and refuses a set
//! with a missing, duplicated or inconsistent shard.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::limits::Quantity;
use crate::run::identity::RunIdentity;
use crate::search::kernel::Kernel;
use crate::symmetry::rotation::fundamental;
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
    /// variable of [`INDEX_VARIABLES`].
    pub fn parse(spec: &str, var: impl Fn(&str) -> Option<String>) -> Result<Shard, Error> {
        let bad = |why: String| Error::Shard(format!("bad shard '{spec}': {why}"));
        let form = "expected I/K (or auto/K) with integers 0 <= I < K";
        let (i, k) = spec.split_once('/').ok_or_else(|| bad(form.into()))?;
        let count = Quantity::Shards
            .parse(k)
            .map_err(|_| bad(Quantity::Shards.expectation()))? as usize;
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
        (self.index..tasks).step_by(self.count).collect()
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
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
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
    /// The queens this shard placed (shard 0 also carries the task-building nodes).
    pub nodes: u128,
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
}

impl ShardReport {
    /// The run this shard belongs to.
    pub(crate) fn identity(&self) -> RunIdentity {
        RunIdentity {
            n: self.n,
            symmetry: self.symmetry,
            split_depth: self.split_depth,
            placements: self.placements.clone(),
            tasks: self.tasks_total,
        }
    }
}

/// The sum of a complete set of shard outputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Merged {
    /// The board size.
    pub n: usize,
    /// The number of solutions.
    pub total: u128,
    /// The fundamental solutions, when shard 0 ran with `--unique` (from its
    /// rotation-fixed counts and the total, by Burnside's lemma).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<u128>,
    /// Shard 0's count of the solutions fixed by the half turn, if it made one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot180: Option<u128>,
    /// Shard 0's count of the solutions fixed by the quarter turn, if it made one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rot90: Option<u128>,
    /// The queens placed by all shards together (equal to an unsharded count's).
    pub nodes: u128,
    /// The tasks of the whole count.
    pub tasks: usize,
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
    /// Pre-placed queens (empty when none).
    pub placements: String,
    /// The number of shards merged.
    pub shards: usize,
    /// The shards' wall-clock seconds added up.
    pub shard_seconds: f64,
}

/// Sums the shard outputs `reports`, each named by where it came from. Refuses
/// ([`Error::Merge`]) an empty set, one with shards of different runs, a shard given
/// twice, a missing shard, or a shard whose task count is not its share.
pub fn merge(reports: &[(String, ShardReport)]) -> Result<Merged, Error> {
    let fail = |m: String| Err(Error::Merge(m));
    let Some((first_name, first)) = reports.first() else {
        return fail("nothing to merge: no shard outputs given".into());
    };
    let mut seen: std::collections::BTreeMap<usize, &str> = Default::default();
    let run = first.identity();
    for (name, r) in reports {
        if let Some(diff) = r.identity().difference(&run) {
            return fail(format!(
                "{name} is from another run than {first_name}: {}",
                diff.describe("there", &format!("in {first_name}"))
            ));
        }
        if r.shards != first.shards {
            return fail(format!(
                "{name} is from another run than {first_name}: it is one of {} shards, not {}",
                r.shards, first.shards
            ));
        }
        if r.shard >= r.shards {
            return fail(format!(
                "{name}: shard {} is not below the shard count {}",
                r.shard, r.shards
            ));
        }
        if let Some(other) = seen.insert(r.shard, name) {
            return fail(format!(
                "shard {}/{} is given twice ({other} and {name})",
                r.shard, r.shards
            ));
        }
        let share = Shard {
            index: r.shard,
            count: r.shards,
        }
        .indices(r.tasks_total)
        .len();
        if r.tasks != share {
            return fail(format!(
                "{name}: shard {}/{} ran {} tasks, but its share is {share}",
                r.shard, r.shards, r.tasks
            ));
        }
    }
    let missing: Vec<String> = (0..first.shards)
        .filter(|i| !seen.contains_key(i))
        .take(10)
        .map(|i| format!("{i}/{}", first.shards))
        .collect();
    if !missing.is_empty() {
        let more = first.shards - seen.len() - missing.len();
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        return fail(format!("shards missing: {}{tail}", missing.join(", ")));
    }
    let overflow = |what: &str| Error::Merge(format!("the shards' {what} add up past 2^128"));
    let mut total = 0u128;
    let mut nodes = 0u128;
    for (_, r) in reports {
        total = total
            .checked_add(r.total)
            .ok_or_else(|| overflow("totals"))?;
        nodes = nodes
            .checked_add(r.nodes)
            .ok_or_else(|| overflow("nodes"))?;
    }
    let zero = reports.iter().map(|(_, r)| r).find(|r| r.shard == 0);
    let (rot180, rot90) = zero.map_or((None, None), |r| (r.rot180, r.rot90));
    let unique = match (rot180, rot90) {
        (Some(rot180), Some(rot90)) => {
            Some(fundamental(first.n, total, rot180, rot90).ok_or_else(|| {
                Error::Merge(format!(
                    "the total {total} and shard 0's rotation-fixed counts ({rot180}, {rot90}) \
                     give no whole number of classes: a shard report is wrong"
                ))
            })?)
        }
        _ => None,
    };
    Ok(Merged {
        n: first.n,
        total,
        unique,
        rot180,
        rot90,
        nodes,
        tasks: first.tasks_total,
        symmetry: first.symmetry,
        split_depth: first.split_depth,
        placements: first.placements.clone(),
        shards: first.shards,
        shard_seconds: reports.iter().map(|(_, r)| r.seconds).sum(),
    })
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
    }

    fn report(shard: usize, shards: usize) -> (String, ShardReport) {
        let tasks_total = 10;
        (
            format!("s{shard}.json"),
            ShardReport {
                n: 8,
                symmetry: Symmetry::Mirror,
                kernel: Some(Kernel::Scalar),
                split_depth: 2,
                placements: String::new(),
                shard,
                shards,
                tasks: Shard {
                    index: shard,
                    count: shards,
                }
                .indices(tasks_total)
                .len(),
                tasks_total,
                total: 10 * shard as u128,
                nodes: 5,
                rot180: None,
                rot90: None,
                threads: 1,
                seconds: 0.5,
                version: "0".into(),
            },
        )
    }

    #[test]
    fn merges_complete_sets_only() {
        let set: Vec<_> = (0..3).map(|i| report(i, 3)).collect();
        let merged = merge(&set).unwrap();
        assert_eq!((merged.total, merged.nodes, merged.shards), (30, 15, 3));
        let e = merge(&set[..2]).unwrap_err().to_string();
        assert_eq!(e, "shards missing: 2/3");
        let mut twice = set.clone();
        twice.push(report(1, 3));
        assert!(merge(&twice)
            .unwrap_err()
            .to_string()
            .contains("given twice"));
        let mut mixed = set.clone();
        mixed[2].1.n = 9;
        assert!(merge(&mixed)
            .unwrap_err()
            .to_string()
            .contains("n is '9' there but '8' in s0.json"));
        let mut short = set;
        short[0].1.tasks -= 1;
        assert!(merge(&short).unwrap_err().to_string().contains("its share"));
        assert!(merge(&[]).is_err());
    }

    #[test]
    fn shards_of_different_kernels_and_versions_merge() {
        let mut set: Vec<_> = (0..2).map(|i| report(i, 2)).collect();
        set[1].1.kernel = Some(Kernel::Avx512);
        assert_eq!(merge(&set).unwrap().total, 10);
        // An output written before kernels were named still reads.
        let mut value = serde_json::to_value(&set[0].1).unwrap();
        value.as_object_mut().unwrap().remove("kernel");
        let old: ShardReport = serde_json::from_value(value).unwrap();
        assert_eq!(old.kernel, None);
    }
}
