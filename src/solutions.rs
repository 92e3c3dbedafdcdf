//! Listing solutions in lexicographic order of their column sequence: a sequential
//! iterator and visitor, and an ordered parallel writer.
//!
//! The search takes the lowest free column of each row first, so it meets the
//! solutions in lexicographic order (row 0's column first). For parallel listing the
//! tree is split on its first rows into *prefixes*, produced lazily in that same order;
//! a rayon pool completes them, each into its own buffer of formatted bytes, while the
//! calling thread writes the buffers in prefix order. At most a fixed number of
//! prefixes are handed out ahead of the one being written, so memory is bounded
//! whatever the number of solutions, and the bytes are the same for every thread count.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use crate::board::{is_canonical, Board};
use crate::constraints::{full_mask, Constraints, MAX_N};
use crate::count::{build_pool, resolve_threads};
use crate::error::Error;
use crate::format::{Encoder, Format, FormatWriter};
use crate::kernel::{visit_completions, Frontier};
use crate::placement::Placement;

/// A partial board whose rows `0..frontier.row` hold queens on the given columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    /// The column of the queen of each decided row (entries past `frontier.row` are 0).
    pub queens: [u8; MAX_N],
    /// The attacked squares of the next row.
    pub frontier: Frontier,
}

impl Prefix {
    /// The empty board.
    pub const ROOT: Prefix = Prefix {
        queens: [0; MAX_N],
        frontier: Frontier::ROOT,
    };

    /// The columns of the decided rows.
    pub fn columns(&self) -> &[u8] {
        &self.queens[..self.frontier.row]
    }
}

/// A depth-first walk over the ways to fill rows `start.row..end` under some
/// constraints, in lexicographic order, kept on an explicit stack so that it can stop
/// after any placement and resume.
#[derive(Clone, Debug)]
struct Walk {
    constraints: Constraints,
    first: usize,
    end: usize,
    row: usize,
    queens: [u8; MAX_N],
    frontiers: [Frontier; MAX_N],
    avail: [u32; MAX_N],
    /// The frontier of the start (yielded as is when there is nothing to place).
    start: Frontier,
    done: bool,
}

impl Walk {
    fn new(constraints: Constraints, start: &Prefix, end: usize) -> Walk {
        let first = start.frontier.row;
        let mut walk = Walk {
            constraints,
            first,
            end,
            row: first,
            queens: start.queens,
            frontiers: [Frontier::ROOT; MAX_N],
            avail: [0; MAX_N],
            start: start.frontier,
            done: first > end,
        };
        if first < end {
            walk.frontiers[first] = start.frontier;
            walk.avail[first] = start.frontier.available(&constraints);
        }
        walk
    }

    /// Fills the rows up to `end` in the next way; `queens[..end]` then holds the
    /// columns, and the frontier below them is returned.
    #[inline]
    fn advance(&mut self) -> Option<Frontier> {
        if self.done {
            return None;
        }
        if self.first == self.end {
            self.done = true;
            return Some(self.start);
        }
        loop {
            let row = self.row;
            let avail = self.avail[row];
            if avail == 0 {
                if row == self.first {
                    self.done = true;
                    return None;
                }
                self.row -= 1;
                continue;
            }
            let bit = avail & avail.wrapping_neg();
            self.avail[row] = avail ^ bit;
            self.queens[row] = bit.trailing_zeros() as u8;
            let child = self.frontiers[row].place(bit);
            if row + 1 == self.end {
                return Some(child);
            }
            self.row = row + 1;
            self.frontiers[row + 1] = child;
            self.avail[row + 1] = child.available(&self.constraints);
        }
    }
}

/// Calls `visit` with the column sequence of every completion of `start` under
/// `constraints`, in lexicographic order, until `visit` breaks.
///
/// ```
/// use std::ops::ControlFlow;
/// use nqueens::constraints::Constraints;
/// use nqueens::solutions::{for_each_completion, Prefix};
///
/// let mut all = Vec::new();
/// for_each_completion(&Constraints::new(4), &Prefix::ROOT, |cols| {
///     all.push(cols.to_vec());
///     ControlFlow::Continue(())
/// });
/// assert_eq!(all, [[1, 3, 0, 2], [2, 0, 3, 1]]);
/// ```
pub fn for_each_completion(
    constraints: &Constraints,
    start: &Prefix,
    visit: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let decided = start.frontier.row.min(constraints.n());
    visit_completions(constraints, start.frontier, &start.queens[..decided], visit)
}

/// The solutions allowed by some constraints (all solutions, or the completions of a
/// placement), as [`Board`]s in lexicographic order.
///
/// ```
/// use nqueens::solutions::Solutions;
///
/// let boards: Vec<_> = Solutions::all(6).unwrap().collect();
/// assert_eq!(boards.len(), 4);
/// assert_eq!(boards[0].columns(), [1, 3, 5, 0, 2, 4]);
/// assert!(boards.iter().all(|b| b.is_solution()));
/// ```
#[derive(Clone, Debug)]
pub struct Solutions {
    walk: Walk,
}

impl Solutions {
    /// Every solution of the n x n board.
    pub fn all(n: usize) -> Result<Solutions, Error> {
        Ok(Solutions::completions(&Placement::empty(n)?))
    }

    /// The completions of `placement` (none if its queens attack each other).
    pub fn completions(placement: &Placement) -> Solutions {
        Solutions::within(placement.constraints())
    }

    /// The solutions allowed by `constraints`.
    pub fn within(constraints: Constraints) -> Solutions {
        let n = constraints.n();
        Solutions {
            walk: Walk::new(constraints, &Prefix::ROOT, n),
        }
    }
}

impl Iterator for Solutions {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        self.walk.advance()?;
        let n = self.walk.end;
        Some(Board::from_bytes(&self.walk.queens[..n]))
    }
}

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
pub fn split_depth(n: usize) -> usize {
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
/// use nqueens::format::Format;
/// use nqueens::placement::Placement;
/// use nqueens::solutions::{write_solutions, ListOptions};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive;

    fn listed(n: usize, options: &ListOptions, format: Format) -> String {
        let mut out = Vec::new();
        let p = Placement::empty(n).unwrap();
        write_solutions(&p, options, format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn iterator_matches_the_textbook_search() {
        for n in 0..=9 {
            let mut expected = Vec::new();
            naive::for_each_solution(n, |q| expected.push(Board::new(q).unwrap()));
            let got: Vec<Board> = Solutions::all(n).unwrap().collect();
            assert_eq!(got, expected, "n = {n}");
        }
    }

    #[test]
    fn the_walk_resumes_after_each_prefix() {
        let mut walk = Walk::new(Constraints::new(6), &Prefix::ROOT, 2);
        let mut prefixes = Vec::new();
        while walk.advance().is_some() {
            prefixes.push(walk.queens[..2].to_vec());
        }
        // Row-0 column c excludes c - 1..=c + 1 in row 1.
        let expected = (0..6u8)
            .flat_map(|a| {
                (0..6u8)
                    .filter(move |&b| a.abs_diff(b) > 1)
                    .map(move |b| vec![a, b])
            })
            .collect::<Vec<_>>();
        assert_eq!(prefixes, expected);
    }

    #[test]
    fn a_complete_start_is_its_own_completion() {
        let start = [1u8, 3, 0, 2].iter().fold(Prefix::ROOT, |p, &c| Prefix {
            queens: {
                let mut q = p.queens;
                q[p.frontier.row] = c;
                q
            },
            frontier: p.frontier.place(1 << c),
        });
        let mut seen = Vec::new();
        let _ = for_each_completion(&Constraints::new(4), &start, |c| {
            seen.push(c.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(seen, [[1, 3, 0, 2]]);
    }

    #[test]
    fn listing_is_ordered_and_independent_of_threads() {
        for n in [0, 1, 4, 8, 10] {
            let reference: String = Solutions::all(n)
                .unwrap()
                .map(|b| b.columns_line() + "\n")
                .collect();
            for threads in [1, 2, 3] {
                let options = ListOptions {
                    threads: Some(threads),
                    ..ListOptions::default()
                };
                assert_eq!(listed(n, &options, Format::Columns), reference, "n = {n}");
            }
        }
    }

    #[test]
    fn limits_stop_early_and_exactly() {
        let all = listed(10, &ListOptions::default(), Format::Columns);
        for k in [0u64, 1, 5, 100, 724, 1000] {
            let options = ListOptions {
                threads: Some(2),
                limit: Some(k),
                ..ListOptions::default()
            };
            let expected: String = all
                .lines()
                .take(k as usize)
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(listed(10, &options, Format::Columns), expected, "k = {k}");
        }
    }

    #[test]
    fn unique_lists_one_per_class() {
        let options = ListOptions {
            unique: true,
            threads: Some(2),
            ..ListOptions::default()
        };
        for n in 0..=9 {
            let text = listed(n, &options, Format::Columns);
            let expected = crate::published::published(n).unwrap().unique;
            assert_eq!(text.lines().count() as u128, expected, "n = {n}");
        }
    }

    #[test]
    fn unique_with_placed_queens_is_refused() {
        let options = ListOptions {
            unique: true,
            ..ListOptions::default()
        };
        let p = Placement::parse(8, "0:0").unwrap();
        let e = write_solutions(&p, &options, Format::Board, Vec::new()).unwrap_err();
        assert!(e.is_usage());
    }

    #[test]
    fn split_depths() {
        assert_eq!(split_depth(0), 0);
        assert_eq!(split_depth(1), 1);
        assert_eq!(split_depth(12), 2);
        assert_eq!(split_depth(16), 5);
        assert_eq!(split_depth(32), 21);
    }

    /// A writer that fails after `budget` bytes, like a pipe closed by its reader.
    struct ClosingPipe {
        budget: usize,
    }

    impl Write for ClosingPipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.budget == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.budget);
            self.budget -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_stops_the_listing() {
        let p = Placement::empty(16).unwrap();
        let options = ListOptions {
            threads: Some(2),
            ..ListOptions::default()
        };
        let e =
            write_solutions(&p, &options, Format::Board, ClosingPipe { budget: 1000 }).unwrap_err();
        match e {
            Error::Io { source, .. } => assert_eq!(source.kind(), io::ErrorKind::BrokenPipe),
            other => panic!("{other}"),
        }
    }
}
