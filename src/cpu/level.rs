//! The level of a run: the instructions its hot loops may use, proven by a token.

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512, BitOps};

/// What a run's hot loops may use, lowest first; each level's token proves the
/// levels below it. Made only by [`crate::Kernel::level`], once per run. Each engine
/// runs its best path at or below the level (see its `kernel` for the name of what
/// ran).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Portable code, any processor.
    Portable,
    /// Scalar code compiled with POPCNT and BMI1 (x86-64).
    #[cfg(target_arch = "x86_64")]
    BitOps(BitOps),
    /// AVX2 (and what [`Level::BitOps`] has), x86-64.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// AVX-512F (and what [`Level::Avx2`] has), x86-64.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl Level {
    /// The bit-operations token, if this level has it.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn bit_ops(self) -> Option<BitOps> {
        match self {
            Level::Portable => None,
            Level::BitOps(token) => Some(token),
            Level::Avx2(token) => Some(token.bit_ops()),
            Level::Avx512(token) => Some(token.avx2().bit_ops()),
        }
    }
}
