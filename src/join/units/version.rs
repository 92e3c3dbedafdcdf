//! The version of the join engine's list of units, and the golden test that ties it
//! to the list.
//!
//! Checkpoints and shard reports name units by their index, so a run may only resume
//! or merge the records of the same list: every checkpoint header and shard report
//! records [`UNITS_VERSION`], and resume and merge refuse another one.
//!
//! **Change the list or the weights → the digest test below fails → bump the version
//! and the digest together.** The test hashes, for n = 14 and 15 (both parities), the
//! units in their order with their descriptions (start, row sets) and the weighted
//! count of each; a change to the order, to what a unit is, or to how it weighs its
//! solutions changes the digest.

/// The version of the join engine's list of units (see the module docs).
pub(crate) const UNITS_VERSION: u32 = 2;

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use sha2::{Digest, Sha256};

    use super::super::list::UnitKind;
    use super::super::JoinPlan;
    use super::UNITS_VERSION;
    use crate::cpu::Level;
    use crate::join::weights::Start;

    /// The SHA-256 of the list of board size `n`: its length, then each unit in order
    /// (its kind, its start and row sets) with its weighted count, as little-endian
    /// integers.
    fn digest(n: usize) -> String {
        let plan = JoinPlan::new(n, Level::Portable);
        let mut hash = Sha256::new();
        hash.update((n as u64).to_le_bytes());
        hash.update((plan.len() as u64).to_le_bytes());
        for index in 0..plan.len() {
            match plan.units.unit(index) {
                UnitKind::Rows { start, east_rows } => {
                    let (tag, col, row) = match start {
                        Start::Empty => (0u8, 0, 0),
                        Start::Center => (1, 0, 0),
                        Start::Arms { col, row } => (2, col, row),
                    };
                    hash.update([0, tag]);
                    hash.update(col.to_le_bytes());
                    hash.update(row.to_le_bytes());
                    hash.update(east_rows.to_le_bytes());
                }
                UnitKind::ArmsWest { west_rows } => {
                    hash.update([2]);
                    hash.update(west_rows.to_le_bytes());
                }
                UnitKind::ArmsRow { row, west_rows } => {
                    hash.update([1]);
                    hash.update(row.to_le_bytes());
                    hash.update(west_rows.to_le_bytes());
                }
            }
            hash.update(plan.run_unit(index).weighted.to_le_bytes());
        }
        hash.finalize().iter().fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
    }

    /// The digests of version [`UNITS_VERSION`] of the list. A failure here means the
    /// list or its weights changed: bump [`UNITS_VERSION`] and paste the new digests
    /// (the failure prints them), in the same commit.
    #[test]
    fn the_version_pins_the_list_and_its_weights() {
        let pinned = [
            (
                14,
                "7cf81e203beda7c8acf87f706e3760d38787c2d8695a2d80832239a3246949fa",
            ),
            (
                15,
                "ff9102196481530c1873d41f33bad7b4cad20ff20f1f4e0e41d96364c7cf6797",
            ),
        ];
        for (n, want) in pinned {
            let got = digest(n);
            assert_eq!(
                got, want,
                "n = {n}: the join's unit list or its weights changed: bump UNITS_VERSION \
                 (now {UNITS_VERSION}) and set this digest to {got}"
            );
        }
    }
}
