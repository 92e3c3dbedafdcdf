//! The CPU time of the calling thread: what a unit costs, whatever else the machine is
//! doing (a wall clock on a busy machine counts the time other programs ran). Where the
//! system has no per-thread clock, the wall clock stands in.

use std::time::Instant;

/// A start point on the calling thread's CPU clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CpuClock {
    /// The thread's CPU time at the start, in seconds, where the system tells.
    cpu: Option<f64>,
    /// The wall clock at the start.
    wall: Instant,
}

/// The calling thread's CPU time in seconds, where the system tells.
#[cfg(unix)]
#[allow(
    clippy::unnecessary_wraps,
    reason = "the same signature as where the system has no per-thread clock"
)]
fn thread_cpu_seconds() -> Option<f64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    #[allow(
        clippy::cast_precision_loss,
        reason = "a duration for an estimate: microseconds are plenty"
    )]
    Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// The calling thread's CPU time in seconds, where the system tells (not here).
#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

impl CpuClock {
    /// Starts the clock.
    pub(crate) fn start() -> CpuClock {
        CpuClock {
            cpu: thread_cpu_seconds(),
            wall: Instant::now(),
        }
    }

    /// The thread's CPU seconds since the start (wall seconds where there is no CPU
    /// clock). Call it from the thread that started the clock.
    pub(crate) fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_seconds()) {
            (Some(start), Some(now)) => (now - start).max(0.0),
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_thread_working_not_sleeping() {
        let clock = CpuClock::start();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
        }
        std::hint::black_box(x);
        let seconds = clock.seconds();
        assert!(seconds > 0.0);
        if cfg!(unix) {
            assert!(seconds < 0.05 + 0.5, "{seconds}");
        }
    }
}
