//! Kernel agreement: every vector kernel visits exactly the scalar kernel's nodes and
//! finds the same (weighted) solutions, on every task of every mode, on random row
//! constraints, on whole trees, through `count`, and from deep random starts at
//! n = 20..=32 (the tie mark in bit 31, the shifts at n = 31 and 32).
//!
//! A check needs a processor that runs the kernel. So that a kernel this processor
//! cannot run is never a silent pass, this file has its own harness (libtest-mimic,
//! `harness = false` in Cargo.toml): each check is one test per kernel, and a kernel the
//! processor lacks reports its tests as ignored, with the reason, in the ordinary
//! output of `cargo test`:
//!
//! ```text
//! test avx2::agrees_on_deep_prefixes_n20_to_32 ... ok
//! test avx512::agrees_on_deep_prefixes_n20_to_32 ... ignored, the avx512 kernel needs AVX-512F, AVX2, BMI1, BMI2 and POPCNT, which this processor lacks
//! ```
//!
//! and the summary line counts them (`... passed; 0 failed; 5 ignored`). The AVX2 and
//! AVX-512 kernels share the lane machine (`src/search/lanes`); they differ only in
//! their vector operations.

mod common;

use std::process::ExitCode;

use common::{options, published_total, sweep_depths};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use nqueens::internals::{
    check_backtrack_kernel, Constraints, Frontier, Resolved, Tally, TaskList,
};
use nqueens::{Kernel, Options, Symmetry};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// One check of a vector kernel against the scalar kernel.
type Check = fn(Resolved) -> Result<(), Failed>;

/// The checks, each run for every vector kernel.
const CHECKS: [(&str, Check); 6] = [
    ("agrees_task_by_task_n4_to_12", agrees_task_by_task),
    ("agrees_on_random_constraints", agrees_on_random_constraints),
    ("agrees_on_whole_trees_n0_to_13", agrees_on_whole_trees),
    (
        "counts_agree_on_every_mode_and_depth",
        counts_agree_on_every_mode_and_depth,
    ),
    ("agrees_on_deep_prefixes_n20_to_32", agrees_on_deep_prefixes),
    (
        "the_kernel_check_before_a_long_count_passes",
        kernel_check_passes,
    ),
];

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for kernel in [Kernel::Avx2, Kernel::Avx512] {
        for (name, check) in CHECKS {
            trials.push(Trial::ignorable_test(
                format!("{kernel}::{name}"),
                move || match Resolved::of(kernel) {
                    Ok(fast) => check(fast).map(|()| Completion::Completed),
                    Err(unsupported) => Ok(Completion::ignored_with(unsupported)),
                },
            ));
        }
    }
    libtest_mimic::run(&args, trials).exit_code()
}

/// The scalar kernel.
fn scalar() -> Resolved {
    Resolved::of(Kernel::Scalar).expect("the scalar kernel runs anywhere")
}

/// Whether `fast` and the scalar kernel agree on counting (or, with `prefix`, weighing)
/// the completions of `start`; the scalar kernel's tally.
fn agree(
    fast: Resolved,
    c: &Constraints,
    start: Frontier,
    prefix: Option<&[u8]>,
) -> Result<Tally, Failed> {
    let (got, expected) = match prefix {
        Some(prefix) => (
            fast.weigh_by_class(c, start, prefix),
            scalar().weigh_by_class(c, start, prefix),
        ),
        None => (fast.count(c, start), scalar().count(c, start)),
    };
    if got == expected {
        Ok(expected)
    } else {
        let what = if prefix.is_some() {
            "weighing"
        } else {
            "counting"
        };
        Err(format!(
            "{:?} {what} from {start:?} (n = {}, rows {:x?}, prefix {prefix:?}): {got:?}, \
             scalar {expected:?}",
            fast.kernel(),
            c.n(),
            &c.rows()[..c.n()],
        )
        .into())
    }
}

/// Every task of every mode, whole boards and the weighed canonical seeds.
fn agrees_task_by_task(fast: Resolved) -> Result<(), Failed> {
    for n in 4..=12 {
        for symmetry in Symmetry::ALL {
            for depth in [1, 2, 3] {
                let Ok(list) = TaskList::build(n, symmetry, Some(depth)) else {
                    continue;
                };
                for task in &list.tasks {
                    let c = &list.constraints[task.constraints];
                    let prefix = &task.prefix[..task.frontier.row];
                    agree(
                        fast,
                        c,
                        task.frontier,
                        task.weigh_by_class.then_some(prefix),
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// A board size, a column mask for each row, and a start row with the columns to try
/// on the rows above it.
fn constrained_start() -> impl Strategy<Value = (usize, Vec<u32>, Vec<u32>)> {
    (4usize..=13).prop_flat_map(|n| {
        let full = (1u32 << n) - 1;
        (
            Just(n),
            proptest::collection::vec((0..=full).prop_map(move |m| m | m >> 1), n),
            proptest::collection::vec(0..=full, 0..n),
        )
    })
}

/// Random row constraints and random starts.
fn agrees_on_random_constraints(fast: Resolved) -> Result<(), Failed> {
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    runner
        .run(&constrained_start(), |(n, masks, picks)| {
            let mut c = Constraints::new(n);
            for (row, &mask) in masks.iter().enumerate() {
                c.restrict(row, mask | u32::try_from(row % 3).unwrap().wrapping_neg());
            }
            // Place a queen on each row of the prefix where one fits.
            let mut start = Frontier::ROOT;
            for &pick in &picks {
                let avail = start.available(&c);
                if avail == 0 {
                    break;
                }
                let choice = avail & (pick | avail.wrapping_neg() & avail);
                start = start.place(choice & choice.wrapping_neg());
            }
            agree(fast, &c, start, None)
                .map_err(|e| TestCaseError::fail(e.message().unwrap_or_default().to_owned()))?;
            Ok(())
        })
        .map_err(|e| e.to_string().into())
}

/// Whole boards, n = 0..=13 (below three rows the scalar kernel takes over).
fn agrees_on_whole_trees(fast: Resolved) -> Result<(), Failed> {
    for n in 0..=13 {
        agree(fast, &Constraints::new(n), Frontier::ROOT, None)?;
    }
    Ok(())
}

/// Whole counts through the library's `count`: every mode and sweep depth, n = 0..=13;
/// the same total, nodes and tasks as the scalar kernel, and the published total.
#[allow(
    clippy::unnecessary_wraps,
    reason = "every test of the harness's table returns a Result"
)]
fn counts_agree_on_every_mode_and_depth(fast: Resolved) -> Result<(), Failed> {
    for n in 0..=13 {
        for symmetry in Symmetry::ALL {
            for depth in sweep_depths(n) {
                let run = |kernel| {
                    let options = Options {
                        kernel,
                        ..options(2, symmetry, depth)
                    };
                    let c = nqueens::count(n, &options).unwrap();
                    (c.total, c.work.nodes(), c.tasks)
                };
                let scalar = run(Kernel::Scalar);
                assert_eq!(scalar.0, published_total(n), "n = {n}");
                let what = format!("{}, n = {n}, {symmetry}, {depth:?}", fast.kernel());
                assert_eq!(run(fast.kernel()), scalar, "{what}");
            }
        }
    }
    Ok(())
}

/// A small, seeded random source (SplitMix64), so that every run checks the same
/// starts.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound`.
    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % bound as u64).expect("below `bound`, a usize")
    }

    /// One of the set bits of `mask` (not 0).
    fn bit_of(&mut self, mut mask: u32) -> u32 {
        for _ in 0..self.below(mask.count_ones() as usize) {
            mask &= mask - 1;
        }
        mask & mask.wrapping_neg()
    }
}

/// How [`deepen`] picks the columns of its random queens.
#[derive(Clone, Copy, PartialEq)]
enum Picks {
    /// Any free column.
    Any,
    /// An inner column while one is free (the edge columns left to the rows below).
    Inner,
    /// An edge column on the first row that has one free (for an edge seed, a tie
    /// square), then inner columns.
    TieThenInner,
}

/// `start` (whose rows above hold `prefix`) carried down to row `row` by random queens
/// chosen by `picks`, with the columns of every row above it; `None` at a dead end.
fn deepen(
    c: &Constraints,
    mut start: Frontier,
    prefix: &[u8],
    row: usize,
    mut picks: Picks,
    random: &mut Random,
) -> Option<(Frontier, Vec<u8>)> {
    let edges = 1 | 1 << (c.n() - 1);
    let mut columns = prefix[..start.row].to_vec();
    while start.row < row {
        let avail = start.available(c);
        if avail == 0 {
            return None;
        }
        let choice = match picks {
            Picks::TieThenInner if avail & edges != 0 => {
                picks = Picks::Inner;
                avail & edges
            }
            Picks::Inner | Picks::TieThenInner if avail & !edges != 0 => avail & !edges,
            _ => avail,
        };
        let bit = random.bit_of(choice);
        columns.push(u8::try_from(bit.trailing_zeros()).unwrap());
        start = start.place(bit);
    }
    Some((start, columns))
}

/// What the deep starts reached, so that the check cannot pass on searches that find
/// nothing.
#[derive(Default, Debug)]
struct Reached {
    /// Counted starts with solutions, by n (index n - 20).
    counted: [u32; 13],
    /// Weighed starts with solutions, by n.
    weighed: [u32; 13],
    /// Weighed starts whose weight is not 8 per solution (tied solutions compared with
    /// their images: the tie mark, bit 31), by n.
    tied: [u32; 13],
}

/// Deep random starts at n = 20..=32: a random task of the full-symmetry plan, or the
/// empty board, carried down by random queens to 3..=12 rows above the end, then
/// counted (and, for the weighed edge seeds, weighed) by both kernels. At n = 32 the
/// vector kernels only count (weighing marks ties in bit 31, so they leave it to the
/// scalar kernel).
fn agrees_on_deep_prefixes(fast: Resolved) -> Result<(), Failed> {
    // More starts at n = 30..=32, where the tie mark and the shifts meet the board's edge.
    let starts = |n: usize| if n >= 30 { 4000 } else { 600 };
    let mut random = Random(0x6e71_7565_656e_7321);
    let mut reached = Reached::default();
    for n in 20..=32 {
        let list = TaskList::build(n, Symmetry::Full, Some(2))?;
        let board = Constraints::new(n);
        let mut done = 0;
        while done < starts(n) {
            let rows_left = 3 + random.below(10);
            let (c, start, prefix, weigh) = if random.below(4) == 0 {
                (&board, Frontier::ROOT, &[][..], false)
            } else {
                let task = &list.tasks[random.below(list.tasks.len())];
                let prefix = &task.prefix[..task.frontier.row];
                let c = &list.constraints[task.constraints];
                (c, task.frontier, prefix, task.weigh_by_class)
            };
            let picks = [Picks::Any, Picks::Inner, Picks::TieThenInner][random.below(3)];
            let Some((start, columns)) =
                deepen(c, start, prefix, n - rows_left, picks, &mut random)
            else {
                continue;
            };
            done += 1;
            let counted = agree(fast, c, start, None)?;
            if counted.solutions > 0 {
                reached.counted[n - 20] += 1;
            }
            if weigh {
                let weighed = agree(fast, c, start, Some(&columns))?;
                if counted.solutions > 0 {
                    reached.weighed[n - 20] += 1;
                    if weighed.solutions != 8 * counted.solutions {
                        reached.tied[n - 20] += 1;
                    }
                }
            }
        }
    }
    // Every n counts solutions; every n below 32 weighs some, tied ones among them.
    let below_32 = ..12;
    let covered = reached.counted.iter().all(|&k| k >= 20)
        && reached.weighed[below_32].iter().all(|&k| k >= 20)
        && reached.tied[below_32].iter().all(|&k| k >= 3);
    if covered {
        Ok(())
    } else {
        Err(format!("the deep starts found too few solutions to test: {reached:?}").into())
    }
}

/// The check a count of n >= 20 runs before it starts (`backtrack::kernel_check`: this
/// kernel against the scalar one on a fixed set of starts) passes on this processor.
fn kernel_check_passes(fast: Resolved) -> Result<(), Failed> {
    let level = fast.kernel().level()?;
    check_backtrack_kernel(level).map_err(|e| e.to_string().into())
}
