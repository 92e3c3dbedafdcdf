//! The work measure: how much an engine did, in its own unit.

use serde::Serialize;

/// The work of a count, a shard or a unit, in its engine's unit. Serialized as one
/// field named by the unit: `"nodes": 123` or `"pairs": 123` (the JSON fields of
/// `count --json`, shard reports and `merge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Work {
    /// The backtracking engine's: queens placed. It depends on n, the symmetry mode and
    /// the split depth, never on the thread count. (A `u128`: the trees of n >= 28
    /// have more than 2^64 nodes.)
    #[serde(rename = "nodes")]
    Nodes(u128),
    /// The join engine's: pairs of half-boards evaluated (512 per stored block a west
    /// half-board is matched against). It depends on n only.
    #[serde(rename = "pairs")]
    Pairs(u128),
}

impl Work {
    /// The amount, whatever the unit.
    pub fn amount(self) -> u128 {
        match self {
            Work::Nodes(a) | Work::Pairs(a) => a,
        }
    }

    /// The unit's name, as the JSON field: `nodes` or `pairs`.
    pub fn unit(self) -> &'static str {
        match self {
            Work::Nodes(_) => "nodes",
            Work::Pairs(_) => "pairs",
        }
    }

    /// The nodes, if this is the backtracking engine's work.
    pub fn nodes(self) -> Option<u128> {
        match self {
            Work::Nodes(a) => Some(a),
            Work::Pairs(_) => None,
        }
    }

    /// The pairs, if this is the join engine's work.
    pub fn pairs(self) -> Option<u128> {
        match self {
            Work::Pairs(a) => Some(a),
            Work::Nodes(_) => None,
        }
    }

    /// The work written as the two optional JSON fields, exactly one of them set; `None`
    /// for any other combination.
    pub fn from_fields(nodes: Option<u128>, pairs: Option<u128>) -> Option<Work> {
        match (nodes, pairs) {
            (Some(n), None) => Some(Work::Nodes(n)),
            (None, Some(p)) => Some(Work::Pairs(p)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_todays_fields() {
        #[derive(Serialize)]
        struct Row {
            total: u128,
            #[serde(flatten)]
            work: Work,
            tasks: usize,
        }
        let row = |work| {
            serde_json::to_string(&Row {
                total: 2,
                work,
                tasks: 3,
            })
            .unwrap()
        };
        let big = u128::MAX;
        assert_eq!(
            row(Work::Nodes(big)),
            format!(r#"{{"total":2,"nodes":{big},"tasks":3}}"#)
        );
        assert_eq!(row(Work::Pairs(5)), r#"{"total":2,"pairs":5,"tasks":3}"#);
        assert_eq!(Work::from_fields(Some(1), None), Some(Work::Nodes(1)));
        assert_eq!(Work::from_fields(Some(1), Some(2)), None);
    }
}
