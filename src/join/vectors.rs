//! The choice of vector code for the join's two hot loops (half-board generation and
//! pair counting): portable, or AVX2 with the token that proves the processor runs it.

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512Popcnt};

/// The vector code the join runs. Both give the same counts; only the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vectors {
    /// Portable code on `u64` words, any processor.
    Portable,
    /// AVX2, BMI2 and POPCNT, proven by the token (x86-64 only).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// AVX-512 (F, BW, VPOPCNTDQ) for the pair counter, AVX2 for the generation, both
    /// proven by their tokens (x86-64 only).
    #[cfg(target_arch = "x86_64")]
    Avx512 {
        /// The proof of AVX2, BMI2 and POPCNT.
        avx2: Avx2,
        /// The proof of AVX-512F, BW, VPOPCNTDQ, BMI2 and POPCNT.
        avx512: Avx512Popcnt,
    },
}

impl Vectors {
    /// The fastest vector code this processor runs.
    pub fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(vectors) = Vectors::avx512() {
            return vectors;
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = Avx2::detect() {
            return Vectors::Avx2(token);
        }
        Vectors::Portable
    }

    /// The AVX-512 code if this processor runs it (x86-64 with AVX2, AVX-512F, BW and
    /// VPOPCNTDQ, BMI2 and POPCNT).
    pub fn avx512() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            Some(Vectors::Avx512 {
                avx2: Avx2::detect()?,
                avx512: Avx512Popcnt::detect()?,
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The name reported for it, as the crate names kernels: `scalar` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Vectors::Portable => "scalar",
            #[cfg(target_arch = "x86_64")]
            Vectors::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Vectors::Avx512 { .. } => "avx512",
        }
    }

    /// The AVX2 code if this processor runs it (x86-64 with AVX2, BMI2 and POPCNT).
    pub fn avx2() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            Avx2::detect().map(Vectors::Avx2)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }
}
