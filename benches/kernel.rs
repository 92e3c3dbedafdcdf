//! Criterion benchmark of the bitmask kernel alone: `nqueens::kernel::search` over a
//! whole n x n board (n = 10..=12), with no task splitting and no thread pool.
//!
//! Throughput is reported in elements per second, an element being one queen placed
//! (the search's `nodes`), so the figure reads as nodes per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use nqueens::constraints::Constraints;
use nqueens::kernel::{search, Frontier};
use nqueens::published::published;

/// Whole-board searches for n = 10..=12.
fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in 10..=12 {
        let constraints = Constraints::new(n);
        let tally = search(&constraints, Frontier::ROOT);
        let expected = published(n).expect("published total").total;
        assert_eq!(
            u128::from(tally.solutions),
            expected,
            "kernel total, n = {n}"
        );
        group.throughput(Throughput::Elements(tally.nodes));
        group.bench_with_input(BenchmarkId::from_parameter(n), &constraints, |b, c| {
            b.iter(|| search(black_box(c), black_box(Frontier::ROOT)))
        });
    }
    group.finish();
}

criterion_group!(benches, kernel);
criterion_main!(benches);
