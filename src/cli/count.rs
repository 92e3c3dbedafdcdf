//! `nqueens count N`: the exact number of solutions.

use std::process::ExitCode;

use clap::Args;

use super::args::{board_size, RunArgs};
use super::{print_stdout, Outcome};

/// Arguments of `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size, from 0 to 32.
    #[arg(value_parser = board_size, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON object instead of the total alone.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub long: super::longrun::LongRunArgs,
}

/// Runs `count`.
pub fn run(args: &CountArgs) -> Outcome {
    #[cfg(feature = "mpi")]
    if nqueens::distributed::launched_by_mpi() {
        return super::longrun::run_distributed(args);
    }
    if args.long.wanted() {
        return super::longrun::run(args);
    }
    let count = nqueens::count(args.n, &args.run.options())?;
    let text = if args.json {
        serde_json::to_string(&count).expect("a count serializes") + "\n"
    } else {
        format!("{}\n", count.total)
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
