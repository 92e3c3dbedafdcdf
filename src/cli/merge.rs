//! `nqueens merge FILES...`: the total of a complete set of shard outputs.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nqueens::{merge, ShardReport};

use super::output::print_stdout;
use super::{Failure, Outcome};

/// Examples shown at the end of `nqueens merge --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  for i in 0 1 2; do nqueens count 12 --unique --shard $i/3 --json > s$i.json; done
  nqueens merge s0.json s1.json s2.json       # 14200
  nqueens merge --json s*.json                # total, unique, nodes, tasks, ...";

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Files holding the JSON outputs of `count --shard I/K --json` (one object per
    /// line; several lines per file are fine).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of the total alone.
    #[arg(long)]
    pub json: bool,
}

/// The start of a checkpoint file's first line.
const CHECKPOINT_HEADER: &str = "nqueens-checkpoint";

/// Reads one line of a shard output; the error says what the line is instead (the
/// output of a whole count, of `merge`, no JSON object at all) and what was expected.
fn parse_report(line: &str) -> Result<ShardReport, String> {
    const WANTED: &str = "count --shard I/K --json";
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(value @ serde_json::Value::Object(_)) => value,
        _ => {
            return Err(format!(
                "is not a shard report (expected a JSON object from {WANTED})"
            ))
        }
    };
    let has = |field: &str| value.get(field).is_some();
    if !has("shard") && has("shards") {
        return Err(format!("is the output of merge, not of {WANTED}"));
    }
    if !has("shard") && has("total") {
        return Err(format!(
            "is the output of count without --shard, not of {WANTED}"
        ));
    }
    serde_json::from_value(value).map_err(|e| format!("is not a shard report ({e})"))
}

/// Runs `merge`: exit status 1 if the set is incomplete or inconsistent.
pub fn run(args: &MergeArgs) -> Outcome {
    let mut reports = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::runtime(format!("cannot read {}: {e}", path.display())))?;
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        if lines.is_empty() {
            return Err(Failure::runtime(format!(
                "{} is empty: expected the output of count --shard I/K --json",
                path.display()
            )));
        }
        if lines[0].1.starts_with(CHECKPOINT_HEADER) {
            return Err(Failure::runtime(format!(
                "{} is an nqueens checkpoint, not the output of count --shard I/K --json",
                path.display()
            )));
        }
        for &(number, line) in &lines {
            let name = if lines.len() == 1 {
                path.display().to_string()
            } else {
                format!("{}:{}", path.display(), number + 1)
            };
            let where_ = format!("{} line {}", path.display(), number + 1);
            let report =
                parse_report(line).map_err(|why| Failure::runtime(format!("{where_} {why}")))?;
            reports.push((name, report));
        }
    }
    let merged = merge(&reports).map_err(|e| Failure::runtime(e.to_string()))?;
    let text = if args.json {
        serde_json::to_string(&merged).expect("a merge serializes")
    } else {
        merged.total.to_string()
    };
    print_stdout(&(text + "\n"))?;
    Ok(ExitCode::SUCCESS)
}
