//! Whether stdout was closed when the process started (`nqueens count 12 >&-`).
//!
//! The Rust runtime, before `main`, puts `/dev/null` in the place of a closed standard
//! descriptor, so that later writes succeed and a result would be lost without a word;
//! after that, a closed stdout looks like any `/dev/null` (Python's
//! `subprocess.DEVNULL`, Node's `stdio: 'ignore'`, a shell's `>/dev/null`), which are
//! open outputs a caller chose. So the state of descriptor 1 is recorded earlier, by a
//! constructor in the ELF `.init_array` section, which the C runtime runs before the
//! Rust runtime's set-up. Where there is no such section (not Linux), stdout is taken
//! as open.
//!
//! This module uses rustix (descriptor state) and the standard library only.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set at start-up when descriptor 1 was not open.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records whether descriptor 1 is open: `fcntl(1, F_GETFD)` fails (EBADF) only when it
/// is not.
#[cfg(target_os = "linux")]
extern "C" fn record_stdout_state() {
    let closed = rustix::io::fcntl_getfd(rustix::stdio::stdout()).is_err();
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

// Why this is sound: an `.init_array` entry is called by the C runtime with no arguments before
// `main`, on the main thread, as `extern "C" fn()`: the type of `record_stdout_state`.
// The function only asks the kernel for descriptor 1's flags (a system call through
// rustix, which needs no Rust runtime state) and stores an atomic, so it cannot observe
// anything the Rust runtime has not yet set up. There is no `unsafe` block (edition
// 2024 will spell the attribute `#[unsafe(link_section = ...)]`, for this reason).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_STDOUT_STATE: extern "C" fn() = record_stdout_state;

/// Whether stdout was closed when the process started.
pub fn stdout_was_closed() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed)
}
