//! Which kernel runs a search: the portable scalar loop ([`crate::backtrack::search::scalar`])
//! or a vector one (on x86-64: `arch::x86_64::avx512`, `arch::x86_64::avx2`). All visit
//! the same nodes and give the same counts; the choice is only about speed.
//!
//! [`Resolved`] is the kernel that runs, made by [`Resolved::at`] from the run's
//! [`Level`] (`crate::cpu`): the best kernel at or below it. A resolved vector kernel
//! holds its zero-sized token (`Avx2`, `Avx512`), the proof that the processor runs it,
//! so the tasks of a run never check again. Every resolved kernel also carries the
//! build of the scalar loop it runs (and the vector kernels fall back on): on x86-64
//! processors with POPCNT and BMI1, a copy compiled with them.

#[cfg(target_arch = "x86_64")]
use crate::backtrack::search::arch::x86_64::bitops;
#[cfg(target_arch = "x86_64")]
use crate::backtrack::search::lanes::machine;
use crate::backtrack::search::scalar::{self, Frontier, Tally};
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512, BitOps};
use crate::cpu::{Kernel, Level};
use crate::model::constraints::Constraints;

/// The fewest rows a task must leave below its start for a vector kernel to search it
/// faster than the scalar loop: on smaller subtrees most lanes sit idle and the scalar
/// loop wins (one thread, AVX-512 on Zen 4: 7 rows left, n = 12..15, scalar 1.3 to 1.7
/// times faster; 8 rows left, AVX-512 1.1 to 1.5 times faster; see the CHANGELOG).
pub(crate) const VECTOR_FROM_ROWS_LEFT: usize = 8;

/// The kernel that runs, with the proof that this processor runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// The scalar loop, on any processor.
    Scalar,
    /// The AVX2 kernel and its token.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The AVX-512 kernel and its token.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

/// How the scalar loop runs: as built, or compiled with POPCNT and BMI1 (which a
/// portable build does not otherwise use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarBuild {
    /// The loop as the crate is built.
    Portable,
    /// The loop compiled with POPCNT and BMI1, and the token that proves them.
    #[cfg(target_arch = "x86_64")]
    BitOps(BitOps),
}

impl ScalarBuild {
    /// The fastest build `level` allows.
    fn at(level: Level) -> ScalarBuild {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = level.bit_ops() {
            return ScalarBuild::BitOps(token);
        }
        let _ = level;
        ScalarBuild::Portable
    }

    /// [`scalar::count`] in this build.
    fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        match self {
            ScalarBuild::Portable => scalar::count(constraints, start),
            #[cfg(target_arch = "x86_64")]
            ScalarBuild::BitOps(token) => bitops::count(token, constraints, start),
        }
    }

    /// The scalar kernel's `weigh_by_class` in this build.
    fn weigh_by_class(self, constraints: &Constraints, start: Frontier, prefix: &[u8]) -> Tally {
        match self {
            ScalarBuild::Portable => scalar::weigh_by_class(constraints, start, prefix),
            #[cfg(target_arch = "x86_64")]
            ScalarBuild::BitOps(token) => bitops::weigh_by_class(token, constraints, start, prefix),
        }
    }
}

/// A kernel this processor runs: made by [`Resolved::at`] from a run's [`Level`] (a
/// vector kernel holds the token that proves the processor's features).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The kernel path.
    path: Path,
    /// The scalar loop it runs (the vector kernels for starts too near the last row).
    scalar: ScalarBuild,
}

impl Resolved {
    /// The best kernel at or below `level`.
    pub fn at(level: Level) -> Resolved {
        let path = match level {
            Level::Portable => Path::Scalar,
            #[cfg(target_arch = "x86_64")]
            Level::BitOps(_) => Path::Scalar,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2(token) => Path::Avx2(token),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512(token) => Path::Avx512(token),
        };
        Resolved {
            path,
            scalar: ScalarBuild::at(level),
        }
    }

    /// This kernel for tasks that leave `rows_left` rows below their start: the scalar
    /// loop (in this kernel's build) when a vector kernel would be slower there
    /// ([`VECTOR_FROM_ROWS_LEFT`]), this kernel otherwise.
    #[must_use]
    pub fn for_rows_left(self, rows_left: usize) -> Resolved {
        if rows_left < VECTOR_FROM_ROWS_LEFT {
            Resolved {
                path: Path::Scalar,
                ..self
            }
        } else {
            self
        }
    }

    /// The kernel of `choice` on this processor (tests and benchmarks).
    ///
    /// # Errors
    /// [`crate::Error::KernelUnsupported`] when this processor lacks a feature it
    /// needs.
    pub fn of(choice: Kernel) -> Result<Resolved, crate::Error> {
        choice.level().map(Resolved::at)
    }

    /// Which kernel this is (never `Auto`).
    pub fn kernel(self) -> Kernel {
        match self.path {
            Path::Scalar => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Path::Avx512(_) => Kernel::Avx512,
        }
    }

    /// Counts the completions of `start` under `constraints` (see
    /// [`scalar::count`]). A start too close to the last row for the vector kernels
    /// falls back to the scalar loop.
    pub fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        self.vector::<false>(constraints, start, &[])
            .unwrap_or_else(|| self.scalar.count(constraints, start))
    }

    /// Weighs the completions of `start` by full-symmetry class (see the scalar
    /// kernel's `weigh_by_class`), with the same fallback as [`Resolved::count`] (and
    /// for n = 32).
    pub fn weigh_by_class(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Tally {
        self.vector::<true>(constraints, start, prefix)
            .unwrap_or_else(|| self.scalar.weigh_by_class(constraints, start, prefix))
    }

    /// The search on this vector kernel, if it is one and the search suits it.
    #[inline]
    fn vector<const WEIGH_BY_CLASS: bool>(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Option<Tally> {
        match self.path {
            Path::Scalar => {
                // The arguments go unused where no vector kernel is compiled.
                let _ = (constraints, start, prefix);
                None
            }
            #[cfg(target_arch = "x86_64")]
            Path::Avx2(k) => machine::search::<_, WEIGH_BY_CLASS>(k, constraints, start, prefix),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512(k) => machine::search::<_, WEIGH_BY_CLASS>(k, constraints, start, prefix),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_runs_its_own_kernel() {
        for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            if let Ok(level) = k.level() {
                assert_eq!(Resolved::at(level).kernel(), k);
            }
        }
        assert_eq!(Resolved::at(Level::Portable).kernel(), Kernel::Scalar);
    }
}
