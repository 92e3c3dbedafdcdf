//! The command line: argument parsing, dispatch, and exit statuses.
//!
//! Exit statuses: 0 success; 1 a failure while running, or a check that found a
//! mismatch (`verify`); 2 bad input, reported as one line on stderr with nothing on
//! stdout.

mod args;
mod bench;
mod compare;
mod completions;
mod count;
mod estimate;
mod longrun;
mod man;
mod merge;
mod numbers;
mod output;
mod paths;
mod place;
mod progress;
mod report;
mod solve;
mod verify;

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Exact N-Queens solution counts, fast.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version = env!("NQUEENS_VERSION_TEXT"), about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the solutions for an N x N board.
    #[command(after_help = count::EXAMPLES)]
    Count(count::CountArgs),
    /// Write every solution (or the completions of placed queens) in lexicographic order.
    #[command(after_help = solve::EXAMPLES)]
    Solve(solve::SolveArgs),
    /// Count n = 0..=MAX and compare with the published totals (OEIS A000170).
    #[command(after_help = verify::EXAMPLES)]
    Verify(verify::VerifyArgs),
    /// Measure a ladder of counts repeatedly and save the report under results/.
    #[command(after_help = bench::EXAMPLES)]
    Bench(bench::BenchArgs),
    /// Compare two bench reports: a verdict per row, exit status 1 on a regression.
    #[command(after_help = compare::EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Sum the JSON outputs of `count --shard I/K --json` into the total.
    #[command(after_help = merge::EXAMPLES)]
    Merge(merge::MergeArgs),
    /// Estimate the nodes and run time of a count (Knuth's random probes).
    #[command(after_help = estimate::EXAMPLES)]
    Estimate(estimate::EstimateArgs),
    /// Print the completion script for a shell (bash, zsh, fish, powershell, elvish).
    #[command(after_help = completions::EXAMPLES)]
    Completions(completions::CompletionsArgs),
    /// Print the manual page of nqueens or of a command (roff), or write them all.
    #[command(after_help = man::EXAMPLES)]
    Man(man::ManArgs),
}

/// The whole command line definition (for completions and manual pages).
fn command() -> clap::Command {
    Cli::command()
}

/// A command's failure: the message for stderr and the exit status.
#[derive(Debug)]
pub struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    /// Bad input: exit status 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 2,
        }
    }

    /// A failure while running: exit status 1.
    pub fn runtime(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 1,
        }
    }
}

impl From<nqueens::Error> for Failure {
    /// Bad input (a number out of range, a kernel this processor lacks, a placement,
    /// a checkpoint or shard that does not fit the run) is exit status 2; anything
    /// that fails while running is 1. The library's words get the command's flags
    /// where a flag is the way out.
    fn from(e: nqueens::Error) -> Self {
        use nqueens::{Error, PlacementError};
        match &e {
            Error::KernelUnsupported { .. } => {
                Failure::usage(format!("{e}: use --kernel auto or scalar"))
            }
            Error::EngineUnsuited { .. } => {
                Failure::usage(format!("{e}: use --engine backtrack (or auto)"))
            }
            Error::Memory { .. } => Failure::usage(format!(
                "{e}: use --engine backtrack, or a machine with more memory"
            )),
            Error::Placement(PlacementError::Unique) => Failure::usage(
                "--unique cannot be combined with placed queens: symmetry classes are only \
                 defined for the whole board",
            ),
            Error::OutOfRange(_)
            | Error::TooManyTasks { .. }
            | Error::Placement(_)
            | Error::Checkpoint { .. }
            | Error::Overflow(_)
            | Error::Shard(_) => Failure::usage(e.to_string()),
            _ => Failure::runtime(e.to_string()),
        }
    }
}

/// What a command returns: its exit status, or a failure to report.
pub type Outcome = Result<ExitCode, Failure>;

/// Parses the command line, runs the command and turns the outcome into an exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return report_parse_error(&e),
    };
    let outcome = match cli.command {
        Command::Count(a) => count::run(&a),
        Command::Solve(a) => solve::run(&a),
        Command::Verify(a) => verify::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Compare(a) => compare::run(&a),
        Command::Merge(a) => merge::run(&a),
        Command::Estimate(a) => estimate::run(&a),
        Command::Completions(a) => completions::run(&a),
        Command::Man(a) => man::run(&a),
    };
    match outcome {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

/// Help and version go to stdout with status 0; every other parse error becomes one
/// line on stderr with status 2.
fn report_parse_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            eprintln!("{}", one_line(e));
            ExitCode::from(2)
        }
    }
}

/// The clap message folded onto one line, without the usage and help hints, and with
/// the accepted range of N when N is what is missing.
fn one_line(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let mut parts: Vec<&str> = Vec::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if !line.is_empty() {
            parts.push(line);
        }
    }
    let mut message = parts.join(" ");
    if e.kind() == clap::error::ErrorKind::MissingRequiredArgument && message.contains("<N>") {
        let _ = write!(
            message,
            " (N is the board size, an integer from 0 to {})",
            nqueens::MAX_N
        );
    }
    if !message.starts_with("error:") {
        message.insert_str(0, "error: ");
    }
    message
}
