//! A group of halves that differ only by one column left out: an odd board's arms
//! halves, one list for each column of the middle-row queen, walked at once.
//!
//! Every list of a [`GroupSpec`] has the group's rows and all of its columns but one
//! (the list's *missing* column, [`Missing`]), with the diagonals of that column's
//! queen blocked and its guard added to the patterns. Walked one list at a time
//! ([`super::walk`]), each column split of each list prepares its inner cell again; here
//! the cell of the quadrant with more rows is *shared*: for each of its column sets,
//! prepared once (off the group's blocked diagonals only), it is joined with the other
//! quadrant's cell of every list whose missing column it leaves free, each list's
//! blocked diagonals masked in the inner loop as an outer part's own diagonals are.
//! The lists' half-boards are the same as one list at a time (in another order).
//!
//! Cells come from the quadrant table only: a plan that makes cells on demand walks
//! the lists one at a time ([`GroupSpec::list`]).

use super::walk::{Extra, Joiner};
use super::{Cells, HalfBoards, HalfSpec, InnerLoop, Piece};
use crate::join::bits::{binomial, colex_rank_fast, low_mask, next_same_popcount};
use crate::join::quadrants::{QuadrantEntry, QuadrantTable};

/// One list of a group: the column no queen of it uses, and what that column's queen
/// adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Missing {
    /// The global column left out (in the group's column block).
    pub(crate) column: u32,
    /// Sum diagonals no queen of the list may use, beyond the group's.
    pub(crate) blocked_sum: u64,
    /// Difference diagonals no queen of the list may use, beyond the group's.
    pub(crate) blocked_diff: u64,
    /// Pattern bits added (OR) to every half-board of the list.
    pub(crate) guard: u64,
}

/// A group of halves: `half` (its rows, one queen fewer than its free columns, and the
/// diagonals every list blocks) less one column for each of `missing`.
#[derive(Clone, Debug)]
pub(crate) struct GroupSpec {
    /// The rows, the free columns (all the lists' columns and their missing ones), the
    /// blocked diagonals every list shares, the flags and tags.
    pub(crate) half: HalfSpec,
    /// The lists, by missing column (distinct free columns of `half`).
    pub(crate) missing: Vec<Missing>,
}

impl GroupSpec {
    /// List `index` on its own: its half (the column left out, its diagonals blocked)
    /// and its guard; `None` past the last list.
    pub(crate) fn list(&self, index: usize) -> Option<(HalfSpec, u64)> {
        let missing = self.missing.get(index)?;
        let half = HalfSpec {
            columns: self.half.columns & !(1u64 << missing.column),
            blocked_sum: self.half.blocked_sum | missing.blocked_sum,
            blocked_diff: self.half.blocked_diff | missing.blocked_diff,
            ..self.half
        };
        Some((half, missing.guard))
    }

    /// Every list on its own ([`GroupSpec::list`]), in order.
    pub(crate) fn halves(&self) -> impl Iterator<Item = (HalfSpec, u64)> + '_ {
        (0..).map_while(|index| self.list(index))
    }
}

/// Where a group's walk stands: the shared cell's column set (its colex rank and
/// compact set), the list whose join comes next, and its outer placements done.
/// [`GroupCursor::default`] is the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupCursor {
    /// Whether the walk has begun (the fields below are set).
    started: bool,
    /// The colex rank of the shared cell's column set.
    rank: u64,
    /// That column set, compacted to the group's free columns.
    compact: u64,
    /// The index in [`GroupSpec::missing`] of the next list to join.
    list: usize,
    /// The outer placements of that list's join already done.
    outer: usize,
    /// Whether the walk is done.
    done: bool,
}

impl GroupCursor {
    /// Whether the walk has generated every half-board of the group.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }
}

/// Appends to `out` the half-boards of every list of `group`, each joined (OR) with its
/// guard, from `cursor` on, with the cells of `piece`'s quadrant table, until the list
/// reaches the piece's cap (as [`super::generate`] does); `cursor` then tells where to
/// resume.
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "the walk must inline into the wrappers compiled with the vector features"
)]
pub(super) fn generate_group_with<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    let Cells::Table(table) = piece.cells else {
        unreachable!("a group is walked with the quadrant table only")
    };
    let layout = piece.layout;
    let spec = &group.half;
    let north_rows = spec.rows & layout.north_rows();
    let south_rows = (spec.rows & layout.south_rows()) >> layout.far0;
    let columns = spec.columns >> spec.col0;
    debug_assert_eq!(spec.rows.count_ones() + 1, spec.columns.count_ones());
    debug_assert!(group
        .missing
        .iter()
        .all(|missing| spec.columns >> missing.column & 1 == 1));
    // The quadrant with more rows (north on a tie) has the shared cell; it is the
    // inner list of every join.
    let shared_is_north = north_rows.count_ones() >= south_rows.count_ones();
    let (shared_rows, other_rows) = if shared_is_north {
        (north_rows, south_rows)
    } else {
        (south_rows, north_rows)
    };
    let shared_size = shared_rows.count_ones();
    if !cursor.started {
        *cursor = GroupCursor {
            started: true,
            rank: 0,
            compact: low_mask(shared_size),
            list: 0,
            outer: 0,
            done: false,
        };
    }
    let splits = binomial(columns.count_ones(), shared_size);
    while cursor.rank < splits {
        let shared_columns = inner_loop.deposit(cursor.compact, columns);
        let shared = table.cell_at(shared_rows, colex_rank_fast(shared_columns));
        let split = SharedSplit {
            is_north: shared_is_north,
            list: shared,
            rest: columns & !shared_columns,
            other_rows,
        };
        if !shared.is_empty() && !join_lists(inner_loop, piece, table, group, split, cursor, out) {
            return;
        }
        cursor.rank += 1;
        cursor.list = 0;
        cursor.outer = 0;
        if shared_size > 0 {
            cursor.compact = next_same_popcount(cursor.compact);
        }
    }
    cursor.done = true;
}

/// One column set of the shared cell.
#[derive(Clone, Copy)]
struct SharedSplit<'a> {
    /// Whether the shared cell is the north quadrant's.
    is_north: bool,
    /// Its placements.
    list: &'a [QuadrantEntry],
    /// The columns it leaves to the other quadrant and the missing one (local).
    rest: u64,
    /// The other quadrant's rows (local).
    other_rows: u64,
}

/// Joins the shared cell of `split` (prepared once) with the other quadrant's cell of
/// every list whose missing column is among the rest of the columns, from the cursor's
/// list and outer placement on; false when it stopped at the cap.
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "inlined into the walk compiled with the vector features"
)]
fn join_lists<L: InnerLoop>(
    inner_loop: L,
    piece: &Piece<'_>,
    table: &QuadrantTable,
    group: &GroupSpec,
    split: SharedSplit<'_>,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) -> bool {
    let col0 = group.half.col0;
    let mut joiner: Option<Joiner<'_, L>> = None;
    while let Some(missing) = group.missing.get(cursor.list) {
        let bit = 1u64 << (missing.column - col0);
        if split.rest & bit != 0 {
            let other = table.cell_at(split.other_rows, colex_rank_fast(split.rest & !bit));
            if !other.is_empty() {
                let join = joiner.get_or_insert_with(|| {
                    Joiner::new(inner_loop, piece, split.is_north, split.list, out)
                });
                let extra = Extra {
                    blocked_sum: missing.blocked_sum,
                    blocked_diff: missing.blocked_diff,
                    tag: missing.guard,
                };
                if let Some(stopped) = join.join_from(other, cursor.outer, extra, out) {
                    cursor.outer = stopped;
                    return false;
                }
            }
        }
        cursor.list += 1;
        cursor.outer = 0;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::halves::{generate, HalfCursor};
    use crate::join::layout::Layout;
    use crate::join::path::Path;

    /// Groups of board size `layout.n` from the seed `state`: in either column block,
    /// `h - 1` of the quadrants' rows (as many north as south and more of either), a
    /// few blocked diagonals, and lists missing each of some of the block's columns,
    /// each with a few more blocked diagonals and a guard.
    fn random_groups(layout: &Layout, mut state: u64) -> Vec<GroupSpec> {
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let h = layout.half;
        let quadrant_rows = layout.north_rows() | layout.south_rows();
        let diagonals = low_mask(2 * layout.n - 1);
        let mut sparse = |bits: u64| next() & next() & next() & bits;
        let mut groups = Vec::new();
        for index in 0..100 {
            // `h - 1` of the quadrants' rows, at random.
            let mut rows = quadrant_rows;
            while rows.count_ones() > h - 1 {
                let drop = sparse(u64::MAX) % u64::from(rows.count_ones());
                rows &= !deposit(1 << drop, rows);
            }
            let col0 = if index % 2 == 0 { 0 } else { layout.far0 };
            let half = HalfSpec {
                rows,
                columns: low_mask(h) << col0,
                col0,
                blocked_sum: sparse(diagonals),
                blocked_diff: sparse(diagonals),
                main_diff: 0,
                anti_sum: 0,
                tags: [0; 4],
                keep: [true; 4],
            };
            let mut missing = Vec::new();
            for column in col0..col0 + h {
                if sparse(u64::MAX) % 3 != 0 {
                    missing.push(Missing {
                        column,
                        blocked_sum: sparse(diagonals) & sparse(diagonals),
                        blocked_diff: sparse(diagonals) & sparse(diagonals),
                        guard: sparse(low_mask(layout.pattern_bits())),
                    });
                }
            }
            groups.push(GroupSpec { half, missing });
        }
        groups
    }

    /// The low bits of `compact` spread over the set bits of `mask`.
    fn deposit(compact: u64, mask: u64) -> u64 {
        crate::join::bits::deposit_bits(compact, mask)
    }

    /// Every piece of `group` walked at once with `path`, pieces of at most `cap`
    /// (and one inner list), sorted, and the longest piece.
    fn walked_at_once(
        path: Path,
        layout: &Layout,
        table: &QuadrantTable,
        group: &GroupSpec,
        cap: usize,
    ) -> (Vec<u64>, usize) {
        let piece = Piece {
            layout,
            cells: Cells::Table(table),
            spec: &group.half,
            cap,
        };
        let (mut all, mut longest) = (Vec::new(), 0);
        let mut cursor = GroupCursor::default();
        let mut out = HalfBoards::default();
        while !cursor.is_done() {
            out.clear();
            crate::join::halves::generate_group(path, &piece, group, &mut cursor, &mut out);
            longest = longest.max(out.len());
            all.extend_from_slice(out.as_slice());
        }
        all.sort_unstable();
        (all, longest)
    }

    /// Every list of `group` walked one at a time (portable), each with its guard,
    /// sorted.
    fn walked_one_at_a_time(layout: &Layout, table: &QuadrantTable, group: &GroupSpec) -> Vec<u64> {
        let mut all = Vec::new();
        for (spec, guard) in group.halves() {
            let piece = Piece {
                layout,
                cells: Cells::Table(table),
                spec: &spec,
                cap: usize::MAX,
            };
            let mut out = HalfBoards::default();
            let mut cursor = HalfCursor::default();
            generate(Path::Portable, &piece, &mut cursor, &mut out);
            assert!(cursor.is_done());
            all.extend(out.as_slice().iter().map(|pattern| pattern | guard));
        }
        all.sort_unstable();
        all
    }

    #[test]
    fn a_group_walked_at_once_makes_the_half_boards_of_its_lists() {
        // Odd and even boards, the north quadrant's cell shared (more rows north) and
        // the south one's, on every path, whole and in pieces of a few half-boards.
        for n in [9u32, 10, 11, 12, 13, 15] {
            let layout = Layout::new(n);
            let table = QuadrantTable::new(layout.half);
            let groups = random_groups(&layout, 0x9e37_79b9_7f4a_7c15 ^ u64::from(n));
            let shared_north = |group: &&GroupSpec| {
                let rows = group.half.rows;
                (rows & layout.north_rows()).count_ones()
                    >= (rows & layout.south_rows()).count_ones()
            };
            let north = groups.iter().filter(shared_north).count();
            assert!(
                north > 0 && north < groups.len(),
                "n = {n}: {north} shared north"
            );
            let mut made = 0;
            for group in &groups {
                let want = walked_one_at_a_time(&layout, &table, group);
                made += want.len();
                for path in Path::available() {
                    for cap in [1, 5, 40, usize::MAX] {
                        let (got, longest) = walked_at_once(path, &layout, &table, group, cap);
                        assert_eq!(got, want, "n = {n}, {path:?}, cap {cap}, {group:?}");
                        // A piece passes its cap by one inner list at most.
                        let inner = crate::join::memory::inner_len(layout.half);
                        assert!(
                            cap == usize::MAX || longest as u64 <= cap as u64 + inner,
                            "n = {n}: a piece of {longest} for a cap of {cap}"
                        );
                    }
                }
            }
            assert!(made >= 200, "n = {n}: {made} half-boards");
        }
    }
}
