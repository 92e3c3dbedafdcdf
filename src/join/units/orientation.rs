//! Which side of a piece is stored. A unit's pair count prepares one side (blocks,
//! splits, bit slices: work in its length) and walks the other over it (work in the
//! product of the lengths, less what the splits' common bits spare). Its east
//! half-boards are stored as a rule; the west ones (the items, with their weight
//! classes) are stored instead where they are much the longer and the east side is
//! long enough to pay for preparing them (`join::pairs::prepare_classed`): a longer
//! stored side is cut finer, so more of its blocks share bits that the items lack
//! (at n = 26 a shard evaluated 0.575 of the pairs and took 0.62 of the time).
//! Short lists (n <= 20) do not pay for the finer splits of the longer side.

/// How a plan chooses the stored side of each piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orientation {
    /// By the lengths, as the module docs say (the default).
    #[default]
    ByLength,
    /// Always the east side (the count without class mode).
    EastStored,
    /// The west side wherever it is the longer (for the tests: it reaches the class
    /// mode at board sizes whose lists the rule leaves east).
    LongerStored,
}

/// The rule stores the west side only when the east side has at least this many
/// half-boards (48 blocks).
pub(crate) const MIN_EAST: usize = 24_576;
/// ... and the west side at least `MIN_RATIO.0 / MIN_RATIO.1` (1.5) times as many.
pub(crate) const MIN_RATIO: (usize, usize) = (3, 2);

impl Orientation {
    /// Whether a piece of `west` item half-boards (those a group meets) and `east`
    /// stored half-boards stores its west side.
    pub(crate) fn stores_west(self, west: usize, east: usize) -> bool {
        match self {
            Orientation::ByLength => {
                east >= MIN_EAST
                    && west.saturating_mul(MIN_RATIO.1) >= east.saturating_mul(MIN_RATIO.0)
            }
            Orientation::EastStored => false,
            Orientation::LongerStored => west > east,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_stores_the_west_side_only_when_both_bounds_hold() {
        let rule = Orientation::ByLength;
        let least_west = MIN_EAST * MIN_RATIO.0 / MIN_RATIO.1;
        assert_eq!(least_west, 36_864);
        assert!(rule.stores_west(least_west, MIN_EAST));
        assert!(!rule.stores_west(least_west - 1, MIN_EAST));
        assert!(rule.stores_west(3_000_000, 2_000_000));
        assert!(!rule.stores_west(2_999_999, 2_000_000));
        assert!(!rule.stores_west(usize::MAX, MIN_EAST - 1));
        assert!(!Orientation::EastStored.stores_west(usize::MAX, MIN_EAST));
        assert!(Orientation::LongerStored.stores_west(2, 1));
        assert!(!Orientation::LongerStored.stores_west(1, 1));
    }
}
