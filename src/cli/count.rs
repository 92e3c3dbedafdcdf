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
    /// Also count the fundamental solutions (distinct under rotations and reflections).
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object instead of the total alone.
    #[arg(long)]
    pub json: bool,
}

/// Runs `count`.
pub fn run(args: &CountArgs) -> Outcome {
    let options = nqueens::Options {
        unique: args.unique,
        ..args.run.options(args.n)?
    };
    let count = nqueens::count(args.n, &options)?;
    let text = if args.json {
        serde_json::to_string(&count).expect("a count serializes") + "\n"
    } else if let Some(unique) = count.unique {
        format!("total: {}\nunique: {unique}\n", count.total)
    } else {
        format!("{}\n", count.total)
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
