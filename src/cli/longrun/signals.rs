//! Graceful stops of `count` on SIGINT, SIGTERM and SIGHUP.
//!
//! A watcher thread waits for the signals. On the first one it requests the run's
//! [`Stop`]: the task loop starts no new task, the tasks in flight finish, the
//! checkpoint is synced, and the run returns; the command then prints one line
//! (`interrupted: 5,121 of 9,145 tasks saved in n17.ckpt; run the same command to
//! resume`) and exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM,
//! 129 for SIGHUP), as shells expect. Tasks still running after the grace period (or
//! at a second signal) are given up: the watcher syncs the checkpoint itself, says how
//! many tasks were lost, and exits with the same status. Without a checkpoint there is
//! nothing to save: the watcher exits at once.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nqueens::{Observer, Started, Stop, TaskResult};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::cli::numbers::grouped_usize;

/// Set by whoever ends the process first after a signal: the main thread (the run
/// returned) or the watcher (the grace period ran out).
static ENDING: AtomicBool = AtomicBool::new(false);

/// The exit status for a stop with `reason` (a signal number): 128 + the signal.
pub fn status(reason: usize) -> u8 {
    u8::try_from(128 + reason.min(127)).unwrap_or(u8::MAX)
}

/// The name of a signal.
fn name(signal: usize) -> String {
    match i32::try_from(signal) {
        Ok(SIGINT) => "SIGINT".into(),
        Ok(SIGTERM) => "SIGTERM".into(),
        Ok(SIGHUP) => "SIGHUP".into(),
        _ => format!("signal {signal}"),
    }
}

/// The line printed when a run stopped with `saved` of `tasks` tasks in `checkpoint`.
pub fn interrupted_line(saved: usize, tasks: usize, checkpoint: &str, lost: &str) -> String {
    format!(
        "interrupted: {} of {} tasks saved in {checkpoint}{lost}; run the same command to \
         resume",
        grouped_usize(saved),
        grouped_usize(tasks)
    )
}

/// Marks the process as ending from the main thread. Returns `false` if the watcher
/// is already ending it (the caller then waits for it).
pub fn claim_ending() -> bool {
    !ENDING.swap(true, Ordering::SeqCst)
}

/// Waits for the process to end (another thread is ending it).
pub fn wait_forever() -> ! {
    loop {
        std::thread::park();
    }
}

/// How far a run has come, shared with the watcher: tasks saved so far and the
/// run's task count.
#[derive(Debug, Default)]
pub struct Tally {
    saved: AtomicUsize,
    tasks: AtomicUsize,
}

/// An observer that keeps a [`Tally`] and passes everything on to `inner`.
pub struct Counting<'a> {
    /// The tally it keeps.
    pub tally: Arc<Tally>,
    /// The observer it passes on to.
    pub inner: &'a dyn Observer,
}

impl Observer for Counting<'_> {
    fn started(&self, start: &Started) {
        self.tally.tasks.store(start.tasks, Ordering::SeqCst);
        self.tally.saved.store(start.done, Ordering::SeqCst);
        self.inner.started(start);
    }

    fn finished(&self, result: &TaskResult) {
        self.tally.saved.fetch_add(1, Ordering::SeqCst);
        self.inner.finished(result);
    }

    fn warning(&self, message: &str) {
        crate::cli::output::note(&format!("warning: {message}"));
        self.inner.warning(message);
    }
}

/// What the watcher needs to end a run itself.
pub struct Watch {
    /// The run's stop.
    pub stop: Stop,
    /// The checkpoint, if the run has one.
    pub checkpoint: Option<PathBuf>,
    /// How long tasks in flight may take after the first signal.
    pub grace: Duration,
    /// The run's tally.
    pub tally: Arc<Tally>,
    /// Print nothing (an MPI rank other than 0).
    pub quiet: bool,
}

/// Starts the watcher thread for `watch`. Fails only if the handlers cannot be
/// installed.
pub fn install(watch: Watch) -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Some(first) = signals.forever().next() else {
                return;
            };
            let first = usize::try_from(first).expect("signal numbers are positive");
            watch.stop.request(first);
            let Some(checkpoint) = &watch.checkpoint else {
                end(
                    &watch,
                    first,
                    &format!(
                    "interrupted by {}: stopped at once (without --checkpoint nothing is saved)",
                    name(first)
                ),
                );
            };
            let begun = Instant::now();
            let deadline = begun + watch.grace;
            let mut second = None;
            while Instant::now() < deadline && second.is_none() {
                second = signals.pending().next();
                std::thread::sleep(Duration::from_millis(20));
            }
            // The run has not ended: give up the tasks in flight. Their records, if
            // any were written, are whole lines or a torn last line cut on resume.
            // (A regular file only, opened without blocking: never a FIFO put there.)
            let _ = nqueens::files::open_input(checkpoint).map(|f| f.sync_all());
            let saved = watch.tally.saved.load(Ordering::SeqCst);
            let tasks = watch.tally.tasks.load(Ordering::SeqCst);
            let lost = given_up(second, begun.elapsed(), watch.grace);
            let line = interrupted_line(saved, tasks, &checkpoint.display().to_string(), &lost);
            end(&watch, first, &line);
        })?;
    Ok(())
}

/// Why the tasks in flight were given up: a `second` signal that came `after` the
/// first, or the end of the `grace` period.
fn given_up(second: Option<i32>, after: Duration, grace: Duration) -> String {
    match second.and_then(|s| usize::try_from(s).ok()) {
        Some(second) => format!(
            " (tasks in flight given up at a second signal, {}, {:.1} s after the first)",
            name(second),
            after.as_secs_f64()
        ),
        None => format!(
            " (tasks in flight given up after {:.1} s)",
            grace.as_secs_f64()
        ),
    }
}

/// Ends the process with the status of `signal` after printing `line`, unless the
/// main thread is already ending it.
fn end(watch: &Watch, signal: usize, line: &str) -> ! {
    if !claim_ending() {
        wait_forever();
    }
    if !watch.quiet {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
    }
    std::process::exit(i32::from(status(signal)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_and_numbers() {
        assert_eq!(status(2), 130);
        assert_eq!(status(15), 143);
        assert_eq!(status(1), 129);
    }

    #[test]
    fn a_second_signal_is_named_as_the_reason() {
        let grace = Duration::from_secs(10);
        assert_eq!(
            given_up(Some(SIGINT), Duration::from_millis(300), grace),
            " (tasks in flight given up at a second signal, SIGINT, 0.3 s after the first)"
        );
        assert_eq!(
            given_up(None, grace, grace),
            " (tasks in flight given up after 10.0 s)"
        );
    }
}
