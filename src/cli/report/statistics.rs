//! Statistics of repeated measurements: the summary of one row's samples, and the
//! bootstrap interval of the ratio of two rows' medians.
//!
//! The interval is a percentile bootstrap: both sample sets are resampled with
//! replacement [`RESAMPLES`] times, and the ratio of the resampled medians is taken each
//! time; the interval holds the middle 95% of those ratios. The generator has a fixed
//! seed, so the same two reports always give the same interval (and verdict).

/// How many times the bootstrap resamples.
pub const RESAMPLES: usize = 10_000;

/// The share of bootstrap ratios the interval holds.
pub const CONFIDENCE: f64 = 0.95;

/// The summary of a set of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The smallest sample.
    pub min: f64,
    /// The largest sample.
    pub max: f64,
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The arithmetic mean.
    pub mean: f64,
    /// The sample standard deviation (n - 1 in the denominator; 0 for one sample).
    pub stddev: f64,
    /// The median absolute deviation from the median (unscaled).
    pub mad: f64,
}

impl Summary {
    /// The summary of `samples`, which must not be empty.
    pub fn of(samples: &[f64]) -> Summary {
        assert!(!samples.is_empty(), "a summary needs samples");
        let sorted = sorted(samples);
        let median = median_of_sorted(&sorted);
        #[allow(clippy::cast_precision_loss, reason = "a sample count, far below 2^53")]
        let count = samples.len() as f64;
        let mean = samples.iter().sum::<f64>() / count;
        let stddev = if samples.len() > 1 {
            let squares: f64 = samples.iter().map(|x| (x - mean).powi(2)).sum();
            (squares / (count - 1.0)).sqrt()
        } else {
            0.0
        };
        let deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
        Summary {
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            median,
            mean,
            stddev,
            mad: median_of_sorted(&self::sorted(&deviations)),
        }
    }

    /// The range (max - min) relative to the median, in percent (0 when the median is
    /// 0).
    pub fn spread_percent(&self) -> f64 {
        if self.median > 0.0 {
            (self.max - self.min) / self.median * 100.0
        } else {
            0.0
        }
    }
}

/// The ratio of two medians with its bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioInterval {
    /// median(new) / median(old).
    pub ratio: f64,
    /// The low end of the interval.
    pub low: f64,
    /// The high end of the interval.
    pub high: f64,
}

/// The ratio median(`new`) / median(`old`) and its [`CONFIDENCE`] bootstrap interval.
/// Both sets must be non-empty with positive medians. With one sample on each side the
/// interval is the ratio itself.
pub fn ratio_interval(old: &[f64], new: &[f64]) -> RatioInterval {
    let ratio = median_of_sorted(&sorted(new)) / median_of_sorted(&sorted(old));
    if old.len() == 1 && new.len() == 1 {
        return RatioInterval {
            ratio,
            low: ratio,
            high: ratio,
        };
    }
    let mut rng = SplitMix64(0x6e71_7565_656e_7321);
    let mut old_buf = vec![0.0; old.len()];
    let mut new_buf = vec![0.0; new.len()];
    let mut ratios = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let old_median = resampled_median(old, &mut old_buf, &mut rng);
        let new_median = resampled_median(new, &mut new_buf, &mut rng);
        ratios.push(new_median / old_median);
    }
    ratios.sort_by(f64::total_cmp);
    let tail = (1.0 - CONFIDENCE) / 2.0;
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "q is in [0, 1], so the rounded product is an index from 0 to RESAMPLES - 1"
    )]
    let at = |q: f64| ratios[((RESAMPLES - 1) as f64 * q).round() as usize];
    RatioInterval {
        ratio,
        low: at(tail).min(ratio),
        high: at(1.0 - tail).max(ratio),
    }
}

/// The median of a resample (with replacement) of `samples`, drawn into `buf`.
fn resampled_median(samples: &[f64], buf: &mut [f64], rng: &mut SplitMix64) -> f64 {
    for slot in buf.iter_mut() {
        *slot = samples[rng.below(samples.len())];
    }
    buf.sort_by(f64::total_cmp);
    median_of_sorted(buf)
}

fn sorted(samples: &[f64]) -> Vec<f64> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        f64::midpoint(sorted[mid - 1], sorted[mid])
    }
}

/// A small, fast generator (SplitMix64) for the bootstrap: statistical quality is
/// ample for picking sample indices, and a fixed seed makes verdicts reproducible.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (the tiny bias of the multiply-shift is irrelevant here).
    fn below(&mut self, bound: usize) -> usize {
        let below = (u128::from(self.next()) * bound as u128) >> 64;
        usize::try_from(below).expect("below `bound`, a usize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(
        clippy::float_cmp,
        reason = "small halves and ratios of small integers: exact in an f64"
    )]
    fn summary() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 10.0]);
        assert_eq!((s.min, s.max, s.median, s.mean), (1.0, 10.0, 2.5, 4.0));
        assert!((s.stddev - 4.082_482_904_638_63).abs() < 1e-12);
        // Deviations from 2.5: 0.5, 1.5, 0.5, 7.5 -> median 1.0.
        assert_eq!(s.mad, 1.0);
        assert_eq!(s.spread_percent(), 360.0);
        let one = Summary::of(&[5.0]);
        assert_eq!((one.median, one.stddev, one.mad), (5.0, 0.0, 0.0));
    }

    #[test]
    #[allow(
        clippy::float_cmp,
        reason = "small halves and ratios of small integers: exact in an f64"
    )]
    fn interval_of_a_run_with_itself_holds_one() {
        let samples = [1.00, 1.02, 0.99, 1.10, 1.01, 0.98, 1.03];
        let r = ratio_interval(&samples, &samples);
        assert_eq!(r.ratio, 1.0);
        assert!(r.low < 1.0 && r.high > 1.0, "{r:?}");
        assert!(r.low > 0.9 && r.high < 1.1, "{r:?}");
        // Reproducible.
        assert_eq!(r, ratio_interval(&samples, &samples));
    }

    #[test]
    #[allow(
        clippy::float_cmp,
        reason = "small halves and ratios of small integers: exact in an f64"
    )]
    fn interval_follows_a_scaled_run() {
        let old = [1.00, 1.02, 0.99, 1.01, 0.98];
        let new: Vec<f64> = old.iter().map(|x| x * 2.0).collect();
        let r = ratio_interval(&old, &new);
        assert_eq!(r.ratio, 2.0);
        assert!(r.low > 1.9 && r.high < 2.1, "{r:?}");
        let single = ratio_interval(&[2.0], &[3.0]);
        assert_eq!((single.low, single.ratio, single.high), (1.5, 1.5, 1.5));
    }

    #[test]
    fn indices_cover_the_range() {
        let mut rng = SplitMix64(1);
        let mut seen = [0usize; 5];
        for _ in 0..10_000 {
            seen[rng.below(5)] += 1;
        }
        assert!(
            seen.iter().all(|&c| (1_800..2_200).contains(&c)),
            "{seen:?}"
        );
    }
}
