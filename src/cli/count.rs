//! `nqueens count N`: the exact number of solutions.

use std::process::ExitCode;

use clap::Args;

use super::args::{board_size, RunArgs};
use super::{place, print_stdout, Outcome};

/// Arguments of `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size, from 0 to 32.
    #[arg(value_parser = board_size, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Also count the fundamental solutions (distinct under rotations and reflections).
    #[arg(long, conflicts_with = "place")]
    pub unique: bool,
    /// Print one JSON object instead of the total alone.
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_name = "R:C[,R:C...]", help = place::HELP, allow_hyphen_values = true)]
    pub place: Option<String>,
}

/// A count of completions in JSON: the count's fields and the placed queens.
#[derive(serde::Serialize)]
struct PlacedCount<'a> {
    #[serde(flatten)]
    count: &'a nqueens::Count,
    placement: String,
}

/// Runs `count`.
pub fn run(args: &CountArgs) -> Outcome {
    let options = nqueens::Options {
        unique: args.unique,
        ..args.run.options(args.n)?
    };
    if let Some(text) = &args.place {
        let placement = place::placement(args.n, Some(text))?;
        let count = nqueens::completion::count_completions(&placement, &options)?;
        let text = if args.json {
            let placed = PlacedCount {
                count: &count,
                placement: placement.to_string(),
            };
            serde_json::to_string(&placed).expect("a count serializes") + "\n"
        } else {
            format!("{}\n", count.total)
        };
        print_stdout(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
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
