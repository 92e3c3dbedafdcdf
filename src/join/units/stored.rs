//! A group's stored side generated piece by piece: one half, or the halves of every
//! middle-row queen column, walked as one group (`join::halves::GroupSpec`) where the
//! plan holds the quadrant table, else one half after another.

use super::sides::Stored;
use super::Tables;
use crate::join::halves::{
    generate, generate_group, GroupCursor, GroupSpec, HalfBoards, HalfCursor, HalfSpec,
};

/// Where the generation of a group's stored side stands.
pub(super) struct StoredWalk<'a> {
    /// The plan's tables.
    tables: &'a Tables,
    /// What is walked, and where it stands.
    walk: Walk<'a>,
}

/// The stored side as it is walked.
enum Walk<'a> {
    /// One half.
    Half {
        /// The half.
        spec: &'a HalfSpec,
        /// Where it stands.
        cursor: HalfCursor,
    },
    /// A group's lists one at a time, each with its guard.
    OneByOne {
        /// The group.
        group: &'a GroupSpec,
        /// The list being walked ([`GroupSpec::list`]).
        next: usize,
        /// Where it stands.
        cursor: HalfCursor,
    },
    /// A group's lists at once.
    AtOnce {
        /// The group.
        group: &'a GroupSpec,
        /// Where it stands.
        cursor: GroupCursor,
    },
}

impl<'a> StoredWalk<'a> {
    /// The walk of `stored` from its start.
    pub(super) fn new(tables: &'a Tables, stored: &'a Stored) -> StoredWalk<'a> {
        let walk = match stored {
            Stored::Half(spec) => Walk::Half {
                spec,
                cursor: HalfCursor::default(),
            },
            Stored::Columns(group) if tables.quadrants.is_some() => Walk::AtOnce {
                group,
                cursor: GroupCursor::default(),
            },
            Stored::Columns(group) => Walk::OneByOne {
                group,
                next: 0,
                cursor: HalfCursor::default(),
            },
        };
        StoredWalk { tables, walk }
    }

    /// Whether every stored half-board has been generated.
    pub(super) fn is_done(&self) -> bool {
        match &self.walk {
            Walk::Half { cursor, .. } => cursor.is_done(),
            Walk::OneByOne { group, next, .. } => *next >= group.missing.len(),
            Walk::AtOnce { cursor, .. } => cursor.is_done(),
        }
    }

    /// Appends the next piece to `out`: the half-boards from where the walk stands
    /// until the list reaches the plan's stored cap or the side is done.
    pub(super) fn next_piece(&mut self, out: &mut HalfBoards) {
        let tables = self.tables;
        let (path, cap) = (tables.path, tables.caps.stored);
        match &mut self.walk {
            Walk::Half { spec, cursor } => generate(path, &tables.piece(spec, cap), cursor, out),
            Walk::OneByOne {
                group,
                next,
                cursor,
            } => {
                while let Some((spec, guard)) = group.list(*next) {
                    let from = out.len();
                    generate(path, &tables.piece(&spec, cap), cursor, out);
                    out.or_from(from, guard);
                    if !cursor.is_done() {
                        return;
                    }
                    (*next, *cursor) = (*next + 1, HalfCursor::default());
                }
            }
            Walk::AtOnce { group, cursor } => {
                generate_group(path, &tables.piece(&group.half, cap), group, cursor, out);
            }
        }
    }
}
