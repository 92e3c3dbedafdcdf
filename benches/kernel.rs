//! Criterion benchmark of the kernels alone: a resolved kernel's `count` over a whole
//! n x n board (n = 10..=13), with no task splitting and no thread pool, for the scalar
//! kernel and the vector kernels this processor runs (AVX2, AVX-512), so one run gives
//! their ratios. A kernel the processor lacks is skipped with a line on stderr saying
//! why. The scalar kernel is the one `--kernel scalar` runs (on x86-64 with POPCNT and
//! BMI1, the copy compiled with them).
//!
//! Groups are named `kernel/<kernel>`. Throughput is reported in elements per second,
//! an element being one queen placed (the search's `nodes`), so the figure reads as
//! nodes per second.
//!
//! The join engine's kernels get groups of their own, `join/<kernel>`: every unit of a
//! whole n x n board (n = 14..=16) computed on one thread at the kernel's level, for
//! the portable path and each vector path the join has on this processor. Throughput
//! is in pair evaluations per second, the same work on every path, so a vector path
//! that falls behind a slower one shows in one run, at n = 16 where the pair counter
//! has most of the time (on Zen 4 a regressed AVX-512 loop took 121 ms there, the AVX2
//! loop 104 ms; fixed, 89 ms; every count exact all along).

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use nqueens::internals::{join_kernel, Constraints, Frontier, JoinPlan, Resolved};
use nqueens::Kernel;

use nqueens::published::published;

/// Whole-board searches for n = 10..=13 with each kernel this processor runs.
fn kernels(c: &mut Criterion) {
    for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
        let resolved = match Resolved::of(kernel) {
            Ok(resolved) => resolved,
            Err(unsupported) => {
                eprintln!("skipping kernel/{kernel}: {unsupported}");
                continue;
            }
        };
        let mut group = c.benchmark_group(format!("kernel/{kernel}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for n in 10..=13 {
            let constraints = Constraints::new(n);
            let tally = resolved.count(&constraints, Frontier::ROOT);
            let expected = published(n).expect("published total").total;
            assert_eq!(u128::from(tally.solutions), expected, "{kernel}, n = {n}");
            group.throughput(Throughput::Elements(tally.nodes));
            group.bench_with_input(BenchmarkId::from_parameter(n), &constraints, |b, c| {
                b.iter(|| resolved.count(black_box(c), black_box(Frontier::ROOT)));
            });
        }
        group.finish();
    }
}

/// Every unit of n = 14..=16 on the join's portable path and each of its vector paths
/// this processor runs.
fn join_kernels(c: &mut Criterion) {
    for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
        let level = match kernel.level() {
            Ok(level) if join_kernel(level) == kernel => level,
            Ok(level) => {
                eprintln!(
                    "skipping join/{kernel}: the join runs its {} path on this processor",
                    join_kernel(level)
                );
                continue;
            }
            Err(unsupported) => {
                eprintln!("skipping join/{kernel}: {unsupported}");
                continue;
            }
        };
        let mut group = c.benchmark_group(format!("join/{kernel}"));
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        for n in 14..=16 {
            let plan = JoinPlan::new(n, level);
            let all_units = |plan: &JoinPlan| {
                (0..plan.len()).fold((0u128, 0u128), |(weighted, pairs), unit| {
                    let outcome = plan.run_unit(unit);
                    (
                        weighted
                            .checked_add(outcome.weighted)
                            .expect("a small board's total"),
                        pairs
                            .checked_add(outcome.pairs)
                            .expect("a small board's pairs"),
                    )
                })
            };
            let (total, pairs) = all_units(&plan);
            let expected = published(n).expect("published total").total;
            assert_eq!(total, expected, "join/{kernel}, n = {n}");
            group.throughput(Throughput::Elements(
                u64::try_from(pairs).expect("the pairs of a small board"),
            ));
            group.bench_with_input(BenchmarkId::from_parameter(n), &plan, |b, plan| {
                b.iter(|| all_units(black_box(plan)));
            });
        }
        group.finish();
    }
}

criterion_group!(benches, kernels, join_kernels);
criterion_main!(benches);
