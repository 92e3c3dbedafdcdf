//! Which kernel runs a search: the portable scalar loop ([`crate::search::scalar`]) or a
//! vector one (on x86-64: `arch::x86_64::avx512`, `arch::x86_64::avx2`). All visit the
//! same nodes and give the same counts; the choice is only about speed.
//!
//! [`Kernel`] is the user's choice; [`Resolved`] is the kernel that runs, made only by
//! [`Kernel::resolve`] once the processor's features are checked. A resolved vector
//! kernel holds its zero-sized token (`Avx2`, `Avx512`, from `crate::cpu`), the proof that the processor
//! runs it, so the tasks of a run never check again. Every resolved kernel also carries
//! the build of the scalar loop it runs (and the vector kernels fall back on): on
//! x86-64 processors with POPCNT and BMI1, a copy compiled with them.

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512, BitOps};
use crate::error::Error;
use crate::model::constraints::Constraints;
use crate::names::named_choice;
#[cfg(target_arch = "x86_64")]
use crate::search::arch::x86_64::bitops;
#[cfg(target_arch = "x86_64")]
use crate::search::lanes::machine;
use crate::search::scalar::{self, Frontier, Tally};

/// The kernel a count runs its tasks with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The fastest one this processor supports: AVX-512, else AVX2, else scalar.
    #[default]
    Auto,
    /// One node at a time, on any processor.
    Scalar,
    /// Eight nodes at a time; needs AVX2, BMI2 and POPCNT (x86-64).
    Avx2,
    /// Sixteen nodes at a time; needs AVX-512F, BMI2 and POPCNT (x86-64).
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
            Kernel::Avx2 => "AVX2, BMI2 and POPCNT",
            Kernel::Avx512 => "AVX-512F, BMI2 and POPCNT",
        }
    }

    /// Whether this processor can run the kernel (`Auto` and `Scalar` always can).
    pub fn is_supported(self) -> bool {
        Engine::of(self).is_some()
    }

    /// The kernel that will actually run: `Auto` becomes the fastest supported one; an
    /// explicit kernel this processor cannot run is an error. Resolve once per run: the
    /// result is proof that the processor runs it.
    ///
    /// # Errors
    /// [`Error::KernelUnsupported`] when this processor lacks a feature the kernel
    /// needs.
    #[doc(hidden)]
    pub fn resolve(self) -> Result<Resolved, Error> {
        let engine = Engine::of(self);
        let resolved = engine.map(|engine| Resolved {
            engine,
            scalar: ScalarBuild::detect(),
        });
        resolved.ok_or(Error::KernelUnsupported {
            kernel: self.name(),
            needs: self.needs(),
        })
    }

    /// The kernel `Auto` resolves to on this processor (the fastest it supports), or the
    /// kernel itself if this processor runs it; an error naming the missing features
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::KernelUnsupported`] when this processor lacks a feature the kernel
    /// needs.
    pub fn resolved(self) -> Result<Kernel, Error> {
        self.resolve().map(Resolved::kernel)
    }
}

/// The kernel that runs, with the proof that this processor runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// The scalar loop, on any processor.
    Scalar,
    /// The AVX2 kernel and its token.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The AVX-512 kernel and its token.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl Engine {
    /// The engine of `kernel` if this processor runs it (the processor's features are
    /// checked here, and only here).
    fn of(kernel: Kernel) -> Option<Engine> {
        match kernel {
            Kernel::Auto => Some(
                Engine::of(Kernel::Avx512)
                    .or_else(|| Engine::of(Kernel::Avx2))
                    .unwrap_or(Engine::Scalar),
            ),
            Kernel::Scalar => Some(Engine::Scalar),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => Avx2::detect().map(Engine::Avx2),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => Avx512::detect().map(Engine::Avx512),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 | Kernel::Avx512 => None,
        }
    }
}

/// How the scalar loop runs: as built, or compiled with POPCNT and BMI1 (which a
/// portable build does not otherwise use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarBuild {
    /// The loop as the crate is built.
    Portable,
    /// The loop compiled with POPCNT and BMI1, and the token that proves them.
    #[cfg(target_arch = "x86_64")]
    BitOps(BitOps),
}

impl ScalarBuild {
    /// The fastest build this processor runs.
    fn detect() -> ScalarBuild {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = BitOps::detect() {
            return ScalarBuild::BitOps(token);
        }
        ScalarBuild::Portable
    }

    /// [`scalar::count`] in this build.
    fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        match self {
            ScalarBuild::Portable => scalar::count(constraints, start),
            #[cfg(target_arch = "x86_64")]
            ScalarBuild::BitOps(token) => bitops::count(token, constraints, start),
        }
    }

    /// The scalar kernel's `weigh_by_class` in this build.
    fn weigh_by_class(self, constraints: &Constraints, start: Frontier, prefix: &[u8]) -> Tally {
        match self {
            ScalarBuild::Portable => scalar::weigh_by_class(constraints, start, prefix),
            #[cfg(target_arch = "x86_64")]
            ScalarBuild::BitOps(token) => bitops::weigh_by_class(token, constraints, start, prefix),
        }
    }
}

/// A kernel this processor runs: only [`Kernel::resolve`] makes one, after checking the
/// processor's features (a vector kernel holds the token that proves them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The kernel.
    engine: Engine,
    /// The scalar loop it runs (the vector kernels for starts too near the last row).
    scalar: ScalarBuild,
}

impl Resolved {
    /// Which kernel this is (never `Auto`).
    pub fn kernel(self) -> Kernel {
        match self.engine {
            Engine::Scalar => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(_) => Kernel::Avx512,
        }
    }

    /// Counts the completions of `start` under `constraints` (see
    /// [`scalar::count`]). A start too close to the last row for the vector kernels
    /// falls back to the scalar loop.
    pub fn count(self, constraints: &Constraints, start: Frontier) -> Tally {
        self.vector::<false>(constraints, start, &[])
            .unwrap_or_else(|| self.scalar.count(constraints, start))
    }

    /// Weighs the completions of `start` by full-symmetry class (see the scalar
    /// kernel's `weigh_by_class`), with the same fallback as [`Resolved::count`] (and
    /// for n = 32).
    pub fn weigh_by_class(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Tally {
        self.vector::<true>(constraints, start, prefix)
            .unwrap_or_else(|| self.scalar.weigh_by_class(constraints, start, prefix))
    }

    /// The search on this vector kernel, if it is one and the search suits it.
    #[inline]
    fn vector<const WEIGH_BY_CLASS: bool>(
        self,
        constraints: &Constraints,
        start: Frontier,
        prefix: &[u8],
    ) -> Option<Tally> {
        match self.engine {
            Engine::Scalar => {
                // The arguments go unused where no vector kernel is compiled.
                let _ = (constraints, start, prefix);
                None
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(k) => machine::search::<_, WEIGH_BY_CLASS>(k, constraints, start, prefix),
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(k) => {
                machine::search::<_, WEIGH_BY_CLASS>(k, constraints, start, prefix)
            }
        }
    }
}

named_choice!(Kernel, "kernel");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kernel::ALL {
            assert_eq!(k.name().parse::<Kernel>(), Ok(k));
        }
        assert!("sse2".parse::<Kernel>().is_err());
    }

    #[test]
    fn auto_resolves_to_the_fastest_supported_kernel() {
        let auto = Kernel::Auto.resolve().unwrap().kernel();
        let fastest = [Kernel::Avx512, Kernel::Avx2, Kernel::Scalar]
            .into_iter()
            .find(|k| k.is_supported())
            .unwrap();
        assert_eq!(auto, fastest);
        assert_eq!(Kernel::Scalar.resolve().unwrap().kernel(), Kernel::Scalar);
    }

    #[test]
    fn an_explicit_kernel_resolves_to_itself_or_names_what_it_needs() {
        for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            match k.resolve() {
                Ok(resolved) => assert_eq!(resolved.kernel(), k),
                Err(Error::KernelUnsupported { kernel, needs }) => {
                    assert_eq!((kernel, needs), (k.name(), k.needs()));
                }
                Err(e) => panic!("{k}: {e}"),
            }
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[test]
    fn only_the_scalar_kernel_runs_off_x86_64() {
        assert_eq!(Kernel::Auto.resolved().unwrap(), Kernel::Scalar);
        assert!(!Kernel::Avx2.is_supported() && !Kernel::Avx512.is_supported());
    }
}
