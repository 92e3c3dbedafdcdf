//! Distributed counts over MPI ranks (cargo feature `mpi`).
//!
//! Every rank builds the same deterministic task list. Rank 0 opens the checkpoint, if
//! any, and broadcasts which tasks it already holds, so that every rank knows the same
//! list of remaining tasks. Rank 0 then hands out positions in that list from a shared
//! counter: its own worker threads take them one at a time, and its main thread
//! answers the other ranks' requests with ranges whose size shrinks as the work runs
//! out (guided scheduling), so fast and slow ranks finish together; it polls for
//! requests rather than blocking, as MPI's blocking receive spins a core.
//!
//! Each request carries the results of the rank's previous range, task by task, so
//! rank 0 knows every finished task: it checks each against the units it holds (in
//! range, never received before, the checkpoint's resumed units included: `Received`),
//! records them in the checkpoint as they arrive (a rerun after a lost rank resumes
//! from there) and sums them; at the end every unit must have been received. At the end one
//! reduction sums each rank's own sums (as 32-bit limbs, exact) and thread counts; rank
//! 0 checks that they agree with the reports it summed, and alone returns the result.
//!
//! A [`Stop`] on any rank stops the whole run: the rank reports it with its next
//! request, and rank 0 then answers every request with an empty range.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use mpi::collective::SystemOperation;
use mpi::traits::{Communicator, Destination, Root, Source};
use mpi::Threading;
use rayon::prelude::*;

use crate::engine::TaskResult;
use crate::error::Error;
use crate::limits::resolve_threads;
use crate::model::placement::Placement;
use crate::run::count::drive::{drive, drive_list, Sums};
use crate::run::count::options::Options;
use crate::run::count::result::Count;
use crate::run::count::setup::Setup;
use crate::run::count::stop::Stop;
use crate::run::long::checkpoint::Checkpoint;
use crate::run::long::identity::RunIdentity;
use crate::run::long::longrun::{LongRun, LongRunOptions};
use crate::run::long::resumable::{open_checkpoint, stopped, Pass};
use crate::run::long::shard::Shard;
use crate::run::mpi::limbs::{pack, unpack, LIMBS};
use crate::run::mpi::received::Received;
use crate::run::mpi::requests::{parse_request, request};

/// Variables that hold the number of ranks on this node.
const LOCAL_SIZE_VARIABLES: [&str; 2] = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"];

/// The tag of a rank's request for work.
const REQUEST: i32 = 1;
/// The tag of rank 0's answer: a range of positions, empty when the work is done.
const RANGE: i32 = 2;

/// How long rank 0's main thread sleeps between checks for requests.
const POLL: std::time::Duration = std::time::Duration::from_micros(500);

/// The thread count of each rank: the requested one, or this node's logical CPUs
/// shared among the ranks that run on it.
fn rank_threads(requested: Option<usize>) -> Result<usize, Error> {
    if requested.is_some() {
        return Ok(resolve_threads(requested)?);
    }
    let local = LOCAL_SIZE_VARIABLES
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    Ok((num_cpus::get() / local).max(1))
}

/// Counts the completions of `placement` (all solutions for the empty placement) over
/// all MPI ranks, resumed from and recorded to `long.checkpoint` by rank 0, and
/// stopped by `long.stop` on any rank. Returns the run on rank 0 and `None` on the
/// other ranks. A shard cannot be combined with it. MPI stays initialized until the
/// caller, having printed, calls [`crate::finalize_mpi`].
///
/// # Errors
/// Those of [`crate::run_long`] (on rank 0 for the checkpoint); [`Error::Mpi`] for a
/// shard, for MPI initialized already, or when the ranks' sums disagree with the
/// results they reported.
pub fn count_distributed(
    placement: &Placement,
    options: &Options,
    long: &LongRunOptions<'_>,
) -> Result<Option<LongRun>, Error> {
    if long.shard.is_some() {
        return Err(Error::Mpi(
            "a shard cannot be spread over ranks: MPI runs share all tasks".into(),
        ));
    }
    let setup = Setup::with_threads(placement, options, rank_threads(options.threads)?)?;
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| Error::Mpi("MPI was already initialized".into()))?;
    let world = universe.world();
    super::session::keep(universe);
    let root = world.process_at_rank(0);
    let never = Stop::new();
    let stop = long.stop.unwrap_or(&never);
    let tasks = setup.plan.len();
    let pass = Pass {
        id: RunIdentity::of_plan(
            setup.engine,
            setup.plan.as_ref(),
            setup.placement.as_deref(),
        )
        .fields()
        .with("shard", "all"),
        tasks,
        shard: Shard { index: 0, count: 1 },
        checkpoint: long.checkpoint,
    };
    // Rank 0 opens the checkpoint and tells every rank which tasks it holds (or that
    // it failed, so that no rank waits for work that never comes).
    let mut opened = None;
    let mut done_marks = vec![0u8; tasks];
    let mut status = [0u64];
    if world.rank() == 0 {
        match open_checkpoint(&pass) {
            Ok((checkpoint, done)) => {
                done.indices().for_each(|i| done_marks[i] = 1);
                opened = Some((checkpoint, done));
            }
            Err(e) => {
                status[0] = 1;
                root.broadcast_into(&mut status[..]);
                return Err(e);
            }
        }
    }
    root.broadcast_into(&mut status[..]);
    if status[0] != 0 {
        return Ok(None);
    }
    root.broadcast_into(&mut done_marks[..]);
    let todo: Vec<usize> = (0..tasks).filter(|&i| done_marks[i] == 0).collect();
    let Some((checkpoint, done)) = opened else {
        let own = work_remotely(&world, &setup, &todo, stop);
        let local = pack(own.unwrap_or(SATURATED), setup.threads);
        root.reduce_into(&local[..], SystemOperation::sum());
        return Ok(None);
    };
    let ranks = usize::try_from(world.size()).unwrap_or(1);
    let received = Received::new(tasks, done.indices());
    let served = serve_and_work(
        &world,
        &setup,
        &todo,
        ranks,
        (&received, checkpoint.as_ref()),
        stop,
    );
    let finish = checkpoint.as_ref().map_or(Ok(()), Checkpoint::finish);
    let own = served.as_ref().map_or(SATURATED, |s| s.own);
    let local = pack(own, setup.threads);
    let mut sum = [0u64; LIMBS];
    root.reduce_into_root(&local[..], &mut sum[..], SystemOperation::sum());
    finish?;
    let served = served?;
    let (reduced, threads) = unpack(&sum)?;
    if reduced != served.reported {
        return Err(Error::Mpi(
            "the ranks' own sums disagree with the results they reported".into(),
        ));
    }
    if served.ran < todo.len() {
        let saved = done.count() + served.ran;
        return Err(stopped(saved, tasks, checkpoint.as_ref()));
    }
    // Every unit once: the record refused repeats, so all of them are there.
    if received.count() != tasks {
        return Err(Error::Mpi(format!(
            "{} of the {tasks} units were received: the results are incomplete",
            received.count()
        )));
    }
    let sums = done.sums().checked_add(served.reported)?;
    Ok(Some(LongRun {
        count: Count::conclude(&setup, sums, threads, options.unique)?,
        shard: None,
        tasks,
        resumed: done.count(),
        ran: served.ran,
        checkpointed: long.checkpoint.is_some(),
    }))
}

/// What a rank contributes when its sums overflowed: the largest value, so that the
/// total fails the checked arithmetic on rank 0 as well.
const SATURATED: Sums = Sums {
    total: u128::MAX,
    work: u128::MAX,
};

/// What rank 0 gathered: the sums of every task run by any rank (its own and those
/// reported), how many those are, and the sums of its own tasks.
struct Served {
    reported: Sums,
    ran: usize,
    own: Sums,
}

/// Rank 0: its pool works through the shared counter while the main thread hands
/// ranges to the other ranks, checks (in `received`: each unit in range and new),
/// records and sums their results, until each has been told that the work is done.
fn serve_and_work<C: Communicator>(
    world: &C,
    setup: &Setup,
    todo: &[usize],
    ranks: usize,
    (received, checkpoint): (&Received, Option<&Checkpoint>),
    stop: &Stop,
) -> Result<Served, Error> {
    let next = AtomicUsize::new(0);
    let len = todo.len();
    let record = |result: &TaskResult| match checkpoint {
        Some(c) => c.record(result, stop.is_requested()),
        None => Ok(()),
    };
    let own = |result: &TaskResult| {
        received.accept(result.index, "rank 0")?;
        record(result)
    };
    std::thread::scope(|scope| {
        let local = scope.spawn(|| {
            let workers = setup.pool.current_num_threads();
            setup.pool.install(|| {
                let positions = (0..workers).into_par_iter().flat_map_iter(|_| {
                    std::iter::from_fn(|| {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        (i < len).then_some(i)
                    })
                });
                let indices = positions.map(|p| todo[p]);
                drive(indices, stop, |i| setup.run_task(i), own)
            })
        });
        let mut reported = Sums::default();
        let mut ran = 0usize;
        let mut failure: Option<Error> = None;
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
            let (wanted, reason, results) = parse_request(&request);
            if reason != 0 {
                stop.request(reason);
            }
            let source = format!("rank {}", status.source_rank());
            for result in results {
                // A unit out of range or received before counts nowhere.
                if let Err(e) = received.accept(result.index, &source) {
                    failure.get_or_insert(e);
                    continue;
                }
                let added = Sums::of(&result);
                match reported.checked_add(added) {
                    Ok(sums) => reported = sums,
                    Err(e) => {
                        failure.get_or_insert(e);
                    }
                }
                ran += 1;
                // After a stop, synced once a batch below: mpirun kills the ranks a
                // second after it forwards a signal, no time for a sync per record.
                if let Err(e) = checkpoint.map_or(Ok(()), |c| c.record(&result, false)) {
                    failure.get_or_insert(e);
                }
            }
            if let Some(Err(e)) = checkpoint
                .filter(|_| stop.is_requested())
                .map(Checkpoint::finish)
            {
                failure.get_or_insert(e);
            }
            let size = if stop.is_requested() || failure.is_some() {
                0
            } else {
                let left = len.saturating_sub(next.load(Ordering::Relaxed));
                wanted.max(left / (4 * ranks)).max(1)
            };
            let from = next.fetch_add(size, Ordering::Relaxed).min(len);
            let to = (from + size).min(len);
            if from == to {
                working -= 1;
            }
            world
                .process_at_rank(status.source_rank())
                .send_with_tag(&[from as u64, to as u64][..], RANGE);
        }
        let own = local.join().expect("the local workers do not panic")?;
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(Served {
            reported: reported.checked_add(own.sums)?,
            ran: ran + own.tasks,
            own: own.sums,
        })
    })
}

/// Ranks other than 0: ask rank 0 for ranges of positions in `todo`, run them, and
/// report their results with the next request, until rank 0 answers with an empty
/// range. Returns the sums of the tasks this rank ran.
fn work_remotely<C: Communicator>(
    world: &C,
    setup: &Setup,
    todo: &[usize],
    stop: &Stop,
) -> Result<Sums, Error> {
    let root = world.process_at_rank(0);
    let mut sums = Sums::default();
    let mut results = Vec::new();
    let mut failure = None;
    loop {
        let reason = stop.requested().unwrap_or(0);
        root.send_with_tag(&request(setup.threads, reason, &results)[..], REQUEST);
        let (range, _) = root.receive_vec_with_tag::<u64>(RANGE);
        let position = |word: Option<&u64>| usize::try_from(*word.unwrap_or(&0));
        // A position past `usize` (never sent) ends the work like an empty range.
        let from = position(range.first()).unwrap_or(usize::MAX);
        let to = position(range.get(1)).unwrap_or(0).min(todo.len());
        if from >= to {
            return match failure {
                Some(e) => Err(e),
                None => Ok(sums),
            };
        }
        let finished = Mutex::new(Vec::with_capacity(to - from));
        let ran = setup.pool.install(|| {
            drive_list(
                &todo[from..to],
                stop,
                |i| setup.run_task(i),
                |r| {
                    finished
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(*r);
                    Ok(())
                },
            )
        });
        results = finished
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        match ran.and_then(|ran| sums.checked_add(ran.sums)) {
            Ok(s) => sums = s,
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
    }
}
