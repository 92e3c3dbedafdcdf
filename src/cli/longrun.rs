//! The long-run options of `count` (`--checkpoint`, `--shard`, `--progress`,
//! `--grace`), and every count run through them: a graceful stop on SIGINT, SIGTERM or
//! SIGHUP, checkpoints, shard reports, MPI.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use nqueens::{
    run_long, Count, Error, LongRun, LongRunOptions, Observer, Options, Placement, Shard, Stop,
};
use serde::Serialize;

use super::output::{print_count, print_stdout, verdict};
use super::progress::{Mode, Progress};
use super::{Failure, Outcome};
use signals::{Counting, Tally, Watch};

mod signals;

/// The longest `--grace` accepted, in seconds.
const MAX_GRACE: f64 = 3600.0;

/// Options of `count` for long runs.
#[derive(Debug, Clone, Args)]
pub struct LongRunArgs {
    /// Record finished tasks in FILE and resume from it when it exists (same command).
    /// The run holds FILE exclusively: a second run on it is refused. FILE must be a
    /// regular file (a symbolic link at its path is refused); records of another
    /// run's file are refused.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Run only the tasks whose index is I mod K (I from 0 to K-1). `auto/K` takes I
    /// from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[allow(
        clippy::doc_markdown,
        reason = "clap prints this text as written: it is help, not rustdoc"
    )]
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
    /// On SIGINT, SIGTERM or SIGHUP with --checkpoint: how long the tasks in flight may
    /// take to finish before they are given up (from 0 to 3600).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = grace)]
    pub grace: f64,
}

/// Parses `--shard`, reading the environment for `auto/K`.
fn shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s, |name| std::env::var(name).ok()).map_err(|e| e.to_string())
}

/// Parses `--grace`: seconds from 0 to [`MAX_GRACE`].
fn grace(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=MAX_GRACE).contains(&v) => Ok(v),
        _ => Err(format!(
            "the grace must be a number of seconds from 0 to {MAX_GRACE}"
        )),
    }
}

impl LongRunArgs {
    /// The progress mode the flags ask for.
    pub fn progress_mode(&self) -> Mode {
        if super::output::is_quiet() {
            Mode::Off
        } else if self.progress {
            Mode::On
        } else if self.no_progress {
            Mode::Off
        } else {
            Mode::Auto
        }
    }
}

/// A count printed with what its checkpoint gave: `checkpoint`, `resumed` (tasks taken
/// from the file) and `ran` (tasks run by this process).
#[derive(Serialize)]
struct Checkpointed<'a> {
    #[serde(flatten)]
    count: &'a Count,
    checkpoint: String,
    resumed: usize,
    ran: usize,
}

/// Sets up the graceful stop of a run: its [`Stop`], the tally its observer keeps,
/// and the signal watcher.
fn watch(long: &LongRunArgs, quiet: bool) -> Result<(Stop, Arc<Tally>), Failure> {
    let stop = Stop::new();
    let tally = Arc::new(Tally::default());
    signals::install(Watch {
        stop: stop.clone(),
        checkpoint: long.checkpoint.clone(),
        grace: Duration::from_secs_f64(long.grace),
        tally: Arc::clone(&tally),
        quiet,
    })
    .map_err(|e| Failure::runtime(format!("cannot install the signal handlers: {e}")))?;
    Ok((stop, tally))
}

/// Runs a count of `placement` under `options` with the long-run options `long`,
/// printing JSON if `json`.
pub fn run(long: &LongRunArgs, json: bool, placement: &Placement, options: &Options) -> Outcome {
    let (stop, tally) = watch(long, false)?;
    let plan = LongRunOptions {
        shard: long.shard,
        checkpoint: long.checkpoint.as_deref(),
        stop: Some(&stop),
    };
    let result = if long.progress_mode().shows() {
        let progress = Progress::new();
        let result = observed(placement, options, &plan, &tally, &progress);
        progress.finish(result.as_ref().ok().map(|r| r.count.total));
        result
    } else {
        observed(placement, options, &plan, &tally, &())
    };
    let result = ended(result, &stop, false)?;
    match result.shard_report() {
        Some(report) if json => {
            let text = serde_json::to_string(&report).expect("a shard serializes");
            print_stdout(&(text + "\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(_) => {
            print_stdout(&format!("{}\n", result.count.total))?;
            Ok(ExitCode::SUCCESS)
        }
        None => print_run(&result, long.checkpoint.as_deref(), json),
    }
}

/// A long run with `observer`, counted in `tally` for the signal watcher.
fn observed(
    placement: &Placement,
    options: &Options,
    plan: &LongRunOptions<'_>,
    tally: &Arc<Tally>,
    observer: &dyn Observer,
) -> Result<LongRun, Error> {
    let counting = Counting {
        tally: Arc::clone(tally),
        inner: observer,
    };
    run_long(placement, options, plan, &counting)
}

/// The run's result, or its failure; a run stopped by a signal prints its one line
/// (unless `quiet`) and ends the process with the signal's status (nothing is left to
/// write or close: the run has closed its checkpoint).
fn ended<T>(result: Result<T, Error>, stop: &Stop, quiet: bool) -> Result<T, Failure> {
    match result {
        Err(Error::Stopped {
            saved,
            tasks,
            checkpoint,
        }) => {
            if !signals::claim_ending() {
                signals::wait_forever();
            }
            let reason = stop.requested().unwrap_or(2);
            if !quiet {
                let line = match checkpoint {
                    Some(file) => signals::interrupted_line(saved, tasks, &file, ""),
                    None => "interrupted: nothing saved (no --checkpoint)".to_string(),
                };
                eprintln!("{line}");
            }
            finalize_mpi();
            std::process::exit(i32::from(signals::status(reason)))
        }
        other => {
            // A run that ended anyway after a signal: the watcher must not end the
            // process while the result is printed.
            if stop.is_requested() && !signals::claim_ending() {
                signals::wait_forever();
            }
            other.map_err(Failure::from)
        }
    }
}

/// Prints a whole count: with a checkpoint, its JSON also tells how many tasks came
/// from the file and how many ran.
fn print_run(result: &LongRun, checkpoint: Option<&Path>, json: bool) -> Outcome {
    match checkpoint {
        Some(file) if json => {
            let value = Checkpointed {
                count: &result.count,
                checkpoint: file.display().to_string(),
                resumed: result.resumed,
                ran: result.ran,
            };
            let text = serde_json::to_string(&value).expect("a count serializes");
            print_stdout(&(text + "\n"))?;
            let count = &result.count;
            Ok(verdict(count.published, count.disagreement.as_deref()))
        }
        _ => print_count(&result.count, json),
    }
}

/// Runs `count` spread over the ranks of an MPI job; rank 0 records the checkpoint and
/// prints the result.
#[cfg(feature = "mpi")]
pub fn run_distributed(
    long: &LongRunArgs,
    json: bool,
    placement: &Placement,
    options: &Options,
) -> Outcome {
    if long.shard.is_some() {
        return Err(Failure::usage(
            "--shard cannot be used under mpirun: MPI runs spread all tasks over the ranks \
             (use --checkpoint to make them resumable)",
        ));
    }
    let quiet = mpi_rank().is_some_and(|rank| rank > 0);
    let (stop, _) = watch(long, quiet)?;
    let plan = LongRunOptions {
        shard: None,
        checkpoint: long.checkpoint.as_deref(),
        stop: Some(&stop),
    };
    let result = nqueens::count_distributed(placement, options, &plan);
    let outcome = match ended(result, &stop, quiet) {
        Ok(Some(result)) => print_run(&result, long.checkpoint.as_deref(), json),
        Ok(None) => Ok(ExitCode::SUCCESS),
        Err(failure) => Err(failure),
    };
    // An error is printed after this, by `main`: MPI is finalized first here, as it
    // was before the environment outlived the count.
    finalize_mpi();
    outcome
}

/// Finalizes MPI, if a distributed count started it, once everything is printed.
fn finalize_mpi() {
    #[cfg(feature = "mpi")]
    nqueens::finalize_mpi();
}

/// This process's MPI rank, as its launcher tells it.
#[cfg(feature = "mpi")]
fn mpi_rank() -> Option<u64> {
    ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse().ok())
}
