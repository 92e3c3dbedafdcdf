//! The accepted range of every number a caller gives: board size, threads, split depth,
//! shard count, probes and an estimate's sampling time. They are checked here and nowhere else; the command line
//! parses its arguments with the same checks ([`Quantity::check`]), so a range is
//! written once.
//!
//! A lowest layer: it uses nothing of the crate.

use std::fmt;

/// The largest board size: columns are the bits of a `u32`.
pub const MAX_N: usize = 32;

/// The largest thread count accepted.
pub const MAX_THREADS: usize = 4096;

/// The largest shard count accepted.
pub const MAX_SHARDS: usize = 1 << 32;

/// The probes of an estimate when none are given.
pub const DEFAULT_PROBES: u64 = 1_000_000;

/// The most probes an estimate accepts.
pub const MAX_PROBES: u64 = 1_000_000_000_000;

/// The seconds an estimate of the join engine keeps timing units, after timing two of
/// each cost class, when none are given.
pub const DEFAULT_SAMPLE_SECONDS: u64 = 5;

/// The most seconds an estimate of the join engine accepts to keep timing units: a
/// week.
pub const MAX_SAMPLE_SECONDS: u64 = 7 * 24 * 3600;

/// A number with an accepted range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// The board size N: `0..=MAX_N`.
    BoardSize,
    /// Worker threads: `1..=MAX_THREADS`.
    Threads,
    /// Rows fixed to form tasks on a board of size `n`: `1..=n` (0 for the empty board).
    SplitDepth {
        /// The board size.
        n: usize,
    },
    /// The number of shards: `1..=MAX_SHARDS`.
    Shards,
    /// Probes of an estimate: `1..=MAX_PROBES`.
    Probes,
    /// Seconds an estimate keeps timing units: `0..=MAX_SAMPLE_SECONDS`.
    SampleSeconds,
}

impl Quantity {
    /// The smallest and largest accepted values.
    pub fn range(self) -> (u64, u64) {
        match self {
            Quantity::BoardSize => (0, MAX_N as u64),
            Quantity::Threads => (1, MAX_THREADS as u64),
            Quantity::SplitDepth { n } => (min_split_depth(n) as u64, max_split_depth(n) as u64),
            Quantity::Shards => (1, MAX_SHARDS as u64),
            Quantity::Probes => (1, MAX_PROBES),
            Quantity::SampleSeconds => (0, MAX_SAMPLE_SECONDS),
        }
    }

    /// `value` if it is in range.
    ///
    /// # Errors
    /// [`OutOfRange`] when `value` is outside [`Quantity::range`].
    pub fn check(self, value: i128) -> Result<u64, OutOfRange> {
        let (min, max) = self.range();
        match u64::try_from(value) {
            Ok(value) if (min..=max).contains(&value) => Ok(value),
            _ => Err(OutOfRange {
                quantity: self,
                value,
                min,
                max,
            }),
        }
    }

    /// Parses `text` as an integer in range; a non-integer is described by
    /// [`Quantity::expectation`].
    ///
    /// # Errors
    /// The message for the command line: the [`OutOfRange`] wording for an integer out
    /// of range, [`Quantity::expectation`] for anything else.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        match text.trim().parse::<i128>() {
            Ok(value) => self.check(value).map_err(|e| e.to_string()),
            Err(_) => Err(self.expectation()),
        }
    }

    /// What a valid value is, e.g. `N must be an integer from 0 to 32`.
    pub fn expectation(self) -> String {
        let (min, max) = self.range();
        match self {
            Quantity::SplitDepth { n } => {
                format!("the split depth must be an integer from {min} to {max} for N = {n}")
            }
            _ => format!("{} must be an integer from {min} to {max}", self.subject()),
        }
    }

    /// The name of the quantity as the subject of a sentence.
    fn subject(self) -> &'static str {
        match self {
            Quantity::BoardSize => "N",
            Quantity::Threads => "the thread count",
            Quantity::SplitDepth { .. } => "the split depth",
            Quantity::Shards => "K",
            Quantity::Probes => "the probe count",
            Quantity::SampleSeconds => "the sampling time in seconds",
        }
    }
}

impl fmt::Display for Quantity {
    /// The quantity's name: `board size`, `thread count`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quantity::BoardSize => "board size",
            Quantity::Threads => "thread count",
            Quantity::SplitDepth { .. } => "split depth",
            Quantity::Shards => "shard count",
            Quantity::Probes => "probe count",
            Quantity::SampleSeconds => "sampling time",
        })
    }
}

/// A number outside its accepted range `min..=max` (carried as data, so that callers
/// can word it their way; its `Display` is the library's wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// What the number is.
    pub quantity: Quantity,
    /// The rejected value.
    pub value: i128,
    /// The smallest accepted value.
    pub min: u64,
    /// The largest accepted value.
    pub max: u64,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OutOfRange {
            quantity,
            value,
            min,
            max,
        } = *self;
        match quantity {
            Quantity::BoardSize => {
                write!(
                    f,
                    "board size {value} is out of range: N must be from {min} to {max}"
                )
            }
            Quantity::SplitDepth { n } => write!(
                f,
                "split depth {value} is out of range: for N = {n} it must be from {min} to {max}"
            ),
            _ => write!(
                f,
                "{quantity} {value} is out of range: it must be from {min} to {max}"
            ),
        }
    }
}

impl std::error::Error for OutOfRange {}

/// `n`, checked: the accepted board sizes are `0..=MAX_N`.
///
/// # Errors
/// [`OutOfRange`] for a board size over [`MAX_N`].
pub fn check_board_size(n: usize) -> Result<usize, OutOfRange> {
    Quantity::BoardSize.check(n as i128).map(|_| n)
}

/// The thread count to use: the requested one, checked, or every logical CPU.
///
/// # Errors
/// [`OutOfRange`] for a requested count of 0 or over [`MAX_THREADS`].
pub fn resolve_threads(threads: Option<usize>) -> Result<usize, OutOfRange> {
    match threads {
        Some(t) => Quantity::Threads.check(t as i128).map(|_| t),
        None => Ok(num_cpus::get().max(1)),
    }
}

/// A split depth checked against the range of a board of size `n`.
///
/// # Errors
/// [`OutOfRange`] for a depth outside `min_split_depth(n)..=max_split_depth(n)`.
pub fn check_split_depth(n: usize, depth: usize) -> Result<usize, OutOfRange> {
    Quantity::SplitDepth { n }
        .check(depth as i128)
        .map(|_| depth)
}

/// The smallest split depth accepted for a board of size `n` (1, or 0 for the empty
/// board).
pub fn min_split_depth(n: usize) -> usize {
    n.min(1)
}

/// The largest split depth accepted for a board of size `n`: every row.
pub fn max_split_depth(n: usize) -> usize {
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_words() {
        assert_eq!(Quantity::BoardSize.parse("32"), Ok(32));
        assert_eq!(
            Quantity::BoardSize.parse("33").unwrap_err(),
            "board size 33 is out of range: N must be from 0 to 32"
        );
        assert_eq!(
            Quantity::BoardSize.parse("x").unwrap_err(),
            "N must be an integer from 0 to 32"
        );
        assert_eq!(
            Quantity::SplitDepth { n: 8 }.parse("9").unwrap_err(),
            "split depth 9 is out of range: for N = 8 it must be from 1 to 8"
        );
        assert_eq!(
            Quantity::Threads.parse("0").unwrap_err(),
            "thread count 0 is out of range: it must be from 1 to 4096"
        );
        assert_eq!(
            Quantity::SampleSeconds.parse("604801").unwrap_err(),
            "sampling time 604801 is out of range: it must be from 0 to 604800"
        );
        assert_eq!(
            Quantity::SampleSeconds.parse("5m").unwrap_err(),
            "the sampling time in seconds must be an integer from 0 to 604800"
        );
        assert_eq!(Quantity::SampleSeconds.parse("0"), Ok(0));
        assert!(resolve_threads(Some(0)).is_err());
        assert_eq!(resolve_threads(Some(3)).unwrap(), 3);
        assert!(resolve_threads(None).unwrap() >= 1);
        assert_eq!(check_split_depth(0, 0).unwrap(), 0);
        assert!(check_split_depth(4, 0).is_err());
    }
}
