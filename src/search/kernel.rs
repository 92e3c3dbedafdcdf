//! Which kernel runs a search: the portable scalar loop ([`crate::search::scalar`]) or a vector
//! one ([`crate::search::arch::x86_64::avx512`], [`crate::search::arch::x86_64::avx2`]). All visit the same nodes and give the same
//! counts; the choice is only about speed.

use crate::error::Error;
use crate::model::constraints::Constraints;
use crate::names::named_choice;
#[cfg(target_arch = "x86_64")]
use crate::search::arch::x86_64;
use crate::search::scalar::{self, Frontier, Tally};

/// The kernel a count runs its tasks with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The fastest one this processor supports: AVX-512, else AVX2, else scalar.
    #[default]
    Auto,
    /// One node at a time, on any processor.
    Scalar,
    /// Eight nodes at a time; needs AVX2 and BMI2.
    Avx2,
    /// Sixteen nodes at a time; needs AVX-512F and BMI2.
    Avx512,
}

impl Kernel {
    /// Every choice, as accepted on the command line.
    pub const ALL: [Kernel; 4] = [Kernel::Auto, Kernel::Scalar, Kernel::Avx2, Kernel::Avx512];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// The processor features a kernel needs (none for `Auto` and `Scalar`).
    pub fn needs(self) -> &'static str {
        match self {
            Kernel::Auto | Kernel::Scalar => "nothing",
            Kernel::Avx2 => "AVX2 and BMI2",
            Kernel::Avx512 => "AVX-512F and BMI2",
        }
    }

    /// Whether this processor can run the kernel (`Auto` and `Scalar` always can).
    pub fn is_supported(self) -> bool {
        match self {
            Kernel::Auto | Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86_64::avx2::is_supported(),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => x86_64::avx512::is_supported(),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 | Kernel::Avx512 => false,
        }
    }

    /// The kernel that will actually run: `Auto` becomes the fastest supported one; an
    /// explicit kernel this processor cannot run is an error. Resolve once per run: the
    /// result is proof that the processor runs it.
    #[doc(hidden)]
    pub fn resolve(self) -> Result<Resolved, Error> {
        let kernel = match self {
            Kernel::Auto => [Kernel::Avx512, Kernel::Avx2]
                .into_iter()
                .find(|k| k.is_supported())
                .unwrap_or(Kernel::Scalar),
            k if k.is_supported() => k,
            k => {
                return Err(Error::KernelUnsupported {
                    kernel: k.name(),
                    needs: k.needs(),
                })
            }
        };
        Ok(Resolved(kernel))
    }

    /// The kernel `Auto` resolves to on this processor (the fastest it supports), or the
    /// kernel itself if this processor runs it; an error naming the missing features
    /// otherwise.
    pub fn resolved(self) -> Result<Kernel, Error> {
        self.resolve().map(Resolved::kernel)
    }
}

/// A kernel this processor runs: only [`Kernel::resolve`] makes one, after checking the
/// processor's features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved(Kernel);

impl Resolved {
    /// Which kernel this is (never `Auto`).
    pub fn kernel(self) -> Kernel {
        self.0
    }

    /// Counts the completions of `start` under `constraints` (see
    /// [`scalar::count`]). A start too close to the last row for the vector kernels
    /// falls back to the scalar loop.
    pub fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        #[cfg(target_arch = "x86_64")]
        {
            let vector = match self.0 {
                Kernel::Avx512 => x86_64::avx512::search(constraints, start),
                Kernel::Avx2 => x86_64::avx2::search(constraints, start),
                _ => None,
            };
            if let Some(tally) = vector {
                return tally;
            }
        }
        scalar::count(constraints, start)
    }

    /// Weighs the completions of `start` by full-symmetry class (see
    /// [`scalar::weigh_by_class`]), with the same fallback as [`Resolved::count`].
    pub fn weigh_by_class(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Tally {
        #[cfg(target_arch = "x86_64")]
        {
            let vector = match self.0 {
                Kernel::Avx512 => x86_64::avx512::weigh_by_class(constraints, start, prefix),
                Kernel::Avx2 => x86_64::avx2::weigh_by_class(constraints, start, prefix),
                _ => None,
            };
            if let Some(tally) = vector {
                return tally;
            }
        }
        scalar::weigh_by_class(constraints, start, prefix)
    }
}

named_choice!(Kernel, "kernel");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::TaskList;
    use crate::Symmetry;

    #[test]
    fn names_round_trip() {
        for k in Kernel::ALL {
            assert_eq!(k.name().parse::<Kernel>(), Ok(k));
        }
        assert!("sse2".parse::<Kernel>().is_err());
    }

    #[test]
    fn auto_resolves_to_a_concrete_kernel() {
        let k = Kernel::Auto.resolve().unwrap();
        assert_ne!(k.kernel(), Kernel::Auto);
        assert_eq!(Kernel::Scalar.resolve().unwrap().kernel(), Kernel::Scalar);
        for k in Kernel::ALL {
            assert_eq!(k.resolve().is_ok(), k.is_supported(), "{k}");
        }
    }

    /// The vector kernels this processor runs (the tests compare each with the scalar
    /// kernel).
    fn vector_kernels() -> Vec<Resolved> {
        [Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter_map(|k| k.resolve().ok())
            .collect()
    }

    /// The scalar kernel.
    fn scalar() -> Resolved {
        Kernel::Scalar.resolve().unwrap()
    }

    /// Every task of every mode, whole boards and the weighed canonical seeds: the same
    /// solutions and nodes from every kernel.
    #[test]
    fn kernels_agree_task_by_task() {
        for kernel in vector_kernels() {
            agree_task_by_task(kernel);
        }
    }

    fn agree_task_by_task(kernel: Resolved) {
        for n in 4..=12 {
            for symmetry in Symmetry::ALL {
                for depth in [1, 2, 3] {
                    let Ok(list) = TaskList::build(n, symmetry, Some(depth)) else {
                        continue;
                    };
                    for task in &list.tasks {
                        let c = &list.constraints[task.constraints];
                        let prefix = &task.prefix[..task.frontier.row];
                        let (fast, slow) = if task.weigh_by_class {
                            (
                                kernel.weigh_by_class(c, task.frontier, prefix),
                                scalar().weigh_by_class(c, task.frontier, prefix),
                            )
                        } else {
                            (
                                kernel.count(c, task.frontier),
                                scalar().count(c, task.frontier),
                            )
                        };
                        assert_eq!(
                            fast, slow,
                            "{kernel:?}, n = {n}, {symmetry}, {depth}, {task:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_unsupported_kernel_is_a_usage_error_naming_the_way_out() {
        let e = Error::KernelUnsupported {
            kernel: "avx512",
            needs: Kernel::Avx512.needs(),
        };
        let message = e.to_string();
        assert_eq!(
            message,
            "the avx512 kernel needs AVX-512F and BMI2, which this processor lacks"
        );
    }

    /// Random row constraints and random starts: every kernel counts the same.
    mod random {
        use super::*;
        use crate::model::constraints::full_mask;
        use proptest::prelude::*;

        /// A board size, a column mask for each row, and a start row with the columns
        /// to try on the rows above it.
        fn constrained_start() -> impl Strategy<Value = (usize, Vec<u32>, Vec<u32>)> {
            (4usize..=13).prop_flat_map(|n| {
                let full = full_mask(n);
                (
                    Just(n),
                    proptest::collection::vec((0..=full).prop_map(move |m| m | m >> 1), n),
                    proptest::collection::vec(0..=full, 0..n),
                )
            })
        }

        proptest! {
            #[test]
            fn kernels_agree_on_random_constraints((n, masks, picks) in constrained_start()) {
                let mut c = Constraints::new(n);
                for (row, &mask) in masks.iter().enumerate() {
                    c.restrict(row, mask | (row as u32 % 3).wrapping_neg());
                }
                // Place a queen on each row of the prefix where one fits.
                let mut start = Frontier::ROOT;
                for &pick in &picks {
                    let avail = start.available(&c);
                    if avail == 0 {
                        break;
                    }
                    let choice = avail & (pick | avail.wrapping_neg() & avail);
                    start = start.place(choice & choice.wrapping_neg());
                }
                let expected = scalar().count(&c, start);
                for kernel in vector_kernels() {
                    prop_assert_eq!(kernel.count(&c, start), expected, "{:?}", kernel);
                }
            }
        }
    }

    #[test]
    fn whole_trees_agree() {
        for n in 0..=13 {
            let c = Constraints::new(n);
            let expected = scalar().count(&c, Frontier::ROOT);
            for kernel in vector_kernels() {
                assert_eq!(
                    kernel.count(&c, Frontier::ROOT),
                    expected,
                    "{kernel:?}, n = {n}"
                );
            }
        }
    }
}
