//! `nqueens bench`: time a ladder of counts and save the table.

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{board_size, RunArgs};
use super::output::print_stdout;
use super::report::bench::{run as run_ladder, table, table_row};
use super::{Failure, Outcome};
use clap::Args;

/// Examples shown at the end of `nqueens bench --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens bench --no-save                     # n = 8..=16, the table only
  nqueens bench --from 10 --to 14 --threads 1 --no-save
  nqueens bench --to 14 --kernel scalar --out bench-scalar    # saves JSON and Markdown";

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The smallest n of the ladder.
    #[arg(long, default_value_t = 8, value_parser = board_size)]
    pub from: usize,
    /// The largest n of the ladder.
    #[arg(long, default_value_t = 16, value_parser = board_size)]
    pub to: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Folder for the JSON and Markdown reports.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// Print the table only; write no files.
    #[arg(long)]
    pub no_save: bool,
}

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Outcome {
    if args.from > args.to {
        return Err(Failure::usage(format!(
            "--from {} is larger than --to {}: the ladder must go up",
            args.from, args.to
        )));
    }
    // Check every rung before anything is printed.
    for n in args.from..=args.to {
        args.run.options(n)?;
    }
    let options = args.run.options_clamped(args.to)?;
    print_stdout(&table(&[]))?;
    let mut print_error = None;
    let report = run_ladder(args.from, args.to, &options, |row| {
        if let Err(e) = print_stdout(&(table_row(row) + "\n")) {
            print_error.get_or_insert(e);
        }
    })?;
    if let Some(e) = print_error {
        return Err(e);
    }
    if !args.no_save {
        let (json, md) = report.save(&args.out)?;
        eprintln!("saved {} and {}", json.display(), md.display());
    }
    Ok(ExitCode::SUCCESS)
}
