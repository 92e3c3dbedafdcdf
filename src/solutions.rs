//! Listing solutions in lexicographic order of their column sequence: a sequential
//! iterator and visitor, and an ordered parallel writer.
//!
//! The search takes the lowest free column of each row first, so it meets the
//! solutions in lexicographic order (row 0's column first). For parallel listing the
//! tree is split on its first rows into *prefixes*, produced lazily in that same order;
//! windows of consecutive prefixes are completed by a rayon pool, each into its own
//! buffer of formatted bytes, and a writer thread writes the buffers in prefix order
//! while the next window is computed. Memory is bounded by a few windows of output
//! whatever the number of solutions, and the bytes are the same for every thread count.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use crate::board::{is_canonical, Board};
use crate::constraints::{full_mask, Constraints, MAX_N};
use crate::count::{build_pool, resolve_threads};
use crate::error::Error;
use crate::format::{Encoder, Format, FormatWriter};
use crate::kernel::Frontier;
use crate::placement::{Placement, PlacementError};

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
    mut visit: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = constraints.n();
    let mut walk = Walk::new(*constraints, start, n);
    while walk.advance().is_some() {
        visit(&walk.queens[..n])?;
    }
    ControlFlow::Continue(())
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
/// Stops at the first write error (a closed pipe gives an [`Error::Io`] whose source is
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
pub fn write_solutions<W: Write + Send>(
    placement: &Placement,
    options: &ListOptions,
    format: Format,
    out: W,
) -> Result<Listing, Error> {
    let n = placement.n();
    if options.unique && !placement.is_empty() {
        return Err(PlacementError::Unique.into());
    }
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
    };
    let mut prefixes = Walk::new(constraints, &Prefix::ROOT, split_depth(n).min(n));
    let max_window = (32 * threads).clamp(64, 4096);
    let limit = options.limit.unwrap_or(u64::MAX);

    std::thread::scope(|scope| {
        let (sender, receiver) = sync_channel::<Vec<Vec<u8>>>(2);
        let writer = scope.spawn(move || -> io::Result<()> {
            let mut writer = FormatWriter::new(format, out);
            for window in receiver {
                for chunk in window {
                    writer.write_chunk(&chunk)?;
                }
            }
            writer.finish().map(drop)
        });
        let mut written = 0u64;
        let mut window_len = threads;
        while written < limit {
            let mut window = Vec::with_capacity(window_len);
            while window.len() < window_len {
                let Some(frontier) = prefixes.advance() else {
                    break;
                };
                window.push(Prefix {
                    queens: prefixes.queens,
                    frontier,
                });
            }
            if window.is_empty() {
                break;
            }
            let cap = limit - written;
            let chunks: Vec<Chunk> = pool.install(|| {
                window
                    .par_iter()
                    .with_max_len(1)
                    .map(|prefix| job.run(prefix, cap))
                    .collect()
            });
            let mut bytes = Vec::with_capacity(chunks.len());
            for (prefix, mut chunk) in window.iter().zip(chunks) {
                let left = limit - written;
                if left == 0 {
                    break;
                }
                if chunk.solutions > left {
                    chunk = job.run(prefix, left);
                }
                written += chunk.solutions;
                bytes.push(chunk.bytes);
            }
            if sender.send(bytes).is_err() {
                break; // The writer failed; its error is reported below.
            }
            window_len = (window_len * 2).min(max_window);
        }
        drop(sender);
        match writer.join() {
            Ok(result) => result.map_err(|source| Error::Io {
                context: "cannot write the solutions".to_string(),
                source,
            }),
            Err(panic) => std::panic::resume_unwind(panic),
        }?;
        Ok(Listing {
            solutions: written,
            threads,
        })
    })
}

/// The part of a listing shared by its tasks.
struct Job {
    constraints: Constraints,
    encoder: Encoder,
    unique: bool,
}

/// The formatted completions of one prefix.
struct Chunk {
    bytes: Vec<u8>,
    solutions: u64,
}

impl Job {
    /// Formats the completions of `prefix`, at most `cap` of them.
    fn run(&self, prefix: &Prefix, cap: u64) -> Chunk {
        let mut chunk = Chunk {
            bytes: Vec::new(),
            solutions: 0,
        };
        if cap == 0 {
            return chunk;
        }
        let _ = for_each_completion(&self.constraints, prefix, |cols| {
            if self.unique && !is_canonical(cols) {
                return ControlFlow::Continue(());
            }
            self.encoder.encode(cols, &mut chunk.bytes);
            chunk.solutions += 1;
            if chunk.solutions == cap {
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
