//! The counting engines and the choice between them.
//!
//! - **backtrack**: the bitmask search over a deterministic task list (the `plan` and
//!   `search` layers). It serves every option: the three symmetry modes, pre-placed
//!   queens, any split depth, and node counts.
//! - **join**: the half-board join (the `join` layer), which counts whole boards only,
//!   with its own near-8-fold symmetry, and is the fastest on large boards.
//!
//! `auto` picks the join engine when it can serve the options (the whole board, full
//! symmetry, no split depth, a kernel it has) and is the faster one for the board size
//! ([`join_is_faster`]); otherwise the backtracking one. Both give the same totals.

use crate::names::named_choice;

/// The smallest even board on which `auto` picks the join engine.
pub(crate) const JOIN_FROM_EVEN: usize = 12;

/// The smallest odd board on which `auto` picks the join engine: on odd boards the
/// join places the middle row's and column's queens first, which pays only from 17
/// (at 13 the engines tie; at 15 backtracking is 1.35 times faster).
pub(crate) const JOIN_FROM_ODD: usize = 17;

/// Whether the join engine is the faster one for a whole board of size `n`, as
/// measured on one thread (see `results/engines.md`).
pub(crate) fn join_is_faster(n: usize) -> bool {
    if n.is_multiple_of(2) {
        n >= JOIN_FROM_EVEN
    } else {
        n >= JOIN_FROM_ODD
    }
}

/// The engine a count runs with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fastest engine that serves the options: `join` for whole boards under full
    /// symmetry of even n >= 12 and odd n >= 17, `backtrack` otherwise.
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
    fn the_join_engine_from_12_on_even_and_17_on_odd_boards() {
        let joined: Vec<usize> = (0..=21).filter(|&n| join_is_faster(n)).collect();
        assert_eq!(joined, [12, 14, 16, 17, 18, 19, 20, 21]);
    }

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
