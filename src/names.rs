//! Choices named on the command line and in JSON (symmetry modes, kernels, output
//! formats): one macro gives each its `Display`, its `FromStr` with an error that lists
//! every name, and its `Serialize` as the name.

/// For an enum `$ty` with `ALL` (every value) and `name()`, implements `Display` and
/// `serde::Serialize` (the name), and `FromStr` with the error type `$error`
/// ("unknown $what 'x' (expected one of: a, b, c)").
macro_rules! named_choice {
    ($ty:ident, $error:ident, $what:literal) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[doc = concat!("The error of parsing an unknown ", $what, " name.")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $error(pub String);

        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let names: Vec<&str> = $ty::ALL.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "unknown {} '{}' (expected one of: {})",
                    $what,
                    self.0,
                    names.join(", ")
                )
            }
        }

        impl std::error::Error for $error {}

        impl std::str::FromStr for $ty {
            type Err = $error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL
                    .into_iter()
                    .find(|c| c.name() == s)
                    .ok_or_else(|| $error(s.to_string()))
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }
    };
}

pub(crate) use named_choice;
