//! Half-boards: every way to fill one half (the west or the east columns) of a unit,
//! built by joining its north and south quadrant placements.
//!
//! A half ([`HalfSpec`]) is given by its rows and free columns (global masks, the
//! columns all in the west block or all in the east block). Its north rows go to the
//! north quadrant and its south rows to the south one; every split of the columns (a
//! set `S` of the right size for the north quadrant, the rest for the south) gives two
//! quadrant cells whose placements are paired. A pair is a half-board when the two
//! parts share no diagonal and neither uses a blocked diagonal (pre-placed queens, a
//! filtered long diagonal). Each half-board is written as its tagged join pattern.
//!
//! The column sets `S` are walked in colex order ([`walk`]), so both cell numbers follow
//! from a counter. One cell of each split is prepared once as the *inner* list
//! ([`inner`]: without its placements on blocked diagonals, in two runs by the inner
//! part's own flag) and the other one is the outer loop. Each outer part joins each run
//! it keeps with one tag; the inner loop is branch-free: a pair's pattern is always
//! written and the length advanced by the disjointness test (AVX2: four pairs per step,
//! [`avx2`]; AVX-512: eight, [`avx512`]).
//!
//! **Cells** ([`Cells`]) come from the table of every quadrant placement, or, where that
//! table would not fit the memory budget, are made on demand (`join::cells`): each as
//! a join of its row set's upper and lower rows' placements where those are not too
//! many, else by a walk. A cell past a limit is not held whole: the cell with fewer
//! queens is the inner one (at most `(q/2)!` placements) and the other is streamed.
//!
//! **Groups.** An odd board's arms halves come in groups that differ only by the one
//! column of theirs the middle-row queen takes ([`GroupSpec`]); [`generate_group`]
//! walks a group at once, preparing each inner cell once for all its lists
//! ([`group`]).
//!
//! **Pieces.** A walk may stop when its list reaches a length (the *cap* of a
//! [`Piece`]) and resume later from its [`HalfCursor`], so that a unit's lists never
//! outgrow the memory budget: the list then comes in pieces, each at most the cap
//! plus one inner list (at most `(q/2)!` half-boards).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod group;
mod inner;
mod walk;

pub(crate) use group::{GroupCursor, GroupSpec, Missing};
pub(crate) use inner::INNER_PAD;

use crate::join::cells::CellJoin;
use crate::join::layout::Layout;
use crate::join::path::Path;
use crate::join::quadrants::{QuadrantEntry, QuadrantTable};
use inner::{Frame, InnerParts, Run};

/// One half to enumerate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HalfSpec {
    /// The global rows that get a queen in this half.
    pub(crate) rows: u64,
    /// The global free columns of this half (all in one column block).
    pub(crate) columns: u64,
    /// The first global column of the column block (0 for west, `n - h` for east).
    pub(crate) col0: u32,
    /// Sum diagonals no queen of this half may use.
    pub(crate) blocked_sum: u64,
    /// Difference diagonals no queen of this half may use.
    pub(crate) blocked_diff: u64,
    /// The difference diagonal that sets a half-board's *main* flag (only north
    /// quadrant queens can use it).
    pub(crate) main_diff: u64,
    /// The sum diagonal that sets a half-board's *anti* flag (only south quadrant
    /// queens can use it).
    pub(crate) anti_sum: u64,
    /// The tag added (OR) to a half-board's pattern, by `main * 2 + anti`.
    pub(crate) tags: [u64; 4],
    /// Whether a half-board is kept, by `main * 2 + anti`.
    pub(crate) keep: [bool; 4],
}

/// The generated half-boards (tagged join patterns) and the generation's buffers. They
/// grow and never shrink, so reusing them across units costs nothing.
#[derive(Default)]
pub(crate) struct HalfBoards {
    /// The patterns in `buffer[..len]`; the rest is slack for branch-free writes.
    buffer: Vec<u64>,
    /// The number of half-boards.
    len: usize,
    /// The prepared inner quadrant list of the current column split.
    inner: InnerParts,
    /// The north and south cells' placements (or a piece of one), when cells are made
    /// on demand one by one.
    cells: [Vec<QuadrantEntry>; 2],
    /// The north and south row sets' parts, when cells are made on demand as joins.
    joins: [CellJoin; 2],
}

impl HalfBoards {
    /// Makes room for `len` patterns (slack included) before a unit runs, or
    /// [`crate::error::Error::OutOfMemory`].
    pub(crate) fn try_reserve(&mut self, len: usize) -> Result<(), crate::error::Error> {
        crate::join::alloc::reserve(&mut self.buffer, len, "reserving the half-board lists")
    }

    /// Forgets the half-boards (keeps the memory).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The tagged patterns generated since the last [`HalfBoards::clear`].
    pub(crate) fn as_slice(&self) -> &[u64] {
        &self.buffer[..self.len]
    }

    /// The same, to reorder (the pair counter sorts the items by class).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u64] {
        &mut self.buffer[..self.len]
    }

    /// The number of half-boards.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// ORs `bits` into the patterns from position `from` on.
    pub(crate) fn or_from(&mut self, from: usize, bits: u64) {
        for pattern in &mut self.buffer[from..self.len] {
            *pattern |= bits;
        }
    }

    /// Makes room for `extra` more patterns after the current ones (growing by
    /// doubling, within the room reserved before the unit, [`HalfBoards::try_reserve`]).
    fn reserve(&mut self, extra: usize) {
        let needed = self.len + extra;
        if self.buffer.len() < needed {
            let doubled = (2 * self.buffer.len()).min(self.buffer.capacity());
            self.buffer.resize(needed.max(doubled), 0);
        }
    }
}

/// The most placements of a cell made on demand held at once: past it, a cell is
/// streamed in pieces of this length. It covers every cell with at most eight queens
/// (`8! = 40320`), so the cell with fewer queens of any split of a quadrant of side 16
/// or less is always held whole.
pub(crate) const CELL_LIMIT: usize = 1 << 16;

/// Where a walk's quadrant cells come from.
#[derive(Clone, Copy)]
pub(crate) enum Cells<'a> {
    /// The table of every placement.
    Table(&'a QuadrantTable),
    /// Made on demand for each split: joined ([`crate::join::cells::CellJoin`]) when
    /// neither part of its row set has more than `row_set_limit` placements, else
    /// walked.
    OnDemand {
        /// The most placements of a part of a row set held whole (0: none is).
        row_set_limit: usize,
        /// The most placements of a cell held at once ([`CELL_LIMIT`] in a count; at
        /// least `(q / 2)!`, so that the cell with fewer queens is always whole):
        /// past it, the other cell of the split is streamed in pieces of this length.
        cell_limit: usize,
    },
}

/// One walk over a half's column splits: what to generate, and when to stop.
#[derive(Clone, Copy)]
pub(crate) struct Piece<'a> {
    /// The board geometry.
    pub(crate) layout: &'a Layout,
    /// Where the cells come from.
    pub(crate) cells: Cells<'a>,
    /// The half.
    pub(crate) spec: &'a HalfSpec,
    /// Stop before the list would pass this length (but never before one outer
    /// placement of a piece has been joined).
    pub(crate) cap: usize,
}

/// Where a walk stands: the split (its colex rank and column set) and how many of its
/// outer placements are done. [`HalfCursor::default`] is the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HalfCursor {
    /// Whether the walk has begun (the fields below are set).
    started: bool,
    /// The colex rank of the current split.
    rank: u64,
    /// The compacted north column set of the current split.
    compact: u64,
    /// The outer placements of the current split already joined.
    outer: usize,
    /// Whether every split is done.
    done: bool,
}

impl HalfCursor {
    /// Whether the walk has generated every half-board.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }
}

/// An inner loop: writes at `buffer[len..]` the pattern of every inner part of `run`
/// joined (OR) with `tag` (the outer part's pattern and the half-board's tag),
/// advancing past those whose diagonals miss `mask` (the outer part's,
/// [`inner::InnerParts::mask`]); returns the new length. `buffer` has room for the run plus [`INNER_PAD`] more.
pub(crate) trait InnerLoop: Copy {
    /// The entries its join takes at a time (a power of two, at most [`INNER_PAD`]):
    /// each run is padded to a multiple of it, and no further (on short runs the
    /// padding is a good part of the steps).
    const PAD: usize;

    /// See the trait.
    fn join(self, mask: u64, tag: u64, run: Run<'_>, buffer: &mut [u64], len: usize) -> usize;

    /// Bit deposit: the low bits of `compact` spread, in order, over the set bits of
    /// `mask` (the split's north columns from its compact rank; `pdep` where the path
    /// has BMI2).
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "called once per split in the walk compiled with the vector features"
    )]
    fn deposit(self, compact: u64, mask: u64) -> u64 {
        crate::join::bits::deposit_bits(compact, mask)
    }

    /// The preparation of an inner list: [`inner::split_runs_portable`] (which this
    /// must match, up to the order within a run), given room for each run plus
    /// [`INNER_PAD`] entries.
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "called once per split in the walk compiled with the vector features"
    )]
    fn split_runs(
        self,
        list: &[QuadrantEntry],
        frame: &Frame,
        diagonals: &mut [u64],
        patterns: &mut [u64],
        next: [usize; 2],
    ) -> [usize; 2] {
        inner::split_runs_portable(list, frame, diagonals, patterns, next)
    }
}

/// Appends to `out` the tagged join pattern of the kept half-boards of `piece.spec`
/// from `cursor` on, with the inner loop of `path`, until every one is written or the
/// list reaches the piece's cap; `cursor` then tells where to resume.
pub(crate) fn generate(
    path: Path,
    piece: &Piece<'_>,
    cursor: &mut HalfCursor,
    out: &mut HalfBoards,
) {
    match path {
        Path::Portable => walk::generate_with(inner::Portable, piece, cursor, out),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2(token) => avx2::generate(token, piece, cursor, out),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(token) => avx512::generate(token, piece, cursor, out),
    }
}

/// Appends to `out` the half-boards of every list of `group` ([`group`]), each with
/// its guard, from `cursor` on, with the inner loop of `path` and the cells of
/// `piece`'s quadrant table, until every one is written or the list reaches the
/// piece's cap (`piece.spec` is not read: the group has its own half).
pub(crate) fn generate_group(
    path: Path,
    piece: &Piece<'_>,
    group: &GroupSpec,
    cursor: &mut GroupCursor,
    out: &mut HalfBoards,
) {
    match path {
        Path::Portable => group::generate_group_with(inner::Portable, piece, group, cursor, out),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2(token) => avx2::generate_group(token, piece, group, cursor, out),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(token) => avx512::generate_group(token, piece, group, cursor, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs `path` prepares from `list`, as (packed diagonals, pattern) pairs without
    /// their padding, having checked that each is a multiple of the path's join width
    /// and padded (at its end, or at its start for the run with the flag, which is
    /// written downward) with entries that meet every mask.
    fn runs_of(
        path: Path,
        spec: &HalfSpec,
        list: &[QuadrantEntry],
        north: bool,
    ) -> Vec<Vec<(u64, u64)>> {
        match path {
            Path::Portable => runs_with(inner::Portable, spec, list, north),
            #[cfg(target_arch = "x86_64")]
            Path::Avx2(token) => runs_with(token, spec, list, north),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512(token) => runs_with(token, spec, list, north),
        }
    }

    /// [`runs_of`] with `inner_loop`.
    fn runs_with<L: InnerLoop>(
        inner_loop: L,
        spec: &HalfSpec,
        list: &[QuadrantEntry],
        north: bool,
    ) -> Vec<Vec<(u64, u64)>> {
        let layout = Layout::new(2 * crate::join::quadrants::MAX_SIDE);
        let place = layout.place(if north { 0 } else { layout.far0 }, 0);
        let mut parts = InnerParts::default();
        parts.fill(inner_loop, &layout, spec, list, place, north);
        [false, true]
            .into_iter()
            .map(|with_flag| {
                let run = parts.run(with_flag);
                assert_eq!(run.diagonals.len() % L::PAD, 0);
                let mut entries: Vec<(u64, u64)> = run
                    .diagonals
                    .iter()
                    .copied()
                    .zip(run.patterns.iter().copied())
                    .collect();
                if with_flag {
                    entries.reverse();
                }
                let real = entries
                    .iter()
                    .take_while(|&&(d, _)| d != inner::PAD_DIAGONALS)
                    .count();
                assert!(
                    entries.len() - real < L::PAD,
                    "less than one step of padding"
                );
                assert!(entries[real..]
                    .iter()
                    .all(|&e| e == (inner::PAD_DIAGONALS, 0)));
                entries.truncate(real);
                if with_flag {
                    entries.reverse();
                }
                entries
            })
            .collect()
    }

    #[test]
    fn every_path_prepares_the_portable_inner_runs() {
        // Random placements of the largest quadrant (side 16: local diagonals of 31
        // bits), lists of every length from 0 to 40 (vector bodies and tails), with and
        // without blocked diagonals and a flag.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let local = (1u32 << 31) - 1;
        let paths = Path::available();
        for len in 0..=40 {
            let list: Vec<QuadrantEntry> = (0..len)
                .map(|_| QuadrantEntry {
                    sum: u32::try_from(next() & next() & u64::from(local)).unwrap(),
                    diff: u32::try_from(next() & next() & u64::from(local)).unwrap(),
                })
                .collect();
            for (blocked, flag) in [(0, 0), (next() & next() & next(), 1u64 << (next() % 62))] {
                let spec = HalfSpec {
                    rows: 0,
                    columns: 0,
                    col0: 0,
                    blocked_sum: blocked,
                    blocked_diff: blocked.rotate_left(17),
                    main_diff: flag,
                    anti_sum: flag,
                    tags: [0; 4],
                    keep: [true; 4],
                };
                for north in [false, true] {
                    let want = runs_of(Path::Portable, &spec, &list, north);
                    for &path in &paths[1..] {
                        assert_eq!(
                            runs_of(path, &spec, &list, north),
                            want,
                            "{path:?}, {len} placements, blocked {blocked:#x}, flag {flag:#x}"
                        );
                    }
                }
            }
        }
    }
}
