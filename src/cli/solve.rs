//! `nqueens solve N`: every solution (or the completions of placed queens), streamed in
//! lexicographic order in one of the classic formats.

use std::io::{BufWriter, ErrorKind};
use std::process::ExitCode;

use clap::Args;
use nqueens::{write_solutions, Format, ListOptions};

use super::args::{board_size, parse_in_range, thread_count};
use super::choices::named;
use super::{place, Failure, Outcome};

/// Bytes buffered before a write to stdout.
const STDOUT_BUFFER: usize = 1 << 20;

/// Examples shown at the end of `nqueens solve --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens solve 4                             # both boards of n = 4
  nqueens solve 6 --format leetcode           # LeetCode 51's answer
  nqueens solve 8 --format columns --limit 3  # the first three solutions
  nqueens solve 8 --unique --format jsonl     # one of each of the 12 classes
  nqueens solve 8 --place 0:0 --format columns    # completions of a placed queen";

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board size, from 0 to 32.
    #[arg(value_parser = board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// Output format: board (AcWing 843 text), leetcode (JSON array of row strings),
    /// columns (one line of columns per solution) or jsonl (one JSON object per line).
    #[arg(long, value_name = "FORMAT", default_value = "board",
          value_parser = named(format, Format::ALL.map(Format::name)))]
    pub format: Format,
    /// Stop after K solutions.
    #[arg(long, value_name = "K", value_parser = limit)]
    pub limit: Option<u64>,
    /// List one solution per symmetry class: the lexicographically smallest of its 8
    /// rotations and reflections.
    #[arg(long, conflicts_with = "place")]
    pub unique: bool,
    #[arg(long, value_name = "R:C[,R:C...]", help = place::HELP, allow_hyphen_values = true)]
    pub place: Option<String>,
    /// Worker threads [default: every logical CPU]. The output does not depend on it.
    #[arg(short = 'j', long, value_name = "T", value_parser = thread_count)]
    pub threads: Option<usize>,
}

/// Parses an output format name.
fn format(s: &str) -> Result<Format, String> {
    s.parse::<Format>().map_err(|e| e.to_string())
}

/// Parses a solution limit.
fn limit(s: &str) -> Result<u64, String> {
    parse_in_range(s, 0, u64::MAX, "the limit")
}

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    let placement = place::placement(args.n, args.place.as_deref())?;
    let options = ListOptions {
        threads: args.threads,
        unique: args.unique,
        limit: args.limit,
    };
    let out = BufWriter::with_capacity(STDOUT_BUFFER, std::io::stdout());
    match write_solutions(&placement, &options, args.format, out) {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(nqueens::Error::Io { source, .. }) if source.kind() == ErrorKind::BrokenPipe => {
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(Failure::from(e)),
    }
}
