//! A request to stop a run early, honoured by the one task loop.
//!
//! A [`Stop`] is shared between whoever may ask for a stop (a signal handler, a
//! watchdog, another thread) and the task loop ([`crate::run::count::drive`]), which checks it
//! before it starts each task: once a stop is requested no new task starts, the tasks
//! already running finish (a task cannot be cut short without slowing the kernel), and
//! the run returns what it finished. It knows nothing of what a task is.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A shareable request to stop a run before all its tasks have run.
///
/// Clones share one request. The request carries a nonzero *reason* chosen by the
/// caller (the `nqueens` command stores the number of the signal that asked for it).
///
/// ```
/// let stop = nqueens::Stop::new();
/// assert_eq!(stop.requested(), None);
/// stop.clone().request(15);
/// assert_eq!(stop.requested(), Some(15));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop {
    reason: Arc<AtomicUsize>,
}

impl Stop {
    /// A stop not yet requested.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks the run to stop, for `reason` (0 is taken as 1). The first request wins:
    /// its reason is kept.
    pub fn request(&self, reason: usize) {
        let _ = self
            .reason
            .compare_exchange(0, reason.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The reason of the request, if a stop was requested.
    pub fn requested(&self) -> Option<usize> {
        match self.reason.load(Ordering::Relaxed) {
            0 => None,
            reason => Some(reason),
        }
    }

    /// Whether a stop was requested.
    pub fn is_requested(&self) -> bool {
        self.requested().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_request_wins() {
        let stop = Stop::new();
        assert!(!stop.is_requested());
        stop.request(0);
        stop.request(2);
        assert_eq!(stop.requested(), Some(1));
    }
}
