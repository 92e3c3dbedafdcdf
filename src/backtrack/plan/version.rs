//! The version of the backtracking engine's task list, and the golden test that ties
//! it to the list.
//!
//! Checkpoints and shard reports name tasks by their index, so a run may only resume
//! or merge the records of the same list: every checkpoint header and shard report
//! records [`UNITS_VERSION`], and resume and merge refuse another one.
//!
//! **Change the list or the weights → the digest test below fails → bump the version
//! and the digest together.** The test hashes the tasks of a few counts (both
//! parities, two symmetry modes) in their order with their descriptions (constraints,
//! partial board, weight and how solutions are weighed) and the weighted count of
//! each; a change to the seeds, the split, the order or the weights changes the digest.

/// The version of the backtracking engine's task list (see the module docs).
pub(crate) const UNITS_VERSION: u32 = 1;

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use sha2::{Digest, Sha256};

    use super::UNITS_VERSION;
    use crate::backtrack::plan::TaskList;
    use crate::backtrack::search::resolved::Resolved;
    use crate::backtrack::task::run_task;
    use crate::cpu::Level;
    use crate::symmetry::Symmetry;

    /// The SHA-256 of the task list of a count of `n` under `symmetry` at the default
    /// split: its length and depth, then each task in order (its constraints, partial
    /// board, weight, class weighing and the columns above it) with its weighted count,
    /// as little-endian integers.
    fn digest(n: usize, symmetry: Symmetry) -> String {
        let list = TaskList::build(n, symmetry, None).unwrap();
        let kernel = Resolved::at(Level::Portable);
        let mut hash = Sha256::new();
        let word = |v: usize| (v as u64).to_le_bytes();
        hash.update(word(n));
        hash.update(word(list.len()));
        hash.update(word(list.split_depth));
        for (index, task) in list.tasks.iter().enumerate() {
            for mask in &list.constraints[task.constraints].rows()[..n] {
                hash.update(mask.to_le_bytes());
            }
            let f = task.frontier;
            hash.update(word(f.row));
            for mask in [f.cols, f.ld, f.rd] {
                hash.update(mask.to_le_bytes());
            }
            hash.update(task.weight.to_le_bytes());
            hash.update([u8::from(task.weigh_by_class)]);
            hash.update(&task.prefix[..f.row]);
            hash.update(run_task(&list, index, kernel).weighted.to_le_bytes());
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
                12,
                Symmetry::Full,
                "03d1b0911a6208e6df05e33b6083b387f62984b5d15a6ea0909786a8ab7b4ba7",
            ),
            (
                13,
                Symmetry::Mirror,
                "e54353805bdce1fcf578bafdbc11f440898272a422b9c94a4b364cc71dfd93f2",
            ),
        ];
        for (n, symmetry, want) in pinned {
            let got = digest(n, symmetry);
            assert_eq!(
                got, want,
                "n = {n}, {symmetry:?}: the task list or its weights changed: bump \
                 UNITS_VERSION (now {UNITS_VERSION}) and set this digest to {got}"
            );
        }
    }
}
