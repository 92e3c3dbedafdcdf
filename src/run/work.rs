//! The work of a count: the engine's list of independent units, and how one unit runs.
//!
//! Every way of running a count (plain, long, sharded, distributed) goes through a
//! [`Work`]: a deterministic number of units, each run on its own by index, so that a
//! checkpoint, a shard or an MPI rank can name units by their index whatever the
//! engine. The backtracking engine's units are the tasks of its task list; the join
//! engine's are its row sets.

use crate::error::{Error, Unsuited};
use crate::join::{JoinPlan, Vectors};
use crate::model::placement::Placement;
use crate::plan::TaskList;
use crate::run::count::Options;
use crate::run::engine::{join_is_faster, Engine};
use crate::run::identity::RunIdentity;
use crate::run::tasks::{run_task, TaskResult};
use crate::search::kernel::{Kernel, Resolved};
use crate::symmetry::Symmetry;

/// The units of a count and what runs them.
pub(crate) enum Work {
    /// The backtracking engine: a task list and the kernel that searches its tasks.
    Backtrack {
        /// The tasks.
        list: TaskList,
        /// The kernel, resolved once for the run.
        kernel: Resolved,
    },
    /// The join engine: its tables and row-set units.
    Join {
        /// The plan: shared tables and units.
        plan: JoinPlan,
    },
}

impl Work {
    /// The work of a count of the completions of `placement` under `options`, on
    /// `threads` workers: the engine is chosen ([`choose`]), its kernel resolved, and
    /// its units listed.
    ///
    /// # Errors
    /// As [`choose`]; [`Error::Memory`] when the join engine would need more memory
    /// than this machine has available (checked before anything is allocated); for
    /// the backtracking engine also as [`TaskList::for_placement`] and
    /// [`Kernel::resolve`].
    pub(crate) fn build(
        placement: &Placement,
        options: &Options,
        threads: usize,
    ) -> Result<Work, Error> {
        Ok(match choose(placement, options)? {
            Chosen::Backtrack => {
                let kernel = options.kernel.resolve()?;
                let list =
                    TaskList::for_placement(placement, options.symmetry, options.split_depth)?;
                Work::Backtrack { list, kernel }
            }
            Chosen::Join(vectors) => {
                crate::run::memory::check_join(placement.n(), threads)?;
                Work::Join {
                    plan: JoinPlan::new(placement.n(), vectors),
                }
            }
        })
    }

    /// The board size.
    pub(crate) fn n(&self) -> usize {
        match self {
            Work::Backtrack { list, .. } => list.n,
            Work::Join { plan } => plan.n(),
        }
    }

    /// The number of units.
    pub(crate) fn len(&self) -> usize {
        match self {
            Work::Backtrack { list, .. } => list.len(),
            Work::Join { plan } => plan.len(),
        }
    }

    /// The engine (never `Auto`).
    pub(crate) fn engine(&self) -> Engine {
        match self {
            Work::Backtrack { .. } => Engine::Backtrack,
            Work::Join { .. } => Engine::Join,
        }
    }

    /// The kernel that runs the units (never `Auto`).
    pub(crate) fn kernel(&self) -> Kernel {
        match self {
            Work::Backtrack { kernel, .. } => kernel.kernel(),
            Work::Join { plan } => vectors_kernel(plan.vectors()),
        }
    }

    /// The symmetry reduction (the join engine's own is the full group).
    pub(crate) fn symmetry(&self) -> Symmetry {
        match self {
            Work::Backtrack { list, .. } => list.symmetry,
            Work::Join { .. } => Symmetry::Full,
        }
    }

    /// Rows fixed to form tasks (the backtracking engine only).
    pub(crate) fn split_depth(&self) -> Option<usize> {
        match self {
            Work::Backtrack { list, .. } => Some(list.split_depth),
            Work::Join { .. } => None,
        }
    }

    /// Work done before the units: the queens placed while building the tasks.
    pub(crate) fn setup_work(&self) -> u64 {
        match self {
            Work::Backtrack { list, .. } => list.setup_nodes,
            Work::Join { .. } => 0,
        }
    }

    /// Runs unit `index`: its weighted solutions and its work (nodes, or pairs).
    ///
    /// # Panics
    /// If `index` is out of range.
    pub(crate) fn run(&self, index: usize) -> TaskResult {
        match self {
            Work::Backtrack { list, kernel } => run_task(list, index, *kernel),
            Work::Join { plan } => {
                let outcome = plan.run_unit(index);
                TaskResult {
                    index,
                    weighted: outcome.weighted,
                    work: outcome.pairs,
                }
            }
        }
    }

    /// The identity of a run over this work, with `placements` (empty for none).
    pub(crate) fn identity(&self, placements: &str) -> RunIdentity {
        RunIdentity {
            n: self.n(),
            engine: self.engine(),
            symmetry: self.symmetry(),
            split_depth: self.split_depth(),
            placements: placements.to_string(),
            tasks: self.len(),
        }
    }
}

/// The engine a count will run with, and the join engine's vector code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// The backtracking engine.
    Backtrack,
    /// The join engine with these vectors.
    Join(Vectors),
}

/// The engine that runs a count of the completions of `placement` under `options`:
/// the requested one, or for `auto` the join engine where it serves the options and
/// is the faster one ([`join_is_faster`]), the backtracking one elsewhere. (Memory is
/// checked when the work is built.)
///
/// # Errors
/// [`Error::EngineUnsuited`] when the join engine is requested for options it cannot
/// serve; [`Error::KernelUnsupported`] for a kernel this processor lacks.
pub(crate) fn choose(placement: &Placement, options: &Options) -> Result<Chosen, Error> {
    let n = placement.n();
    match options.engine {
        Engine::Backtrack => Ok(Chosen::Backtrack),
        Engine::Join => match unsuited_for_join(placement, options) {
            Some(reason) => Err(Error::EngineUnsuited {
                engine: Engine::Join.name(),
                reason,
            }),
            None => Ok(Chosen::Join(join_vectors(options.kernel)?)),
        },
        Engine::Auto => {
            if join_is_faster(n) && unsuited_for_join(placement, options).is_none() {
                Ok(Chosen::Join(join_vectors(options.kernel)?))
            } else {
                Ok(Chosen::Backtrack)
            }
        }
    }
}

/// Why the join engine cannot count with these options, if it cannot.
fn unsuited_for_join(placement: &Placement, options: &Options) -> Option<Unsuited> {
    let n = placement.n();
    if !placement.is_empty() {
        Some(Unsuited::Placement)
    } else if options.symmetry != Symmetry::Full {
        Some(Unsuited::Symmetry(options.symmetry.name()))
    } else if options.split_depth.is_some() {
        Some(Unsuited::SplitDepth)
    } else if n < crate::join::MIN_N {
        Some(Unsuited::BoardSize {
            n,
            min: crate::join::MIN_N,
        })
    } else {
        None
    }
}

/// The kernel name of the join engine's vector code.
pub(crate) fn vectors_kernel(vectors: Vectors) -> Kernel {
    match vectors {
        Vectors::Portable => Kernel::Scalar,
        #[cfg(target_arch = "x86_64")]
        Vectors::Avx2(_) => Kernel::Avx2,
        #[cfg(target_arch = "x86_64")]
        Vectors::Avx512 { .. } => Kernel::Avx512,
    }
}

/// The join engine's vector code for the kernel choice `kernel` (not `avx512`).
///
/// # Errors
/// [`Error::KernelUnsupported`] for `avx2` on a processor without it.
fn join_vectors(kernel: Kernel) -> Result<Vectors, Error> {
    match kernel {
        Kernel::Auto => Ok(Vectors::best()),
        Kernel::Scalar => Ok(Vectors::Portable),
        Kernel::Avx2 => Vectors::avx2().ok_or(Error::KernelUnsupported {
            kernel: kernel.name(),
            needs: kernel.needs(),
        }),
        Kernel::Avx512 => Vectors::avx512()
            .or_else(Vectors::avx2)
            .ok_or(Error::KernelUnsupported {
                kernel: kernel.name(),
                needs: kernel.needs(),
            }),
    }
}
