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

use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::placement::Placement;
use crate::run::count::{whole_board_fundamental, Count, Options};
use crate::run::limbs::{pack, unpack, LIMBS};
use crate::run::tasks::{run_indices, run_tasks, Setup, Sums};

/// Environment variables set by MPI launchers (Open MPI, MPICH/Hydra, PMIx).
pub(crate) const LAUNCHER_VARIABLES: [&str; 4] = [
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
    let setup = Setup::with_threads(placement, options, rank_threads(options.threads)?)?;
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| Error::Mpi("MPI was already initialized".into()))?;
    let world = universe.world();
    let ranks = usize::try_from(world.size()).unwrap_or(1);
    let sums = if world.rank() == 0 {
        serve_and_work(&world, &setup, ranks)
    } else {
        work_remotely(&world, &setup)
    };
    // A rank whose sums overflowed reports the largest value: the total then fails
    // the checked addition on rank 0 as well.
    let sums = sums.unwrap_or(Sums {
        total: u128::MAX,
        nodes: u128::MAX,
    });
    let local = pack(sums, setup.threads);
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.reduce_into(&local[..], SystemOperation::sum());
        return Ok(None);
    }
    let mut sum = [0u64; LIMBS];
    root.reduce_into_root(&local[..], &mut sum[..], SystemOperation::sum());
    let (sums, threads) = unpack(&sum)?;
    let fundamental = whole_board_fundamental(&setup, options, sums.total)?;
    Ok(Some(Count::assemble(&setup, sums, threads, fundamental)))
}

/// Rank 0: its pool works through the shared counter while the main thread hands
/// ranges to the other ranks until each has been told that the work is done.
fn serve_and_work<C: Communicator>(world: &C, setup: &Setup, ranks: usize) -> Result<Sums, Error> {
    let next = AtomicUsize::new(0);
    let len = setup.list.len();
    std::thread::scope(|scope| {
        let local = scope.spawn(|| {
            let workers = setup.pool.current_num_threads();
            setup.pool.install(|| {
                let indices = (0..workers).into_par_iter().flat_map_iter(|_| {
                    std::iter::from_fn(|| {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        (i < len).then_some(i)
                    })
                });
                run_indices(setup, indices, |_| {})
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
fn work_remotely<C: Communicator>(world: &C, setup: &Setup) -> Result<Sums, Error> {
    let root = world.process_at_rank(0);
    let mut sums = Sums::default();
    loop {
        root.send_with_tag(&[setup.threads as u64][..], REQUEST);
        let (range, _) = root.receive_vec_with_tag::<u64>(RANGE);
        let (from, to) = (range[0] as usize, range[1] as usize);
        if from >= to {
            return Ok(sums);
        }
        let indices: Vec<usize> = (from..to).collect();
        let ran = setup.pool.install(|| run_tasks(setup, &indices, |_| {}))?;
        sums = sums.checked_add(ran)?;
    }
}
