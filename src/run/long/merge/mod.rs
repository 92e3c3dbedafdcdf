//! Merging shard reports: reading them, checking each one (its seal, and that its
//! numbers are possible) and the set (one run, every shard once), and summing them
//! with checked arithmetic.

mod checks;
mod read;

use serde::Serialize;

use crate::engine::{counting, Engine, Work};
use crate::error::Error;
use crate::published::{self, Check};
use crate::run::long::shard::ShardReport;
use crate::symmetry::rotation::fundamental;
use crate::symmetry::Symmetry;

use checks::{check_seals, check_shard_set};
pub use read::{read_shard_report_file, read_shard_reports};

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
    /// The work of all shards together, in their engine's unit (equal to an unsharded
    /// count's; written as the JSON field `nodes` or `pairs`).
    #[serde(flatten)]
    pub work: Work,
    /// The tasks of the whole count.
    pub tasks: usize,
    /// The engine that counted.
    pub engine: Engine,
    /// The version of its list of units that every shard used.
    pub units: u32,
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks (the backtracking engine only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_depth: Option<usize>,
    /// Pre-placed queens (empty when none).
    pub placements: String,
    /// The number of shards merged.
    pub shards: usize,
    /// The shards' wall-clock seconds added up (written rounded to the nanosecond).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub shard_seconds: f64,
    /// The reports merged without a seal (allowed by [`MergeOptions::allow_unsealed`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsealed: Vec<String>,
    /// How the merged total (and `unique`, when there is one) compares with the
    /// published values ([`crate::published`]): [`Check::None`] for placed queens and
    /// for n >= 28. The table never supplies a count.
    pub published: Check,
    /// For [`Check::Mismatch`]: what differs, naming the merged and the published
    /// values.
    #[serde(skip)]
    pub disagreement: Option<String>,
}

/// How [`merge`] treats reports without a seal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Accept reports that carry no seal (written before reports were sealed), and
    /// name them in [`Merged::unsealed`]. A report whose seal is wrong is refused
    /// whatever this says.
    pub allow_unsealed: bool,
}

/// Sums the shard outputs `reports`, each named by where it came from.
///
/// # Errors
/// [`Error::ShardSeal`] for a report whose seal fails (or that has none, unless
/// `options` allow it); [`Error::Merge`] for an impossible report, an empty set, one
/// with shards of different runs, a shard given twice, a missing shard, or sums past
/// 2^128.
pub fn merge(reports: &[(String, ShardReport)], options: &MergeOptions) -> Result<Merged, Error> {
    let fail = |m: String| Err(Error::Merge(m));
    let Some((_, first)) = reports.first() else {
        return fail("nothing to merge: no shard outputs given".into());
    };
    let unsealed = check_seals(reports, *options)?;
    check_shard_set(reports)?;
    let overflow = |what: &str| Error::Merge(format!("the shards' {what} add up past 2^128"));
    let mut total = 0u128;
    let mut work = 0u128;
    for (_, r) in reports {
        total = total
            .checked_add(r.total)
            .ok_or_else(|| overflow("totals"))?;
        // `check_seals` made sure that every report names its engine's work.
        work = work
            .checked_add(r.work().map_or(0, Work::amount))
            .ok_or_else(|| overflow("work"))?;
    }
    let engine = first.engine();
    let zero = reports.iter().map(|(_, r)| r).find(|r| r.shard == 0);
    let (rot180, rot90) = zero.map_or((None, None), |r| (r.rot180, r.rot90));
    if rot180.is_some_and(|r| r > total) {
        return fail(format!(
            "shard 0's count of solutions fixed by the half turn exceeds the total {total}: \
             a shard report is wrong"
        ));
    }
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
    let (published, disagreement) = if first.placements.is_empty() {
        published::compare(first.n, total, unique)
    } else {
        (Check::None, None)
    };
    Ok(Merged {
        n: first.n,
        total,
        unique,
        rot180,
        rot90,
        work: counting(engine).work(work),
        tasks: first.tasks_total,
        engine,
        // `check_seals` refused every report without a version, `check_shard_set` a mix.
        units: first.units.unwrap_or_default(),
        symmetry: first.symmetry,
        split_depth: first.split_depth,
        placements: first.placements.clone(),
        shards: first.shards,
        shard_seconds: reports.iter().map(|(_, r)| r.seconds).sum(),
        unsealed,
        published,
        disagreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Kernel;
    use crate::run::long::plausible::MAX_WEIGHT;
    use crate::run::long::shard::Shard;

    fn merge_all(reports: &[(String, ShardReport)]) -> Result<Merged, Error> {
        merge(reports, &MergeOptions::default())
    }

    fn report(shard: usize, shards: usize) -> (String, ShardReport) {
        let tasks_total = 10;
        (
            format!("s{shard}.json"),
            ShardReport {
                n: 8,
                engine: Some(Engine::UNNAMED),
                units: Some(1),
                symmetry: Symmetry::Mirror,
                kernel: Some(Kernel::Scalar),
                split_depth: Some(2),
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
                nodes: Some(5),
                pairs: None,
                rot180: None,
                rot90: None,
                threads: 1,
                seconds: 0.5,
                version: "0".into(),
                commit: None,
                resumed: None,
                ran: None,
                check: None,
            }
            .sealed(),
        )
    }

    #[test]
    fn merges_complete_sets_only() {
        let set: Vec<_> = (0..3).map(|i| report(i, 3)).collect();
        let merged = merge_all(&set).unwrap();
        assert_eq!(
            (merged.total, merged.work.nodes(), merged.shards),
            (30, Some(15), 3)
        );
        let e = merge_all(&set[..2]).unwrap_err().to_string();
        assert_eq!(e, "shards missing: 2/3");
        let mut twice = set.clone();
        twice.push(report(1, 3));
        assert!(merge_all(&twice)
            .unwrap_err()
            .to_string()
            .contains("given twice"));
        let mut mixed = set.clone();
        mixed[2].1.n = 9;
        mixed[2].1 = mixed[2].1.clone().sealed();
        assert!(merge_all(&mixed)
            .unwrap_err()
            .to_string()
            .contains("n is '9' there but '8' in s0.json"));
        let mut short = set;
        short[0].1.tasks -= 1;
        short[0].1 = short[0].1.clone().sealed();
        assert!(merge_all(&short)
            .unwrap_err()
            .to_string()
            .contains("its share"));
        assert!(merge_all(&[]).is_err());
    }

    #[test]
    fn unit_list_versions_are_recorded_and_never_mixed() {
        let set: Vec<_> = (0..2).map(|i| report(i, 2)).collect();
        assert_eq!(merge_all(&set).unwrap().units, 1);
        let mut mixed = set.clone();
        mixed[1].1.units = Some(2);
        mixed[1].1 = mixed[1].1.clone().sealed();
        let e = merge_all(&mixed).unwrap_err().to_string();
        assert_eq!(
            e,
            "s1.json was counted with version 2 of the backtrack engine's unit list and \
             s0.json with version 1: shards of different unit lists cannot be merged (rerun \
             the shards of one version with one build)"
        );
        // The seal covers the version: changing it unsealed is a failed seal.
        let mut edited = set.clone();
        edited[1].1.units = Some(2);
        assert!(matches!(
            merge_all(&edited).unwrap_err(),
            Error::ShardSeal { missing: false, .. }
        ));
        let mut old = set;
        old[0].1.units = None;
        old[0].1 = old[0].1.clone().sealed();
        let e = merge_all(&old).unwrap_err().to_string();
        assert!(
            e.starts_with("s0.json records no version of the backtrack engine's unit list"),
            "{e}"
        );
    }

    #[test]
    fn shards_of_different_kernels_and_versions_merge() {
        let mut set: Vec<_> = (0..2).map(|i| report(i, 2)).collect();
        set[1].1.kernel = Some(Kernel::Avx512);
        set[1].1 = set[1].1.clone().sealed();
        assert_eq!(merge_all(&set).unwrap().total, 10);
        // An output written before kernels were named still reads.
        let mut value = serde_json::to_value(&set[0].1).unwrap();
        value.as_object_mut().unwrap().remove("kernel");
        let old: ShardReport = serde_json::from_value(value).unwrap();
        assert_eq!(old.kernel, None);
    }

    #[test]
    fn seals_and_impossible_reports_are_refused() {
        let set: Vec<_> = (0..2).map(|i| report(i, 2)).collect();
        let mut edited = set.clone();
        edited[1].1.total += 1;
        let e = merge_all(&edited).unwrap_err();
        assert!(matches!(e, Error::ShardSeal { missing: false, .. }), "{e}");
        let mut old = set.clone();
        old[1].1.check = None;
        let e = merge_all(&old).unwrap_err();
        assert!(matches!(e, Error::ShardSeal { missing: true, .. }), "{e}");
        let allowed = merge(
            &old,
            &MergeOptions {
                allow_unsealed: true,
            },
        )
        .unwrap();
        assert_eq!(allowed.unsealed, ["s1.json"]);
        let impossible = |change: fn(&mut ShardReport)| {
            let mut set = set.clone();
            change(&mut set[1].1);
            set[1].1 = set[1].1.clone().sealed();
            merge_all(&set).unwrap_err().to_string()
        };
        assert!(impossible(|r| r.total = u128::MAX).contains("more than its"));
        assert!(impossible(|r| r.n = 40).contains("above"));
        assert!(impossible(|r| r.split_depth = Some(9)).contains("split depth"));
        assert!(impossible(|r| r.split_depth = None).contains("no split depth"));
        assert!(impossible(|r| r.engine = Some("join".parse().unwrap())).contains("join engine"));
        assert!(impossible(|r| r.pairs = Some(1)).contains("work"));
        assert!(impossible(|r| r.tasks_total = usize::MAX).contains("more than a run"));
        assert!(impossible(|r| r.rot180 = Some(1)).contains("rotation-fixed"));
        assert!(impossible(|r| (r.resumed, r.ran) = (Some(1), Some(1))).contains("add up"));
        assert!(impossible(|r| r.placements = "9:9".into()).contains("no placed queens"));
        let mut set = set;
        set[0].1.rot180 = Some(100);
        set[0].1.rot90 = Some(0);
        set[0].1 = set[0].1.clone().sealed();
        assert!(merge_all(&set)
            .unwrap_err()
            .to_string()
            .contains("exceeds the total"));
    }

    #[test]
    fn every_join_unit_is_within_the_bound_of_its_pairs() {
        use crate::model::placement::Placement;
        use crate::run::count::options::Options;
        use crate::run::count::setup::Setup;
        use crate::run::long::plausible::too_many;
        for n in 4..=12 {
            let options = Options {
                threads: Some(1),
                symmetry: Symmetry::Full,
                engine: "join".parse().unwrap(),
                ..Options::default()
            };
            let setup = Setup::new(&Placement::empty(n).unwrap(), &options).unwrap();
            for i in 0..setup.plan.len() {
                let r = setup.run_task(i).unwrap();
                assert!(!too_many(r.weighted, r.work, 1), "n = {n}: {r:?}");
            }
        }
    }

    #[test]
    fn every_task_finds_at_most_eight_solutions_per_node() {
        use crate::model::placement::Placement;
        use crate::run::count::options::Options;
        use crate::run::count::setup::Setup;
        for n in 1..=11 {
            for symmetry in Symmetry::ALL {
                for split_depth in [1, n / 2, n] {
                    let options = Options {
                        threads: Some(1),
                        symmetry,
                        split_depth: Some(split_depth.max(1)),
                        ..Options::default()
                    };
                    let setup = Setup::new(&Placement::empty(n).unwrap(), &options).unwrap();
                    for i in 0..setup.plan.len() {
                        let r = setup.run_task(i).unwrap();
                        let found = r.work.max(1);
                        assert!(r.weighted <= MAX_WEIGHT * found, "n = {n}: {r:?}");
                    }
                }
            }
        }
    }
}
