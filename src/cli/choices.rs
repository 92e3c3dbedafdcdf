//! Value parsers that also tell clap their possible values, so that `--help`, the
//! manual pages and the completion scripts (bash, zsh, fish, ...) offer the names:
//! `--kernel <TAB>` completes `auto scalar avx2 avx512`. The parsing, and so the
//! message for an unknown name, stays the wrapped parser's.
//!
//! Uses clap only.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};

/// A parser with its list of accepted names.
#[derive(Clone)]
pub struct Named<P> {
    parser: P,
    names: Vec<&'static str>,
}

/// `parser`, completing to `names`.
pub fn named<P>(parser: P, names: impl IntoIterator<Item = &'static str>) -> Named<P> {
    Named {
        parser,
        names: names.into_iter().collect(),
    }
}

impl<P: TypedValueParser> TypedValueParser for Named<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.parser.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}
