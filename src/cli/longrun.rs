//! The long-run options of `count`: `--checkpoint`, `--shard`, `--progress`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nqueens::{run_long, LongRunOptions, Options, Placement, Shard};

use super::count::CountArgs;
use super::output::{print_count, print_stdout};
use super::progress::{Mode, Progress};
use super::Outcome;

/// Options of `count` for long runs.
#[derive(Debug, Clone, Args)]
pub struct LongRunArgs {
    /// Record finished tasks in FILE and resume from it when it exists (same command).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Run only the tasks whose index is I mod K (I from 0 to K-1). `auto/K` takes I
    /// from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "I/K", value_parser = shard, allow_hyphen_values = true)]
    pub shard: Option<Shard>,
    /// Show progress on stderr even when it is not a terminal (then as a plain line
    /// every 5 seconds and one at the end).
    #[arg(long, overrides_with = "no_progress")]
    pub progress: bool,
    /// Never show progress [default: a bar when stderr is a terminal, once the count
    /// has run for a second].
    #[arg(long, overrides_with = "progress")]
    pub no_progress: bool,
}

/// Parses `--shard`, reading the environment for `auto/K`.
fn shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s, |name| std::env::var(name).ok()).map_err(|e| e.to_string())
}

impl LongRunArgs {
    /// The progress mode the flags ask for.
    pub fn progress_mode(&self) -> Mode {
        if self.progress {
            Mode::On
        } else if self.no_progress {
            Mode::Off
        } else {
            Mode::Auto
        }
    }

    /// Whether the count needs the long-run machinery at all.
    pub fn wanted(&self) -> bool {
        self.checkpoint.is_some() || self.shard.is_some() || self.progress_mode().shows()
    }
}

/// Runs `count` with its long-run options.
pub fn run(args: &CountArgs, placement: &Placement, options: &Options) -> Outcome {
    let long = &args.long;
    let plan = LongRunOptions {
        shard: long.shard,
        checkpoint: long.checkpoint.as_deref(),
    };
    let result = if long.progress_mode().shows() {
        let progress = Progress::new();
        let result = run_long(placement, options, &plan, &progress);
        progress.finish(result.as_ref().ok().map(|r| r.count.total));
        result
    } else {
        run_long(placement, options, &plan, &())
    }?;
    match result.shard_report() {
        Some(report) if args.json => {
            let text = serde_json::to_string(&report).expect("a shard serializes");
            print_stdout(&(text + "\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(_) => {
            print_stdout(&format!("{}\n", result.count.total))?;
            Ok(ExitCode::SUCCESS)
        }
        None => print_count(&result.count, args.json),
    }
}

/// Runs `count` spread over the ranks of an MPI job; rank 0 prints the result.
#[cfg(feature = "mpi")]
pub fn run_distributed(args: &CountArgs, placement: &Placement, options: &Options) -> Outcome {
    if args.long.checkpoint.is_some() || args.long.shard.is_some() {
        return Err(super::Failure::usage(
            "--checkpoint and --shard cannot be used under mpirun: MPI runs spread all tasks over the ranks",
        ));
    }
    let Some(count) = nqueens::count_distributed(placement, options)? else {
        return Ok(ExitCode::SUCCESS);
    };
    print_count(&count, args.json)
}
