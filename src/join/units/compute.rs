//! One unit's computation: generate its half-boards, join them, weigh the pairs.
//!
//! A unit joins one *stored* side (its east half-boards, in groups; for an odd board's arms
//! units, those of every middle-row column, each with its guard, walked at once
//! ([`StoredWalk`]), a group per middle-column row) with one *item* side (its west
//! half-boards, tagged with their weights); each group meets the items without its item
//! guard, moved to the front of the list. Each side is generated in pieces of at most the
//! plan's caps ([`Caps`]): for each stored piece, prepared once, the item side is generated
//! piece by piece and counted against it. With caps larger than the lists (the usual case)
//! that is one piece a side, and the items are generated once for the whole unit.
//!
//! Where the plan's [`super::Orientation`] says so for a piece (the west side much the
//! longer), the roles swap for that piece: its west half-boards are stored with their
//! classes and the east ones counted against them (`join::pairs::prepare_classed`);
//! the weighted sum is the same.

use super::list::UnitKind;
use super::sides::{self, Sides};
use super::stored::StoredWalk;
use super::{Tables, UnitOutcome};
use crate::join::halves::{generate, Cells, HalfBoards, HalfCursor, HalfSpec, Piece};
use crate::join::memory::Caps;
use crate::join::pairs::{
    count_prepared_weighted, keep_without, prepare, prepare_classed, PairScratch, WeightedPairs,
    MAX_COUNT_LEN,
};

/// The buffers of one unit, reused by the next unit on the same worker.
#[derive(Default)]
pub(crate) struct UnitScratch {
    /// The stored half-boards (east) of the current piece.
    pub(super) stored: HalfBoards,
    /// The item half-boards (west, tagged) of the current piece.
    pub(super) items: HalfBoards,
    /// The pair counter's buffers.
    pub(super) pairs: PairScratch,
    /// The longest half-board list generated with these buffers (for the memory
    /// model's tests).
    #[cfg(test)]
    pub(crate) longest_list: usize,
}

impl UnitScratch {
    /// Makes room for pieces of at most `caps` half-boards a side, each with the slack
    /// of one inner list of `inner` entries, and the pair counter's buffers that follow
    /// from them, or [`crate::error::Error::OutOfMemory`]: done before each unit, so
    /// that the buffers do not grow while it runs (the memory model counts them).
    pub(crate) fn try_reserve(
        &mut self,
        caps: Caps,
        inner: usize,
    ) -> Result<(), crate::error::Error> {
        // An outer placement writes both inner runs (each padded to a vector) and
        // reserves one vector more.
        let slack = inner + 3 * crate::join::halves::INNER_PAD;
        self.stored.try_reserve(caps.stored.saturating_add(slack))?;
        self.items.try_reserve(caps.items.saturating_add(slack))?;
        self.pairs.try_reserve(caps.stored.max(caps.items))
    }
}

/// Computes unit `kind` from the shared tables.
pub(crate) fn run(tables: &Tables, kind: UnitKind, scratch: &mut UnitScratch) -> UnitOutcome {
    let sides = sides::of(tables, kind);
    join(tables, &sides, scratch)
}

/// Joins each group of stored halves of `sides` with the items it meets, piece by
/// piece. When the items come in one piece, they are generated once for the whole
/// unit (every group and every stored piece).
pub(super) fn join(tables: &Tables, sides: &Sides, scratch: &mut UnitScratch) -> UnitOutcome {
    let mut sum = WeightedPairs::default();
    let mut items_whole = false;
    for group in &sides.groups {
        let mut stored = StoredWalk::new(tables, &group.stored);
        while !stored.is_done() {
            scratch.stored.clear();
            stored.next_piece(&mut scratch.stored);
            if scratch.stored.len() > 0 {
                let items = GroupItems {
                    spec: &sides.items,
                    guard: group.item_guard,
                };
                items_whole = count_items(tables, &items, items_whole, scratch, &mut sum);
            }
        }
    }
    #[cfg(test)]
    note_longest(scratch);
    UnitOutcome {
        weighted: sum.weighted,
        pairs: sum.pairs,
    }
}

/// The items a group of stored halves meets: those of `spec` without a bit of `guard`.
struct GroupItems<'a> {
    /// The item half.
    spec: &'a HalfSpec,
    /// The pattern bits that leave an item out (0: none).
    guard: u64,
}

/// Counts `items`, piece by piece, against the stored piece in `scratch`, into `sum`;
/// when `whole`, `scratch.items` already holds every item (in some order), and they
/// are not generated again. Gives whether `scratch.items` then holds every item.
fn count_items(
    tables: &Tables,
    items: &GroupItems<'_>,
    whole: bool,
    scratch: &mut UnitScratch,
    sum: &mut WeightedPairs,
) -> bool {
    let mut prepared = false;
    if whole {
        count_piece(tables, items.guard, &mut prepared, scratch, sum);
        return true;
    }
    let mut cursor = HalfCursor::default();
    let mut pieces = 0;
    while !cursor.is_done() {
        scratch.items.clear();
        let piece = tables.piece(items.spec, tables.caps.items);
        generate(tables.path, &piece, &mut cursor, &mut scratch.items);
        pieces += 1;
        #[cfg(test)]
        note_longest(scratch);
        count_piece(tables, items.guard, &mut prepared, scratch, sum);
    }
    pieces == 1
}

/// Counts the items of `scratch.items` without a bit of `guard` against the stored
/// piece in `scratch`, into `sum`; prepares the stored piece first unless `prepared`
/// (then set). Where the plan's orientation says so ([`super::orientation`]), the
/// items are stored instead, with their classes, and the stored piece counted against
/// them (then `prepared` is cleared: the stored piece must be prepared again).
fn count_piece(
    tables: &Tables,
    guard: u64,
    prepared: &mut bool,
    scratch: &mut UnitScratch,
    sum: &mut WeightedPairs,
) {
    let kept = keep_without(
        tables.path,
        scratch.items.as_mut_slice(),
        guard,
        &mut scratch.pairs,
    );
    if kept == 0 {
        return;
    }
    if tables.orientation.stores_west(kept, scratch.stored.len()) {
        prepare_classed(
            tables.path,
            &mut scratch.items.as_mut_slice()[..kept],
            scratch.stored.as_slice(),
            &mut scratch.pairs,
        );
        add_count(
            tables,
            scratch.stored.as_mut_slice(),
            &mut scratch.pairs,
            sum,
        );
        *prepared = false;
        return;
    }
    if !*prepared {
        prepare(
            tables.path,
            scratch.stored.as_mut_slice(),
            &scratch.items.as_slice()[..kept],
            &mut scratch.pairs,
        );
        *prepared = true;
    }
    add_count(
        tables,
        &mut scratch.items.as_mut_slice()[..kept],
        &mut scratch.pairs,
        sum,
    );
}

/// Counts `items` against the prepared stored piece, into `sum`.
fn add_count(
    tables: &Tables,
    items: &mut [u64],
    pairs: &mut crate::join::pairs::PairScratch,
    sum: &mut WeightedPairs,
) {
    let counts = count_prepared_weighted(tables.path, items, MAX_COUNT_LEN, pairs);
    // Each sum stays below 2^126 (see `WeightedPairs::add`).
    sum.weighted = sum
        .weighted
        .checked_add(counts.weighted)
        .expect("below 2^126");
    sum.pairs = sum.pairs.checked_add(counts.pairs).expect("below 2^126");
}

impl Tables {
    /// A piece of `spec` of at most `cap` half-boards, with this plan's cells.
    pub(super) fn piece<'a>(&'a self, spec: &'a HalfSpec, cap: usize) -> Piece<'a> {
        Piece {
            layout: &self.layout,
            cells: self.quadrants.as_ref().map_or(
                Cells::OnDemand {
                    row_set_limit: self.row_set_limit,
                    cell_limit: self.cell_limit,
                },
                Cells::Table,
            ),
            spec,
            cap,
        }
    }
}

/// Records the longer of the current lists in `scratch.longest_list`.
#[cfg(test)]
fn note_longest(scratch: &mut UnitScratch) {
    let now = scratch.stored.len().max(scratch.items.len());
    scratch.longest_list = scratch.longest_list.max(now);
}
