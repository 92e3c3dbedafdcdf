//! The engine layer: the counting engines, listed, behind one interface.
//!
//! **Vocabulary.** An *engine* is a way of counting: `backtrack` (the bitmask search,
//! [`crate::backtrack`]) or `join` (the half-board join, [`crate::join`]). For one
//! count an engine makes a *plan* ([`Plan`]): a deterministic list of independent
//! *units* (also called *tasks*: the same thing), each run on its own by index, with
//! the tables they share. A unit's and a count's *work* ([`Work`]) is the effort in the
//! engine's own unit: nodes (queens placed) for `backtrack`, pairs of half-boards for
//! `join`.
//!
//! **Interface.** Every engine implements [`CountingEngine`] (its smallest board, the
//! options it serves and the message when it does not, what makes a shard report of it
//! impossible, the version of its list of units (in every checkpoint identity and shard
//! report), the most units a plan can have, its work unit, its kernel at a processor
//! [`Level`], its predicted peak memory, its units described for an audit, and its
//! plan) and [`Plan`] (board size, unit count, run unit `i`, symmetry, split depth,
//! set-up work, kernel actually run, peak memory, its own work estimate). The engine's
//! name is [`Engine`], which this layer pairs with each (a plan comes with it:
//! [`Planned`]). The layers above (run, estimate, merge, audit) ask these; they never
//! match on an engine.
//!
//! - [`choice`]: the names ([`EngineChoice`] with `auto`, [`Engine`] without) and the
//!   rule `auto` follows;
//! - [`interface`]: the two traits and what they exchange ([`Request`]);
//! - [`spec`]: a unit described in the board's terms (per-row column masks and a
//!   weighing), for `audit`'s independent recount;
//! - [`work`]: the work measure; [`unit`]: a finished unit's [`TaskResult`].
//!
//! **Adding a third engine** (a GPU one, say): make its folder beside `backtrack/` and
//! `join/`, implement [`CountingEngine`] and [`Plan`] there, name it in [`Engine`] and
//! [`EngineChoice`], and add one line to [`counting`], where the engines are listed.
//! If `auto` should ever pick it, say when in [`choose`].
//!
//! This layer uses the engines it lists, the processor level ([`crate::cpu`]), the
//! board model and the symmetry modes; the engines use only [`interface`] and what it
//! names (and never each other).

pub(crate) mod choice;
pub(crate) mod interface;
pub(crate) mod spec;
pub(crate) mod unit;
pub(crate) mod work;

pub use choice::{Engine, EngineChoice};
pub(crate) use interface::{CountingEngine, Plan, Request};
pub use unit::TaskResult;
pub use work::Work;

use crate::cpu::Level;
use crate::error::Error;

/// The engines, by name: the one place that lists them.
pub(crate) fn counting(engine: Engine) -> &'static dyn CountingEngine {
    match engine {
        Engine::Backtrack => &crate::backtrack::engine::BACKTRACK,
        Engine::Join => &crate::join::engine::JOIN,
    }
}

/// The engine that runs a count of `request` for `choice`: the one asked for, or for
/// `auto` the join engine where it serves the request and is the faster one for the
/// board size ([`choice::join_is_faster`]), the backtracking one elsewhere. The board
/// size and the options decide, never the kernel. (Memory is checked by the run.)
///
/// # Errors
/// [`Error::EngineUnsuited`] when the engine asked for cannot serve the request.
pub(crate) fn choose(choice: EngineChoice, request: &Request<'_>) -> Result<Engine, Error> {
    let Some(engine) = choice.engine() else {
        let join = counting(Engine::Join);
        let n = request.placement.n();
        let faster = choice::join_is_faster(n) && join.unsuited(request).is_none();
        return Ok(if faster {
            Engine::Join
        } else {
            Engine::Backtrack
        });
    };
    match counting(engine).unsuited(request) {
        Some(reason) => Err(Error::EngineUnsuited {
            engine: engine.name(),
            reason,
        }),
        None => Ok(engine),
    }
}

/// An engine's plan, with the engine's name.
pub(crate) struct Planned {
    /// The engine.
    pub(crate) engine: Engine,
    /// Its plan.
    pub(crate) plan: Box<dyn Plan>,
}

/// The plan of `engine` for `request` at `level`.
///
/// # Errors
/// As [`CountingEngine::plan`].
pub(crate) fn plan(engine: Engine, request: &Request<'_>, level: Level) -> Result<Planned, Error> {
    Ok(Planned {
        engine,
        plan: counting(engine).plan(request, level)?,
    })
}

/// Whether `choice` can count a board of size `n` at all (the board is not below its
/// engine's smallest); `auto` can count every board.
pub(crate) fn serves_board(choice: EngineChoice, n: usize) -> bool {
    choice.engine().is_none_or(|e| n >= counting(e).min_n())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::placement::Placement;
    use crate::symmetry::Symmetry;

    #[test]
    fn auto_picks_by_board_size_and_options() {
        let pick = |n: usize, symmetry| {
            let placement = Placement::empty(n).unwrap();
            let request = Request {
                placement: &placement,
                symmetry,
                split_depth: None,
                threads: 1,
                memory: u64::MAX,
            };
            choose(EngineChoice::Auto, &request).unwrap()
        };
        assert_eq!(pick(16, Symmetry::Full), Engine::Join);
        assert_eq!(pick(16, Symmetry::Mirror), Engine::Backtrack);
        assert_eq!(pick(15, Symmetry::Full), Engine::Backtrack);
        assert_eq!(pick(11, Symmetry::Full), Engine::Backtrack);
    }
}
