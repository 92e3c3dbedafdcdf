//! `nqueens merge FILES...`: the total of a complete set of sealed shard reports.

use std::path::PathBuf;

use clap::Args;
use nqueens::{merge, read_shard_report_file, Error, MergeOptions};

use super::output::{print_stdout, verdict};
use super::{paths, Failure, Outcome};

/// Examples shown at the end of `nqueens merge --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  for i in 0 1 2; do nqueens count 12 --unique --shard $i/3 --json > s$i.json; done
  nqueens merge s0.json s1.json s2.json       # 14200
  nqueens merge --json s*.json                # total, unique, pairs, tasks, ...";

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Files holding the JSON outputs of `count --shard I/K --json` (one object per
    /// line; several lines per file are fine): regular files of at most 64 MiB.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of the total alone.
    #[arg(long)]
    pub json: bool,
    /// Also accept reports without a seal (written by versions before reports were
    /// sealed), with a warning for each. A report whose seal fails is always refused.
    #[arg(long)]
    pub allow_unsealed: bool,
}

/// Runs `merge`: exit status 2 if a file cannot be used (missing, unreadable, a
/// folder, not a regular file, too large, or not shard reports), if a report is
/// unsealed, tampered with or impossible, or the set is incomplete or inconsistent; 1
/// if reading fails part-way, or if the total (or `unique`) differs from the published
/// value (printed all the same, with an error line naming both).
pub fn run(args: &MergeArgs) -> Outcome {
    let mut reports = Vec::new();
    for path in &args.files {
        paths::input_file(path, "the shard report")?;
        reports.extend(read_shard_report_file(path).map_err(|e| match e {
            Error::Io { .. } => Failure::runtime(e.to_string()),
            e => refusal(e),
        })?);
    }
    let options = MergeOptions {
        allow_unsealed: args.allow_unsealed,
    };
    let merged = merge(&reports, &options).map_err(refusal)?;
    for name in &merged.unsealed {
        super::output::note(&format!(
            "warning: {name} has no seal: merged unchecked (--allow-unsealed)"
        ));
    }
    let text = if args.json {
        serde_json::to_string(&merged).expect("a merge serializes")
    } else {
        merged.total.to_string()
    };
    print_stdout(&(text + "\n"))?;
    Ok(verdict(merged.published, merged.disagreement.as_deref()))
}

/// A refused set of reports: bad input (exit status 2), with the way out for reports
/// without a seal.
fn refusal(e: Error) -> Failure {
    match e {
        Error::ShardSeal { missing: true, .. } => Failure::usage(format!(
            "{e}; rerun that shard, or merge with --allow-unsealed to accept it unchecked"
        )),
        e => Failure::usage(e.to_string()),
    }
}
