//! The progress of long counts on stderr, in one of two forms:
//!
//! - on a terminal, a bar (tasks done/total, elapsed, ETA, solutions so far, drawn by
//!   indicatif) that appears only once the tasks have run for [`DELAY`], so a quick
//!   count shows nothing, and that is cleared when the run ends, so the result on
//!   stdout starts on a clean line (as cargo does);
//! - forced (`--progress`) onto a file or a pipe, plain lines without control
//!   sequences: one every [`PERIOD`] once the task list is known, and one when the
//!   run ends.
//!
//! Both forms give the same ETA: the time per task since the tasks started (those
//! resumed from a checkpoint left out) times the tasks left. A pass starts its tasks
//! in spread blocks (`run::count::order` in the library), so that every stretch of a run
//! costs about its share of the whole and the ETA holds from the first tasks on.
//!
//! The environment variable `NQUEENS_PROGRESS_MS` sets both the delay and the period in
//! milliseconds (the tests use it to see both forms on short runs).

use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use nqueens::{Observer, Started, TaskResult};

use super::numbers::{grouped, grouped_usize};

/// How long the tasks run before the terminal bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// The time between two plain progress lines.
pub const PERIOD: Duration = Duration::from_secs(5);

/// Whether to show progress: forced on, forced off, or only when stderr is a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Show it, as a bar on a terminal and as plain lines elsewhere.
    On,
    /// Never show it.
    Off,
    /// Show the bar when stderr is a terminal, nothing otherwise.
    Auto,
}

impl Mode {
    /// Whether progress is shown in this mode.
    pub fn shows(self) -> bool {
        match self {
            Mode::On => true,
            Mode::Off => false,
            Mode::Auto => io::stderr().is_terminal(),
        }
    }
}

/// Where a run stands, as the observer has heard it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// The tasks of the run (0 until it starts).
    tasks: usize,
    /// Tasks finished, those taken from a checkpoint included.
    done: usize,
    /// Weighted solutions of the finished tasks.
    solutions: u128,
    /// When the tasks started, and how many were done then (from a checkpoint).
    started: Option<(Instant, usize)>,
    /// Whether the run has ended (the ticker thread stops).
    stopped: bool,
}

/// When the tasks started and how many were done then: what the bar's ETA reads, kept
/// apart from [`Tally`] because the bar may draw while the tally is locked.
type TasksStarted = Arc<Mutex<Option<(Instant, usize)>>>;

/// How progress is drawn.
enum View {
    /// The indicatif bar, hidden until the ticker thread reveals it, and the start
    /// its ETA counts from.
    Bar(ProgressBar, TasksStarted),
    /// Plain lines on stderr.
    Lines,
}

/// What the observer (worker threads), the ticker thread and the command share.
struct Shared {
    tally: Mutex<Tally>,
    /// Woken when the run starts its tasks or ends.
    wake: Condvar,
    view: View,
    /// When the run began.
    begun: Instant,
}

impl Shared {
    fn tally(&self) -> MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until woken, or at most `timeout`.
    fn wait<'a>(
        &self,
        tally: MutexGuard<'a, Tally>,
        timeout: Option<Duration>,
    ) -> MutexGuard<'a, Tally> {
        match timeout {
            Some(timeout) => match self.wake.wait_timeout(tally, timeout) {
                Ok((tally, _)) => tally,
                Err(e) => e.into_inner().0,
            },
            None => self
                .wake
                .wait(tally)
                .unwrap_or_else(PoisonError::into_inner),
        }
    }
}

/// The progress display of one long run: an [`Observer`] of the run, ended with
/// [`Progress::finish`].
pub struct Progress {
    shared: Arc<Shared>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// Progress for a run that begins now: a bar if stderr is a terminal, plain lines
    /// otherwise.
    pub fn new() -> Self {
        let (delay, period) = timing();
        let view = if io::stderr().is_terminal() {
            let started = TasksStarted::default();
            View::Bar(hidden_bar(Arc::clone(&started)), started)
        } else {
            View::Lines
        };
        let shared = Arc::new(Shared {
            tally: Mutex::new(Tally::default()),
            wake: Condvar::new(),
            view,
            begun: Instant::now(),
        });
        let ticker = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || match &shared.view {
                View::Bar(bar, _) => reveal_bar(&shared, bar, delay),
                View::Lines => write_lines(&shared, period),
            })
        };
        Progress {
            shared,
            ticker: Some(ticker),
        }
    }

    /// Ends the display: the bar is cleared; plain lines get a last one with the run's
    /// total (`None` when the run failed: no last line).
    pub fn finish(mut self, total: Option<u128>) {
        self.stop();
        match &self.shared.view {
            View::Bar(bar, _) => bar.finish_and_clear(),
            View::Lines => {
                if let Some(total) = total {
                    let tally = *self.shared.tally();
                    put_line(&final_line(&tally, self.shared.begun.elapsed(), total));
                }
            }
        }
    }

    /// Stops the ticker thread and waits for it.
    fn stop(&mut self) {
        self.shared.tally().stopped = true;
        self.shared.wake.notify_all();
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Observer for Progress {
    fn started(&self, start: &Started) {
        let mut tally = self.shared.tally();
        tally.tasks = start.tasks;
        tally.done = start.done;
        tally.solutions = start.solutions;
        tally.started = Some((Instant::now(), start.done));
        if let View::Bar(bar, started) = &self.shared.view {
            *started.lock().unwrap_or_else(PoisonError::into_inner) = tally.started;
            bar.set_length(start.tasks as u64);
            bar.set_position(start.done as u64);
            bar.reset_eta();
            bar.set_message(so_far(start.solutions));
        }
        self.shared.wake.notify_all();
    }

    fn finished(&self, result: &TaskResult) {
        // The bar's message is set under the lock so that a later total never loses
        // to an earlier one.
        let mut tally = self.shared.tally();
        tally.done += 1;
        tally.solutions += result.weighted;
        if let View::Bar(bar, _) = &self.shared.view {
            bar.set_message(so_far(tally.solutions));
            bar.inc(1);
        }
    }
}

/// The delay before the bar and the period of plain lines: [`DELAY`] and [`PERIOD`],
/// or both `NQUEENS_PROGRESS_MS` milliseconds (at least 1).
fn timing() -> (Duration, Duration) {
    match std::env::var("NQUEENS_PROGRESS_MS")
        .ok()
        .and_then(|ms| ms.trim().parse::<u64>().ok())
    {
        Some(ms) => (Duration::from_millis(ms), Duration::from_millis(ms.max(1))),
        None => (DELAY, PERIOD),
    }
}

/// A bar that draws nowhere until [`reveal_bar`] gives it stderr; its ETA counts from
/// `started` (see [`eta`]).
fn hidden_bar(started: TasksStarted) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    let run_eta = move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
        let started = *started.lock().unwrap_or_else(PoisonError::into_inner);
        let text = started.map_or_else(
            || "unknown".to_string(),
            |(at, done_then)| {
                let done = usize::try_from(state.pos()).unwrap_or(usize::MAX);
                let tasks = usize::try_from(state.len().unwrap_or(0)).unwrap_or(usize::MAX);
                eta(
                    at.elapsed(),
                    done.saturating_sub(done_then),
                    tasks.saturating_sub(done),
                )
            },
        );
        let _ = out.write_str(&text);
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} tasks, ETA {run_eta}, {msg}",
        )
        .expect("the progress template is valid")
        .with_key("run_eta", run_eta)
        .progress_chars("=> "),
    );
    bar
}

/// The ticker of a terminal bar: once the tasks have started and `delay` has passed
/// since the run began, draws the bar on stderr (redrawn four times a second); does
/// nothing if the run ends first.
fn reveal_bar(shared: &Shared, bar: &ProgressBar, delay: Duration) {
    let deadline = shared.begun + delay;
    let mut tally = shared.tally();
    loop {
        if tally.stopped {
            return;
        }
        let now = Instant::now();
        if tally.started.is_some() && now >= deadline {
            break;
        }
        tally = shared.wait(tally, (now < deadline).then(|| deadline - now));
    }
    // Drawn under the lock, so that `finish` (which takes it to stop this thread) clears
    // a bar that is fully set up.
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar.tick();
    bar.enable_steady_tick(Duration::from_millis(250));
    drop(tally);
}

/// The ticker of plain lines: a line every `period` once the tasks have started, until
/// the run ends.
fn write_lines(shared: &Shared, period: Duration) {
    let mut next = shared.begun + period;
    loop {
        let mut tally = shared.tally();
        while !tally.stopped && Instant::now() < next {
            let wait = next.saturating_duration_since(Instant::now());
            tally = shared.wait(tally, Some(wait));
        }
        if tally.stopped {
            return;
        }
        let snapshot = *tally;
        drop(tally);
        let now = Instant::now();
        if let Some(line) = periodic_line(&snapshot, now, now - shared.begun) {
            put_line(&line);
        }
        next = (next + period).max(now);
    }
}

/// Writes one line to stderr (a failed write is no reason to stop the count).
fn put_line(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}

/// The message of the bar.
fn so_far(solutions: u128) -> String {
    format!("{} solutions so far", grouped(solutions))
}

/// A plain progress line at `now`, `elapsed` into the run; none before the tasks start
/// (the task count is not known yet).
fn periodic_line(tally: &Tally, now: Instant, elapsed: Duration) -> Option<String> {
    let (started_at, done_then) = tally.started?;
    let eta = eta(
        now.duration_since(started_at),
        tally.done - done_then,
        tally.tasks.saturating_sub(tally.done),
    );
    Some(format!(
        "{} {}/{} tasks ({}%), ETA {eta}, {}",
        clock(elapsed),
        grouped_usize(tally.done),
        grouped_usize(tally.tasks),
        percent(tally.done, tally.tasks),
        so_far(tally.solutions),
    ))
}

/// The time left when `ran` tasks took `running` and `left` remain, as a
/// [`clock`]; `unknown` before the first task.
#[allow(
    clippy::cast_precision_loss,
    reason = "task counts are far below 2^52, and the ETA is an estimate"
)]
fn eta(running: Duration, ran: usize, left: usize) -> String {
    if ran == 0 {
        return "unknown".to_string();
    }
    let per_task = running.as_secs_f64() / ran as f64;
    clock(Duration::from_secs_f64(
        (per_task * left as f64).min(Duration::MAX.as_secs_f64() / 2.0),
    ))
}

/// The last plain line: the run has ended with `total` solutions.
fn final_line(tally: &Tally, elapsed: Duration, total: u128) -> String {
    format!(
        "{} {}/{} tasks ({}%), done: {} solutions",
        clock(elapsed),
        grouped_usize(tally.done),
        grouped_usize(tally.tasks),
        percent(tally.done, tally.tasks),
        grouped(total),
    )
}

/// Whole percent done, rounded down (100 only when every task is done).
fn percent(done: usize, tasks: usize) -> usize {
    (done * 100).checked_div(tasks).unwrap_or(100)
}

/// A duration as hours:minutes:seconds (`00:01:05`; hours grow past 99).
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wait_for_the_task_list() {
        let now = Instant::now();
        let tally = Tally::default();
        assert_eq!(periodic_line(&tally, now, Duration::from_secs(7)), None);
    }

    #[test]
    fn lines_show_tasks_eta_and_solutions() {
        let start = Instant::now();
        let tally = Tally {
            tasks: 400,
            done: 150,
            solutions: 1234,
            started: Some((start, 50)),
            stopped: false,
        };
        // 100 tasks in 10 s: the 250 left take 25 s.
        let line = periodic_line(
            &tally,
            start + Duration::from_secs(10),
            Duration::from_secs(3671),
        );
        assert_eq!(
            line.as_deref(),
            Some("01:01:11 150/400 tasks (37%), ETA 00:00:25, 1,234 solutions so far")
        );
        let fresh = Tally { done: 50, ..tally };
        assert!(periodic_line(&fresh, start, Duration::ZERO)
            .unwrap()
            .contains("ETA unknown"));
        let done = Tally { done: 400, ..tally };
        assert_eq!(
            final_line(&done, Duration::from_millis(2500), 5678),
            "00:00:02 400/400 tasks (100%), done: 5,678 solutions"
        );
    }

    #[test]
    fn clock_and_percent() {
        assert_eq!(clock(Duration::from_secs(360_000 + 61)), "100:01:01");
        assert_eq!(percent(399, 400), 99);
        assert_eq!(percent(0, 0), 100);
    }
}
