//! The progress bar of long counts: tasks done / total, elapsed, ETA and solutions so
//! far, drawn on stderr (indicatif).

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use nqueens::{Observer, Started, TaskResult};

/// Whether to show the bar: forced on, forced off, or only when stderr is a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Draw it, even if stderr is not a terminal.
    On,
    /// Never draw it.
    Off,
    /// Draw it when stderr is a terminal.
    Auto,
}

impl Mode {
    /// Whether a bar is drawn in this mode.
    pub fn shows(self) -> bool {
        match self {
            Mode::On => true,
            Mode::Off => false,
            Mode::Auto => io::stderr().is_terminal(),
        }
    }
}

/// A progress bar on stderr that follows a long run.
pub struct Bar {
    bar: ProgressBar,
    solutions: Mutex<u128>,
}

impl Bar {
    /// A bar for a run; `forced` draws it even when stderr is not a terminal.
    pub fn new(forced: bool) -> Self {
        let target = if forced && !io::stderr().is_terminal() {
            ProgressDrawTarget::term_like_with_hz(Box::new(PlainStderr), 2)
        } else {
            ProgressDrawTarget::stderr_with_hz(4)
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} tasks, ETA {eta_precise}, {msg}",
            )
            .expect("the progress template is valid")
            .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(500));
        Bar {
            bar,
            solutions: Mutex::new(0),
        }
    }

    /// Leaves the final state of the bar on stderr, with the run's total.
    pub fn finish(&self, total: Option<u128>) {
        if let Some(total) = total {
            self.show_solutions(total);
        }
        self.bar.finish();
    }

    fn show_solutions(&self, solutions: u128) {
        self.bar
            .set_message(format!("{solutions} solutions so far"));
    }
}

impl Observer for Bar {
    fn started(&self, start: &Started) {
        self.bar.set_length(start.tasks as u64);
        self.bar.set_position(start.done as u64);
        self.bar.reset_eta();
        *self.solutions.lock().unwrap_or_else(|e| e.into_inner()) = start.solutions;
        self.show_solutions(start.solutions);
    }

    fn finished(&self, result: &TaskResult) {
        // The message is set under the lock so that a later total never loses to an
        // earlier one.
        let mut solutions = self.solutions.lock().unwrap_or_else(|e| e.into_inner());
        *solutions += result.weighted;
        self.show_solutions(*solutions);
        self.bar.inc(1);
    }
}

/// stderr driven with ANSI control sequences, for a bar forced onto a non-terminal.
#[derive(Debug)]
struct PlainStderr;

impl PlainStderr {
    fn put(&self, s: &str) -> io::Result<()> {
        io::stderr().lock().write_all(s.as_bytes())
    }

    /// Moves the cursor `n` places (none when `n` is 0) with the ANSI code `direction`.
    fn cursor(&self, n: usize, direction: char) -> io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}{direction}"))?;
        }
        Ok(())
    }
}

impl TermLike for PlainStderr {
    fn width(&self) -> u16 {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100)
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'D')
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.put(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> io::Result<()> {
        io::stderr().flush()
    }
}
