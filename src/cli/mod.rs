//! The command line: argument parsing, dispatch, and exit statuses.
//!
//! Exit statuses: 0 success; 1 a failure while running, or a check that found a
//! mismatch (`verify`; `count` and `merge` against the published values; `audit`) or a
//! regression (`compare`, `bench --baseline`, `bench --against`); 2 bad input (a value
//! out of range, or a file that cannot be used: missing, unreadable, a folder, not a
//! regular file, not our format), reported as one line on stderr with nothing on
//! stdout. With `--json` an error is one JSON object on stderr instead
//! (`{"error": "...", "status": 2}`), the status unchanged.
//!
//! Output: a stdout that was closed (`>&-`) is refused before a command runs, and a
//! write to stdout that fails is an error (status 1): a result is never lost with
//! status 0. A pipe closed by its reader (`| head`) ends the command quietly with
//! status 0, as ripgrep does.

mod against;
mod args;
mod audit;
mod bench;
mod choices;
mod closed_stdout;
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
mod version;

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exact N-Queens solution counts, fast.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version = version::SHORT, about, long_about = None)]
struct Cli {
    /// Print nothing on stderr but errors: no progress, notes or warnings (results on
    /// stdout are unchanged).
    #[arg(short, long, global = true)]
    quiet: bool,
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
    /// Count n = 0..=MAX and compare with the published totals (OEIS A000170) and
    /// fundamental counts (A002562).
    #[command(after_help = verify::EXAMPLES)]
    Verify(verify::VerifyArgs),
    /// Measure a ladder of counts repeatedly and save the report under results/, or
    /// time this binary against another in turns (--against).
    #[command(after_help = bench::EXAMPLES)]
    Bench(bench::BenchArgs),
    /// Compare two bench reports: a verdict per row, exit status 1 on a regression.
    #[command(after_help = compare::EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Sum the JSON outputs of `count --shard I/K --json` into the total.
    #[command(after_help = merge::EXAMPLES)]
    Merge(merge::MergeArgs),
    /// Recount units drawn at random from a run's checkpoints by an independent method.
    #[command(after_help = audit::EXAMPLES)]
    Audit(audit::AuditArgs),
    /// Estimate the work, memory and run time of a count (backtrack: Knuth's random
    /// probes; join: a timed sample of its units).
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

/// The command line definition with `--version`'s long text, which says what this
/// processor can run (built at run time, once).
fn command_with_version() -> clap::Command {
    Cli::command().long_version(version::long())
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
            Error::Memory { n, .. } if *n >= 24 => Failure::usage(format!(
                "{e}: give the join engine a budget that fits (--memory), or use fewer threads"
            )),
            Error::Memory { .. } => Failure::usage(format!(
                "{e}: give it a budget that fits (--memory), use --engine backtrack, or a machine with more memory"
            )),
            Error::MemoryBudget { .. } => {
                Failure::usage(format!("{e}: raise --memory, or use fewer threads"))
            }
            Error::MemoryOverAvailable { .. } => {
                Failure::usage(format!("{e}: give --memory at most what is available"))
            }
            Error::Placement(PlacementError::Unique) => Failure::usage(
                "--unique cannot be combined with placed queens: symmetry classes are only \
                 defined for the whole board",
            ),
            Error::OutOfRange(_)
            | Error::TooManyTasks { .. }
            | Error::Placement(_)
            | Error::Checkpoint { .. }
            | Error::Overflow(_)
            | Error::Audit(_)
            | Error::Shard(_) => Failure::usage(e.to_string()),
            Error::KernelMismatch { kernel, .. } => Failure::runtime(format!(
                "{e}; count with --kernel {} and report it",
                if *kernel == "avx512" {
                    "avx2 or scalar"
                } else {
                    "scalar"
                }
            )),
            _ => Failure::runtime(e.to_string()),
        }
    }
}

/// What a command returns: its exit status, or a failure to report.
pub type Outcome = Result<ExitCode, Failure>;

/// Parses the command line, runs the command and turns the outcome into an exit status.
pub fn main() -> ExitCode {
    let json = asks_for_json(std::env::args_os().skip(1));
    let parsed = command_with_version()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return report_parse_error(&e, json),
    };
    output::set_quiet(cli.quiet);
    if writes_stdout(&cli.command) && closed_stdout::stdout_was_closed() {
        report_error(output::CLOSED_STDOUT, 1, json);
        return ExitCode::from(1);
    }
    let outcome = match cli.command {
        Command::Count(a) => count::run(&a),
        Command::Solve(a) => solve::run(&a),
        Command::Verify(a) => verify::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Compare(a) => compare::run(&a),
        Command::Merge(a) => merge::run(&a),
        Command::Audit(a) => audit::run(&a),
        Command::Estimate(a) => estimate::run(&a),
        Command::Completions(a) => completions::run(&a),
        Command::Man(a) => man::run(&a),
    };
    match outcome {
        Ok(code) => code,
        Err(failure) => {
            report_error(&failure.message, failure.status, json);
            ExitCode::from(failure.status)
        }
    }
}

/// Whether the command line has `--json` (before any `--`): errors are then JSON,
/// even those of a command line that does not parse.
fn asks_for_json(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    args.take_while(|a| a != "--").any(|a| a == "--json")
}

/// Prints an error on stderr: `error: MESSAGE`, or with `json` one JSON object
/// `{"error":"MESSAGE","status":STATUS}`.
fn report_error(message: &str, status: u8, json: bool) {
    if json {
        let object = serde_json::json!({ "error": message, "status": status });
        eprintln!("{object}");
    } else {
        eprintln!("error: {message}");
    }
}

/// Whether `command` writes to stdout (all do but `man --dir`).
fn writes_stdout(command: &Command) -> bool {
    !matches!(command, Command::Man(args) if args.dir.is_some())
}

/// Help and version go to stdout with status 0; every other parse error becomes one
/// line on stderr with status 2.
fn report_parse_error(e: &clap::Error, json: bool) -> ExitCode {
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
            let line = one_line(e);
            report_error(line.strip_prefix("error: ").unwrap_or(&line), 2, json);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_input_is_exit_2_and_failures_while_running_exit_1() {
        // A sum past 2^128 comes only from a damaged checkpoint or report.
        let overflow = Failure::from(nqueens::Error::Overflow("the sum of the task results"));
        assert_eq!(overflow.status, 2);
        let io = Failure::from(nqueens::Error::Io {
            context: "cannot write the checkpoint".into(),
            source: std::io::Error::other("disk full"),
        });
        assert_eq!(io.status, 1);
    }

    #[test]
    fn a_kernel_that_disagrees_with_the_scalar_one_is_exit_1_with_what_to_do() {
        let mismatch = Failure::from(nqueens::Error::KernelMismatch {
            engine: "join",
            kernel: "avx512",
            case: "unit 2 of N = 13".into(),
            got: "16 weighted solutions in 0 pair evaluations".into(),
            want: "8 weighted solutions in 0 pair evaluations".into(),
        });
        assert_eq!(mismatch.status, 1);
        assert_eq!(
            mismatch.message,
            "the join engine's avx512 kernel counted unit 2 of N = 13 differently from its \
             scalar kernel on this processor (16 weighted solutions in 0 pair evaluations; \
             scalar: 8 weighted solutions in 0 pair evaluations): its counts cannot be \
             trusted here; count with --kernel avx2 or scalar and report it"
        );
    }

    #[test]
    fn json_is_seen_before_a_double_dash() {
        let args = |list: &[&str]| {
            list.iter()
                .map(std::ffi::OsString::from)
                .collect::<Vec<_>>()
        };
        assert!(asks_for_json(args(&["count", "33", "--json"]).into_iter()));
        assert!(!asks_for_json(args(&["count", "--", "--json"]).into_iter()));
        assert!(!asks_for_json(args(&["count", "8"]).into_iter()));
    }
}
