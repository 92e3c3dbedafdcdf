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
        for &(number, line) in &lines {
            let name = if lines.len() == 1 {
                path.display().to_string()
            } else {
                format!("{}:{}", path.display(), number + 1)
            };
            let report: ShardReport = serde_json::from_str(line).map_err(|e| {
                Failure::runtime(format!(
                    "{name} is not the output of count --shard I/K --json ({e})"
                ))
            })?;
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
