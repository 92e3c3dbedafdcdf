//! The counting engines and the choice between them.
//!
//! - **backtrack**: the bitmask search over a deterministic task list (the `plan` and
//!   `search` layers). It serves every option: the three symmetry modes, pre-placed
//!   queens, any split depth, and node counts.
//! - **join**: the half-board join (the `join` layer), which counts whole boards only,
//!   with its own near-8-fold symmetry, and is the fastest from [`JOIN_FROM`] up.
//!
//! `auto` picks the join engine when it can serve the options (the whole board, full
//! symmetry, no split depth, a kernel it has) and the board is at least [`JOIN_FROM`];
//! otherwise the backtracking one. Both give the same totals.

use crate::names::named_choice;

/// The smallest board on which `auto` picks the join engine: from here up it is
/// faster than the backtracking engine (see `results/join-vs-backtrack.md`).
pub(crate) const JOIN_FROM: usize = 12;

/// The engine a count runs with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fastest engine that serves the options: `join` for whole boards of n >= 12
    /// under full symmetry, `backtrack` otherwise.
    #[default]
    Auto,
    /// The bitmask backtracking search: every option, node counts.
    Backtrack,
    /// The half-board join: whole boards only, full symmetry, from n = 4.
    Join,
}

impl Engine {
    /// Every choice, as accepted on the command line.
    pub const ALL: [Engine; 3] = [Engine::Auto, Engine::Backtrack, Engine::Join];

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Backtrack => "backtrack",
            Engine::Join => "join",
        }
    }
}

named_choice!(Engine, "engine");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Engine::ALL {
            assert_eq!(e.name().parse::<Engine>(), Ok(e));
        }
        let e = "dlx".parse::<Engine>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown engine 'dlx' (expected one of: auto, backtrack, join)"
        );
    }
}
