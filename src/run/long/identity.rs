//! What identifies a run, for checkpoints and shard outputs.
//!
//! A checkpoint or a shard output names tasks by their index in the deterministic
//! task list (or the join engine's list of units), so it only makes sense for the same
//! list: the same board size, engine, version of the engine's list of units, symmetry
//! mode, split depth and pre-placed queens, under the same file format. These facts are
//! a [`RunIdentity`], defined once here; a checkpoint header writes them as a [`RunId`]
//! (ordered `key=value` fields), and `merge` compares shard reports by them. The
//! version is the one the run's units were made with (the plan's engine's, or what a
//! report or file records), never this build's stamped onto another's file.

use std::fmt::{self, Write as _};

use crate::engine::{counting, Engine, Plan};

/// The key of the version of the unit list in a run's identity.
pub(crate) const UNITS_KEY: &str = "units";
use crate::symmetry::Symmetry;

/// The version of the checkpoint and shard formats written by this crate: 2 since
/// checkpoint records are bound to their file's header (format 1 is refused).
pub(crate) const FORMAT_VERSION: u32 = 2;

/// The facts that make two runs the same count: checkpoints and shard reports name
/// tasks by their index in the deterministic task list, which these facts fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunIdentity {
    /// The board size.
    pub(crate) n: usize,
    /// The engine (its units differ from the other's).
    pub(crate) engine: Engine,
    /// The version of the engine's list of units the run's units come from; `None` for
    /// a report or file written before versions were recorded.
    pub(crate) units: Option<u32>,
    /// The symmetry mode.
    pub(crate) symmetry: Symmetry,
    /// Rows fixed to form tasks (the backtracking engine only).
    pub(crate) split_depth: Option<usize>,
    /// Pre-placed queens (`R:C,...`, empty for none).
    pub(crate) placements: String,
    /// The tasks of the whole run.
    pub(crate) tasks: usize,
}

impl RunIdentity {
    /// The identity of a backtracking run over `list`, with `placements`.
    #[cfg(test)]
    pub(crate) fn of(list: &crate::backtrack::plan::TaskList, placements: &str) -> RunIdentity {
        RunIdentity {
            n: list.n,
            engine: Engine::UNNAMED,
            units: Some(counting(Engine::UNNAMED).units_version()),
            symmetry: list.symmetry,
            split_depth: Some(list.split_depth),
            placements: placements.to_string(),
            tasks: list.len(),
        }
    }

    /// The identity of a run of `engine` over `plan`, with `placements` (`None` for
    /// none).
    pub(crate) fn of_plan(
        engine: Engine,
        plan: &dyn Plan,
        placements: Option<&str>,
    ) -> RunIdentity {
        RunIdentity {
            n: plan.n(),
            engine,
            units: Some(counting(engine).units_version()),
            symmetry: plan.symmetry(),
            split_depth: plan.split_depth(),
            placements: placements.unwrap_or_default().to_string(),
            tasks: plan.len(),
        }
    }

    /// The identity as `key=value` fields, the format version first, then `n`, the
    /// engine's name and the version of its list of units (`units`). The
    /// [`Engine::UNNAMED`] engine (backtracking) writes no name, as before the join
    /// engine existed.
    pub(crate) fn fields(&self) -> RunId {
        let mut fields: Vec<(String, String)> = vec![
            ("format".into(), FORMAT_VERSION.to_string()),
            ("n".into(), self.n.to_string()),
        ];
        if self.engine != Engine::UNNAMED {
            fields.push(("engine".into(), self.engine.name().into()));
        }
        if let Some(version) = self.units {
            fields.push((UNITS_KEY.into(), version.to_string()));
        }
        fields.push(("symmetry".into(), self.symmetry.name().into()));
        if let Some(depth) = self.split_depth {
            fields.push(("split_depth".into(), depth.to_string()));
        }
        fields.push(("placements".into(), self.placements.clone()));
        fields.push(("tasks".into(), self.tasks.to_string()));
        RunId { fields }
    }

    /// The first fact in which `other` differs, if any.
    pub(crate) fn difference(&self, other: &RunIdentity) -> Option<Difference> {
        self.fields().difference(&other.fields())
    }
}

/// A fact in which two runs differ: its key and both values (`None`: absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    /// The field.
    pub(crate) key: String,
    /// Its value in the first run.
    pub(crate) this: Option<String>,
    /// Its value in the other run.
    pub(crate) other: Option<String>,
}

impl Difference {
    /// `key is 'this' here but 'other' <there>`.
    pub(crate) fn describe(&self, here: &str, there: &str) -> String {
        let show = |v: &Option<String>| match v {
            Some(v) => format!("'{v}'"),
            None => "absent".to_string(),
        };
        format!(
            "{} is {} {here} but {} {there}",
            self.key,
            show(&self.this),
            show(&self.other)
        )
    }
}

/// A run's identity written as ordered `key=value` fields (a checkpoint header), so
/// that new facts can be added without changing how the others are written or
/// compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunId {
    fields: Vec<(String, String)>,
}

impl RunId {
    /// This identity with one more field appended (or replaced, if the key exists).
    pub(crate) fn with(mut self, key: &str, value: &str) -> Self {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(field) => field.1 = value.into(),
            None => self.fields.push((key.into(), value.into())),
        }
        self
    }

    /// The value of field `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Parses the `key=value` fields written by [`Display`](fmt::Display).
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let mut fields = Vec::new();
        for word in text.split(' ') {
            let (key, value) = word.split_once('=')?;
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return None;
            }
            fields.push((key.to_string(), unescape(value)?));
        }
        Some(RunId { fields })
    }

    /// The first field in which `other` differs, if any. The engine is compared first
    /// (absent means [`Engine::UNNAMED`], as in the files of versions before the join
    /// engine),
    /// since every other field follows from it.
    pub(crate) fn difference(&self, other: &RunId) -> Option<Difference> {
        let engine = |id: &RunId| {
            id.get("engine")
                .unwrap_or(Engine::UNNAMED.name())
                .to_string()
        };
        if engine(self) != engine(other) {
            return Some(Difference {
                key: "engine".to_string(),
                this: Some(engine(self)),
                other: Some(engine(other)),
            });
        }
        let keys = self
            .fields
            .iter()
            .chain(other.fields.iter())
            .map(|(k, _)| k.as_str());
        for key in keys {
            let (a, b) = (self.get(key), other.get(key));
            if a != b {
                return Some(Difference {
                    key: key.to_string(),
                    this: a.map(str::to_string),
                    other: b.map(str::to_string),
                });
            }
        }
        None
    }
}

impl fmt::Display for RunId {
    /// Space-separated `key=value` fields; values are escaped so that they hold no
    /// space, `=` or `%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (key, value)) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}={}", escape(value))?;
        }
        Ok(())
    }
}

/// Percent-escapes the bytes of `value` that would break a `key=value` field.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_graphic() && b != b'%' && b != b'=' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Reverses [`escape`]; `None` for a malformed escape or a non-UTF-8 result.
fn unescape(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else if bytes[i].is_ascii_graphic() && bytes[i] != b'=' {
            out.push(bytes[i]);
            i += 1;
        } else {
            return None;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtrack::plan::TaskList;

    #[test]
    fn round_trips_and_compares() {
        let list = TaskList::build(8, Symmetry::Mirror, Some(2)).unwrap();
        let id = RunIdentity::of(&list, "0:1, 2:5=%")
            .fields()
            .with("shard", "1/3");
        let text = id.to_string();
        assert!(text.starts_with(
            "format=2 n=8 units=1 symmetry=mirror split_depth=2 placements=0:1,%202:5%3D%25 \
             tasks="
        ));
        assert!(text.ends_with(" shard=1/3"));
        assert_eq!(RunId::parse(&text), Some(id.clone()));
        assert_eq!(id.difference(&id), None);
        let other = RunIdentity::of(&list, "0:1, 2:5=%")
            .fields()
            .with("shard", "2/3");
        assert_eq!(
            id.difference(&other).unwrap().describe("here", "there"),
            "shard is '1/3' here but '2/3' there"
        );
        let mut changed = RunIdentity::of(&list, "");
        changed.n = 9;
        let d = RunIdentity::of(&list, "").difference(&changed).unwrap();
        assert_eq!((d.key.as_str(), d.other.as_deref()), ("n", Some("9")));
        let mut older = RunIdentity::of(&list, "");
        older.units = None;
        let d = RunIdentity::of(&list, "").difference(&older).unwrap();
        assert_eq!(
            d.describe("here", "there"),
            "units is '1' here but absent there"
        );
        let join = RunIdentity {
            engine: "join".parse().unwrap(),
            split_depth: None,
            symmetry: Symmetry::Full,
            ..RunIdentity::of(&list, "")
        };
        assert!(join
            .fields()
            .to_string()
            .starts_with("format=2 n=8 engine=join units=1 symmetry=full placements= tasks="));
        assert_eq!(
            join.difference(&RunIdentity::of(&list, "")).unwrap().key,
            "engine"
        );
        assert!(RunId::parse("n=8 garbage").is_none());
        assert!(RunId::parse("n=%zz").is_none());
    }
}
