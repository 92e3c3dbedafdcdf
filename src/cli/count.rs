//! `nqueens count N`: the exact number of solutions (or of the completions of placed
//! queens), optionally sharded, checkpointed, watched, or spread over MPI ranks.

use clap::Args;

use super::args::{board_size, RunArgs};
#[cfg(not(feature = "mpi"))]
use super::Failure;
use super::{paths, place, Outcome};

/// Examples shown at the end of `nqueens count --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens count 16                            # 14772512
  nqueens count 14 --unique                   # total and fundamental solutions
  nqueens count 12 --json                     # one JSON object
  nqueens count 12 --place 0:0,1:2            # 34 completions of two placed queens
  nqueens count 16 --checkpoint n16.ckpt      # after a kill, run it again to resume
  nqueens count 14 --shard 0/4 --json > s0.json    # one shard of four (see merge)";

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
    #[command(flatten)]
    pub long: super::longrun::LongRunArgs,
}

impl CountArgs {
    /// The library options these arguments describe.
    pub fn options(&self) -> Result<nqueens::Options, nqueens::Error> {
        Ok(nqueens::Options {
            unique: self.unique,
            ..self.run.options(self.n)?
        })
    }
}

/// Runs `count`: spread over MPI ranks under an MPI launcher (refused by a build
/// without MPI support), else in this process, stoppable by a signal.
pub fn run(args: &CountArgs) -> Outcome {
    #[cfg(not(feature = "mpi"))]
    nqueens::refuse_mpi_launch(|name| std::env::var(name).ok()).map_err(|e| {
        Failure::usage(format!(
            "{e}: every rank would count everything; rebuild with --features mpi, or run \
             it without the launcher"
        ))
    })?;
    let options = args.options()?;
    let placement = place::placement(args.n, args.place.as_deref())?;
    if let Some(checkpoint) = &args.long.checkpoint {
        paths::checkpoint_file(checkpoint)?;
    }
    #[cfg(feature = "mpi")]
    if nqueens::launched_by_mpi() {
        return super::longrun::run_distributed(&args.long, args.json, &placement, &options);
    }
    super::longrun::run(&args.long, args.json, &placement, &options)
}
