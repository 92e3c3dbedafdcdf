//! The processes of one MPI job on this node, which share its memory: Open MPI's
//! `OMPI_COMM_WORLD_LOCAL_SIZE` or MPICH's `MPI_LOCALNRANKS` (set by `mpirun` for
//! each rank), 1 outside an MPI job.
//!
//! This module uses only the standard library.

/// The most ranks on one node counted (a larger value is taken for this bound).
pub(crate) const MAX_LOCAL_RANKS: u64 = 4096;

/// The ranks of this MPI job on this node (1 outside an MPI job, or where the
/// launcher does not say).
pub(crate) fn local_ranks() -> u64 {
    ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok())
        .map_or(1, |value| parse(&value))
}

/// A launcher's count of local ranks: from 1 to [`MAX_LOCAL_RANKS`]; anything else is
/// taken for 1 (no sharing assumed where the launcher's word cannot be read).
fn parse(value: &str) -> u64 {
    match value.trim().parse::<u64>() {
        Ok(0) | Err(_) => 1,
        Ok(ranks) => ranks.min(MAX_LOCAL_RANKS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_launchers_count() {
        assert_eq!(parse("4"), 4);
        assert_eq!(parse(" 2\n"), 2);
        assert_eq!(parse("0"), 1);
        assert_eq!(parse("x"), 1);
        assert_eq!(parse("99999999"), MAX_LOCAL_RANKS);
    }
}
