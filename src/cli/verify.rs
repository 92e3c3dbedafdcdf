//! `nqueens verify`: compare computed totals with the published ones.

use std::process::ExitCode;

use super::args::{parse_usize_in_range, RunArgs};
use super::numbers::grouped;
use super::output::print_stdout;
use super::report::verify::{verify, VerifyRow};
use super::Outcome;
use clap::Args;
use nqueens::published::MAX_PUBLISHED;

/// Examples shown at the end of `nqueens verify --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens verify                              # n = 0..=14 against OEIS A000170 and A002562
  nqueens verify --max 16 --json
  nqueens verify --max 12 --kernel scalar --symmetry none";

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Check n = 0..=MAX (published values exist up to 27).
    #[arg(long, value_name = "MAX", default_value_t = 14, value_parser = max_n)]
    pub max: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print the rows as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

fn max_n(s: &str) -> Result<usize, String> {
    parse_usize_in_range(s, 0, MAX_PUBLISHED, "--max")
}

/// Runs `verify`: exit status 1 if any total differs from the published one.
pub fn run(args: &VerifyArgs) -> Outcome {
    let options = args.run.options_clamped(args.max)?;
    if !args.json {
        print_stdout(&format!(
            "{:>3}  {:>25}  {:>25}  {:>23}  {:>23}  {:>3}  {:>9}  {:>6}  {:>10}\n",
            "n", "total", "published", "unique", "published", "ok", "engine", "kernel", "seconds"
        ))?;
    }
    let mut print_error = None;
    let report = verify(args.max, &options, |row| {
        if !args.json {
            if let Err(e) = print_stdout(&table_row(row)) {
                print_error.get_or_insert(e);
            }
        }
    })?;
    if let Some(e) = print_error {
        return Err(e);
    }
    if args.json {
        let json = serde_json::to_string(&report).expect("a report serializes");
        print_stdout(&format!("{json}\n"))?;
    }
    if report.ok {
        Ok(ExitCode::SUCCESS)
    } else {
        let bad: Vec<String> = report
            .rows
            .iter()
            .filter(|r| !r.ok)
            .map(|r| r.n.to_string())
            .collect();
        eprintln!("verify: mismatch for n = {}", bad.join(", "));
        Ok(ExitCode::from(1))
    }
}

fn table_row(row: &VerifyRow) -> String {
    let show = |value: Option<u128>| value.map_or_else(|| "-".to_string(), grouped);
    format!(
        "{:>3}  {:>25}  {:>25}  {:>23}  {:>23}  {:>3}  {:>9}  {:>6}  {:>10.3}\n",
        row.n,
        grouped(row.total),
        show(row.published),
        grouped(row.unique),
        show(row.published_unique),
        if row.ok { "ok" } else { "BAD" },
        row.engine,
        row.kernel,
        row.seconds
    )
}
