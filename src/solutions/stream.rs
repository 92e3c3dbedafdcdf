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

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::board::is_canonical;
use crate::model::constraints::{full_mask, Constraints};
use crate::model::format::{Encoder, Format, FormatWriter};
use crate::model::placement::Placement;
use crate::pool::build_pool;
use crate::solutions::walk::{for_each_completion, Prefix, Walk};
use schedule::{Chunk, Schedule};

mod schedule;

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
/// write error.
///
/// # Errors
/// [`Error::Io`] for a write error (a closed pipe gives one whose source is
/// [`io::ErrorKind::BrokenPipe`]); [`Error::Placement`] for `options.unique` with
/// placed queens; [`Error::OutOfRange`] for a thread count out of range;
/// [`Error::ThreadPool`] when the threads cannot start.
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
                Some(last) => {
                    chunk.ends[usize::try_from(last).expect("below the chunk's solutions")]
                }
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
                let expected: String = reference[..usize::try_from(limit).unwrap()].concat();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "{limit} on {threads}"
                );
            }
        }
    }
}
