//! The x86-64 feature tokens: [`Avx2`], [`Avx512`] and [`BitOps`], each made only by its
//! `detect()` after the standard library found the features at run time (detected once,
//! then cached). A token has a private field, so no other module can make one.

/// Proof that this processor has AVX2, BMI2 and POPCNT: a token only [`Avx2::detect`]
/// makes. (Public for the tests, through `internals`: the join's `Vectors` holds one.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _proof: (),
}

impl Avx2 {
    /// The token, if this processor has AVX2, BMI2 and POPCNT.
    pub fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt");
        supported.then_some(Avx2 { _proof: () })
    }
}

/// Proof that this processor has AVX-512F, BMI2 and POPCNT: a token only
/// [`Avx512::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512 {
    _proof: (),
}

impl Avx512 {
    /// The token, if this processor has AVX-512F, BMI2 and POPCNT.
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt");
        supported.then_some(Avx512 { _proof: () })
    }
}

/// Proof that this processor has AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and
/// POPCNT: the features of the join's AVX-512 code (512-bit ORs, three-input logic and a
/// native vector popcount). A token only [`Avx512Popcnt::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512Popcnt {
    _proof: (),
}

impl Avx512Popcnt {
    /// The token, if this processor has AVX-512F, AVX-512BW, AVX-512VPOPCNTDQ, BMI2 and
    /// POPCNT.
    pub fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vpopcntdq")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt");
        supported.then_some(Avx512Popcnt { _proof: () })
    }
}

/// Proof that this processor has POPCNT and BMI1: a token only [`BitOps::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BitOps {
    _proof: (),
}

impl BitOps {
    /// The token, if this processor has POPCNT and BMI1.
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("popcnt") && is_x86_feature_detected!("bmi1");
        supported.then_some(BitOps { _proof: () })
    }
}
