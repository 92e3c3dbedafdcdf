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
//! The column sets `S` are walked in colex order, so both cell numbers follow from a
//! counter. The shorter of the two cell lists is prepared once ([`inner`]) and the
//! longer one is the outer loop; the inner loop is branch-free: a pair's pattern is
//! always written and the length advanced by the disjointness test (AVX2: four pairs
//! per step, [`avx2`]). Blocked diagonals are added to the outer part's masks, so no
//! list is copied or filtered.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod inner;

use crate::cpu::Level;
use crate::join::bits::{binomial, colex_rank, deposit_bits, low_mask, next_same_popcount};
use crate::join::layout::Layout;
use crate::join::quadrants::QuadrantTable;
use inner::{InnerParts, INNER_PAD};

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
}

/// An outer quadrant placement, prepared for pairing with every inner one.
pub(crate) struct OuterPart {
    /// Its join pattern.
    pattern: u64,
    /// Its own flag (main for a north part, anti for a south part), 0 or 1.
    flag: usize,
    /// The sum diagonals the inner part must avoid, in the inner quadrant's frame.
    avoid_sum: u64,
    /// The difference diagonals the inner part must avoid, in the inner quadrant's
    /// frame.
    avoid_diff: u64,
}

/// An inner loop: writes at `buffer[len..]` the pattern of `outer` joined with every
/// prepared inner part, advancing past the kept ones; returns the new length. `buffer`
/// has room for every inner part plus [`INNER_PAD`] more.
pub(crate) trait InnerLoop: Copy {
    /// See the trait.
    fn join(self, outer: &OuterPart, inner: &InnerParts, buffer: &mut [u64], len: usize) -> usize;
}

/// Appends to `out` the tagged join pattern of every kept half-board of `spec`, with
/// the best inner loop at or below `level`.
pub(crate) fn generate(
    level: Level,
    layout: &Layout,
    table: &QuadrantTable,
    spec: &HalfSpec,
    out: &mut HalfBoards,
) {
    match level {
        // No AVX-512 path yet: the AVX2 one, which the AVX-512 level proves.
        #[cfg(target_arch = "x86_64")]
        Level::Avx512(token) => avx2::generate(token.avx2(), layout, table, spec, out),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2(token) => avx2::generate(token, layout, table, spec, out),
        _ => generate_with(inner::Portable, layout, table, spec, out),
    }
}

/// [`generate`] with the inner loop `inner_loop`, inlined into its caller (which the
/// AVX2 path compiles with its target features).
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "the generation must inline into the wrapper compiled with the AVX2 features"
)]
fn generate_with<L: InnerLoop>(
    inner_loop: L,
    layout: &Layout,
    table: &QuadrantTable,
    spec: &HalfSpec,
    out: &mut HalfBoards,
) {
    let side = layout.half;
    let north_rows = spec.rows & layout.north_rows();
    let south_rows = (spec.rows & layout.south_rows()) >> layout.far0;
    let columns = spec.columns >> spec.col0;
    let north_size = north_rows.count_ones();
    let north_place = layout.place(0, spec.col0);
    let south_place = layout.place(layout.far0, spec.col0);
    let all_columns = columns == low_mask(side);
    // With every column free, the colex rank of the complement of the rank-r subset is
    // `C(q, q - k) - 1 - r`.
    let south_last_rank = binomial(side, side - north_size.min(side)).wrapping_sub(1);
    let mut compact = low_mask(north_size);
    for rank in 0..binomial(columns.count_ones(), north_size) {
        let (north_rank, south_rank) = if all_columns {
            (rank, south_last_rank - rank)
        } else {
            let north_columns = deposit_bits(compact, columns);
            (
                colex_rank(north_columns),
                colex_rank(columns & !north_columns),
            )
        };
        if north_size > 0 {
            compact = next_same_popcount(compact);
        }
        let north_list = table.cell_at(north_rows, north_rank);
        if north_list.is_empty() {
            continue;
        }
        let south_list = table.cell_at(south_rows, south_rank);
        if south_list.is_empty() {
            continue;
        }
        let inner_is_north = north_list.len() < south_list.len();
        let (outer_list, outer_place, inner_list, inner_place) = if inner_is_north {
            (south_list, south_place, north_list, north_place)
        } else {
            (north_list, north_place, south_list, south_place)
        };
        out.inner
            .fill(layout, spec, inner_list, inner_place, inner_is_north);
        let needed = out.len + outer_list.len() * out.inner.padded_len() + INNER_PAD;
        if out.buffer.len() < needed {
            out.buffer.resize(needed.max(2 * out.buffer.len()), 0);
        }
        for outer in outer_list {
            let outer_sum = u64::from(outer.sum) << outer_place.sum_shift;
            let outer_diff = u64::from(outer.diff) << outer_place.diff_shift;
            if (outer_sum & spec.blocked_sum) | (outer_diff & spec.blocked_diff) != 0 {
                continue;
            }
            let flag = if inner_is_north {
                outer_sum & spec.anti_sum != 0
            } else {
                outer_diff & spec.main_diff != 0
            };
            let outer_part = OuterPart {
                pattern: layout.pattern(outer_sum, outer_diff),
                flag: usize::from(flag),
                // The diagonals below the inner quadrant's frame cannot matter.
                avoid_sum: (outer_sum | spec.blocked_sum) >> inner_place.sum_shift,
                avoid_diff: (outer_diff | spec.blocked_diff) >> inner_place.diff_shift,
            };
            out.len = inner_loop.join(&outer_part, &out.inner, &mut out.buffer, out.len);
        }
    }
}
