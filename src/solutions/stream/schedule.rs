//! The ordered schedule of a parallel listing: units handed to a rayon pool strictly
//! in order, at most a fixed number ahead of the one being written, their chunks
//! delivered in order, and later units cancelled once the earlier ones are known to
//! hold as many solutions as are still wanted. It knows nothing of boards: a unit is
//! anything its `run` closure can turn into a [`Chunk`].

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Mutex, PoisonError};

/// The formatted solutions of one unit.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// The encoded solutions.
    pub(crate) bytes: Vec<u8>,
    /// Where each solution's bytes end (when a limit may cut the chunk).
    pub(crate) ends: Vec<usize>,
    /// Solutions in `bytes`.
    pub(crate) solutions: u64,
    /// Whether the unit was cancelled before it found all it was asked for (such a
    /// chunk is never written).
    pub(crate) cancelled: bool,
}

/// How units are handed out and which are cancelled.
pub(crate) struct Schedule {
    /// Units taken at most ahead of the one being written.
    pub(crate) ahead: usize,
    /// Whether to cancel a unit once the finished units before it hold as many
    /// solutions as are still wanted.
    pub(crate) cut: bool,
}

impl Schedule {
    /// Runs `units` on `pool` with `run` (given the unit, the most solutions worth
    /// finding, and whether it is still wanted) and hands the chunks to `deliver` in
    /// unit order. `deliver` returns how many solutions are still wanted (0: stop);
    /// `left` is that number at the start.
    pub(crate) fn run<U, I, R, D>(
        &self,
        pool: &rayon::ThreadPool,
        units: I,
        left: u64,
        run: R,
        mut deliver: D,
    ) where
        U: Send,
        I: Iterator<Item = U> + Send,
        R: Fn(&U, u64, &dyn Fn() -> bool) -> Chunk + Sync,
        D: FnMut(Chunk) -> u64,
    {
        let shared = Shared {
            units: Mutex::new((units, 0)),
            stop: AtomicBool::new(left == 0),
            cutoff: AtomicUsize::new(usize::MAX),
            #[cfg(test)]
            log: Mutex::new(Vec::new()),
        };
        let (sender, receiver) = channel::<Option<(usize, Chunk)>>();
        let mut left = left;
        pool.in_place_scope(|scope| {
            // Jobs handed out, jobs back, jobs that found no unit left, chunks written,
            // and the chunks back but waiting for their turn (unit `written + i`).
            let (mut spawned, mut back, mut empty, mut written) = (0usize, 0usize, 0usize, 0usize);
            let mut waiting: VecDeque<Option<Chunk>> = VecDeque::new();
            let mut exhausted = false;
            loop {
                while !exhausted && left > 0 && spawned - empty - written < self.ahead {
                    let (shared, run, sender) = (&shared, &run, sender.clone());
                    scope.spawn(move |_| {
                        // The receiver outlives the scope, so the send cannot fail.
                        let _ = sender.send(shared.take_and_run(left, run));
                    });
                    spawned += 1;
                }
                if back == spawned {
                    break;
                }
                let message = receiver.recv().expect("a sender is alive");
                back += 1;
                let Some((index, chunk)) = message else {
                    empty += 1;
                    exhausted = true;
                    continue;
                };
                let slot = index - written;
                if waiting.len() <= slot {
                    waiting.resize_with(slot + 1, || None);
                }
                waiting[slot] = Some(chunk);
                while let Some(Some(_)) = waiting.front() {
                    let chunk = waiting.pop_front().flatten().expect("checked");
                    written += 1;
                    if left > 0 {
                        debug_assert!(!chunk.cancelled, "a cancelled unit is never written");
                        left = deliver(chunk);
                    }
                }
                if left == 0 {
                    shared.stop.store(true, Ordering::Relaxed);
                } else if self.cut {
                    shared.cut_after(written, &waiting, left);
                }
            }
        });
        #[cfg(test)]
        LAST_LOG.with(|log| *log.borrow_mut() = shared.log.into_inner().unwrap());
    }
}

/// What the jobs of a schedule share.
struct Shared<I> {
    /// The units not yet taken, and the index of the next one.
    units: Mutex<(I, usize)>,
    /// Set once nothing more is wanted: running units give up.
    stop: AtomicBool,
    /// Units from this index on are not wanted.
    cutoff: AtomicUsize,
    /// What happened to each unit, in order (tests only).
    #[cfg(test)]
    log: Mutex<Vec<Event>>,
}

/// What happened to a unit (tests only).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// The unit was taken and started.
    Started(usize),
    /// It ended with all it was asked for.
    Finished(usize),
    /// It was cancelled.
    Cancelled(usize),
}

#[cfg(test)]
thread_local! {
    /// The events of the last schedule run on this thread (tests only).
    pub(crate) static LAST_LOG: std::cell::RefCell<Vec<Event>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<I: Iterator> Shared<I> {
    /// Takes the next unit (in order) and runs it: `None` when none is left or nothing
    /// more is wanted.
    fn take_and_run<R>(&self, cap: u64, run: &R) -> Option<(usize, Chunk)>
    where
        R: Fn(&I::Item, u64, &dyn Fn() -> bool) -> Chunk,
    {
        let (unit, index) = {
            let mut units = self.units.lock().unwrap_or_else(PoisonError::into_inner);
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let unit = units.0.next()?;
            let index = units.1;
            units.1 += 1;
            #[cfg(test)]
            self.log.lock().unwrap().push(Event::Started(index));
            (unit, index)
        };
        let wanted =
            || !self.stop.load(Ordering::Relaxed) && index < self.cutoff.load(Ordering::Relaxed);
        let chunk = if wanted() {
            run(&unit, cap, &wanted)
        } else {
            Chunk {
                cancelled: true,
                ..Chunk::default()
            }
        };
        #[cfg(test)]
        self.log.lock().unwrap().push(if chunk.cancelled {
            Event::Cancelled(index)
        } else {
            Event::Finished(index)
        });
        Some((index, chunk))
    }

    /// Cancels every unit after those that, with unit `written` first and `waiting`
    /// back so far, are known to hold the `left` solutions still wanted.
    fn cut_after(&self, written: usize, waiting: &VecDeque<Option<Chunk>>, left: u64) {
        let mut known = 0u64;
        for (i, chunk) in waiting.iter().enumerate() {
            if known >= left {
                self.cutoff.fetch_min(written + i, Ordering::Relaxed);
                return;
            }
            if let Some(chunk) = chunk {
                known = known.saturating_add(chunk.solutions);
            }
        }
        if known >= left {
            self.cutoff
                .fetch_min(written + waiting.len(), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::build_pool;
    use std::time::{Duration, Instant};

    /// A chunk of `solutions` one-byte solutions.
    fn chunk(solutions: u64) -> Chunk {
        Chunk {
            bytes: vec![b'x'; usize::try_from(solutions).unwrap()],
            ends: (1..=usize::try_from(solutions).unwrap()).collect(),
            solutions,
            cancelled: false,
        }
    }

    /// Runs units 0, 1, ... through a schedule on `threads` threads for `limit`
    /// solutions: what was delivered (in unit order), and the log.
    fn schedule(
        threads: usize,
        limit: u64,
        run: impl Fn(&usize, u64, &dyn Fn() -> bool) -> Chunk + Sync,
    ) -> (Vec<u64>, Vec<Event>) {
        let pool = build_pool(threads).unwrap();
        let mut delivered = Vec::new();
        let mut left = limit;
        Schedule {
            ahead: 6,
            cut: true,
        }
        .run(&pool, 0..1000usize, limit, run, |c| {
            delivered.push(c.solutions.min(left));
            left -= c.solutions.min(left);
            left
        });
        (delivered, LAST_LOG.with(|log| log.borrow().clone()))
    }

    /// A unit that runs until it is no longer wanted (or 5 s), finding nothing.
    fn endless(wanted: &dyn Fn() -> bool) -> Chunk {
        let deadline = Instant::now() + Duration::from_secs(5);
        while wanted() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        Chunk {
            cancelled: !wanted(),
            ..Chunk::default()
        }
    }

    fn position(log: &[Event], event: Event) -> usize {
        log.iter()
            .position(|&e| e == event)
            .unwrap_or_else(|| panic!("{event:?} in {log:?}"))
    }

    #[test]
    fn units_start_in_order_and_later_ones_are_cancelled_once_the_limit_is_met() {
        // Unit 0 holds the three wanted solutions but is slow; the others would run
        // for seconds: they are cancelled as soon as unit 0 is written.
        let (delivered, log) = schedule(2, 3, |&u, cap, wanted| {
            if u == 0 {
                std::thread::sleep(Duration::from_millis(100));
                chunk(3.min(cap))
            } else {
                endless(wanted)
            }
        });
        assert_eq!(delivered, [3]);
        let started: Vec<usize> = log
            .iter()
            .filter_map(|e| match e {
                Event::Started(i) => Some(*i),
                _ => None,
            })
            .collect();
        assert_eq!(started, (0..started.len()).collect::<Vec<_>>(), "{log:?}");
        assert!(started.len() >= 2 && started.len() <= 6, "{log:?}");
        for &i in &started[1..] {
            assert!(position(&log, Event::Cancelled(i)) > position(&log, Event::Finished(0)));
        }

        // Unit 1 alone is known to hold enough: units 2 and later are cancelled while
        // unit 0 still runs (it waits to see unit 2 cancelled, and unit 1 waits for
        // unit 2 to start), and unit 0 then comes first in the output.
        let unit_2_started = AtomicBool::new(false);
        let unit_2_cancelled = AtomicBool::new(false);
        let wait_for = |flag: &AtomicBool| {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !flag.load(Ordering::SeqCst) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        let (delivered, log) = schedule(3, 3, |&u, cap, wanted| match u {
            0 => {
                wait_for(&unit_2_cancelled);
                chunk(1.min(cap))
            }
            1 => {
                wait_for(&unit_2_started);
                chunk(5.min(cap))
            }
            _ => {
                unit_2_started.store(true, Ordering::SeqCst);
                let chunk = endless(wanted);
                if u == 2 && chunk.cancelled {
                    unit_2_cancelled.store(true, Ordering::SeqCst);
                }
                chunk
            }
        });
        assert_eq!(delivered, [1, 2]);
        assert!(
            position(&log, Event::Cancelled(2)) < position(&log, Event::Finished(0)),
            "{log:?}"
        );
    }
}
