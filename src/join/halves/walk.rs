//! The walk over a half's column splits (see the parent module): for each split, its
//! two cells, the inner one prepared, the outer one joined placement by placement,
//! stopping at the piece's cap and resuming from the cursor.

#![allow(
    clippy::inline_always,
    reason = "the walk must inline into the wrappers compiled with the vector features"
)]

use super::inner::{packed, InnerParts, INNER_PAD};
use super::{Cells, HalfBoards, HalfCursor, HalfSpec, InnerLoop, Piece};
use crate::join::bits::{binomial, colex_rank_fast, low_mask, next_same_popcount};
use crate::join::cells::{CellJoin, CellWalk, JoinCursor};
use crate::join::layout::{Layout, QuadrantPlace};
use crate::join::quadrants::QuadrantEntry;

/// One split's two cells, in the quadrants' local coordinates.
#[derive(Clone, Copy)]
struct Split {
    /// The north cell's rows, columns and colex rank of the columns.
    north: (u64, u64, u64),
    /// The south cell's rows, columns and colex rank of the columns.
    south: (u64, u64, u64),
}

/// [`super::generate`] with the inner loop `inner_loop`, inlined into its caller
/// (which the vector paths compile with their target features).
#[inline(always)]
pub(super) fn generate_with<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) {
    let layout = piece.layout;
    let spec = piece.spec;
    let side = layout.half;
    let north_rows = spec.rows & layout.north_rows();
    let south_rows = (spec.rows & layout.south_rows()) >> layout.far0;
    let columns = spec.columns >> spec.col0;
    let north_size = north_rows.count_ones();
    let all_columns = columns == low_mask(side);
    // With every column free, the colex rank of the complement of the rank-r subset is
    // `C(q, q - k) - 1 - r`.
    let south_last_rank = binomial(side, side - north_size.min(side)).wrapping_sub(1);
    if !cursor.started {
        *cursor = HalfCursor {
            started: true,
            rank: 0,
            compact: low_mask(north_size),
            outer: 0,
            done: false,
        };
    }
    let splits = binomial(columns.count_ones(), north_size);
    while cursor.rank < splits {
        let north_columns = inner_loop.deposit(cursor.compact, columns);
        let south_columns = columns & !north_columns;
        let (north_rank, south_rank) = if all_columns {
            (cursor.rank, south_last_rank - cursor.rank)
        } else {
            (
                colex_rank_fast(north_columns),
                colex_rank_fast(south_columns),
            )
        };
        let split = Split {
            north: (north_rows, north_columns, north_rank),
            south: (south_rows, south_columns, south_rank),
        };
        let finished = match piece.cells {
            Cells::Table(_) => from_table(inner_loop, piece, split, cursor, out),
            Cells::OnDemand { .. } => on_demand(inner_loop, piece, split, cursor, out),
        };
        if !finished {
            return;
        }
        cursor.rank += 1;
        cursor.outer = 0;
        if north_size > 0 {
            cursor.compact = next_same_popcount(cursor.compact);
        }
    }
    cursor.done = true;
}

/// Joins one split with its cells from the table; false when it stopped at the cap.
#[inline(always)]
fn from_table<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    split: Split,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) -> bool {
    let Cells::Table(table) = piece.cells else {
        unreachable!("called for the table only")
    };
    let north_list = table.cell_at(split.north.0, split.north.2);
    if north_list.is_empty() {
        return true;
    }
    let south_list = table.cell_at(split.south.0, split.south.2);
    if south_list.is_empty() {
        return true;
    }
    join_lists(inner_loop, piece, north_list, south_list, cursor, out)
}

/// Joins the whole cells `north_list` and `south_list`, the longer one prepared as the
/// inner list (fewer, longer inner loops: measured faster), from `cursor.outer` on;
/// false when it stopped at the cap.
#[inline(always)]
fn join_lists<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    north_list: &[QuadrantEntry],
    south_list: &[QuadrantEntry],
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) -> bool {
    let inner_is_north = north_list.len() >= south_list.len();
    let (outer_list, inner_list) = if inner_is_north {
        (south_list, north_list)
    } else {
        (north_list, south_list)
    };
    let mut join = Joiner::new(inner_loop, piece, inner_is_north, inner_list, out);
    match join.join_from(outer_list, cursor.outer, Extra::default(), out) {
        Some(stopped) => {
            cursor.outer = stopped;
            false
        }
        None => true,
    }
}

/// Joins one split with its cells made on demand (each joined from its row set's parts
/// where [`CellJoin`] holds them, else walked); false when it stopped at the cap.
/// Cells of at most the cell limit ([`super::CELL_LIMIT`] in a count) are held whole
/// and joined as the table's are; past that, the cell with fewer queens (at most
/// `(q / 2)!` placements, which the limit covers) is held and the other one streamed in
/// pieces.
#[inline(always)]
fn on_demand<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    split: Split,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) -> bool {
    let side = piece.layout.half;
    let Cells::OnDemand {
        row_set_limit,
        cell_limit,
    } = piece.cells
    else {
        unreachable!("called for cells made on demand only")
    };
    let limits = (row_set_limit, cell_limit);
    let [mut north, mut south] = std::mem::take(&mut out.cells);
    let [mut north_join, mut south_join] = std::mem::take(&mut out.joins);
    north.clear();
    south.clear();
    // Each cell joined from its row set's parts where they are held, else walked;
    // whole when it has at most `cell_limit` placements.
    let mut north_cell = CellSource::new(side, &mut north_join, split.north, limits);
    let north_done = north_cell.fill(&mut north);
    let mut south_cell = CellSource::new(side, &mut south_join, split.south, limits);
    let south_done = !north.is_empty() && south_cell.fill(&mut south);
    let finished = if north.is_empty() || south.is_empty() {
        true
    } else if north_done && south_done {
        join_lists(inner_loop, piece, &north, &south, cursor, out)
    } else {
        // The cell with fewer queens is whole (it has at most `(q / 2)!` placements);
        // the other one is made again from its start.
        let inner_is_north = split.north.0.count_ones() <= split.south.0.count_ones();
        if inner_is_north {
            let outer = CellSource::new(side, &mut south_join, split.south, limits);
            stream(
                inner_loop, piece, true, &north, outer, &mut south, cursor, out,
            )
        } else {
            let outer = CellSource::new(side, &mut north_join, split.north, limits);
            stream(
                inner_loop, piece, false, &south, outer, &mut north, cursor, out,
            )
        }
    };
    out.cells = [north, south];
    out.joins = [north_join, south_join];
    finished
}

/// Where the placements of one cell made on demand come from, in a fixed order and in
/// pieces: its row set's parts joined ([`CellJoin`]) when they are held, else a walk.
struct CellSource<'a> {
    /// The most placements a piece holds.
    cell_limit: usize,
    /// Where they come from.
    from: Made<'a>,
}

/// How a [`CellSource`] makes its placements (one per split and cell, on the stack:
/// the walk's size does not matter).
#[allow(
    clippy::large_enum_variant,
    reason = "one value per split and cell, never stored or moved in bulk"
)]
enum Made<'a> {
    /// Joined from the parts, with the cell's columns and where the join stands.
    Join(&'a CellJoin, u64, JoinCursor),
    /// Walked.
    Walk(CellWalk),
}

impl<'a> CellSource<'a> {
    /// The cell `(rows, columns, _)` of a `side x side` quadrant in pieces of at most
    /// `cell_limit`, from its row set's parts in `join` when neither has more than
    /// `row_set_limit` placements.
    #[inline(always)]
    fn new(
        side: u32,
        join: &'a mut CellJoin,
        (rows, columns, _): (u64, u64, u64),
        (row_set_limit, cell_limit): (usize, usize),
    ) -> CellSource<'a> {
        let from = if join.hold(side, rows, row_set_limit) {
            Made::Join(join, columns, JoinCursor::default())
        } else {
            Made::Walk(CellWalk::new(side, rows, columns))
        };
        CellSource { cell_limit, from }
    }

    /// Appends the next placements to `out` until the cell is done or `out` holds a
    /// piece; tells whether the cell is done.
    #[inline(always)]
    fn fill(&mut self, out: &mut Vec<QuadrantEntry>) -> bool {
        match &mut self.from {
            Made::Join(join, columns, at) => join.fill(*columns, at, out, self.cell_limit),
            Made::Walk(walk) => walk.fill(out, self.cell_limit),
        }
    }
}

/// Joins the whole cell `inner_list` with every placement of the cell `outer_cell`,
/// made from its start in chunks of at most the cell limit held in `chunk`, from
/// `cursor.outer` on; false when it stopped at the cap.
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "the split's parts, passed apart so that the walk borrows them apart"
)]
fn stream<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    inner_is_north: bool,
    inner_list: &[QuadrantEntry],
    mut outer_cell: CellSource<'_>,
    chunk: &mut Vec<QuadrantEntry>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) -> bool {
    let mut join = Joiner::new(inner_loop, piece, inner_is_north, inner_list, out);
    let mut seen = 0usize;
    loop {
        chunk.clear();
        let done = outer_cell.fill(chunk);
        for &outer in chunk.iter() {
            if seen >= cursor.outer {
                if join.full(out) {
                    cursor.outer = seen;
                    return false;
                }
                out.reserve(out.inner.padded_len() + INNER_PAD);
                join.one(outer, out);
            }
            seen += 1;
        }
        if done {
            return true;
        }
    }
}

/// What one list of a group ([`super::group`]) adds to its half: diagonals its queens
/// may not use beyond the half's, and pattern bits added (OR) to its half-boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Extra {
    /// Sum diagonals no queen may use (global).
    pub(super) blocked_sum: u64,
    /// Difference diagonals no queen may use (global).
    pub(super) blocked_diff: u64,
    /// Pattern bits added to every half-board.
    pub(super) tag: u64,
}

/// The join of one split's outer placements with its prepared inner list.
pub(super) struct Joiner<'a, L> {
    /// The inner loop.
    inner_loop: L,
    /// The geometry.
    layout: &'a Layout,
    /// The half.
    spec: &'a HalfSpec,
    /// The cap of the piece.
    cap: usize,
    /// Whether the inner list is the north cell's.
    inner_is_north: bool,
    /// Where the outer quadrant sits.
    outer_place: QuadrantPlace,
    /// Where the inner quadrant sits.
    inner_place: QuadrantPlace,
}

impl<'a, L: InnerLoop> Joiner<'a, L> {
    /// Prepares `inner_list` in `out` for the split.
    #[inline(always)]
    pub(super) fn new(
        inner_loop: L,
        piece: &Piece<'a>,
        inner_is_north: bool,
        inner_list: &[QuadrantEntry],
        out: &mut HalfBoards,
    ) -> Self {
        let layout = piece.layout;
        let spec = piece.spec;
        let north_place = layout.place(0, spec.col0);
        let south_place = layout.place(layout.far0, spec.col0);
        let (outer_place, inner_place) = if inner_is_north {
            (south_place, north_place)
        } else {
            (north_place, south_place)
        };
        out.inner.fill(
            inner_loop,
            layout,
            spec,
            inner_list,
            inner_place,
            inner_is_north,
        );
        Joiner {
            inner_loop,
            layout,
            spec,
            cap: piece.cap,
            inner_is_north,
            outer_place,
            inner_place,
        }
    }

    /// Whether the list is at the cap: one more outer placement could pass it (a piece
    /// always takes at least one).
    #[inline(always)]
    fn full(&self, out: &HalfBoards) -> bool {
        out.len > 0 && out.len + out.inner.padded_len() > self.cap
    }

    /// Joins the outer placements of `outer_list` from position `from` on, with
    /// `extra`, having made room for their half-boards (or for the rest of the piece);
    /// gives the position where it stopped at the cap, or `None` when every one is
    /// joined.
    #[inline(always)]
    pub(super) fn join_from(
        &mut self,
        outer_list: &[QuadrantEntry],
        from: usize,
        extra: Extra,
        out: &mut HalfBoards,
    ) -> Option<usize> {
        let padded = out.inner.padded_len();
        let rest = (outer_list.len() - from).saturating_mul(padded);
        out.reserve(rest.min(self.cap.saturating_sub(out.len).saturating_add(padded)) + INNER_PAD);
        for (done, &outer) in outer_list.iter().enumerate().skip(from) {
            if self.full(out) {
                return Some(done);
            }
            self.one_with(outer, extra, out);
        }
        None
    }

    /// Joins the outer placement `outer` with every inner one (`out` has room for them).
    #[inline(always)]
    fn one(&mut self, outer: QuadrantEntry, out: &mut HalfBoards) {
        self.one_with(outer, Extra::default(), out);
    }

    /// [`Joiner::one`] for a list with `extra` diagonals blocked (the inner parts on
    /// them are left out by the mask, as the outer part's own diagonals are) and
    /// pattern bits added.
    #[inline(always)]
    fn one_with(&mut self, outer: QuadrantEntry, extra: Extra, out: &mut HalfBoards) {
        let spec = self.spec;
        let outer_sum = u64::from(outer.sum) << self.outer_place.sum_shift;
        let outer_diff = u64::from(outer.diff) << self.outer_place.diff_shift;
        let blocked_sum = spec.blocked_sum | extra.blocked_sum;
        let blocked_diff = spec.blocked_diff | extra.blocked_diff;
        if (outer_sum & blocked_sum) | (outer_diff & blocked_diff) != 0 {
            return;
        }
        let outer_flag = usize::from(if self.inner_is_north {
            outer_sum & spec.anti_sum != 0
        } else {
            outer_diff & spec.main_diff != 0
        });
        // The flags index the spec's tags as `main * 2 + anti`; a north part carries
        // the main flag, a south part the anti one.
        let flags = |inner_flag: usize| {
            if self.inner_is_north {
                inner_flag * 2 + outer_flag
            } else {
                outer_flag * 2 + inner_flag
            }
        };
        let pattern = self.layout.pattern(outer_sum, outer_diff) | extra.tag;
        // The diagonals below the inner quadrant's frame cannot matter; the half's
        // blocked ones are not in the inner runs, the extra ones are masked.
        let mask = InnerParts::mask(packed(
            (outer_sum | extra.blocked_sum) >> self.inner_place.sum_shift,
            (outer_diff | extra.blocked_diff) >> self.inner_place.diff_shift,
        ));
        for inner_flag in 0..2 {
            let flags = flags(inner_flag);
            if spec.keep[flags] {
                out.len = self.inner_loop.join(
                    mask,
                    pattern | spec.tags[flags],
                    out.inner.run(inner_flag == 1),
                    &mut out.buffer,
                    out.len,
                );
            }
        }
    }
}
