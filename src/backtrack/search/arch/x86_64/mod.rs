//! The x86-64 kernels: AVX2 (8 lanes), AVX-512 (16 lanes), and the scalar kernel
//! compiled with POPCNT and BMI1 ([`bitops`]), each behind a token that proves the
//! processor runs it.

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod bitops;
