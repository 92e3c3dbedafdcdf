//! Criterion benchmark of whole counts: `nqueens::count` for n = 10..=14, for every
//! mode of `Symmetry::ALL` (so a new mode is benchmarked without editing this file),
//! with one thread and with every logical CPU.
//!
//! Each iteration is a complete count (task building, pool start, search, reduction).
//! Throughput is in elements per second, an element being one queen placed by that
//! count (`Count::nodes`). Groups are named `count/<mode>`, benchmarks
//! `threads=<T>/<n>`. Flat sampling and short times keep `cargo bench --features bench`
//! at about a minute; pass `--measurement-time`/`--sample-size` for a more precise run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use nqueens::limits::resolve_threads;
use nqueens::{count, EngineChoice, Options, Symmetry};

use nqueens::published::published;

/// The measurement time of the fast counts.
const MEASUREMENT: Duration = Duration::from_millis(800);

/// Counts n = 10..=14 in every mode, with 1 thread and with every logical CPU.
fn counts(c: &mut Criterion) {
    let all = resolve_threads(None).expect("the CPU count");
    let mut thread_counts = vec![1];
    if all > 1 {
        thread_counts.push(all);
    }
    let modes = Symmetry::ALL
        .into_iter()
        .map(|symmetry| (EngineChoice::Backtrack, symmetry, symmetry.name()))
        .chain([(EngineChoice::Join, Symmetry::Full, "join")]);
    for (engine, symmetry, name) in modes {
        let mut group = c.benchmark_group(format!("count/{name}"));
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(MEASUREMENT);
        for &threads in &thread_counts {
            let options = Options {
                threads: Some(threads),
                symmetry,
                engine,
                ..Options::default()
            };
            for n in 10..=14 {
                let first = count(n, &options).expect("a valid count");
                let expected = published(n).expect("published total").total;
                assert_eq!(first.total, expected, "{symmetry}, n = {n}");
                // Ten flat samples of the slow counts take about ten counts' time.
                let target = Duration::from_secs_f64(first.seconds * 12.0).max(MEASUREMENT);
                group.measurement_time(target);
                let work = first.work.amount();
                group.throughput(Throughput::Elements(
                    u64::try_from(work).expect("small boards"),
                ));
                let id = BenchmarkId::new(format!("threads={threads}"), n);
                group.bench_with_input(id, &n, |b, &n| {
                    b.iter(|| count(black_box(n), black_box(&options)).expect("a valid count"));
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, counts);
criterion_main!(benches);
