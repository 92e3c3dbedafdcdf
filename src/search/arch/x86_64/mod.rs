//! The x86-64 vector kernels: AVX2 (8 lanes) and AVX-512 (16 lanes).

pub(crate) mod avx2;
pub(crate) mod avx512;
