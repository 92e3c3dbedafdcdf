//! The join's kernel check: before a long count runs on the AVX2 or AVX-512 path
//! (`crate::engine::interface::CountingEngine::check_kernel`), that path counts a fixed
//! set of cases, and so does the portable path; the count runs only if every result is
//! the same.
//!
//! The cases reach each part of a path's code: the pair counter in both modes (items'
//! classes and stored classes) over every third pattern width (so most chunk
//! layouts), the wide chunks of blocks that many items meet, a stored side of many
//! blocks (splits, lists filtered from lists), and every unit of the boards of 11 to 13
//! (the half-board generation, odd boards' groups among them). Each result compares the
//! disjoint pairs per class and the work (pair evaluations), which follows from the
//! blocks the splits make, so the path's partitions and bit counts are checked too.
//!
//! The tests (`tests/join.rs`) check every path far more widely on the processors they
//! run on; this check brings a part of them to every processor a count runs on, such as
//! a model no test ever ran on, and to every build. It runs once per process and path
//! (about 50 milliseconds of CPU on an AVX2 Zen 3) and is no guard against a core that
//! fails now and then: that is what `audit` is for.

use std::sync::OnceLock;

use crate::cpu::{Kernel, Level};
use crate::error::Error;
use crate::join::pairs::{self, tagged, PairCounts, PairScratch, CLASS_COUNT};
use crate::join::path::Path;
use crate::join::units::{JoinPlan, UnitOutcome};

/// The boards whose every unit the check runs on both paths (even and odd, the odd
/// ones with their groups of arms halves).
const CHECKED_BOARDS: [usize; 3] = [11, 12, 13];

/// One case of the check: what it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    /// A count of `items` random items against `stored` random stored patterns, over
    /// the low `bits` bits, each set with probability `density / 16`, from `seed`; in
    /// class mode (the stored patterns tagged) when `by_stored_class`.
    Pairs {
        /// Stored patterns.
        stored: usize,
        /// Items.
        items: usize,
        /// Pattern width.
        bits: u32,
        /// Bit density, in sixteenths.
        density: u64,
        /// The generator's seed.
        seed: u64,
        /// Class mode.
        by_stored_class: bool,
    },
    /// Unit `index` of the board of size `n`.
    Unit {
        /// The board size.
        n: usize,
        /// The unit.
        index: usize,
    },
}

/// What a case counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counted {
    /// A pair count: the pairs per class and the work.
    Pairs(PairCounts),
    /// A unit's outcome: its weighted count and its work.
    Unit(UnitOutcome),
}

impl std::fmt::Display for Counted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Counted::Pairs(counts) => write!(
                f,
                "{:?} disjoint pairs by class in {} pair evaluations",
                counts.per_class, counts.pairs
            ),
            Counted::Unit(outcome) => write!(
                f,
                "{} weighted solutions in {} pair evaluations",
                outcome.weighted, outcome.pairs
            ),
        }
    }
}

/// The first case the two paths counted differently: the case, and what the checked
/// path and the portable path counted.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Difference {
    /// The case, described.
    case: String,
    /// The checked path's result.
    got: String,
    /// The portable path's result.
    want: String,
}

impl Case {
    /// The case in words.
    fn describe(self) -> String {
        match self {
            Case::Pairs {
                stored,
                items,
                bits,
                by_stored_class,
                ..
            } => format!(
                "the disjoint pairs of {items} items and {stored} stored patterns of {bits} bits{}",
                if by_stored_class {
                    ", by stored class"
                } else {
                    ""
                }
            ),
            Case::Unit { n, index } => format!("unit {index} of N = {n}"),
        }
    }
}

/// Every case, in the order the check runs them.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for by_stored_class in [false, true] {
        // Every third width (so most chunk layouts), a few blocks each.
        for bits in (0..=62u32).step_by(3) {
            cases.push(Case::Pairs {
                stored: 1100,
                items: 200,
                bits,
                density: 6,
                seed: u64::from(bits) + 11,
                by_stored_class,
            });
        }
        // Two blocks that many items meet (wide chunks), and a side of many blocks.
        for (stored, items, bits, density) in [(1024, 20_000, 30, 1), (12_000, 1000, 38, 3)] {
            cases.push(Case::Pairs {
                stored,
                items,
                bits,
                density,
                seed: u64::from(bits) ^ 0x5eed,
                by_stored_class,
            });
        }
    }
    for n in CHECKED_BOARDS {
        let units = JoinPlan::units_of(n);
        cases.extend((0..units).map(|index| Case::Unit { n, index }));
    }
    cases
}

/// `patterns` tagged with weight classes in turn.
fn with_classes(patterns: &[u64]) -> Vec<u64> {
    patterns
        .iter()
        .zip((0..CLASS_COUNT).cycle())
        .map(|(&pattern, class)| tagged(pattern, class))
        .collect()
}

/// The plans the cases' units run on, one per board and path, built when first needed.
struct Plans {
    /// The checked level.
    level: Level,
    /// `(n, on the checked path, plan)`.
    built: Vec<(usize, bool, JoinPlan)>,
}

impl Plans {
    /// The checked level, or the portable one.
    fn level_of(&self, checked: bool) -> Level {
        if checked {
            self.level
        } else {
            Level::Portable
        }
    }

    /// The plan of board `n`, on the checked level's path or the portable one.
    fn get(&mut self, n: usize, checked: bool) -> &JoinPlan {
        let found = self
            .built
            .iter()
            .position(|(m, on_checked, _)| *m == n && *on_checked == checked);
        let at = found.unwrap_or_else(|| {
            let level = self.level_of(checked);
            self.built.push((n, checked, JoinPlan::new(n, level)));
            self.built.len() - 1
        });
        &self.built[at].2
    }
}

/// The inputs of a pair case: the stored patterns (tagged in class mode) and the items.
struct PairInputs {
    /// The stored patterns.
    stored: Vec<u64>,
    /// The items, tagged with classes.
    items: Vec<u64>,
    /// Class mode.
    by_stored_class: bool,
}

impl PairInputs {
    /// The inputs of `case`, if it is a pair case.
    fn of(case: Case) -> Option<PairInputs> {
        let Case::Pairs {
            stored,
            items,
            bits,
            density,
            seed,
            by_stored_class,
        } = case
        else {
            return None;
        };
        let stored = pairs::random_patterns(stored, bits, seed, |_| density);
        let items = pairs::random_patterns(items, bits, seed ^ 0x00ab_cdef, |_| density);
        Some(PairInputs {
            stored: if by_stored_class {
                with_classes(&stored)
            } else {
                stored
            },
            items: with_classes(&items),
            by_stored_class,
        })
    }

    /// Prepares the stored side in `scratch` on `path`, for counting the items.
    fn prepare(&mut self, path: Path, scratch: &mut PairScratch) {
        if self.by_stored_class {
            pairs::prepare_classed(path, &mut self.stored, &self.items, scratch);
        } else {
            pairs::prepare(path, &mut self.stored, &self.items, scratch);
        }
    }
}

/// What `case` counts on the path of the checked level (`checked`) or the portable one.
fn count(case: Case, plans: &mut Plans, checked: bool) -> Counted {
    match case {
        Case::Unit { n, index } => Counted::Unit(plans.get(n, checked).run_unit(index)),
        Case::Pairs { .. } => {
            let path = Path::at(plans.level_of(checked));
            let mut inputs = PairInputs::of(case).expect("a pair case");
            let mut scratch = PairScratch::default();
            inputs.prepare(path, &mut scratch);
            Counted::Pairs(pairs::count_prepared(path, &mut inputs.items, &mut scratch))
        }
    }
}

/// The first case that `count` counts differently on the checked path (its last
/// argument `true`) and on the portable one, if any.
fn first_difference(
    level: Level,
    cases: &[Case],
    mut count: impl FnMut(Case, &mut Plans, bool) -> Counted,
) -> Option<Difference> {
    let mut plans = Plans {
        level,
        built: Vec::new(),
    };
    cases.iter().find_map(|&case| {
        let got = count(case, &mut plans, true);
        let want = count(case, &mut plans, false);
        (got != want).then(|| Difference {
            case: case.describe(),
            got: got.to_string(),
            want: want.to_string(),
        })
    })
}

/// The outcome of the check of one path, kept for the process.
type Outcome = Option<Difference>;

/// Checks the join's path at `level` against the portable path, once per process and
/// path (later calls give the first call's outcome); the portable path is not checked.
///
/// # Errors
/// [`Error::KernelMismatch`] naming the first case the paths counted differently.
pub fn check(level: Level) -> Result<(), Error> {
    static AVX2: OnceLock<Outcome> = OnceLock::new();
    static AVX512: OnceLock<Outcome> = OnceLock::new();
    let kernel = Path::at(level).kernel();
    let outcome = match kernel {
        Kernel::Avx2 => &AVX2,
        Kernel::Avx512 => &AVX512,
        // The portable path is the reference (a path is never `auto`).
        Kernel::Scalar | Kernel::Auto => return Ok(()),
    };
    let difference = outcome.get_or_init(|| first_difference(level, &cases(), count));
    match difference {
        None => Ok(()),
        Some(d) => Err(mismatch(kernel, d)),
    }
}

/// The error of `difference` on the path of `kernel`.
fn mismatch(kernel: Kernel, difference: &Difference) -> Error {
    Error::KernelMismatch {
        engine: "join",
        kernel: kernel.name(),
        case: difference.case.clone(),
        got: difference.got.clone(),
        want: difference.want.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::layout::Layout;
    use crate::join::units::list::{UnitKind, UnitList};

    /// The levels of the paths this processor runs above the portable one.
    fn vector_levels() -> Vec<Level> {
        [Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter_map(|kernel| kernel.level().ok())
            .filter(|&level| Path::at(level) != Path::Portable)
            .collect()
    }

    #[test]
    fn every_path_of_this_processor_passes() {
        for level in vector_levels() {
            assert_eq!(check(level).map_err(|e| e.to_string()), Ok(()));
        }
        // The portable path is the reference: nothing to check.
        assert!(check(Level::Portable).is_ok());
    }

    #[test]
    fn the_cases_reach_every_part_of_a_path() {
        let cases = cases();
        let pairs = |by_class: bool| {
            cases
                .iter()
                .filter(|c| matches!(c, Case::Pairs { by_stored_class, .. } if *by_stored_class == by_class))
                .count()
        };
        // 21 widths and 2 long cases, in each mode.
        assert_eq!((pairs(false), pairs(true)), (23, 23));
        for n in CHECKED_BOARDS {
            let units = cases
                .iter()
                .filter(|c| matches!(c, Case::Unit { n: m, .. } if *m == n))
                .count();
            assert_eq!(units, JoinPlan::units_of(n));
            assert!(units > 1);
        }
        // The odd boards' units include both kinds of groups of arms halves.
        for n in [11, 13] {
            let list = UnitList::new(&Layout::new(u32::try_from(n).unwrap()));
            let kinds: Vec<UnitKind> = (0..list.len()).map(|i| list.unit(i)).collect();
            assert!(
                kinds.iter().any(|k| matches!(k, UnitKind::ArmsWest { .. })),
                "N = {n}"
            );
            assert!(
                kinds.iter().any(|k| matches!(k, UnitKind::ArmsRow { .. })),
                "N = {n}"
            );
        }
    }

    #[test]
    fn the_long_cases_make_wide_chunks_and_many_blocks() {
        let long: Vec<Case> = cases()
            .into_iter()
            .filter(|c| matches!(c, Case::Pairs { stored, .. } if *stored != 1100))
            .collect();
        assert_eq!(long.len(), 4);
        for case in long {
            let mut inputs = PairInputs::of(case).expect("a pair case");
            let mut scratch = PairScratch::default();
            inputs.prepare(Path::Portable, &mut scratch);
            let (blocks, widest) = (
                pairs::prepared_blocks(&scratch),
                pairs::prepared_widest_chunk(&scratch),
            );
            if inputs.items.len() > inputs.stored.len() {
                // The wide chunks are 9 bits or more; the narrow ones 7 or 8.
                assert!(widest >= 9, "{case:?}: chunks of {widest} bits");
            } else {
                assert!(blocks >= 20, "{case:?}: {blocks} blocks");
            }
        }
    }

    #[test]
    fn a_path_that_counts_one_case_differently_is_named_with_both_results() {
        // A stand-in for a faulty path: the portable count, with one pair too many
        // in the twelfth case on the "checked" side.
        let cases = cases();
        let mut calls = 0;
        let difference = first_difference(Level::Portable, &cases, |case, plans, checked| {
            let mut counted = count(case, plans, checked);
            if checked {
                calls += 1;
                if calls == 12 {
                    if let Counted::Pairs(counts) = &mut counted {
                        counts.per_class[1] += 1;
                    }
                }
            }
            counted
        })
        .expect("a difference");
        assert_eq!(difference.case, cases[11].describe());
        assert_eq!(
            difference.case,
            "the disjoint pairs of 200 items and 1100 stored patterns of 33 bits"
        );
        assert_ne!(difference.got, difference.want);
        let message = mismatch(Kernel::Avx512, &difference).to_string();
        assert!(
            message.starts_with(
                "the join engine's avx512 kernel counted the disjoint pairs of 200 items and 1100 stored patterns of 33 bits differently from its scalar kernel on this processor"
            ),
            "{message}"
        );
        assert!(!message.contains('\n'), "{message}");
        assert!(
            message.contains(" disjoint pairs by class in "),
            "{message}"
        );
    }

    #[test]
    fn a_unit_counted_differently_is_named() {
        let cases = [Case::Unit { n: 13, index: 2 }];
        let difference =
            first_difference(Level::Portable, &cases, |case, plans, checked| match count(
                case, plans, checked,
            ) {
                Counted::Unit(outcome) if checked => Counted::Unit(UnitOutcome {
                    weighted: outcome.weighted + 8,
                    ..outcome
                }),
                counted => counted,
            })
            .expect("a difference");
        assert_eq!(difference.case, "unit 2 of N = 13");
        let want = JoinPlan::new(13, Level::Portable).run_unit(2);
        let words = |weighted: u128| {
            format!(
                "{weighted} weighted solutions in {} pair evaluations",
                want.pairs
            )
        };
        assert_eq!(
            (difference.got, difference.want),
            (words(want.weighted + 8), words(want.weighted))
        );
    }

    #[test]
    fn the_same_counts_give_no_difference() {
        let cases = cases();
        assert_eq!(first_difference(Level::Portable, &cases[..6], count), None);
    }

    #[test]
    fn classes_cycle_and_class_mode_tags_the_stored_side() {
        let tagged = with_classes(&[1, 2, 3, 4, 5]);
        assert_eq!(tagged[4], 5);
        assert_eq!(tagged[1] >> 62, 1);
        assert_eq!(tagged[3] >> 62, 3);
        let case = |by_stored_class| Case::Pairs {
            stored: 30,
            items: 10,
            bits: 20,
            density: 8,
            seed: 3,
            by_stored_class,
        };
        let plain = PairInputs::of(case(false)).unwrap();
        let classed = PairInputs::of(case(true)).unwrap();
        assert!(plain.stored.iter().all(|&p| p < 1 << 20));
        assert!(classed.stored.iter().any(|&p| p >> 62 == 3));
        assert_eq!(plain.items, classed.items);
        assert!(PairInputs::of(Case::Unit { n: 12, index: 0 }).is_none());
    }
}
