//! Telling an MPI launch apart, in every build: a build with the `mpi` feature then
//! spreads its count over the ranks, and a build without it refuses, instead of having
//! every rank count everything and print it.

use crate::error::Error;

/// Environment variables set by MPI launchers (Open MPI, MPICH/Hydra, PMIx).
pub(crate) const LAUNCHER_VARIABLES: [&str; 4] = [
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMIX_RANK",
    "MPI_LOCALNRANKS",
];

/// Variables holding the number of ranks: more than one means several copies.
const SIZE_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"];

/// Variables holding this process's rank: above 0 means another copy runs too.
const RANK_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"];

/// Whether this process was started by an MPI launcher such as `mpirun`.
pub fn launched_by_mpi() -> bool {
    LAUNCHER_VARIABLES
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// For a build without MPI support: refuses an MPI launch of several ranks, where each
/// copy would count everything on its own. A launch of one rank (such as `srun` of a
/// single task) is let through.
///
/// # Errors
/// [`Error::MpiUnsupported`] when the environment, read through `var`, shows an MPI
/// launch of several ranks (a size above 1, or a rank above 0).
pub fn refuse_mpi_launch(var: impl Fn(&str) -> Option<String>) -> Result<(), Error> {
    let number =
        |name: &'static str| var(name).and_then(|v| Some((name, v.trim().parse::<u64>().ok()?, v)));
    let several = SIZE_VARIABLES
        .iter()
        .filter_map(|&name| number(name))
        .find(|&(_, size, _)| size > 1);
    let other_rank = || {
        RANK_VARIABLES
            .iter()
            .filter_map(|&name| number(name))
            .find(|&(_, rank, _)| rank > 0)
    };
    match several.or_else(other_rank) {
        Some((variable, _, value)) => Err(Error::MpiUnsupported { variable, value }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn several_ranks_are_refused_one_is_not() {
        assert!(refuse_mpi_launch(env(&[])).is_ok());
        assert!(refuse_mpi_launch(env(&[("OMPI_COMM_WORLD_SIZE", "1")])).is_ok());
        assert!(refuse_mpi_launch(env(&[("PMIX_RANK", "0")])).is_ok());
        let e = refuse_mpi_launch(env(&[("OMPI_COMM_WORLD_SIZE", "2")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "started by an MPI launcher with several ranks (OMPI_COMM_WORLD_SIZE=2), but \
             built without MPI support"
        );
        assert!(refuse_mpi_launch(env(&[("PMI_SIZE", "4")])).is_err());
        assert!(refuse_mpi_launch(env(&[("PMIX_RANK", "3")])).is_err());
    }
}
