//! The `--place R:C[,R:C...]` option shared by `count` and `solve`.

use nqueens::Placement;

use super::Failure;

/// Help text of `--place`.
pub const HELP: &str = "Fix queens on these squares (0-based row:column, comma-separated) \
and count or list the completions";

/// The placement given by `--place` for an n x n board (the empty placement without
/// it). Queens that attack each other are valid input: a note on stderr says that
/// there is no completion.
pub fn placement(n: usize, text: Option<&str>) -> Result<Placement, Failure> {
    let placement = match text {
        Some(text) => Placement::parse(n, text),
        None => Placement::empty(n),
    }
    .map_err(|e| Failure::usage(e.to_string()))?;
    if let Some(((r1, c1), (r2, c2))) = placement.conflict() {
        super::output::note(&format!(
            "note: the placed queens attack each other ({r1}:{c1} and {r2}:{c2}); there are no completions"
        ));
    }
    Ok(placement)
}
