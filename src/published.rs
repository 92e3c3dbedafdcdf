//! The published solution counts, and the check every count makes against them.
//!
//! Nothing the program prints as a count comes from this table: counts are always
//! computed, and the table only checks them ([`compare`]: a whole count and a merge
//! say in their `published` field whether they agree, and the command exits 1 when
//! they do not). The values are OEIS A000170 (all solutions), A002562 (fundamental
//! solutions, distinct under the 8 symmetries of the square), A033148 (solutions fixed
//! by the 90-degree rotation) and A032522 (solutions fixed by the 180-degree rotation),
//! for n = 0..=27; n = 28 is not known.
//!
//! A lowest layer: it uses nothing of the crate.

use serde::Serialize;

/// One row of the published table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Published {
    /// The board size.
    pub n: usize,
    /// All solutions (A000170).
    pub total: u128,
    /// Fundamental solutions (A002562).
    pub unique: u128,
    /// Solutions fixed by the 90-degree rotation (A033148).
    pub rot90: u128,
    /// Solutions fixed by the 180-degree rotation (A032522).
    pub rot180: u128,
}

/// The largest n with a published total.
pub const MAX_PUBLISHED: usize = 27;

/// The published values for n, if known.
pub fn published(n: usize) -> Option<Published> {
    TABLE.get(n).copied()
}

/// How a computed count compares with the published one: the JSON field `published`
/// of a count and of a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// The total (and the fundamental count, when there is one) equals the published
    /// value.
    Match,
    /// The total or the fundamental count differs from the published value: the count
    /// is wrong (or the table is), and the command exits 1.
    Mismatch,
    /// Nothing to compare with: no value is published for this n (n >= 28), or the
    /// count is not of a whole board (placed queens, a single shard).
    None,
}

/// A count of the whole board of size `n` (its `total`, and its fundamental count
/// `unique` when it made one) compared with the published values: [`Check::None`]
/// where nothing is published, else whether both agree, and for a mismatch the words
/// that name every differing value next to the published one.
pub fn compare(n: usize, total: u128, unique: Option<u128>) -> (Check, Option<String>) {
    let Some(p) = published(n) else {
        return (Check::None, None);
    };
    let mut wrong = Vec::new();
    if total != p.total {
        wrong.push(format!(
            "a total of {total} where the published total is {} (OEIS A000170)",
            p.total
        ));
    }
    if let Some(unique) = unique.filter(|&u| u != p.unique) {
        wrong.push(format!(
            "{unique} fundamental solutions where {} are published (OEIS A002562)",
            p.unique
        ));
    }
    if wrong.is_empty() {
        (Check::Match, None)
    } else {
        let words = format!(
            "n = {n} gave {}: this count is wrong (a fault of this build or this machine); \
             do not use it",
            wrong.join(" and ")
        );
        (Check::Mismatch, Some(words))
    }
}

macro_rules! row {
    ($n:expr, $total:expr, $unique:expr, $rot90:expr, $rot180:expr) => {
        Published {
            n: $n,
            total: $total,
            unique: $unique,
            rot90: $rot90,
            rot180: $rot180,
        }
    };
}

/// The table, indexed by n.
const TABLE: [Published; MAX_PUBLISHED + 1] = [
    row!(0, 1, 1, 1, 1),
    row!(1, 1, 1, 1, 1),
    row!(2, 0, 0, 0, 0),
    row!(3, 0, 0, 0, 0),
    row!(4, 2, 1, 2, 2),
    row!(5, 10, 2, 2, 2),
    row!(6, 4, 1, 0, 4),
    row!(7, 40, 6, 0, 8),
    row!(8, 92, 12, 0, 4),
    row!(9, 352, 46, 0, 16),
    row!(10, 724, 92, 0, 12),
    row!(11, 2_680, 341, 0, 48),
    row!(12, 14_200, 1_787, 8, 80),
    row!(13, 73_712, 9_233, 8, 136),
    row!(14, 365_596, 45_752, 0, 420),
    row!(15, 2_279_184, 285_053, 0, 1_240),
    row!(16, 14_772_512, 1_846_955, 64, 3_000),
    row!(17, 95_815_104, 11_977_939, 128, 8_152),
    row!(18, 666_090_624, 83_263_591, 0, 18_104),
    row!(19, 4_968_057_848, 621_012_754, 0, 44_184),
    row!(20, 39_029_188_884, 4_878_666_808, 480, 144_620),
    row!(21, 314_666_222_712, 39_333_324_973, 704, 375_664),
    row!(22, 2_691_008_701_644, 336_376_244_042, 0, 1_250_692),
    row!(23, 24_233_937_684_440, 3_029_242_658_210, 0, 3_581_240),
    row!(
        24,
        227_514_171_973_736,
        28_439_272_956_934,
        3_328,
        11_675_080
    ),
    row!(
        25,
        2_207_893_435_808_352,
        275_986_683_743_434,
        3_264,
        34_132_592
    ),
    row!(
        26,
        22_317_699_616_364_044,
        2_789_712_466_510_289,
        0,
        115_718_268
    ),
    row!(
        27,
        234_907_967_154_122_528,
        29_363_495_934_315_694,
        0,
        320_403_024
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for n in 0..=MAX_PUBLISHED {
            let p = published(n).unwrap();
            assert_eq!(p.n, n);
            if n >= 2 {
                assert_eq!(p.total + p.rot180 + 2 * p.rot90, 8 * p.unique, "n = {n}");
            }
        }
        assert_eq!(published(28), None);
    }

    #[test]
    fn counts_are_compared_never_taken() {
        assert_eq!(compare(8, 92, None), (Check::Match, None));
        assert_eq!(compare(8, 92, Some(12)), (Check::Match, None));
        assert_eq!(compare(28, 1, Some(1)), (Check::None, None));
        let (check, words) = compare(12, 14_201, None);
        assert_eq!(check, Check::Mismatch);
        let words = words.unwrap();
        assert!(
            words.contains("14201") && words.contains("14200"),
            "{words}"
        );
        let (check, words) = compare(12, 14_200, Some(1_788));
        assert_eq!(check, Check::Mismatch);
        let words = words.unwrap();
        assert!(words.contains("1788") && words.contains("1787"), "{words}");
        assert!(!words.contains("total"), "{words}");
        assert_eq!(
            serde_json::to_string(&[Check::Match, Check::Mismatch, Check::None]).unwrap(),
            r#"["match","mismatch","none"]"#
        );
    }
}
