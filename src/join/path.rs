//! The join's code path: the best one its hot loops (half-board generation and pair
//! counting) have at or below the run's processor level, chosen once per plan.
//!
//! - portable, below the AVX2 level;
//! - AVX2 (with BMI2 and POPCNT), at the AVX2 level, and at the AVX-512 level on
//!   processors without AVX-512BW or AVX-512VPOPCNTDQ;
//! - AVX-512 (F, BW, VPOPCNTDQ), at the AVX-512 level.
//!
//! This module uses the processor level and tokens ([`crate::cpu`]).

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512Popcnt};
use crate::cpu::{Kernel, Level};

/// The code path of the join's hot loops, with the token that proves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// Portable code on `u64` words.
    Portable,
    /// AVX2, BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// AVX-512F, BW and VPOPCNTDQ (and AVX2, BMI2, POPCNT).
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512Popcnt),
}

impl Path {
    /// The best path at or below `level`.
    pub(crate) fn at(level: Level) -> Path {
        match level {
            #[cfg(target_arch = "x86_64")]
            Level::Avx512(token) => token
                .popcnt()
                .map_or(Path::Avx2(token.avx2()), Path::Avx512),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2(token) => Path::Avx2(token),
            _ => Path::Portable,
        }
    }

    /// The kernel name of the path, as runs report it.
    pub(crate) fn kernel(self) -> Kernel {
        match self {
            Path::Portable => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Path::Avx512(_) => Kernel::Avx512,
        }
    }

    /// The paths this processor runs (the portable one always), for tests that run
    /// each of them.
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Path> {
        let mut paths = vec![Path::Portable];
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            if let Ok(level) = kernel.level() {
                let path = Path::at(level);
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
        }
        paths
    }
}
