//! Argument types and parsers shared by several commands.

use clap::Args;
use nqueens::limits::{check_split_depth, max_split_depth, min_split_depth, Quantity};

use super::choices::named;
use super::Failure;
use nqueens::{EngineChoice, Kernel, Options, Symmetry};

/// Parses a board size N in `0..=32`.
pub fn board_size(s: &str) -> Result<usize, String> {
    parse_quantity(s, Quantity::BoardSize)
}

/// Parses a thread count in `1..=4096`.
pub fn thread_count(s: &str) -> Result<usize, String> {
    parse_quantity(s, Quantity::Threads)
}

/// Parses an integer with the library's check of `quantity`; a value that is no
/// integer, or out of range, gets the expectation (`N must be an integer from 0 to
/// 32`).
pub fn parse_quantity(s: &str, quantity: Quantity) -> Result<usize, String> {
    quantity
        .parse(s)
        .ok()
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| quantity.expectation())
}

/// Parses a split depth; its range (1 to N) is checked once N is known, so any integer
/// is taken here.
pub fn split_depth(s: &str) -> Result<i64, String> {
    s.trim()
        .parse::<i64>()
        .map_err(|_| "the split depth must be an integer from 1 to N".to_string())
}

/// Parses a symmetry mode name.
pub fn symmetry(s: &str) -> Result<Symmetry, String> {
    s.parse::<Symmetry>().map_err(|e| e.to_string())
}

/// Parses an engine name.
pub fn engine(s: &str) -> Result<EngineChoice, String> {
    s.parse::<EngineChoice>().map_err(|e| e.to_string())
}

/// Parses a kernel name.
pub fn kernel(s: &str) -> Result<Kernel, String> {
    s.parse::<Kernel>().map_err(|e| e.to_string())
}

/// Parses an integer in `lo..=hi`, naming the range when it is not one (for numbers
/// the library does not take, such as `--max` or `--limit`).
pub fn parse_in_range(s: &str, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    match s.trim().parse::<i128>().map(u64::try_from) {
        Ok(Ok(v)) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!("{what} must be an integer from {lo} to {hi}")),
    }
}

/// [`parse_in_range`] for a count or a size (a `usize`).
pub fn parse_usize_in_range(s: &str, lo: usize, hi: usize, what: &str) -> Result<usize, String> {
    let v = parse_in_range(s, lo as u64, hi as u64, what)?;
    Ok(usize::try_from(v).expect("at most `hi`, a usize"))
}

/// The smallest memory budget `--memory` takes: 1 MiB.
const MIN_MEMORY: u64 = 1 << 20;
/// The largest memory budget `--memory` takes: 1 PiB.
const MAX_MEMORY: u64 = 1 << 50;

/// Parses a memory size: a number of bytes, or a number (decimals allowed) with a
/// suffix K, M, G, T or P (powers of 1024; `KiB`, `MB`, `g`... are taken alike), from
/// 1M to 1P.
pub fn memory_size(s: &str) -> Result<u64, String> {
    let expectation = || {
        "the memory size must be a number of bytes or a number with K, M, G, T or P (powers of 1024), such as 512M, 4G or 1.5T, from 1M to 1P"
            .to_string()
    };
    let text = s.trim();
    let digits_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(digits_end);
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        "p" | "pb" | "pib" => 50,
        _ => return Err(expectation()),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return Err(expectation());
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| expectation())?
    };
    // The fraction, exactly: `digits / 10^len` of the unit, rounded down to a byte.
    let unit = 1u128 << shift;
    let mut bytes = u128::from(whole) * unit;
    if !fraction.is_empty() {
        let digits: u128 = fraction.parse().map_err(|_| expectation())?;
        let scale = 10u128
            .checked_pow(u32::try_from(fraction.len()).map_err(|_| expectation())?)
            .ok_or_else(expectation)?;
        bytes += digits * unit / scale;
    }
    match u64::try_from(bytes) {
        Ok(b) if (MIN_MEMORY..=MAX_MEMORY).contains(&b) => Ok(b),
        _ => Err(expectation()),
    }
}

/// How a count runs: threads, symmetry and task split.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Worker threads [default: every logical CPU].
    #[arg(short = 'j', long, value_name = "T", value_parser = thread_count, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Symmetry reduction: full (8-fold), mirror (first-row halving) or none (whole tree).
    #[arg(long, value_name = "MODE", default_value = "full",
          value_parser = named(symmetry, Symmetry::ALL.map(Symmetry::name)))]
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks, from 1 to N [default: enough for thousands of tasks].
    #[arg(long, value_name = "D", value_parser = split_depth, allow_negative_numbers = true)]
    pub split_depth: Option<i64>,
    /// The highest processor level the inner loops may use: auto (the highest this
    /// processor runs), avx512, avx2 or scalar. Each engine runs its best code at or
    /// below it: backtrack its AVX-512 (16 nodes at a time), AVX2 (8) or scalar (1)
    /// kernel, and scalar where its tasks leave fewer than 8 rows (small boards), which
    /// is faster there; join its AVX-512 code for avx512 (512-bit, where the processor
    /// also has AVX-512BW and VPOPCNTDQ; its AVX2 code otherwise), its AVX2 code for
    /// avx2, its portable code for scalar. It never chooses the engine. The JSON
    /// `kernel` says what ran. Every kernel gives the same counts; a count of N >= 20
    /// first checks its vector kernel against the scalar one on this processor.
    #[arg(long, value_name = "KERNEL", default_value = "auto",
          value_parser = named(kernel, Kernel::ALL.map(Kernel::name)))]
    pub kernel: Kernel,
    /// Counting engine: auto (join for whole boards under full symmetry of even N >= 12
    /// and odd N >= 17, backtrack otherwise), join (the half-board join: whole boards, full symmetry,
    /// the fastest), or backtrack (the bitmask search: every option, node counts).
    /// Every engine gives the same counts.
    #[arg(long, value_name = "ENGINE", default_value = "auto",
          value_parser = named(engine, EngineChoice::ALL.map(EngineChoice::name)))]
    pub engine: EngineChoice,
    /// The memory the count may use, such as 512M, 4G or 1.5T [default: the memory
    /// available: free memory, or the job's memory limit]. The join engine fits its
    /// work to it (its quadrant table, and the pieces its units' lists come in), at
    /// some cost in speed when it is small; a budget too small for the board and the
    /// threads is refused before anything runs, with the least that would do.
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    pub memory: Option<u64>,
}

impl RunArgs {
    /// The library options for a count of size `n`; the split depth must be in range
    /// (the library checks the kernel, once, when the count starts).
    pub fn options(&self, n: usize) -> Result<Options, nqueens::Error> {
        let split_depth = match self.split_depth {
            Some(depth) => {
                let depth = Quantity::SplitDepth { n }.check(i128::from(depth))?;
                let depth = usize::try_from(depth).expect("at most `n`, a usize");
                Some(check_split_depth(n, depth)?)
            }
            None => None,
        };
        Ok(Options {
            threads: self.threads,
            symmetry: self.symmetry,
            split_depth,
            unique: false,
            kernel: self.kernel,
            engine: self.engine,
            memory: self.memory,
        })
    }

    /// The library options for runs over many sizes up to `max_n`: a split depth is
    /// capped into each board's range by the library ([`Options::for_board`]), and
    /// must be at least 1 (as `count` requires). The kernel must run on this
    /// processor.
    pub fn options_clamped(&self, max_n: usize) -> Result<Options, Failure> {
        self.kernel.resolved()?;
        if let Some(depth) = self.split_depth {
            let lowest = min_split_depth(max_n);
            if depth < i64::try_from(lowest).unwrap_or(i64::MAX) {
                return Err(Failure::usage(format!(
                    "split depth {depth} is out of range: it must be from {lowest} to N \
                     (a depth above a board's N is capped at N)"
                )));
            }
        }
        let hi = max_split_depth(max_n);
        // Clamped into 0..=hi (a negative depth becomes 0).
        let clamp = |d: i64| usize::try_from(d).map_or(0, |d| d.min(hi));
        Ok(Options {
            threads: self.threads,
            symmetry: self.symmetry,
            split_depth: self.split_depth.map(clamp),
            unique: false,
            kernel: self.kernel,
            engine: self.engine,
            memory: self.memory,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes() {
        assert_eq!(memory_size("64M"), Ok(64 << 20));
        assert_eq!(memory_size("1.5G"), Ok(3 << 29));
        assert_eq!(memory_size("4 GiB"), Ok(4 << 30));
        assert_eq!(memory_size("1048576"), Ok(1 << 20));
        assert_eq!(memory_size("2t"), Ok(2 << 40));
        assert_eq!(memory_size(".5G"), Ok(1 << 29));
        for bad in ["", "G", "1.2.3G", "-4G", "4X", "1023K", "2P", "0", "1e9"] {
            let e = memory_size(bad).unwrap_err();
            assert!(e.contains("from 1M to 1P"), "{bad}: {e}");
        }
    }

    #[test]
    fn ranges() {
        assert_eq!(board_size("0"), Ok(0));
        assert_eq!(board_size("32"), Ok(32));
        assert!(board_size("33").unwrap_err().contains("from 0 to 32"));
        assert!(board_size("-1").is_err());
        assert!(board_size("abc").is_err());
        assert!(thread_count("0").is_err());
    }
}
