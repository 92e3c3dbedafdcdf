//! How to run a count: the options a caller gives.

use crate::cpu::Kernel;
use crate::engine::EngineChoice;
use crate::limits::{max_split_depth, min_split_depth};
use crate::symmetry::Symmetry;

/// How to run a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Worker threads; `None` uses every logical CPU.
    pub threads: Option<usize>,
    /// The symmetry reduction.
    pub symmetry: Symmetry,
    /// Rows fixed to form tasks; `None` picks a depth that gives thousands of tasks.
    pub split_depth: Option<usize>,
    /// Also count the fundamental solutions (and the rotation-fixed ones).
    pub unique: bool,
    /// The highest processor level the hot loops may use (the highest this processor
    /// runs by default); each engine runs its best path at or below it.
    pub kernel: Kernel,
    /// The counting engine (the fastest one that serves the options by default).
    pub engine: EngineChoice,
    /// The bytes the count may use; `None` uses the memory available (free memory, or
    /// the job's memory limit). The join engine fits its work to it (its tables, and
    /// the length of the pieces its units' lists come in); a budget no engine setting
    /// fits is refused before anything is allocated.
    pub memory: Option<u64>,
}

impl Options {
    /// These options for a board of size `n`, for runs over many sizes: the split
    /// depth (if any) capped into the range that board accepts, and an engine left to
    /// `auto` on boards too small for it.
    #[must_use]
    pub fn for_board(&self, n: usize) -> Options {
        let engine = if crate::engine::serves_board(self.engine, n) {
            self.engine
        } else {
            EngineChoice::Auto
        };
        Options {
            split_depth: self
                .split_depth
                .map(|d| d.clamp(min_split_depth(n), max_split_depth(n))),
            engine,
            ..*self
        }
    }
}
