//! Choices named on the command line and in JSON (symmetry modes, kernels, output
//! formats): one macro gives each its `Display`, its `FromStr` with an error that lists
//! every name, and its `Serialize` and `Deserialize` as the name.
//!
//! A lowest layer: it uses nothing of the crate.

use std::fmt;

/// The error of parsing an unknown name of a choice (a symmetry mode, a kernel, an
/// output format): it lists the names accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was being named: `symmetry`, `kernel`, `format`.
    pub what: &'static str,
    /// The rejected name.
    pub name: String,
    /// Every accepted name.
    pub expected: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (expected one of: {})",
            self.what,
            self.name,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// For an enum `$ty` with `ALL` (every value) and `name()`, implements `Display`,
/// `serde::Serialize` and `serde::Deserialize` (the name), and `FromStr` with the error
/// [`UnknownName`] ("unknown $what 'x' (expected one of: a, b, c)").
macro_rules! named_choice {
    ($ty:ident, $what:literal) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL.into_iter().find(|c| c.name() == s).ok_or_else(|| {
                    $crate::names::UnknownName {
                        what: $what,
                        name: s.to_string(),
                        expected: $ty::ALL.iter().map(|c| c.name()).collect(),
                    }
                })
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use named_choice;
