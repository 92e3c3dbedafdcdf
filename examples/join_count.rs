//! A bare driver of the half-board join engine, for timing it against other builds
//! (not part of the command line): `join_count N [THREADS] [KERNEL] [STRIDE]` prints
//! the total, the units, the pair evaluations, the processor level and the seconds.
//! With a `STRIDE` above 1 it runs every `STRIDE`-th unit only (a quick, repeatable
//! sample for timing; its total is then a partial sum).

use std::time::Instant;

use nqueens::internals::{JoinPlan, JOIN_MAX_N, JOIN_MIN_N};
use nqueens::Kernel;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(0);
    if !(JOIN_MIN_N..=JOIN_MAX_N).contains(&n) {
        eprintln!("usage: join_count N [THREADS] [auto|scalar|avx2|avx512] [STRIDE], N in {JOIN_MIN_N}..={JOIN_MAX_N}");
        std::process::exit(2);
    }
    let threads: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let kernel: Kernel = match args.get(2) {
        Some(name) => name
            .parse()
            .expect("a kernel: auto, scalar, avx2 or avx512"),
        None => Kernel::Auto,
    };
    let level = kernel.level().expect("a kernel this processor runs");
    let stride: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1).max(1);
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let plan = JoinPlan::new(n, level);
    let (total, pairs) = pool.install(|| {
        (0..plan.len())
            .into_par_iter()
            .filter(|index| index % stride == 0)
            .map(|index| plan.run_unit(index))
            .map(|outcome| (outcome.weighted, outcome.pairs))
            .reduce(
                || (0, 0),
                |a, b| {
                    let sum = |x: u128, y: u128| x.checked_add(y).expect("sums below 2^128");
                    (sum(a.0, b.0), sum(a.1, b.1))
                },
            )
    });
    println!("n {n}");
    println!("total {total}");
    println!("units {}", plan.len());
    println!("pairs {pairs}");
    println!("level {level:?}");
    println!("seconds {:.3}", start.elapsed().as_secs_f64());
}
