//! The checks of `merge`: each report's seal and possible numbers, and that the set is
//! one run's shards, each once, none missing.

use std::collections::BTreeMap;

use crate::engine::counting;
use crate::error::Error;
use crate::limits::MAX_N;
use crate::model::placement::Placement;
use crate::run::long::identity::UNITS_KEY;
use crate::run::long::merge::MergeOptions;
use crate::run::long::plausible::too_many;
use crate::run::long::shard::{Shard, ShardReport};
use crate::symmetry::Symmetry;

/// Why a report cannot be the output of any shard, if it cannot.
pub(crate) fn impossible(r: &ShardReport) -> Option<String> {
    if r.n > MAX_N {
        return Some(format!("n = {} is above {MAX_N}", r.n));
    }
    let engine = r.engine();
    let placed = !r.placements.is_empty();
    if let Some(problem) = counting(engine).impossible(r.n, r.symmetry, r.split_depth, placed) {
        return Some(problem);
    }
    let most = counting(engine).max_units(r.n);
    if r.tasks_total > most {
        return Some(format!(
            "{} tasks is more than a run of the {engine} engine can have for n = {} (at most \
             {most})",
            r.tasks_total, r.n
        ));
    }
    if !r.placements.is_empty() && Placement::parse(r.n, &r.placements).is_err() {
        return Some(format!(
            "'{}' are no placed queens for n = {}",
            r.placements, r.n
        ));
    }
    if !r.placements.is_empty() && r.symmetry == Symmetry::Full {
        return Some("placed queens are never counted with full symmetry".into());
    }
    match (r.resumed, r.ran) {
        (None, None) => {}
        (Some(resumed), Some(ran)) if resumed.checked_add(ran) == Some(r.tasks) => {}
        _ => return Some("its resumed and ran tasks do not add up to its tasks".into()),
    }
    match (r.rot180, r.rot90) {
        (None, None) => {}
        (Some(_), Some(_)) if r.shard != 0 => {
            return Some("only shard 0 counts the rotation-fixed solutions".into())
        }
        (Some(rot180), Some(rot90)) if rot90 <= rot180 => {}
        _ => return Some("its rotation-fixed counts do not fit together".into()),
    }
    let Some(work) = r.work() else {
        return Some(format!("the {engine} engine's work is not what it reports"));
    };
    let (work, unit) = (work.amount(), work.unit());
    if too_many(r.total, work, r.tasks as u128) {
        return Some(format!(
            "its total {} is more than its {work} {unit} could have found",
            r.total
        ));
    }
    None
}

/// The names of the reports without a seal, when `options` allow them.
///
/// # Errors
/// [`Error::ShardSeal`] for a report whose seal fails, or that has none unless `options`
/// allow it; [`Error::Merge`] for an impossible report.
pub(crate) fn check_seals(
    reports: &[(String, ShardReport)],
    options: MergeOptions,
) -> Result<Vec<String>, Error> {
    let fail = |m: String| Err(Error::Merge(m));
    let mut unsealed = Vec::new();
    for (name, r) in reports {
        match r.seal_holds() {
            Some(true) => {}
            Some(false) => {
                return Err(Error::ShardSeal {
                    name: name.clone(),
                    missing: false,
                })
            }
            None if options.allow_unsealed => unsealed.push(name.clone()),
            None => {
                return Err(Error::ShardSeal {
                    name: name.clone(),
                    missing: true,
                })
            }
        }
        if r.units.is_none() {
            return fail(format!(
                "{name} records no version of the {} engine's unit list: it was written \
                 before shard reports recorded one, and its tasks cannot be told from another \
                 list's; rerun that shard with this nqueens",
                r.engine()
            ));
        }
        if let Some(problem) = impossible(r) {
            return fail(format!("{name} is impossible: {problem}"));
        }
    }
    Ok(unsealed)
}

/// Checks that `reports` (at least one) are the shards of one run, each once, none
/// missing.
///
/// # Errors
/// [`Error::Merge`] naming the first report of another run, a shard given twice, or the
/// missing shards.
pub(crate) fn check_shard_set(reports: &[(String, ShardReport)]) -> Result<(), Error> {
    let fail = |m: String| Err(Error::Merge(m));
    let (first_name, first) = &reports[0];
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    let run = first.identity();
    for (name, r) in reports {
        if let Some(diff) = r.identity().difference(&run) {
            if diff.key == UNITS_KEY {
                return fail(format!(
                    "{name} was counted with version {} of the {} engine's unit list and \
                     {first_name} with version {}: shards of different unit lists cannot be \
                     merged (rerun the shards of one version with one build)",
                    diff.this.unwrap_or_default(),
                    r.engine(),
                    diff.other.unwrap_or_default()
                ));
            }
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
        .share(r.tasks_total);
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
    Ok(())
}
