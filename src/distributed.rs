//! Distributed counts over MPI ranks (cargo feature `mpi`).
//!
//! Every rank builds the same deterministic task list. Rank 0 hands out task indices
//! from a shared counter: its own worker threads take them one at a time, and its
//! main thread answers the other ranks' requests with ranges whose size shrinks as
//! the work runs out (guided scheduling), so fast and slow ranks finish together;
//! it polls for requests rather than blocking, as MPI's blocking receive spins a core.
//! Each rank runs its ranges on its own rayon pool; at the end one reduction sums the
//! weighted solutions (as 32-bit limbs, so the `u128` total is exact), the nodes and
//! the thread counts on rank 0, which alone returns the result.

use std::sync::atomic::{AtomicUsize, Ordering};

use mpi::collective::SystemOperation;
use mpi::traits::*;
use mpi::Threading;
use rayon::prelude::*;

use crate::count::{
    fundamental_counts, resolve_threads, run_task, run_tasks, Count, Options, Setup,
};
use crate::dispatch::Kernel;
use crate::error::Error;
use crate::placement::Placement;
use crate::tasks::TaskList;

/// Environment variables set by MPI launchers (Open MPI, MPICH/Hydra, PMIx).
pub const LAUNCHER_VARIABLES: [&str; 4] = [
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMIX_RANK",
    "MPI_LOCALNRANKS",
];

/// Variables that hold the number of ranks on this node.
const LOCAL_SIZE_VARIABLES: [&str; 2] = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"];

/// The tag of a rank's request for work.
const REQUEST: i32 = 1;
/// The tag of rank 0's answer: a task range, empty when the work is done.
const RANGE: i32 = 2;

/// How long rank 0's main thread sleeps between checks for requests.
const POLL: std::time::Duration = std::time::Duration::from_micros(500);

/// Whether this process was started by an MPI launcher such as `mpirun`.
pub fn launched_by_mpi() -> bool {
    LAUNCHER_VARIABLES
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// The thread count of each rank: the requested one, or this node's logical CPUs
/// shared among the ranks that run on it.
fn rank_threads(requested: Option<usize>) -> Result<usize, Error> {
    if requested.is_some() {
        return resolve_threads(requested);
    }
    let local = LOCAL_SIZE_VARIABLES
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    Ok((num_cpus::get() / local).max(1))
}

/// Counts the completions of `placement` (all solutions for the empty placement) over
/// all MPI ranks. Returns the count on rank 0 and `None` on the other ranks.
pub fn count_distributed(placement: &Placement, options: &Options) -> Result<Option<Count>, Error> {
    let n = placement.n();
    let Setup {
        threads,
        kernel,
        pool,
        list,
        start,
    } = Setup::new(placement, options, rank_threads(options.threads)?)?;
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| Error::Mpi("MPI was already initialized".into()))?;
    let world = universe.world();
    let ranks = usize::try_from(world.size()).unwrap_or(1);
    let (total, nodes) = if world.rank() == 0 {
        serve_and_work(&world, &list, &pool, kernel, ranks)
    } else {
        work_remotely(&world, &list, &pool, kernel, threads)
    };
    // Sums of 32-bit limbs never overflow a u64 over the ranks, so the reduction of the
    // u128 total and nodes stays exact.
    let mut local = [0u64; 9];
    for i in 0..4 {
        local[i] = ((total >> (32 * i)) & 0xffff_ffff) as u64;
        local[4 + i] = ((nodes >> (32 * i)) & 0xffff_ffff) as u64;
    }
    local[8] = threads as u64;
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.reduce_into(&local[..], SystemOperation::sum());
        return Ok(None);
    }
    let mut sum = [0u64; 9];
    root.reduce_into_root(&local[..], &mut sum[..], SystemOperation::sum());
    let from_limbs =
        |limbs: &[u64]| (0..4).fold(0u128, |acc, i| acc + (u128::from(limbs[i]) << (32 * i)));
    let total = from_limbs(&sum[..4]);
    let nodes = from_limbs(&sum[4..8]);
    let fundamental = if options.unique {
        Some(pool.install(|| fundamental_counts(n, total))?)
    } else {
        None
    };
    Ok(Some(Count {
        n,
        total,
        unique: fundamental.map(|f| f.0),
        rot180: fundamental.map(|f| f.1),
        rot90: fundamental.map(|f| f.2),
        placement: (!placement.is_empty()).then(|| placement.to_string()),
        nodes: nodes + u128::from(list.setup_nodes),
        tasks: list.len(),
        threads: usize::try_from(sum[8]).unwrap_or(usize::MAX),
        symmetry: list.symmetry,
        kernel,
        split_depth: list.split_depth,
        seconds: start.elapsed().as_secs_f64(),
        version: crate::VERSION,
    }))
}

/// Rank 0: its pool works through the shared counter while the main thread hands
/// ranges to the other ranks until each has been told that the work is done.
fn serve_and_work<C: Communicator>(
    world: &C,
    list: &TaskList,
    pool: &rayon::ThreadPool,
    kernel: Kernel,
    ranks: usize,
) -> (u128, u128) {
    let next = AtomicUsize::new(0);
    let len = list.len();
    std::thread::scope(|scope| {
        let local = scope.spawn(|| {
            pool.install(|| {
                (0..pool.current_num_threads())
                    .into_par_iter()
                    .with_max_len(1)
                    .map(|_| {
                        let (mut total, mut nodes) = (0u128, 0u128);
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= len {
                                return (total, nodes);
                            }
                            let (weighted, tally) = run_task(list, &list.tasks[i], kernel);
                            total += weighted;
                            nodes += u128::from(tally.nodes);
                        }
                    })
                    .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
            })
        });
        let mut working = ranks - 1;
        while working > 0 {
            // A blocking receive would spin a core that the workers need: poll gently.
            let Some(probed) = world.any_process().immediate_probe_with_tag(REQUEST) else {
                std::thread::sleep(POLL);
                continue;
            };
            let (request, status) = world
                .process_at_rank(probed.source_rank())
                .receive_vec_with_tag::<u64>(REQUEST);
            let wanted = request.first().copied().unwrap_or(1).max(1) as usize;
            let left = len.saturating_sub(next.load(Ordering::Relaxed));
            let size = wanted.max(left / (4 * ranks)).max(1);
            let from = next.fetch_add(size, Ordering::Relaxed).min(len);
            let to = (from + size).min(len);
            if from == to {
                working -= 1;
            }
            world
                .process_at_rank(status.source_rank())
                .send_with_tag(&[from as u64, to as u64][..], RANGE);
        }
        local.join().expect("the local workers do not panic")
    })
}

/// Ranks other than 0: ask rank 0 for ranges and run them until it answers with an
/// empty one.
fn work_remotely<C: Communicator>(
    world: &C,
    list: &TaskList,
    pool: &rayon::ThreadPool,
    kernel: Kernel,
    threads: usize,
) -> (u128, u128) {
    let root = world.process_at_rank(0);
    let (mut total, mut nodes) = (0u128, 0u128);
    loop {
        root.send_with_tag(&[threads as u64][..], REQUEST);
        let (range, _) = root.receive_vec_with_tag::<u64>(RANGE);
        let (from, to) = (range[0] as usize, range[1] as usize);
        if from >= to {
            return (total, nodes);
        }
        let indices: Vec<usize> = (from..to).collect();
        let (t, k) = pool.install(|| run_tasks(list, &indices, kernel, |_| {}));
        total += t;
        nodes += k;
    }
}
