//! The names of the engines: the user's choice ([`EngineChoice`], with `auto`) and the
//! engine that counts ([`Engine`], never `auto`), and the rule `auto` follows.

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

/// The engine a count asks for (`--engine`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineChoice {
    /// The fastest engine that serves the options: `join` for whole boards under full
    /// symmetry of even n >= 12 and odd n >= 17, `backtrack` otherwise. The board size
    /// and the options decide, never the kernel.
    #[default]
    Auto,
    /// The bitmask backtracking search: every option, node counts.
    Backtrack,
    /// The half-board join: whole boards only, full symmetry, from n = 4.
    Join,
}

impl EngineChoice {
    /// Every choice, as accepted on the command line.
    pub const ALL: [EngineChoice; 3] = [
        EngineChoice::Auto,
        EngineChoice::Backtrack,
        EngineChoice::Join,
    ];

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Backtrack => "backtrack",
            EngineChoice::Join => "join",
        }
    }

    /// The engine this choice names (`None` for `auto`).
    #[must_use]
    pub fn engine(self) -> Option<Engine> {
        match self {
            EngineChoice::Auto => None,
            EngineChoice::Backtrack => Some(Engine::Backtrack),
            EngineChoice::Join => Some(Engine::Join),
        }
    }
}

/// The engine that counts: what [`EngineChoice::Auto`] resolves to, or the one asked
/// for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The bitmask backtracking search (`crate::backtrack`).
    Backtrack,
    /// The half-board join (`crate::join`).
    Join,
}

impl Engine {
    /// Every engine.
    pub const ALL: [Engine; 2] = [Engine::Backtrack, Engine::Join];

    /// The engine of the checkpoints and shard reports that name none: those written
    /// before the engine choice existed, all by the backtracking engine.
    pub(crate) const UNNAMED: Engine = Engine::Backtrack;

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Engine::Backtrack => "backtrack",
            Engine::Join => "join",
        }
    }

    /// The choice that names this engine.
    #[must_use]
    pub fn choice(self) -> EngineChoice {
        match self {
            Engine::Backtrack => EngineChoice::Backtrack,
            Engine::Join => EngineChoice::Join,
        }
    }
}

named_choice!(EngineChoice, "engine");
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
        for e in EngineChoice::ALL {
            assert_eq!(e.name().parse::<EngineChoice>(), Ok(e));
        }
        for e in Engine::ALL {
            assert_eq!(e.name().parse::<Engine>(), Ok(e));
            assert_eq!(e.choice().engine(), Some(e));
        }
        let e = "dlx".parse::<EngineChoice>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown engine 'dlx' (expected one of: auto, backtrack, join)"
        );
    }
}
