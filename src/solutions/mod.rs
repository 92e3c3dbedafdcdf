//! Listing solutions in lexicographic order of their column sequence: a sequential
//! iterator ([`walk`]) and an ordered parallel writer ([`stream`]).
//!
//! The search takes the lowest free column of each row first, so it meets the
//! solutions in lexicographic order (row 0's column first). For parallel listing the
//! tree is split on its first rows into *prefixes*, produced lazily in that same order;
//! a rayon pool completes them, each into its own buffer of formatted bytes, while the
//! calling thread writes the buffers in prefix order. At most a fixed number of
//! prefixes are handed out ahead of the one being written, so memory is bounded
//! whatever the number of solutions, and the bytes are the same for every thread count.
//!
//! This layer uses the board model, the scalar kernel (to visit completions) and the
//! pool of the run layer.

pub(crate) mod stream;
pub(crate) mod walk;

pub use stream::{write_solutions, ListOptions, Listing};
pub use walk::Solutions;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::model::board::Board;
    use crate::model::constraints::Constraints;
    use crate::model::format::Format;
    use crate::model::placement::Placement;
    use crate::naive;
    use crate::solutions::stream::split_depth;
    use crate::solutions::walk::{for_each_completion, Prefix, Walk};
    use std::io::{self, Write};
    use std::ops::ControlFlow;

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
                .take(usize::try_from(k).unwrap())
                .map(|l| l.to_owned() + "\n")
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
        assert!(
            matches!(e, Error::Placement(crate::PlacementError::Unique)),
            "{e:?}"
        );
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
