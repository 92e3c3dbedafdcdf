//! The output formats of `solve`, as fast byte encoders.
//!
//! An [`Encoder`] appends one solution (its column sequence) to a byte buffer using
//! tables prepared once per board size, so that the parallel generator of
//! the parallel listing can format whole tasks in the workers. [`FormatWriter`] puts
//! the encoded pieces together into one stream, adding what a format needs around them
//! (the brackets of the `leetcode` array). The bytes are those of the renderings of
//! [`crate::model::board::Board`].

use std::io::{self, Write};

use crate::names::named_choice;

/// How `solve` writes the solutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// The AcWing 843 text: n lines of `Q` and `.`, then an empty line, per board.
    #[default]
    Board,
    /// One JSON array of boards, each an array of row strings (LeetCode 51), on one line.
    Leetcode,
    /// One line per solution: the 0-based column of each row, separated by spaces.
    Columns,
    /// One JSON object per line: `{"columns":[...]}`.
    Jsonl,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [
        Format::Board,
        Format::Leetcode,
        Format::Columns,
        Format::Jsonl,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Board => "board",
            Format::Leetcode => "leetcode",
            Format::Columns => "columns",
            Format::Jsonl => "jsonl",
        }
    }
}

named_choice!(Format, "format");

/// Appends solutions of one board size in one format to byte buffers.
///
/// In the `leetcode` format every board is encoded with a leading comma;
/// [`FormatWriter`] drops the comma of the first board of the stream.
#[derive(Clone, Debug)]
pub(crate) struct Encoder {
    format: Format,
    n: usize,
    /// Per column: the row text of a queen on that column, with its framing
    /// (`..Q.\n` for `board`, `"..Q.",` for `leetcode`).
    rows: Vec<u8>,
    /// Length of one entry of `rows`.
    row_len: usize,
}

impl Encoder {
    /// The encoder of `format` for n x n boards.
    pub(crate) fn new(format: Format, n: usize) -> Encoder {
        let (prefix, suffix): (&[u8], &[u8]) = match format {
            Format::Board => (b"", b"\n"),
            Format::Leetcode => (b"\"", b"\","),
            Format::Columns | Format::Jsonl => (b"", b""),
        };
        let row_len = if matches!(format, Format::Board | Format::Leetcode) {
            prefix.len() + n + suffix.len()
        } else {
            0
        };
        let mut rows = Vec::with_capacity(row_len * n);
        if row_len > 0 {
            for column in 0..n {
                rows.extend_from_slice(prefix);
                rows.extend((0..n).map(|i| if i == column { b'Q' } else { b'.' }));
                rows.extend_from_slice(suffix);
            }
        }
        Encoder {
            format,
            n,
            rows,
            row_len,
        }
    }

    /// Appends the solution `columns` (one column per row, `columns.len() == n`).
    #[inline]
    pub(crate) fn encode(&self, columns: &[u8], out: &mut Vec<u8>) {
        debug_assert_eq!(columns.len(), self.n);
        match self.format {
            Format::Board => {
                for &c in columns {
                    out.extend_from_slice(self.row(c));
                }
                out.push(b'\n');
            }
            Format::Leetcode => {
                out.extend_from_slice(b",[");
                for &c in columns {
                    out.extend_from_slice(self.row(c));
                }
                // Replace the comma after the last row (or, for n = 0, keep the `[`).
                if self.n > 0 {
                    out.pop();
                }
                out.push(b']');
            }
            Format::Columns => {
                for (i, &c) in columns.iter().enumerate() {
                    if i > 0 {
                        out.push(b' ');
                    }
                    push_number(out, c);
                }
                out.push(b'\n');
            }
            Format::Jsonl => {
                out.extend_from_slice(b"{\"columns\":[");
                for (i, &c) in columns.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    push_number(out, c);
                }
                out.extend_from_slice(b"]}\n");
            }
        }
    }

    #[inline]
    fn row(&self, column: u8) -> &[u8] {
        let start = usize::from(column) * self.row_len;
        &self.rows[start..start + self.row_len]
    }
}

/// Appends the decimal digits of `value` (< 100).
#[inline]
fn push_number(out: &mut Vec<u8>, value: u8) {
    if value >= 10 {
        out.push(b'0' + value / 10);
    }
    out.push(b'0' + value % 10);
}

/// Writes a stream of encoded solutions in one format to `out`: the pieces given to
/// [`FormatWriter::write_chunk`], in order, then [`FormatWriter::finish`].
#[derive(Debug)]
pub(crate) struct FormatWriter<W: Write> {
    out: W,
    format: Format,
    started: bool,
}

impl<W: Write> FormatWriter<W> {
    /// A writer of `format` to `out`.
    pub(crate) fn new(format: Format, out: W) -> Self {
        FormatWriter {
            out,
            format,
            started: false,
        }
    }

    /// Writes the bytes of whole solutions produced by an [`Encoder`] of the same format.
    pub(crate) fn write_chunk(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if self.format == Format::Leetcode && !self.started {
            self.out.write_all(b"[")?;
            self.out.write_all(&bytes[1..])?;
        } else {
            self.out.write_all(bytes)?;
        }
        self.started = true;
        Ok(())
    }

    /// Ends the stream (closing the `leetcode` array, `[]` if it was empty), flushes it
    /// and gives the inner writer back.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        if self.format == Format::Leetcode {
            let end: &[u8] = if self.started { b"]\n" } else { b"[]\n" };
            self.out.write_all(end)?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::board::Board;

    fn stream(format: Format, n: usize, solutions: &[&[u8]]) -> String {
        let encoder = Encoder::new(format, n);
        let mut writer = FormatWriter::new(format, Vec::new());
        for s in solutions {
            let mut bytes = Vec::new();
            encoder.encode(s, &mut bytes);
            writer.write_chunk(&bytes).unwrap();
        }
        String::from_utf8(writer.finish().unwrap()).unwrap()
    }

    #[test]
    fn four_queens_in_every_format() {
        let s: [&[u8]; 2] = [&[1, 3, 0, 2], &[2, 0, 3, 1]];
        assert_eq!(
            stream(Format::Board, 4, &s),
            ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
        );
        assert_eq!(
            stream(Format::Leetcode, 4, &s),
            "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
        );
        assert_eq!(stream(Format::Columns, 4, &s), "1 3 0 2\n2 0 3 1\n");
        assert_eq!(
            stream(Format::Jsonl, 4, &s),
            "{\"columns\":[1,3,0,2]}\n{\"columns\":[2,0,3,1]}\n"
        );
    }

    #[test]
    fn empty_streams() {
        assert_eq!(stream(Format::Leetcode, 3, &[]), "[]\n");
        for f in [Format::Board, Format::Columns, Format::Jsonl] {
            assert_eq!(stream(f, 3, &[]), "");
        }
        // The empty board of n = 0 is one solution.
        assert_eq!(stream(Format::Leetcode, 0, &[&[]]), "[[]]\n");
        assert_eq!(stream(Format::Board, 0, &[&[]]), "\n");
    }

    #[test]
    fn encoders_agree_with_the_board_renderings() {
        let cols = [3u8, 12, 0, 7, 10, 1, 14, 2, 9, 4, 13, 5, 8, 11, 6];
        let board = Board::from_bytes(&cols);
        let one = |f| {
            let mut v = Vec::new();
            Encoder::new(f, cols.len()).encode(&cols, &mut v);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(one(Format::Board), board.to_text());
        assert_eq!(one(Format::Columns), board.columns_line() + "\n");
        assert_eq!(one(Format::Jsonl), board.to_json() + "\n");
        let rows: Vec<String> = board.rows().iter().map(|r| format!("\"{r}\"")).collect();
        assert_eq!(one(Format::Leetcode), format!(",[{}]", rows.join(",")));
        let leetcode = stream(Format::Leetcode, cols.len(), &[&cols]);
        let parsed: Vec<Vec<String>> = serde_json::from_str(&leetcode).unwrap();
        assert_eq!(parsed, [board.rows()]);
    }

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("csv".parse::<Format>().is_err());
    }
}
