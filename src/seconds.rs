//! Seconds in JSON: rounded to the nanosecond (the resolution of the clock that measured
//! them), so that `2.5035536929999997` is written `2.503553693`.
//!
//! A lowest layer: it uses nothing of the crate.

/// `seconds` rounded to the nearest nanosecond. The result is the double nearest to a
/// decimal with at most 9 places, so it prints without float noise.
pub fn round_to_nanos(seconds: f64) -> f64 {
    if !seconds.is_finite() || seconds.abs() >= 1e9 {
        return seconds;
    }
    (seconds * 1e9).round() / 1e9
}

/// Serializes seconds rounded by [`round_to_nanos`] (for `#[serde(serialize_with)]`).
///
/// # Errors
/// Those of `serializer`.
pub fn serialize<S: serde::Serializer>(seconds: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(round_to_nanos(*seconds))
}

/// Serializes optional seconds rounded by [`round_to_nanos`] (for
/// `#[serde(serialize_with)]` on an `Option<f64>` that is skipped when `None`).
///
/// # Errors
/// Those of `serializer`.
#[allow(
    clippy::ref_option,
    reason = "serde's serialize_with passes a reference to the field"
)]
pub(crate) fn serialize_some<S: serde::Serializer>(
    seconds: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match seconds {
        Some(s) => serializer.serialize_f64(round_to_nanos(*s)),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(
        clippy::float_cmp,
        reason = "the rounding gives these exact doubles, which is what is tested"
    )]
    fn no_float_noise() {
        let noisy = 2.503_553_692_999_999_7_f64;
        assert_eq!(
            serde_json::to_string(&round_to_nanos(noisy)).unwrap(),
            "2.503553693"
        );
        assert_eq!(round_to_nanos(0.1 + 0.2).to_string(), "0.3");
        assert_eq!(round_to_nanos(1.0e-10), 0.0);
        assert_eq!(round_to_nanos(f64::INFINITY), f64::INFINITY);
        assert_eq!(round_to_nanos(3.0e12), 3.0e12);
    }
}
