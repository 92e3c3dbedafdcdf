//! The half-board join engine, through `nqueens::internals`: its disjoint-pair counter
//! against a plain loop on random patterns, and its units summed every way a run may
//! sum them (1 and 2 threads, by shard in other orders) against the published totals
//! and the backtracking count, for every n from the join's smallest to 16.
//!
//! Each check runs once per vector path. So that a path this processor cannot run is
//! never a silent pass, this file has its own harness (libtest-mimic, `harness = false`
//! in Cargo.toml), as `tests/kernels.rs` does: a path the processor lacks reports its
//! checks as ignored, with the reason, in the ordinary output of `cargo test`:
//!
//! ```text
//! test scalar::totals_match_published_and_backtracking ... ok
//! test avx2::totals_match_published_and_backtracking ... ignored, this processor lacks AVX2, BMI2 or POPCNT
//! ```

mod common;

use std::process::ExitCode;
use std::sync::OnceLock;

use common::{options, published_total, THREADS};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use nqueens::internals::{
    check_join_kernel, count_disjoint_pairs, count_disjoint_pairs_by_stored_class, join_kernel,
    plain_count_disjoint_pairs, tagged, JoinPlan, Level, Orientation, PairCounts, PairScratch,
    UnitOutcome, CLASS_COUNT, JOIN_MIN_N,
};
use nqueens::{Kernel, Symmetry};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rayon::prelude::*;

/// The largest n whose totals are checked.
const MAX_CHECKED_N: usize = 16;

/// One check of a vector path, run at a processor level.
type Check = fn(Level) -> Result<(), Failed>;

/// The checks, each run for every vector path.
const CHECKS: [(&str, Check); 6] = [
    (
        "pairs_agree_with_the_plain_loop",
        pairs_agree_with_plain_loop,
    ),
    ("totals_match_published_and_backtracking", totals_match),
    (
        "large_stored_sets_agree_with_the_plain_loop",
        large_stored_sets_agree,
    ),
    (
        "wide_chunk_layouts_agree_with_the_plain_loop",
        wide_chunk_layouts_agree,
    ),
    (
        "stored_classes_agree_with_the_plain_loop",
        stored_classes_agree,
    ),
    ("units_agree_whichever_side_is_stored", orientations_agree),
];

/// The checks of the levels above the portable one.
const VECTOR_CHECKS: [(&str, Check); 2] = [
    (
        "units_agree_with_the_portable_path",
        units_agree_with_portable,
    ),
    (
        "the_kernel_check_before_a_long_count_passes",
        kernel_check_passes,
    ),
];

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let portable = CHECKS
        .iter()
        .map(|&check| (Kernel::Scalar, Ok(Level::Portable), check));
    let vector = [Kernel::Avx2, Kernel::Avx512]
        .into_iter()
        .flat_map(|kernel| {
            CHECKS
                .iter()
                .chain(&VECTOR_CHECKS)
                .map(move |&check| (kernel, kernel.level(), check))
        });
    for (kernel, level, (name, check)) in portable.chain(vector) {
        // A level whose own path the join lacks here (AVX-512 without BW or VPOPCNTDQ
        // runs the join's AVX2 path, checked under avx2) is reported as ignored.
        let level = level.map_err(|e| e.to_string()).and_then(|level| {
            if kernel == Kernel::Scalar || join_kernel(level) == kernel {
                Ok(level)
            } else {
                Err(format!(
                    "this processor lacks what the join's {kernel} path needs (AVX-512BW and VPOPCNTDQ): it runs its {} path there",
                    join_kernel(level)
                ))
            }
        });
        trials.push(Trial::ignorable_test(
            format!("{kernel}::{name}"),
            move || match level {
                Ok(level) => check(level).map(|()| Completion::Completed),
                Err(why) => Ok(Completion::ignored_with(why)),
            },
        ));
    }
    libtest_mimic::run(&args, trials).exit_code()
}

/// `Err` with `message` unless `ok`.
fn ensure(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok {
        Ok(())
    } else {
        Err(message().into())
    }
}

/// Random patterns: `len` values over the low `bits` bits, each bit set with
/// probability `density / 64`.
fn patterns(len: usize, bits: u32, density: u64, seed: u64) -> Vec<u64> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..len)
        .map(|_| {
            (0..bits)
                .filter(|_| next() % 64 < density)
                .map(|b| 1u64 << b)
                .sum()
        })
        .collect()
}

/// `raw` as items of mixed weight classes.
fn with_classes(raw: &[u64], seed: u64) -> Vec<u64> {
    let classes = CLASS_COUNT as u64;
    raw.iter()
        .zip(0u64..)
        .map(|(&p, i)| tagged(p, usize::try_from((i ^ seed) % classes).unwrap()))
        .collect()
}

/// Whether the path of `level` counts the disjoint pairs of `stored` and `items` as the plain
/// loop does (twice with the same buffers: reuse must not leak state).
fn agree(level: Level, stored: &[u64], items: &[u64]) -> Result<(), Failed> {
    let want = plain_count_disjoint_pairs(stored, items);
    agree_with(level, stored, items, want, count_disjoint_pairs)
}

/// Whether `count` on the path of `level` gives the classes' counts `want` for
/// `stored` and `items`, twice with the same buffers (reuse must not leak state).
fn agree_with(
    level: Level,
    stored: &[u64],
    items: &[u64],
    want: PairCounts,
    count: fn(Level, &[u64], &[u64], &mut PairScratch) -> PairCounts,
) -> Result<(), Failed> {
    let mut scratch = PairScratch::default();
    for round in 0..2 {
        let got = count(level, stored, items, &mut scratch);
        ensure(got.per_class == want.per_class, || {
            format!(
                "{:?} (round {round}), {} stored, {} items: {:?}, plain loop {:?}",
                level,
                stored.len(),
                items.len(),
                got.per_class,
                want.per_class
            )
        })?;
    }
    Ok(())
}

/// The pair counter against the plain loop: the block edge sizes, every pattern width
/// (so every chunk layout), one class, no items, then random lengths, widths and
/// densities (proptest).
fn pairs_agree_with_plain_loop(level: Level) -> Result<(), Failed> {
    for stored_len in [0usize, 1, 23, 24, 25, 511, 512, 513, 1500, 4100] {
        for (bits, density) in [(20u32, 10u64), (36, 12), (62, 8), (62, 40)] {
            let stored = patterns(stored_len, bits, density, stored_len as u64 + 7);
            let items = with_classes(&patterns(300, bits, density, 99 + u64::from(bits)), 3);
            agree(level, &stored, &items)?;
        }
    }
    // Every width of the varying bits (0 to 62), so every chunk layout: narrow chunks
    // only, and one chunk fewer with wide ones (29 to 32 bits take four wide chunks).
    for bits in 0..=62u32 {
        let stored = patterns(1100, bits, 24, u64::from(bits) + 11);
        let items = with_classes(&patterns(200, bits, 24, u64::from(bits) + 12), 5);
        agree(level, &stored, &items)?;
    }
    let stored = patterns(700, 30, 14, 5);
    let one_class: Vec<u64> = patterns(200, 30, 14, 6)
        .iter()
        .map(|&p| tagged(p, 3))
        .collect();
    agree(level, &stored, &one_class)?;
    agree(level, &stored, &[])?;
    let config = Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    };
    let strategy = (0usize..2200, 0usize..400, 1u32..=62, 1u64..40, any::<u64>());
    TestRunner::new(config)
        .run(&strategy, |(stored_len, item_len, bits, density, seed)| {
            let stored = patterns(stored_len, bits, density, seed);
            let items = with_classes(&patterns(item_len, bits, density, seed ^ 0x00ab_cdef), seed);
            agree(level, &stored, &items).map_err(|e| TestCaseError::fail(format!("{e:?}")))
        })
        .map_err(|e| e.to_string().into())
}

/// The pair counter against the plain loop on lists long enough for the paths only
/// large boards reach: 4,300,000 stored patterns (8,399 blocks, deep splits, the
/// rounding of a split's side to whole blocks), 600,000, 300,000, 40,000 and 20,000,
/// over the 38 and 50 bits of the join patterns of n = 20 and 26; and 100,000 items
/// against 10,000 stored patterns, sparse, so that the items' lists of the outer
/// splits are kept and those of inner splits no longer fit (the blocks then filter from
/// the outer list). Items of every weight class.
fn large_stored_sets_agree(level: Level) -> Result<(), Failed> {
    for (stored_len, item_len, bits, density, seed) in [
        (4_300_000usize, 200usize, 50u32, 8u64, 4u64),
        (600_000, 300, 50, 8, 5),
        (300_000, 1500, 38, 9, 1),
        (40_000, 1500, 50, 8, 2),
        (20_000, 1500, 38, 10, 3),
        (10_000, 100_000, 38, 4, 6),
    ] {
        let stored = patterns(stored_len, bits, density, seed);
        let items = with_classes(&patterns(item_len, bits, density, seed ^ 0x5eed), seed);
        agree(level, &stored, &items)?;
    }
    Ok(())
}

/// Blocks that many items meet take wider chunks (9 to 11 bits, tables of up to
/// 512 KiB) than the 7 and 8 bits of the others: the counts of every pattern width from
/// 20 bits, where they start to pay, to 62, with enough items that every block (two of
/// sparse patterns, none in common, every bit varying) takes the widest chunks that pay.
fn wide_chunk_layouts_agree(level: Level) -> Result<(), Failed> {
    for bits in 20..=62u32 {
        let seed = u64::from(bits);
        let stored = patterns(1024, bits, 4, seed);
        let items = with_classes(&patterns(40_000, bits, 4, seed ^ 0x5eed), seed);
        agree(level, &stored, &items)?;
    }
    Ok(())
}

/// Whether the path of `level` counts the disjoint pairs of the tagged `stored`
/// patterns (class mode) and `items` per stored class as the plain loop does (the
/// loop the other way round: its items' classes are then the stored patterns').
fn agree_by_stored_class(level: Level, stored: &[u64], items: &[u64]) -> Result<(), Failed> {
    let want = plain_count_disjoint_pairs(items, stored);
    agree_with(
        level,
        stored,
        items,
        want,
        count_disjoint_pairs_by_stored_class,
    )
}

/// Stored sides of tagged patterns (class mode: each block arranged by class, the odd
/// pattern of a class counted apart) against the plain loop: the block edge sizes,
/// every pattern width, one class alone, long sides and wide chunk layouts, then
/// random lengths, widths and densities (proptest).
fn stored_classes_agree(level: Level) -> Result<(), Failed> {
    for stored_len in [1usize, 23, 24, 25, 511, 512, 513, 1500] {
        for (bits, density) in [(20u32, 10u64), (62, 8), (62, 40)] {
            let stored = with_classes(&patterns(stored_len, bits, density, stored_len as u64), 1);
            let items = patterns(300, bits, density, 77 + u64::from(bits));
            agree_by_stored_class(level, &stored, &items)?;
        }
    }
    for bits in 0..=62u32 {
        let stored = with_classes(&patterns(1100, bits, 24, u64::from(bits) + 31), 2);
        let items = patterns(200, bits, 24, u64::from(bits) + 32);
        agree_by_stored_class(level, &stored, &items)?;
    }
    let one_class: Vec<u64> = patterns(701, 30, 14, 5)
        .iter()
        .map(|&p| tagged(p, 2))
        .collect();
    agree_by_stored_class(level, &one_class, &patterns(200, 30, 14, 6))?;
    for (stored_len, item_len, bits, density, seed) in [
        (300_000usize, 1500usize, 38u32, 9u64, 1u64),
        (20_000, 1500, 50, 8, 2),
        (1024, 40_000, 30, 4, 3),
    ] {
        let stored = with_classes(&patterns(stored_len, bits, density, seed), seed);
        let items = patterns(item_len, bits, density, seed ^ 0x5eed);
        agree_by_stored_class(level, &stored, &items)?;
    }
    let config = Config {
        cases: 32,
        failure_persistence: None,
        ..Config::default()
    };
    let strategy = (0usize..2200, 0usize..400, 1u32..=62, 1u64..40, any::<u64>());
    TestRunner::new(config)
        .run(&strategy, |(stored_len, item_len, bits, density, seed)| {
            let stored = with_classes(&patterns(stored_len, bits, density, seed), seed);
            let items = patterns(item_len, bits, density, seed ^ 0x00ab_cdef);
            agree_by_stored_class(level, &stored, &items)
                .map_err(|e| TestCaseError::fail(format!("{e:?}")))
        })
        .map_err(|e| e.to_string().into())
}

/// Every unit of every n up to 16 counts the same with its west side stored wherever
/// it is the longer (class mode, which the default rule keeps for longer lists) as
/// with its east side always stored, and the units sum to the published total.
fn orientations_agree(level: Level) -> Result<(), Failed> {
    for n in JOIN_MIN_N..=MAX_CHECKED_N {
        let west = JoinPlan::new(n, level).with_orientation(Orientation::LongerStored);
        let east = JoinPlan::new(n, level).with_orientation(Orientation::EastStored);
        let mut total = 0u128;
        for index in 0..west.len() {
            let (got, want) = (west.run_unit(index), east.run_unit(index));
            ensure(got.weighted == want.weighted, || {
                format!(
                    "n = {n}, unit {index}: {got:?} with the west side stored, {want:?} without"
                )
            })?;
            total = total.checked_add(got.weighted).expect("below 2^128");
        }
        ensure(total == published_total(n), || {
            format!("n = {n}: {total} with the west side stored")
        })?;
    }
    Ok(())
}

/// The backtracking engine's total for `n` (the crate's default count, full symmetry),
/// computed once for every check.
fn backtracking_total(n: usize) -> u128 {
    static TOTALS: OnceLock<Vec<u128>> = OnceLock::new();
    TOTALS.get_or_init(|| {
        (0..=MAX_CHECKED_N)
            .map(|n| {
                nqueens::count(n, &options(2, Symmetry::Full, None))
                    .expect("a count")
                    .total
            })
            .collect()
    })[n]
}

/// Every unit of `plan` on a rayon pool of `threads` threads, in index order.
fn outcomes_on_pool(plan: &JoinPlan, threads: usize) -> Vec<UnitOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        (0..plan.len())
            .into_par_iter()
            .map(|i| plan.run_unit(i))
            .collect()
    })
}

/// The sum of the weighted counts of `outcomes`.
fn weighted_sum<'a>(outcomes: impl IntoIterator<Item = &'a UnitOutcome>) -> u128 {
    outcomes
        .into_iter()
        .try_fold(0u128, |sum, o| sum.checked_add(o.weighted))
        .expect("below 2^128")
}

/// For every n up to [`MAX_CHECKED_N`]: the units on 1 and 2 threads give each unit the
/// same outcome, their sum is the published total and the backtracking count, and the
/// units summed shard by shard (`index % K`) give it too, whether a shard runs its
/// units forward or backward and whatever the order of the shards.
fn totals_match(level: Level) -> Result<(), Failed> {
    for n in JOIN_MIN_N..=MAX_CHECKED_N {
        let plan = JoinPlan::new(n, level);
        let by_thread: Vec<Vec<UnitOutcome>> = THREADS
            .iter()
            .map(|&t| outcomes_on_pool(&plan, t))
            .collect();
        for (outcomes, threads) in by_thread.iter().zip(THREADS) {
            ensure(*outcomes == by_thread[0], || {
                format!("n = {n}: units differ on {threads} threads")
            })?;
        }
        let total = weighted_sum(&by_thread[0]);
        let (published, backtracking) = (published_total(n), backtracking_total(n));
        ensure(total == published && total == backtracking, || {
            format!("n = {n}: join {total}, published {published}, backtracking {backtracking}")
        })?;
        // Shards: K = 3 runs its units again (shard s backward when s is odd, the
        // shards last to first); K = 2 and 7 sum the outcomes already found.
        let shards = 3;
        let mut sharded = 0u128;
        for shard in (0..shards).rev() {
            let mut indices: Vec<usize> = (shard..plan.len()).step_by(shards).collect();
            if shard % 2 == 1 {
                indices.reverse();
            }
            let part = indices
                .iter()
                .map(|&i| plan.run_unit(i))
                .collect::<Vec<_>>();
            sharded = sharded
                .checked_add(weighted_sum(&part))
                .expect("below 2^128");
        }
        ensure(sharded == total, || {
            format!("n = {n}: {shards} shards sum to {sharded}")
        })?;
        for shards in [2, 7] {
            let sum: u128 = (0..shards)
                .map(|s| weighted_sum(by_thread[0].iter().skip(s).step_by(shards)))
                .sum();
            ensure(sum == total, || {
                format!("n = {n}: {shards} shards sum to {sum}")
            })?;
        }
    }
    Ok(())
}

/// Every unit's outcome (count and work) is the same on this path as on the portable
/// one, for n up to 16. The work (`pairs`) follows from the blocks the splits make, so
/// it checks the path's partitions and bit counts too (n = 16's larger units split).
fn units_agree_with_portable(level: Level) -> Result<(), Failed> {
    for n in JOIN_MIN_N..=16 {
        let (fast, portable) = (JoinPlan::new(n, level), JoinPlan::new(n, Level::Portable));
        for index in 0..fast.len() {
            let (got, want) = (fast.run_unit(index), portable.run_unit(index));
            ensure(got == want, || {
                format!("n = {n}, unit {index}: {got:?}, portable {want:?}")
            })?;
        }
    }
    Ok(())
}

/// The check a count of n >= 20 runs before it starts (`join::kernel_check`: this
/// path against the portable one on a fixed set of cases) passes on this processor.
fn kernel_check_passes(level: Level) -> Result<(), Failed> {
    check_join_kernel(level).map_err(|e| e.to_string().into())
}
