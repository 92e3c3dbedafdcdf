//! The run a checkpoint belongs to, rebuilt from its header: its engine, the version
//! of the engine's unit list (which must be this build's), and its units described
//! ([`Units`]) without building what counts them.

use crate::engine::spec::Units;
use crate::engine::{counting, Engine, Request};
use crate::error::Error;
use crate::limits::MAX_N;
use crate::model::placement::Placement;
use crate::run::long::identity::{RunId, UNITS_KEY};
use crate::symmetry::Symmetry;

/// A checkpoint's run, as an audit needs it.
pub(crate) struct Run {
    /// The board size.
    pub(crate) n: usize,
    /// The engine.
    pub(crate) engine: Engine,
    /// The version of its unit list (this build's).
    pub(crate) units_version: u32,
    /// The symmetry mode.
    pub(crate) symmetry: Symmetry,
    /// The split depth (the backtracking engine).
    pub(crate) split_depth: Option<usize>,
    /// The pre-placed queens (`R:C,...`, empty for none).
    pub(crate) placements: String,
    /// Its units, described.
    pub(crate) units: Box<dyn Units>,
}

/// The run of the checkpoint `name` whose header is `id`.
///
/// # Errors
/// [`Error::Audit`] for a header this build cannot rebuild (its format was checked
/// when it was read): no version of the unit list or another one than this build's, impossible facts, or a
/// unit count that is not the one this build lists for the run.
pub(crate) fn rebuild(id: &RunId, name: &str) -> Result<Run, Error> {
    let refuse = |why: String| Error::Audit(format!("{name} {why}"));
    let field = |key: &str| {
        id.get(key)
            .ok_or_else(|| refuse(format!("names no {key}: a damaged header")))
    };
    let number = |key: &str| {
        field(key)?
            .parse::<usize>()
            .map_err(|_| refuse(format!("has an impossible {key}: a damaged header")))
    };
    let n = number("n")?;
    if n > MAX_N {
        return Err(refuse(format!("names n = {n}, above {MAX_N}")));
    }
    let engine = match id.get("engine") {
        None => Engine::UNNAMED,
        Some(name) => name.parse().map_err(|e| refuse(format!("names an {e}")))?,
    };
    let ours = counting(engine).units_version();
    let units_version = match id.get(UNITS_KEY).map(str::parse::<u32>) {
        None => {
            return Err(refuse(format!(
                "records no version of the {engine} engine's unit list (it was written before \
                 checkpoints recorded one): this build (version {ours}) cannot tell its units \
                 from its own; audit it with the nqueens that wrote it"
            )))
        }
        Some(Ok(v)) if v == ours => v,
        Some(Ok(v)) => {
            return Err(refuse(format!(
                "was written with version {v} of the {engine} engine's unit list, and this \
                 build uses version {ours}: audit it with a build of version {v}"
            )))
        }
        Some(Err(_)) => return Err(refuse("has an impossible units: a damaged header".into())),
    };
    let symmetry: Symmetry = field("symmetry")?
        .parse()
        .map_err(|e| refuse(format!("names an {e}")))?;
    let split_depth = id
        .get("split_depth")
        .map(|_| number("split_depth"))
        .transpose()?;
    let placements = field("placements")?.to_string();
    let tasks = number("tasks")?;
    let placement = if placements.is_empty() {
        Placement::empty(n)
    } else {
        Placement::parse(n, &placements)
    }
    .map_err(|e| refuse(format!("names impossible placed queens: {e}")))?;
    let request = Request {
        placement: &placement,
        symmetry,
        split_depth,
        // The unit list depends on neither: only the engine's plan does.
        threads: 1,
        memory: u64::MAX,
    };
    if let Some(why) = counting(engine).unsuited(&request) {
        return Err(refuse(format!(
            "names a run the {engine} engine cannot make: it {why}"
        )));
    }
    let units = counting(engine)
        .units(&request)
        .map_err(|e| refuse(format!("names a run this build cannot list: {e}")))?;
    if units.len() != tasks {
        return Err(refuse(format!(
            "names a run of {tasks} units, and this build lists {} for it",
            units.len()
        )));
    }
    Ok(Run {
        n,
        engine,
        units_version,
        symmetry,
        split_depth,
        placements,
        units,
    })
}
