//! The MPI environment of this process (cargo feature `mpi`): initialized by a
//! distributed count, and finalized only when the command says so
//! ([`finalize_mpi`]), after it has printed its result or its `interrupted:` line.
//!
//! MPI's finalization waits for the launcher. When `mpirun` itself gets SIGTERM or
//! SIGINT, it forwards SIGTERM to the ranks and kills them a second later, and stops
//! answering: a rank that finalized before printing would never print. So the
//! environment outlives the count and is finalized last.
//!
//! A lowest module of the MPI folder: it uses the `mpi` crate only.

use std::cell::RefCell;

use mpi::environment::Universe;

thread_local! {
    /// The environment, on the thread that initialized it (MPI is funneled through
    /// the main thread).
    static UNIVERSE: RefCell<Option<Universe>> = const { RefCell::new(None) };
}

/// Keeps `universe` until [`finalize_mpi`].
pub(crate) fn keep(universe: Universe) {
    UNIVERSE.with(|u| *u.borrow_mut() = Some(universe));
}

/// Finalizes MPI if a distributed count initialized it on this thread (else does
/// nothing). Call it once the result, or the line of a stopped run, is printed.
pub fn finalize_mpi() {
    UNIVERSE.with(|u| drop(u.borrow_mut().take()));
}
