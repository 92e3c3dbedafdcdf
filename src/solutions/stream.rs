//! The ordered parallel writer of solutions.
//!
//! For parallel listing the tree is split on its first rows into *prefixes*, produced
//! lazily in lexicographic order; a rayon pool completes them, each into its own buffer
//! of formatted bytes, while the calling thread writes the buffers in prefix order. At
//! most a fixed number of prefixes are handed out ahead of the one being written, so
//! memory is bounded whatever the number of solutions, and the bytes are the same for
//! every thread count.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

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

/// How many rows the parallel listing fixes to form its tasks: enough to give
/// thousands of small tasks on large boards (a few hundred solutions each).
pub(crate) fn split_depth(n: usize) -> usize {
    if n <= 13 {
        n.min(2)
    } else {
        n - 11
    }
}

/// Writes the completions of `placement` to `out` in `format`, in lexicographic order,
/// generating them in parallel; the bytes do not depend on the thread count.
///
/// The calling thread writes; the pool's workers complete prefixes, at most a fixed
/// number of them ahead of the one being written, so memory stays bounded. Stops at
/// the first write error (a closed pipe gives an [`Error::Io`] whose source is
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
    let job = Job {
        constraints,
        encoder: Encoder::new(format, n),
        unique: options.unique,
        stop: AtomicBool::new(false),
    };
    let mut prefixes = Walk::new(constraints, &Prefix::ROOT, split_depth(n).min(n));
    let mut stream = Stream {
        writer: FormatWriter::new(format, out),
        limit: options.limit.unwrap_or(u64::MAX),
        written: 0,
        error: None,
    };
    let ahead = (16 * threads).clamp(32, 4096);
    let (sender, receiver) = channel::<(usize, Chunk)>();
    pool.in_place_scope(|scope| {
        // Prefixes handed out, prefixes written, and the finished ones waiting for
        // their turn (index `written_prefixes + i`).
        let mut spawned = 0usize;
        let mut written_prefixes = 0usize;
        let mut waiting: VecDeque<Option<Chunk>> = VecDeque::new();
        let mut exhausted = false;
        loop {
            while !exhausted && !stream.done() && spawned - written_prefixes < ahead {
                let Some(frontier) = prefixes.advance() else {
                    exhausted = true;
                    break;
                };
                let prefix = Prefix {
                    queens: prefixes.queens,
                    frontier,
                };
                let cap = stream.remaining();
                let (job, sender, index) = (&job, sender.clone(), spawned);
                scope.spawn(move |_| {
                    // The receiver outlives the scope, so the send cannot fail.
                    let _ = sender.send((index, job.run(&prefix, cap)));
                });
                spawned += 1;
            }
            if written_prefixes == spawned {
                break;
            }
            let (index, chunk) = receiver.recv().expect("the sender is alive");
            let slot = index - written_prefixes;
            if waiting.len() <= slot {
                waiting.resize_with(slot + 1, || None);
            }
            waiting[slot] = Some(chunk);
            while let Some(Some(_)) = waiting.front() {
                let chunk = waiting.pop_front().flatten().expect("checked");
                written_prefixes += 1;
                stream.write(chunk, &job);
                if stream.done() {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    stream
        .finish()
        .map(|solutions| Listing { solutions, threads })
}

/// The ordered output of a listing: the writer, the limit, and the first error.
struct Stream<W: Write> {
    writer: FormatWriter<W>,
    limit: u64,
    written: u64,
    error: Option<io::Error>,
}

impl<W: Write> Stream<W> {
    /// Whether nothing more is to be written (limit reached or write failed).
    fn done(&self) -> bool {
        self.written >= self.limit || self.error.is_some()
    }

    /// How many more solutions may be written.
    fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.written)
    }

    /// Writes the next chunk, cut to the limit.
    fn write(&mut self, mut chunk: Chunk, job: &Job) {
        if self.done() {
            return;
        }
        let left = self.remaining();
        if chunk.solutions > left {
            chunk = job.run(&chunk.prefix, left);
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

/// The part of a listing shared by its tasks.
struct Job {
    constraints: Constraints,
    encoder: Encoder,
    unique: bool,
    /// Set once the output is complete or failed: running tasks give up.
    stop: AtomicBool,
}

/// The formatted completions of one prefix.
struct Chunk {
    prefix: Prefix,
    bytes: Vec<u8>,
    solutions: u64,
}

impl Job {
    /// Formats the completions of `prefix`, at most `cap` of them.
    fn run(&self, prefix: &Prefix, cap: u64) -> Chunk {
        let mut chunk = Chunk {
            prefix: *prefix,
            bytes: Vec::new(),
            solutions: 0,
        };
        if cap == 0 || self.stop.load(Ordering::Relaxed) {
            return chunk;
        }
        let _ = for_each_completion(&self.constraints, prefix, |cols| {
            if self.unique && !is_canonical(cols) {
                return ControlFlow::Continue(());
            }
            self.encoder.encode(cols, &mut chunk.bytes);
            chunk.solutions += 1;
            if chunk.solutions == cap || self.stop.load(Ordering::Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        chunk
    }
}
