//! The x86-64 feature tokens: [`BitOps`], [`Avx2`] and [`Avx512`], each made only by its
//! `detect()` after the standard library found the features at run time (detected once,
//! then cached). A token has a private field, so no other module can make one.
//!
//! The tokens are ordered: an [`Avx2`] token also proves what a [`BitOps`] one does,
//! and an [`Avx512`] token what an [`Avx2`] one does (their detections check those
//! features too), so that a run at a level may use any path below it.

/// Proof that this processor has POPCNT and BMI1: a token only [`BitOps::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitOps {
    _proof: (),
}

impl BitOps {
    /// The token, if this processor has POPCNT and BMI1.
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("popcnt") && is_x86_feature_detected!("bmi1");
        supported.then_some(BitOps { _proof: () })
    }
}

/// Proof that this processor has AVX2, BMI1, BMI2 and POPCNT: a token only
/// [`Avx2::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _proof: (),
}

impl Avx2 {
    /// The token, if this processor has AVX2, BMI1, BMI2 and POPCNT.
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt");
        supported.then_some(Avx2 { _proof: () })
    }

    /// The [`BitOps`] token, which this one implies (its detection checked POPCNT and
    /// BMI1).
    #[allow(
        clippy::unused_self,
        reason = "the token is taken as the proof: only its holder may make the lower one"
    )]
    pub(crate) fn bit_ops(self) -> BitOps {
        BitOps { _proof: () }
    }
}

/// Proof that this processor has AVX-512F, AVX2, BMI1, BMI2 and POPCNT: a token only
/// [`Avx512::detect`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512 {
    _proof: (),
}

impl Avx512 {
    /// The token, if this processor has AVX-512F and everything [`Avx2`] needs.
    pub(crate) fn detect() -> Option<Self> {
        let supported = is_x86_feature_detected!("avx512f") && Avx2::detect().is_some();
        supported.then_some(Avx512 { _proof: () })
    }

    /// The [`Avx2`] token, which this one implies (its detection made one).
    #[allow(
        clippy::unused_self,
        reason = "the token is taken as the proof: only its holder may make the lower one"
    )]
    pub(crate) fn avx2(self) -> Avx2 {
        Avx2 { _proof: () }
    }

    /// The [`Avx512Popcnt`] token, if this processor also has AVX-512BW and
    /// AVX-512VPOPCNTDQ.
    #[allow(
        clippy::unused_self,
        reason = "the token is taken as the proof of the features it does not check again"
    )]
    pub(crate) fn popcnt(self) -> Option<Avx512Popcnt> {
        let supported =
            is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vpopcntdq");
        supported.then_some(Avx512Popcnt { _proof: () })
    }
}

/// Proof that this processor has what an [`Avx512`] token proves and also AVX-512BW and
/// AVX-512VPOPCNTDQ: the features of the join's AVX-512 code (512-bit ORs, three-input
/// logic and a native vector popcount). Only [`Avx512::popcnt`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512Popcnt {
    _proof: (),
}
