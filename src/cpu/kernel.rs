//! The user's kernel choice (`--kernel`): the highest [`Level`] a run may use.

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86_64::{Avx2, Avx512, BitOps};
use crate::cpu::Level;
use crate::error::Error;
use crate::names::named_choice;

/// The kernel a count runs with: the highest processor level its hot loops may use.
/// Each engine runs its best code at or below it: the backtracking search has a scalar,
/// an AVX2 (8 nodes at a time) and an AVX-512 (16) kernel; the join engine a portable
/// and an AVX2 path (it runs AVX2 for `avx512` until it has an AVX-512 path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The highest level this processor runs: AVX-512, else AVX2, else scalar.
    #[default]
    Auto,
    /// Scalar code, on any processor.
    Scalar,
    /// Up to AVX2; needs AVX2, BMI1, BMI2 and POPCNT (x86-64).
    Avx2,
    /// Up to AVX-512; needs AVX-512F, AVX2, BMI1, BMI2 and POPCNT (x86-64).
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
            Kernel::Avx2 => "AVX2, BMI1, BMI2 and POPCNT",
            Kernel::Avx512 => "AVX-512F, AVX2, BMI1, BMI2 and POPCNT",
        }
    }

    /// Whether this processor can run the kernel (`Auto` and `Scalar` always can).
    pub fn is_supported(self) -> bool {
        self.level().is_ok()
    }

    /// The level a run with this choice uses: `Auto` the highest this processor runs;
    /// an explicit kernel its own level, or an error if this processor cannot run it.
    /// The processor is checked here, once per run: the level holds the proof.
    ///
    /// # Errors
    /// [`Error::KernelUnsupported`] when this processor lacks a feature the kernel
    /// needs.
    pub fn level(self) -> Result<Level, Error> {
        let unsupported = Error::KernelUnsupported {
            kernel: self.name(),
            needs: self.needs(),
        };
        match self {
            Kernel::Auto => Ok(Kernel::Avx512
                .level()
                .or_else(|_| Kernel::Avx2.level())
                .or_else(|_| Kernel::Scalar.level())?),
            Kernel::Scalar => Ok(scalar_level()),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => Avx2::detect().map(Level::Avx2).ok_or(unsupported),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => Avx512::detect().map(Level::Avx512).ok_or(unsupported),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 | Kernel::Avx512 => Err(unsupported),
        }
    }

    /// The kernel `Auto` stands for on this processor (the highest it runs), or the
    /// kernel itself if this processor runs it.
    ///
    /// # Errors
    /// [`Error::KernelUnsupported`] when this processor lacks a feature the kernel
    /// needs.
    pub fn resolved(self) -> Result<Kernel, Error> {
        self.level().map(Kernel::of)
    }

    /// The name of a level: `scalar` for the portable and bit-operation levels.
    pub fn of(level: Level) -> Kernel {
        match level {
            Level::Portable => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Level::BitOps(_) => Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Level::Avx512(_) => Kernel::Avx512,
        }
    }
}

/// The scalar level: scalar code with POPCNT and BMI1 where the processor has them.
fn scalar_level() -> Level {
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = BitOps::detect() {
        return Level::BitOps(token);
    }
    Level::Portable
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
        let auto = Kernel::Auto.resolved().unwrap();
        let fastest = [Kernel::Avx512, Kernel::Avx2, Kernel::Scalar]
            .into_iter()
            .find(|k| k.is_supported())
            .unwrap();
        assert_eq!(auto, fastest);
        assert_eq!(Kernel::Scalar.resolved().unwrap(), Kernel::Scalar);
    }

    #[test]
    fn an_explicit_kernel_resolves_to_itself_or_names_what_it_needs() {
        for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            match k.level() {
                Ok(level) => assert_eq!(Kernel::of(level), k),
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
