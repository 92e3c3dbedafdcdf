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

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use nqueens::internals::{Constraints, Frontier, Resolved};
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

criterion_group!(benches, kernels);
criterion_main!(benches);
