//! How a block's varying bits are cut into chunks, each with its own table of the ORs
//! of the lanes of all subsets of its bits (see the parent module).
//!
//! A chunk of a layout is *narrow* (`narrow` bits, a table of `2^narrow` lanes) or
//! *wide* (one bit more, twice the lanes). An item costs one table load per chunk,
//! and a block's tables cost one lane OR each to build when the block is counted. So
//! the layouts come in [`FAMILIES`], each the fewest chunks of its widths whose tables
//! fit its lanes:
//!
//! - chunks of 7 and 8 bits, at most 1,152 lanes (72 KiB, nine narrow chunks: the most
//!   a block of 62 varying bits needs): 29 to 32 varying bits take four chunks (all
//!   wide) instead of five narrow ones, 36 to 39 five instead of six;
//! - 9 and 10 bits, at most 3,584 lanes (224 KiB): 34 to 36 varying bits in four
//!   chunks;
//! - 10 and 11 bits, at most 8,192 lanes (512 KiB, [`MAX_BLOCK_LANES`]): 31 to 33 in
//!   three chunks, 37 to 44 in four.
//!
//! [`ChunkLayout::for_visits`] picks, for each block, the layout whose loads and build
//! cost the least for the item visits the splits' sample predicts (those of one item
//! tile, `super::tiles`, as the tables are built once per tile): narrow chunks for
//! the blocks few items meet, wide ones for those many meet (the lists grow with `n`,
//! so the wide ones take more of the work on larger boards). Within a layout the wide
//! chunks come first, and each vector path compiles one counting loop per layout
//! ([`match_layout`]), with every mask and table offset a constant (and every shift,
//! but in the AVX-512 loop, which keeps them in registers: [`ChunkShifts`]).

#![allow(
    clippy::inline_always,
    reason = "the helpers must inline into the counting loops compiled with the vector features"
)]

/// A family of chunk layouts: chunks of `narrow` and `narrow + 1` bits, tables of at
/// most `max_lanes` lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Family {
    /// The bits of a narrow chunk.
    pub(super) narrow: usize,
    /// The most lanes of a block's tables.
    pub(super) max_lanes: usize,
}

/// The layout families, narrowest first (see the module docs).
pub(super) const FAMILIES: [Family; 3] = [
    Family {
        narrow: 7,
        max_lanes: 9 << 7,
    },
    Family {
        narrow: 9,
        max_lanes: 7 << 9,
    },
    Family {
        narrow: 10,
        max_lanes: 8 << 10,
    },
];
/// The most table lanes of one block, of any family (512 KiB).
pub(crate) const MAX_BLOCK_LANES: usize = {
    let (mut most, mut index) = (0, 0);
    while index < FAMILIES.len() {
        if FAMILIES[index].max_lanes > most {
            most = FAMILIES[index].max_lanes;
        }
        index += 1;
    }
    most
};
/// What building one table lane costs, in chunk loads of an item visit (a lane is a
/// load, an OR and a 64-byte store; measured, see `results/engines.md`).
const BUILD_LANE_LOADS: u64 = 4;

const _: () = {
    assert!(
        MAX_BLOCK_LANES == 8 << 10,
        "the module docs and the memory model say 512 KiB"
    );
    let mut index = 0;
    while index < FAMILIES.len() {
        let family = FAMILIES[index];
        // Enough lanes for 62 varying bits in narrow chunks.
        assert!(62_usize.div_ceil(family.narrow) << family.narrow <= family.max_lanes);
        // The counting loops mask a chunk's value to at most 11 bits.
        assert!(family.narrow < 11);
        index += 1;
    }
};

/// The chunks of a block: `chunks` of them, the first `wide` wide (`narrow + 1` bits),
/// the others narrow (`narrow` bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ChunkLayout {
    /// The number of chunks.
    pub(super) chunks: usize,
    /// The number of wide chunks among them (the first ones).
    pub(super) wide: usize,
    /// The bits of a narrow chunk (its family's).
    pub(super) narrow: usize,
}

impl ChunkLayout {
    /// The layout of `varying` varying bits (at most 62) in `family`: its fewest
    /// chunks whose tables fit its lanes, with no more wide chunks than that needs.
    pub(super) fn in_family(varying: usize, family: Family) -> ChunkLayout {
        debug_assert!(varying <= 62);
        let narrow = family.narrow;
        let all_narrow = ChunkLayout {
            chunks: varying.div_ceil(narrow),
            wide: 0,
            narrow,
        };
        if all_narrow.chunks == 0 {
            return all_narrow;
        }
        // One chunk fewer: its chunks all narrow cover `narrow * chunks` bits, and each
        // wide one adds a bit.
        let chunks = all_narrow.chunks - 1;
        let wide = varying - narrow * chunks;
        let fewer = ChunkLayout {
            chunks,
            wide,
            narrow,
        };
        if wide <= chunks && fewer.lanes() <= family.max_lanes {
            fewer
        } else {
            all_narrow
        }
    }

    /// The layout of `varying` varying bits (at most 62) for a block that about
    /// `visits` items will meet: of the layouts of [`FAMILIES`], the one whose loads
    /// (`visits` per chunk) and build ([`BUILD_LANE_LOADS`] per lane) cost the least,
    /// the narrowest on a tie.
    pub(super) fn for_visits(varying: usize, visits: u64) -> ChunkLayout {
        // At most 9 * 2^64 + 2^13 * 4: exact in u128.
        let cost = |layout: ChunkLayout| {
            layout.chunks as u128 * u128::from(visits)
                + layout.lanes() as u128 * u128::from(BUILD_LANE_LOADS)
        };
        let mut best = ChunkLayout::in_family(varying, FAMILIES[0]);
        for family in &FAMILIES[1..] {
            let layout = ChunkLayout::in_family(varying, *family);
            if cost(layout) < cost(best) {
                best = layout;
            }
        }
        best
    }

    /// The lanes of the block's tables.
    pub(super) const fn lanes(self) -> usize {
        (self.chunks + self.wide) << self.narrow
    }

    /// The bits the chunks cover.
    #[cfg(test)]
    const fn bits(self) -> usize {
        self.narrow * self.chunks + self.wide
    }
}

/// The first bit of chunk `chunk` in the compacted pattern, with `wide` wide chunks of
/// `narrow + 1` bits and the others of `narrow`.
#[inline(always)]
pub(super) const fn chunk_shift(narrow: usize, wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        (narrow + 1) * chunk
    } else {
        (narrow + 1) * wide + narrow * (chunk - wide)
    }
}

/// The table entries (lanes) of chunk `chunk`, with `wide` wide chunks of `narrow + 1`
/// bits and the others of `narrow`.
#[inline(always)]
pub(super) const fn chunk_entries(narrow: usize, wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        1 << (narrow + 1)
    } else {
        1 << narrow
    }
}

/// The first lane of chunk `chunk`'s table, from the block's first, with `wide` wide
/// chunks of `narrow + 1` bits and the others of `narrow`.
#[inline(always)]
pub(super) const fn chunk_offset(narrow: usize, wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        chunk << (narrow + 1)
    } else {
        (wide << (narrow + 1)) + ((chunk - wide) << narrow)
    }
}

/// The lane of the block's tables that chunk `chunk` of the compacted item `compact`
/// selects, with `wide` wide chunks of `narrow + 1` bits and the others of `narrow`.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the value is masked to at most 11 bits"
)]
pub(super) const fn chunk_lane(compact: u64, narrow: usize, wide: usize, chunk: usize) -> usize {
    let mask = chunk_entries(narrow, wide, chunk) as u64 - 1;
    chunk_offset(narrow, wide, chunk)
        + ((compact >> chunk_shift(narrow, wide, chunk)) & mask) as usize
}

/// The most chunks of a layout: 62 varying bits in chunks of 7.
const MAX_CHUNKS: usize = 62_usize.div_ceil(FAMILIES[0].narrow);
const _: () = assert!(
    MAX_CHUNKS == 9,
    "`ChunkShifts::new` lists eight right shifts"
);
/// A lane's bytes, as a shift (64).
const LANE_BYTES_SHIFT: u32 = 6;

/// [`chunk_lane`] for the AVX-512 counting loop, with the shifts held as run-time
/// values. Each chunk's bits are moved to bit 6 and masked there, which is the lane's
/// byte offset in its table, so the address needs no further shift: two operations a
/// chunk (a BMI2 `shlx` or `shrx` and an `and`) where constant shifts compile to three
/// or four (`mov`, `shr`, `and`, `shl`: a constant shift overwrites its register, and
/// the byte offset is one more shift). That loop is bound by its scalar operations
/// nearly as much as by its loads, so it pays there; the AVX2 loop, which works on
/// eight items at once, runs out of registers for the counts (see
/// `results/engines.md`). The counts are hidden from the optimizer
/// ([`std::hint::black_box`]) only so that it keeps them in registers; any value it
/// saw would be the same. Each is hidden on its own: hidden as one array, they were
/// loaded as a vector and the offsets computed in vectors.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub(super) struct ChunkShifts {
    /// The left shift of the first chunk: 6.
    left: u32,
    /// The right shift of each later chunk (its first bit less 6), from the second.
    right: [u32; MAX_CHUNKS - 1],
}

/// The right shifts of [`ChunkShifts`] for a layout with `wide` wide chunks of
/// `narrow + 1` bits, then narrow ones: each later chunk's first bit less 6 (every
/// later chunk starts at bit 7 or above). The chunks past the layout's are never taken,
/// and get a shift of at most 63 all the same.
/// A `const fn`, so that the counting loop's layouts (literals) fold it to constants
/// before [`ChunkShifts::new`] hides them: computed by a closure, the eight values
/// were a call that was not inlined, 1.3% of the loop's samples.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the shift is at most 63 where it is cast"
)]
const fn right_shifts(narrow: usize, wide: usize) -> [u32; MAX_CHUNKS - 1] {
    let mut shifts = [0; MAX_CHUNKS - 1];
    let mut chunk = 1;
    while chunk < MAX_CHUNKS {
        let first_bit = chunk_shift(narrow, wide, chunk);
        let shift = first_bit.saturating_sub(LANE_BYTES_SHIFT as usize);
        shifts[chunk - 1] = if shift > 63 { 63 } else { shift as u32 };
        chunk += 1;
    }
    shifts
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl ChunkShifts {
    /// The shifts of a layout with `wide` wide chunks of `narrow + 1` bits, then
    /// narrow ones. Make them once per block, before its items' loop: the hidden
    /// values cannot be folded, so made per item they are stored and loaded per item
    /// (the AVX-512 loop took 2.2 times as long so, on Zen 4).
    #[inline(always)]
    pub(super) fn new(narrow: usize, wide: usize) -> ChunkShifts {
        let right = right_shifts(narrow, wide);
        ChunkShifts {
            left: std::hint::black_box(LANE_BYTES_SHIFT),
            right: [
                std::hint::black_box(right[0]),
                std::hint::black_box(right[1]),
                std::hint::black_box(right[2]),
                std::hint::black_box(right[3]),
                std::hint::black_box(right[4]),
                std::hint::black_box(right[5]),
                std::hint::black_box(right[6]),
                std::hint::black_box(right[7]),
            ],
        }
    }

    /// [`chunk_lane`]: the lane of the block's tables that chunk `chunk` of the
    /// compacted item `compact` selects, with `wide` wide chunks of `narrow + 1` bits
    /// and the others of `narrow` (the layout of [`ChunkShifts::new`]).
    #[inline(always)]
    pub(super) fn lane(&self, compact: u64, narrow: usize, wide: usize, chunk: usize) -> usize {
        let byte_mask = (chunk_entries(narrow, wide, chunk) as u64 - 1) << LANE_BYTES_SHIFT;
        let moved = if chunk == 0 {
            compact << self.left
        } else {
            compact >> self.right[chunk - 1]
        };
        chunk_offset(narrow, wide, chunk) + ((moved & byte_mask) >> LANE_BYTES_SHIFT) as usize
    }
}

/// A `match` on a [`ChunkLayout`] that expands `$run!(CHUNKS, WIDE, NARROW)`, with all
/// three as literals, for every layout [`ChunkLayout::in_family`] makes. (The vector paths use it, so only the tests do
/// off x86-64.)
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_macros))]
macro_rules! match_layout {
    ($layout:expr, $run:ident) => {
        match ($layout.chunks, $layout.wide, $layout.narrow) {
            (0, 0, 7) => $run!(0, 0, 7),
            (1, 0, 7) => $run!(1, 0, 7),
            (1, 1, 7) => $run!(1, 1, 7),
            (2, 0, 7) => $run!(2, 0, 7),
            (2, 1, 7) => $run!(2, 1, 7),
            (2, 2, 7) => $run!(2, 2, 7),
            (3, 0, 7) => $run!(3, 0, 7),
            (3, 1, 7) => $run!(3, 1, 7),
            (3, 2, 7) => $run!(3, 2, 7),
            (3, 3, 7) => $run!(3, 3, 7),
            (4, 0, 7) => $run!(4, 0, 7),
            (4, 1, 7) => $run!(4, 1, 7),
            (4, 2, 7) => $run!(4, 2, 7),
            (4, 3, 7) => $run!(4, 3, 7),
            (4, 4, 7) => $run!(4, 4, 7),
            (5, 0, 7) => $run!(5, 0, 7),
            (5, 1, 7) => $run!(5, 1, 7),
            (5, 2, 7) => $run!(5, 2, 7),
            (5, 3, 7) => $run!(5, 3, 7),
            (5, 4, 7) => $run!(5, 4, 7),
            (6, 0, 7) => $run!(6, 0, 7),
            (6, 1, 7) => $run!(6, 1, 7),
            (6, 2, 7) => $run!(6, 2, 7),
            (6, 3, 7) => $run!(6, 3, 7),
            (7, 0, 7) => $run!(7, 0, 7),
            (7, 1, 7) => $run!(7, 1, 7),
            (7, 2, 7) => $run!(7, 2, 7),
            (8, 0, 7) => $run!(8, 0, 7),
            (8, 1, 7) => $run!(8, 1, 7),
            (9, 0, 7) => $run!(9, 0, 7),
            (0, 0, 9) => $run!(0, 0, 9),
            (1, 0, 9) => $run!(1, 0, 9),
            (1, 1, 9) => $run!(1, 1, 9),
            (2, 0, 9) => $run!(2, 0, 9),
            (2, 1, 9) => $run!(2, 1, 9),
            (2, 2, 9) => $run!(2, 2, 9),
            (3, 0, 9) => $run!(3, 0, 9),
            (3, 1, 9) => $run!(3, 1, 9),
            (3, 2, 9) => $run!(3, 2, 9),
            (3, 3, 9) => $run!(3, 3, 9),
            (4, 0, 9) => $run!(4, 0, 9),
            (4, 1, 9) => $run!(4, 1, 9),
            (4, 2, 9) => $run!(4, 2, 9),
            (4, 3, 9) => $run!(4, 3, 9),
            (5, 0, 9) => $run!(5, 0, 9),
            (5, 1, 9) => $run!(5, 1, 9),
            (5, 2, 9) => $run!(5, 2, 9),
            (6, 0, 9) => $run!(6, 0, 9),
            (6, 1, 9) => $run!(6, 1, 9),
            (7, 0, 9) => $run!(7, 0, 9),
            (0, 0, 10) => $run!(0, 0, 10),
            (1, 0, 10) => $run!(1, 0, 10),
            (1, 1, 10) => $run!(1, 1, 10),
            (2, 0, 10) => $run!(2, 0, 10),
            (2, 1, 10) => $run!(2, 1, 10),
            (2, 2, 10) => $run!(2, 2, 10),
            (3, 0, 10) => $run!(3, 0, 10),
            (3, 1, 10) => $run!(3, 1, 10),
            (3, 2, 10) => $run!(3, 2, 10),
            (3, 3, 10) => $run!(3, 3, 10),
            (4, 0, 10) => $run!(4, 0, 10),
            (4, 1, 10) => $run!(4, 1, 10),
            (4, 2, 10) => $run!(4, 2, 10),
            (4, 3, 10) => $run!(4, 3, 10),
            (4, 4, 10) => $run!(4, 4, 10),
            (5, 0, 10) => $run!(5, 0, 10),
            (5, 1, 10) => $run!(5, 1, 10),
            (5, 2, 10) => $run!(5, 2, 10),
            (5, 3, 10) => $run!(5, 3, 10),
            (6, 0, 10) => $run!(6, 0, 10),
            (6, 1, 10) => $run!(6, 1, 10),
            (6, 2, 10) => $run!(6, 2, 10),
            _ => unreachable!("ChunkLayout makes no other layout"),
        }
    };
}
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(super) use match_layout;

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `layout` covers `varying` bits within `max_lanes`, and that its
    /// chunks tile its bits and its tables.
    fn check_layout(layout: ChunkLayout, varying: usize, max_lanes: usize) {
        assert!(layout.bits() >= varying, "{varying}: {layout:?}");
        assert!(layout.wide <= layout.chunks);
        assert!(layout.lanes() <= max_lanes, "{varying}: {layout:?}");
        if layout.wide == 0 {
            assert_eq!(layout.chunks, varying.div_ceil(layout.narrow));
        }
        macro_rules! triple {
            ($chunks:literal, $wide:literal, $narrow:literal) => {
                ($chunks, $wide, $narrow)
            };
        }
        assert_eq!(
            match_layout!(layout, triple),
            (layout.chunks, layout.wide, layout.narrow)
        );
        // Each chunk starts where the one before ends, in bits and in lanes; the last
        // one ends at the layout's bits and lanes.
        let (narrow, wide) = (layout.narrow, layout.wide);
        let (mut bit, mut lane) = (0, 0);
        for chunk in 0..layout.chunks {
            assert_eq!(chunk_shift(narrow, wide, chunk), bit, "{layout:?}");
            assert_eq!(chunk_offset(narrow, wide, chunk), lane, "{layout:?}");
            let entries = chunk_entries(narrow, wide, chunk);
            bit += entries.trailing_zeros() as usize;
            lane += entries;
        }
        assert_eq!((bit, lane), (layout.bits(), layout.lanes()));
    }

    #[test]
    fn every_layout_covers_its_bits_within_the_lanes_and_is_matched() {
        for varying in 0..=62 {
            let layouts = FAMILIES.map(|family| ChunkLayout::in_family(varying, family));
            for (layout, family) in layouts.iter().zip(FAMILIES) {
                check_layout(*layout, varying, family.max_lanes);
            }
            for visits in [0, 1, 1000, 10_000, 100_000, 1 << 40, u64::MAX] {
                let chosen = ChunkLayout::for_visits(varying, visits);
                assert!(layouts.contains(&chosen), "{varying} bits, {visits} visits");
            }
        }
        // Where the wide chunks pay: one chunk fewer.
        let wanted = [
            (
                0,
                [(32, 4, 4), (33, 5, 0), (36, 5, 1), (40, 6, 0), (62, 9, 0)],
            ),
            (
                1,
                [(30, 3, 3), (31, 4, 0), (36, 4, 0), (39, 4, 3), (62, 7, 0)],
            ),
            (
                2,
                [(30, 3, 0), (32, 3, 2), (33, 3, 3), (44, 4, 4), (62, 6, 2)],
            ),
        ];
        for (family, layouts) in wanted {
            let family = FAMILIES[family];
            for (varying, chunks, wide) in layouts {
                let want = ChunkLayout {
                    chunks,
                    wide,
                    narrow: family.narrow,
                };
                let got = ChunkLayout::in_family(varying, family);
                assert_eq!(got, want, "{varying} bits, {family:?}");
            }
        }
    }

    #[test]
    fn wider_chunks_are_chosen_only_where_their_loads_pay_for_their_build() {
        let [narrowest, _, widest] = FAMILIES.map(|family| ChunkLayout::in_family(32, family));
        // 32 bits: four chunks of 8 (1,024 lanes), four of 9 (2,048: never better), or
        // three of 11, 11 and 10 (5,120). The last saves a load a visit and costs
        // 4,096 lanes more to build.
        assert_eq!((narrowest.chunks, widest.chunks), (4, 3));
        let break_even = (widest.lanes() - narrowest.lanes()) as u64 * BUILD_LANE_LOADS;
        assert_eq!(ChunkLayout::for_visits(32, 0), narrowest);
        assert_eq!(ChunkLayout::for_visits(32, break_even), narrowest);
        assert_eq!(ChunkLayout::for_visits(32, break_even + 1), widest);
        assert_eq!(ChunkLayout::for_visits(32, u64::MAX), widest);
        // 35 bits: five chunks of 7 and 8, four of 9 (2,048 lanes) or four of 10
        // (4,096): the middle family, whatever the visits.
        let middle = ChunkLayout::in_family(35, FAMILIES[1]);
        assert_eq!(middle.chunks, 4);
        assert_eq!(ChunkLayout::for_visits(35, u64::MAX), middle);
        assert_eq!(
            ChunkLayout::for_visits(35, 0),
            ChunkLayout::in_family(35, FAMILIES[0])
        );
    }

    #[test]
    fn chunk_shifts_find_the_lanes_chunk_lane_finds() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for family in FAMILIES {
            for varying in 0..=62 {
                let layout = ChunkLayout::in_family(varying, family);
                let (narrow, wide) = (layout.narrow, layout.wide);
                let shifts = ChunkShifts::new(narrow, wide);
                let all = if varying == 0 {
                    0
                } else {
                    u64::MAX >> (64 - varying)
                };
                for round in 0..64 {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    let compact = match round {
                        0 => 0,
                        1 => all,
                        _ => state & all,
                    };
                    for chunk in 0..layout.chunks {
                        assert_eq!(
                            shifts.lane(compact, narrow, wide, chunk),
                            chunk_lane(compact, narrow, wide, chunk),
                            "{layout:?}, chunk {chunk} of {compact:#x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn chunk_lanes_pick_each_chunks_bits() {
        let layout = ChunkLayout::in_family(36, FAMILIES[0]);
        let (narrow, wide) = (layout.narrow, layout.wide);
        let compact: u64 = 0x81 | 3 << 8 | 1 << 15 | 1 << 22 | 65 << 29;
        let lanes: Vec<usize> = (0..layout.chunks)
            .map(|chunk| chunk_lane(compact, narrow, wide, chunk))
            .collect();
        assert_eq!(lanes, vec![0x81, 256 + 3, 384 + 1, 512 + 1, 640 + 65]);
        // 36 bits as four chunks of 9.
        let layout = ChunkLayout::in_family(36, FAMILIES[1]);
        let (narrow, wide) = (layout.narrow, layout.wide);
        let compact: u64 = 0x1FF | 5 << 9 | 256 << 18 | 1 << 27;
        let lanes: Vec<usize> = (0..layout.chunks)
            .map(|chunk| chunk_lane(compact, narrow, wide, chunk))
            .collect();
        assert_eq!(lanes, vec![0x1FF, 512 + 5, 1024 + 256, 1536 + 1]);
        // 32 bits as chunks of 11, 11 and 10.
        let layout = ChunkLayout::in_family(32, FAMILIES[2]);
        let (narrow, wide) = (layout.narrow, layout.wide);
        let compact: u64 = 0x7FF | 2 << 11 | 0x3FF << 22;
        let lanes: Vec<usize> = (0..layout.chunks)
            .map(|chunk| chunk_lane(compact, narrow, wide, chunk))
            .collect();
        assert_eq!(lanes, vec![0x7FF, 2048 + 2, 4096 + 0x3FF]);
    }
}
