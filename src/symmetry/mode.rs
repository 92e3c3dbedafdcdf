//! Which symmetries of the board a count exploits.

use crate::names::named_choice;

/// The symmetry reduction used by a count. Every mode gives the same total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// The whole search tree: no reduction (kept for cross-checks and benchmarks).
    None,
    /// Left-right mirror halving of the first row (and of the second row under a
    /// middle first-row queen on odd boards).
    Mirror,
    /// The whole symmetry group of the square (4 rotations x 2 reflections), by border
    /// row-based canonical pruning (see [`crate::backtrack::canonical`]).
    #[default]
    Full,
}

impl Symmetry {
    /// Every mode, in order of increasing reduction.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Mirror, Symmetry::Full];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
        }
    }
}

named_choice!(Symmetry, "symmetry");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Symmetry::ALL {
            assert_eq!(m.name().parse::<Symmetry>(), Ok(m));
            assert_eq!(m.to_string(), m.name());
        }
        assert!("diagonal".parse::<Symmetry>().is_err());
    }
}
