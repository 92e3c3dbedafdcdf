//! What identifies a run, for checkpoints and shard outputs.
//!
//! A checkpoint or a shard output names tasks by their index in the deterministic
//! [`TaskList`], so it only makes sense for the same list: the same board size,
//! symmetry mode, split depth and pre-placed queens, under the same file format. A
//! [`RunId`] holds these facts as an ordered list of `key=value` fields, so that new
//! facts can be added without changing how the others are written or compared.

use std::fmt;

use crate::tasks::TaskList;

/// The version of the checkpoint and shard formats written by this crate.
pub const FORMAT_VERSION: u32 = 1;

/// The facts that identify a run, as ordered `key=value` fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunId {
    fields: Vec<(String, String)>,
}

impl RunId {
    /// The identity of a run over `list`; `placements` describes pre-placed queens
    /// (empty when there are none).
    pub fn of(list: &TaskList, placements: &str) -> Self {
        RunId {
            fields: vec![
                ("format".into(), FORMAT_VERSION.to_string()),
                ("n".into(), list.n.to_string()),
                ("symmetry".into(), list.symmetry.name().into()),
                ("split_depth".into(), list.split_depth.to_string()),
                ("placements".into(), placements.into()),
                ("tasks".into(), list.len().to_string()),
            ],
        }
    }

    /// This identity with one more field appended (or replaced, if the key exists).
    pub fn with(mut self, key: &str, value: &str) -> Self {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(field) => field.1 = value.into(),
            None => self.fields.push((key.into(), value.into())),
        }
        self
    }

    /// The value of field `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The fields, in order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.fields
    }

    /// Parses the `key=value` fields written by [`Display`](fmt::Display).
    pub fn parse(text: &str) -> Option<Self> {
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

    /// The first difference from `other`, as `key is 'this' here but 'other'`, or
    /// `None` if equal.
    pub fn difference(&self, other: &RunId) -> Option<String> {
        let keys = self
            .fields
            .iter()
            .chain(other.fields.iter())
            .map(|(k, _)| k.as_str());
        for key in keys {
            let (a, b) = (self.get(key), other.get(key));
            if a != b {
                let show = |v: Option<&str>| match v {
                    Some(v) => format!("'{v}'"),
                    None => "absent".to_string(),
                };
                return Some(format!("{key} is {} here but {}", show(a), show(b)));
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
            out.push_str(&format!("%{b:02X}"));
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
    use crate::symmetry::Symmetry;

    #[test]
    fn round_trips_and_compares() {
        let list = TaskList::build(8, Symmetry::Mirror, Some(2)).unwrap();
        let id = RunId::of(&list, "0:1, 2:5=%").with("shard", "1/3");
        let text = id.to_string();
        assert!(text.starts_with(
            "format=1 n=8 symmetry=mirror split_depth=2 placements=0:1,%202:5%3D%25 tasks="
        ));
        assert!(text.ends_with(" shard=1/3"));
        assert_eq!(RunId::parse(&text), Some(id.clone()));
        assert_eq!(id.difference(&id), None);
        let other = RunId::of(&list, "0:1, 2:5=%").with("shard", "2/3");
        assert_eq!(
            id.difference(&other).unwrap(),
            "shard is '1/3' here but '2/3'"
        );
        assert!(RunId::parse("n=8 garbage").is_none());
        assert!(RunId::parse("n=%zz").is_none());
    }
}
