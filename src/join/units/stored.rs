//! A group's stored side generated piece by piece: one half, or the halves of every
//! middle-row queen column, walked as one group (`join::halves::GroupSpec`) where the
//! plan holds the quadrant table, else one half after another.

use super::sides::Stored;
use super::Tables;
use crate::join::halves::{
    generate, generate_group, GroupCursor, HalfBoards, HalfCursor, HalfSpec,
};

/// Where the generation of a group's stored side stands.
pub(super) struct StoredWalk<'a> {
    /// The plan's tables.
    tables: &'a Tables,
    /// What is walked.
    walk: Walk<'a>,
}

/// The stored side as it is walked.
enum Walk<'a> {
    /// One half at a time, each with its guard: the next one and where it stands.
    Halves {
        /// The halves and their guards.
        halves: Vec<(HalfSpec, u64)>,
        /// The half being walked.
        next: usize,
        /// Where it stands.
        cursor: HalfCursor,
    },
    /// A group walked at once.
    Group {
        /// The group.
        group: &'a crate::join::halves::GroupSpec,
        /// Where it stands.
        cursor: GroupCursor,
    },
}

impl<'a> StoredWalk<'a> {
    /// The walk of `stored` from its start.
    pub(super) fn new(tables: &'a Tables, stored: &'a Stored) -> StoredWalk<'a> {
        let walk = match stored {
            Stored::Half(spec) => Walk::Halves {
                halves: vec![(*spec, 0)],
                next: 0,
                cursor: HalfCursor::default(),
            },
            Stored::Columns(group) if tables.quadrants.is_some() => Walk::Group {
                group,
                cursor: GroupCursor::default(),
            },
            Stored::Columns(group) => Walk::Halves {
                halves: group.halves().collect(),
                next: 0,
                cursor: HalfCursor::default(),
            },
        };
        StoredWalk { tables, walk }
    }

    /// Whether every stored half-board has been generated.
    pub(super) fn is_done(&self) -> bool {
        match &self.walk {
            Walk::Halves { halves, next, .. } => *next >= halves.len(),
            Walk::Group { cursor, .. } => cursor.is_done(),
        }
    }

    /// Appends the next piece to `out`: the half-boards from where the walk stands
    /// until the list reaches the plan's stored cap or the side is done.
    pub(super) fn next_piece(&mut self, out: &mut HalfBoards) {
        let tables = self.tables;
        let path = tables.path;
        let cap = tables.caps.stored;
        match &mut self.walk {
            Walk::Halves {
                halves,
                next,
                cursor,
            } => {
                while let Some((spec, guard)) = halves.get(*next) {
                    let from = out.len();
                    generate(path, &tables.piece(spec, cap), cursor, out);
                    if *guard != 0 {
                        out.or_from(from, *guard);
                    }
                    if !cursor.is_done() {
                        return;
                    }
                    (*next, *cursor) = (*next + 1, HalfCursor::default());
                }
            }
            Walk::Group { group, cursor } => {
                generate_group(path, &tables.piece(&group.half, cap), group, cursor, out);
            }
        }
    }
}
