//! The ordered parallel writer of solutions.
//!
//! The tree is split on its first rows into *units*, produced lazily in lexicographic
//! order. A rayon pool runs them, each into its own buffer of formatted bytes, while
//! the calling thread writes the buffers in unit order, so the bytes are the same for
//! every thread count. A worker takes the next unit when it starts, so units start
//! exactly in order, and at most a fixed number are taken ahead of the one being
//! written, so memory is bounded.
//!
//! A full listing makes each unit one prefix of [`split_depth`] rows, whose
//! completions are small. A small `limit` instead makes the units shallow (two rows),
//! each walking its prefixes in order and keeping at most as many solutions as are
//! still wanted: the first unit then runs as it would on one thread, while later
//! units run beside it and are cancelled as soon as the units before them are known to
//! hold enough solutions (checked between prefixes and at each solution). So a
//! limited listing on T threads is never markedly slower than on one.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Mutex;

use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::board::is_canonical;
use crate::model::constraints::{full_mask, Constraints};
use crate::model::format::{Encoder, Format, FormatWriter};
use crate::model::placement::Placement;
use crate::run::tasks::build_pool;
use crate::solutions::walk::{for_each_completion, Prefix, Walk};

/// What to list and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// Worker threads; `None` uses every logical CPU.
    pub threads: Option<usize>,
    /// List only the lexicographically smallest of the 8 images of each solution (one
    /// per symmetry class: OEIS A002562 of them). Not defined with placed queens.
    pub unique: bool,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
}

/// What a listing wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// Solutions written.
    pub solutions: u64,
    /// Worker threads used.
    pub threads: usize,
}

/// How many rows the parallel listing fixes to form its prefixes: enough to give
/// thousands of small ones on large boards (a few hundred solutions each).
pub(crate) fn split_depth(n: usize) -> usize {
    if n <= 13 {
        n.min(2)
    } else {
        n - 11
    }
}

/// The rows of a shallow unit (a limited listing).
const SHALLOW_DEPTH: usize = 2;

/// The most bytes the buffers of a limited listing may hold at once; a larger limit
/// lists with the deep units of a full listing.
const LIMITED_BUFFER_BYTES: u64 = 256 << 20;

/// Writes the completions of `placement` to `out` in `format`, in lexicographic order,
/// generating them in parallel; the bytes do not depend on the thread count.
///
/// The calling thread writes; the pool's workers run units, at most a fixed number of
/// them ahead of the one being written, so memory stays bounded. Stops at the first
/// write error (a closed pipe gives an [`Error::Io`] whose source is
/// [`io::ErrorKind::BrokenPipe`]).
///
/// ```
/// use nqueens::{write_solutions, Format, ListOptions, Placement};
///
/// let mut out = Vec::new();
/// let placement = Placement::parse(4, "0:1").unwrap();
/// write_solutions(&placement, &ListOptions::default(), Format::Columns, &mut out).unwrap();
/// assert_eq!(out, b"1 3 0 2\n");
/// ```
pub fn write_solutions<W: Write>(
    placement: &Placement,
    options: &ListOptions,
    format: Format,
    out: W,
) -> Result<Listing, Error> {
    let n = placement.n();
    placement.allow_unique(options.unique)?;
    let threads = resolve_threads(options.threads)?;
    let pool = build_pool(threads)?;
    let mut constraints = placement.constraints();
    if options.unique {
        // The smallest image has row-0 column c <= n - 1 - c (its mirror's).
        constraints.restrict(0, full_mask(n.div_ceil(2)));
    }
    let inner = split_depth(n).min(n);
    let shallow_ahead = 2 * threads + 2;
    let per_solution = ((n + 3) * (n + 1) + 16) as u64;
    let limited = options.limit.is_some_and(|k| {
        k.saturating_mul(shallow_ahead as u64)
            .saturating_mul(per_solution)
            <= LIMITED_BUFFER_BYTES
    });
    let (outer, ahead) = if limited {
        (SHALLOW_DEPTH.min(inner), shallow_ahead)
    } else {
        (inner, (16 * threads).clamp(32, 4096))
    };
    let job = Job {
        constraints,
        encoder: Encoder::new(format, n),
        unique: options.unique,
        inner,
        track_ends: options.limit.is_some(),
    };
    let mut prefixes = Walk::new(constraints, &Prefix::ROOT, outer);
    let units = std::iter::from_fn(move || {
        let frontier = prefixes.advance()?;
        Some(Prefix {
            queens: prefixes.queens,
            frontier,
        })
    });
    let mut stream = Stream {
        writer: FormatWriter::new(format, out),
        limit: options.limit.unwrap_or(u64::MAX),
        written: 0,
        error: None,
    };
    let schedule = Schedule {
        ahead,
        cut: limited,
    };
    let first_left = stream.remaining();
    schedule.run(
        &pool,
        units,
        first_left,
        |prefix, cap, wanted| job.run(prefix, cap, wanted),
        |chunk| {
            stream.write(chunk);
            stream.remaining_unless_failed()
        },
    );
    stream
        .finish()
        .map(|solutions| Listing { solutions, threads })
}

/// The formatted solutions of one unit.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// The encoded solutions.
    bytes: Vec<u8>,
    /// Where each solution's bytes end (when a limit may cut the chunk).
    ends: Vec<usize>,
    /// Solutions in `bytes`.
    solutions: u64,
    /// Whether the unit was cancelled before it found all it was asked for (such a
    /// chunk is never written).
    cancelled: bool,
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
            let mut units = self.units.lock().unwrap_or_else(|e| e.into_inner());
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

/// The ordered output of a listing: the writer, the limit, and the first error.
struct Stream<W: Write> {
    writer: FormatWriter<W>,
    limit: u64,
    written: u64,
    error: Option<io::Error>,
}

impl<W: Write> Stream<W> {
    /// How many more solutions may be written.
    fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.written)
    }

    /// [`Stream::remaining`], or 0 once a write failed.
    fn remaining_unless_failed(&self) -> u64 {
        if self.error.is_some() {
            0
        } else {
            self.remaining()
        }
    }

    /// Writes the next chunk, cut to the limit (a chunk holds more solutions than are
    /// wanted only under a limit, which notes where each one ends).
    fn write(&mut self, mut chunk: Chunk) {
        let left = self.remaining();
        if chunk.solutions > left {
            let end = match left.checked_sub(1) {
                Some(last) => chunk.ends[last as usize],
                None => 0,
            };
            chunk.bytes.truncate(end);
            chunk.solutions = left;
        }
        match self.writer.write_chunk(&chunk.bytes) {
            Ok(()) => self.written += chunk.solutions,
            Err(e) => self.error = Some(e),
        }
    }

    /// Ends the output: the number of solutions written, or the write error.
    fn finish(self) -> Result<u64, Error> {
        let io = |source| Error::Io {
            context: "cannot write the solutions".to_string(),
            source,
        };
        if let Some(e) = self.error {
            return Err(io(e));
        }
        self.writer.finish().map_err(io)?;
        Ok(self.written)
    }
}

/// The part of a listing shared by its units.
struct Job {
    constraints: Constraints,
    encoder: Encoder,
    unique: bool,
    /// The rows fixed by the prefixes whose completions are searched in one go.
    inner: usize,
    /// Whether to note where each solution ends (a limit may cut a chunk).
    track_ends: bool,
}

impl Job {
    /// Formats the completions of the unit `prefix` (walking its prefixes of
    /// `inner` rows in order), at most `cap` of them, while `wanted`.
    fn run(&self, prefix: &Prefix, cap: u64, wanted: &dyn Fn() -> bool) -> Chunk {
        let mut chunk = Chunk::default();
        if cap == 0 {
            return chunk;
        }
        let mut prefixes = Walk::new(self.constraints, prefix, self.inner);
        while let Some(frontier) = prefixes.advance() {
            if !wanted() {
                chunk.cancelled = true;
                break;
            }
            let start = Prefix {
                queens: prefixes.queens,
                frontier,
            };
            let flow = for_each_completion(&self.constraints, &start, |cols| {
                if self.unique && !is_canonical(cols) {
                    return ControlFlow::Continue(());
                }
                self.encoder.encode(cols, &mut chunk.bytes);
                if self.track_ends {
                    chunk.ends.push(chunk.bytes.len());
                }
                chunk.solutions += 1;
                if chunk.solutions == cap {
                    ControlFlow::Break(())
                } else if !wanted() {
                    chunk.cancelled = true;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if flow.is_break() {
                break;
            }
        }
        chunk
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A chunk of `solutions` one-byte solutions.
    fn chunk(solutions: u64) -> Chunk {
        Chunk {
            bytes: vec![b'x'; solutions as usize],
            ends: (1..=solutions as usize).collect(),
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

    #[test]
    fn limited_listings_of_shallow_units_match_one_thread() {
        // n = 14 lists prefixes of 3 rows, so a limited listing runs units of 2 rows.
        let p = Placement::empty(14).unwrap();
        let reference: Vec<String> = crate::Solutions::all(14)
            .unwrap()
            .take(3000)
            .map(|b| b.columns_line() + "\n")
            .collect();
        for limit in [1u64, 2, 57, 3000] {
            for threads in [1, 2, 3] {
                let options = ListOptions {
                    threads: Some(threads),
                    limit: Some(limit),
                    ..ListOptions::default()
                };
                let mut out = Vec::new();
                let listing = write_solutions(&p, &options, Format::Columns, &mut out).unwrap();
                assert_eq!(listing.solutions, limit);
                let expected: String = reference[..limit as usize].concat();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "{limit} on {threads}"
                );
            }
        }
    }
}
