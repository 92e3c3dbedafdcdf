//! How a block's varying bits are cut into chunks, each with its own table of the ORs
//! of the lanes of all subsets of its bits (see the parent module).
//!
//! A chunk is *narrow* ([`NARROW_BITS`], a table of 128 lanes) or *wide*
//! ([`WIDE_BITS`], 256 lanes). An item costs one table load per chunk, so a block takes
//! the fewest chunks whose tables fit in [`MAX_BLOCK_LANES`], the lanes nine narrow
//! chunks take (the most any block needs, for 62 varying bits): 29 to 32 varying bits
//! take four chunks (all wide) instead of five narrow ones, 36 to 39 five instead of six.
//! The wide chunks come first. So the memory of a block's tables is bounded as before,
//! and each vector path compiles one counting loop per [`ChunkLayout`]
//! ([`match_layout`]), with every shift, mask and table offset a constant.

#![allow(
    clippy::inline_always,
    reason = "the helpers must inline into the counting loops compiled with the vector features"
)]

/// The bits of a narrow chunk.
pub(super) const NARROW_BITS: usize = 7;
/// The bits of a wide chunk.
pub(super) const WIDE_BITS: usize = 8;
/// The most table lanes of one block: nine narrow chunks (62 varying bits).
pub(crate) const MAX_BLOCK_LANES: usize = 9 << NARROW_BITS;

/// The chunks of a block: `chunks` of them, the first `wide` wide, the others narrow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ChunkLayout {
    /// The number of chunks.
    pub(super) chunks: usize,
    /// The number of wide chunks among them (the first ones).
    pub(super) wide: usize,
}

impl ChunkLayout {
    /// The layout of `varying` varying bits (at most 62): the fewest chunks whose
    /// tables take at most [`MAX_BLOCK_LANES`] lanes, with no more wide chunks than
    /// that needs.
    pub(super) fn for_bits(varying: usize) -> ChunkLayout {
        debug_assert!(varying <= 62);
        let narrow = ChunkLayout {
            chunks: varying.div_ceil(NARROW_BITS),
            wide: 0,
        };
        if narrow.chunks == 0 {
            return narrow;
        }
        // One chunk fewer: its chunks all narrow cover `7 * chunks` bits, and each wide
        // one adds a bit.
        let chunks = narrow.chunks - 1;
        let wide = varying - NARROW_BITS * chunks;
        let fewer = ChunkLayout { chunks, wide };
        if wide <= chunks && fewer.lanes() <= MAX_BLOCK_LANES {
            fewer
        } else {
            narrow
        }
    }

    /// The lanes of the block's tables.
    pub(super) const fn lanes(self) -> usize {
        (self.chunks + self.wide) << NARROW_BITS
    }

    /// The bits the chunks cover.
    #[cfg(test)]
    const fn bits(self) -> usize {
        NARROW_BITS * self.chunks + self.wide
    }
}

/// The first bit of chunk `chunk` in the compacted pattern, with `wide` wide chunks.
#[inline(always)]
pub(super) const fn chunk_shift(wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        WIDE_BITS * chunk
    } else {
        WIDE_BITS * wide + NARROW_BITS * (chunk - wide)
    }
}

/// The table entries (lanes) of chunk `chunk`, with `wide` wide chunks.
#[inline(always)]
pub(super) const fn chunk_entries(wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        1 << WIDE_BITS
    } else {
        1 << NARROW_BITS
    }
}

/// The first lane of chunk `chunk`'s table, from the block's first, with `wide` wide
/// chunks.
#[inline(always)]
pub(super) const fn chunk_offset(wide: usize, chunk: usize) -> usize {
    if chunk < wide {
        chunk << WIDE_BITS
    } else {
        (wide << WIDE_BITS) + ((chunk - wide) << NARROW_BITS)
    }
}

/// The lane of the block's tables that chunk `chunk` of the compacted item `compact`
/// selects, with `wide` wide chunks.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the value is masked to at most 8 bits"
)]
pub(super) const fn chunk_lane(compact: u64, wide: usize, chunk: usize) -> usize {
    let mask = chunk_entries(wide, chunk) as u64 - 1;
    chunk_offset(wide, chunk) + ((compact >> chunk_shift(wide, chunk)) & mask) as usize
}

/// A `match` on a [`ChunkLayout`] that expands `$run!(CHUNKS, WIDE)`, with both as
/// literals, for every layout [`ChunkLayout::for_bits`] makes. (The vector paths use
/// it, so only the tests do off x86-64.)
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_macros))]
macro_rules! match_layout {
    ($layout:expr, $run:ident) => {
        match ($layout.chunks, $layout.wide) {
            (0, 0) => $run!(0, 0),
            (1, 0) => $run!(1, 0),
            (1, 1) => $run!(1, 1),
            (2, 0) => $run!(2, 0),
            (2, 1) => $run!(2, 1),
            (2, 2) => $run!(2, 2),
            (3, 0) => $run!(3, 0),
            (3, 1) => $run!(3, 1),
            (3, 2) => $run!(3, 2),
            (3, 3) => $run!(3, 3),
            (4, 0) => $run!(4, 0),
            (4, 1) => $run!(4, 1),
            (4, 2) => $run!(4, 2),
            (4, 3) => $run!(4, 3),
            (4, 4) => $run!(4, 4),
            (5, 0) => $run!(5, 0),
            (5, 1) => $run!(5, 1),
            (5, 2) => $run!(5, 2),
            (5, 3) => $run!(5, 3),
            (5, 4) => $run!(5, 4),
            (6, 0) => $run!(6, 0),
            (6, 1) => $run!(6, 1),
            (6, 2) => $run!(6, 2),
            (6, 3) => $run!(6, 3),
            (7, 0) => $run!(7, 0),
            (7, 1) => $run!(7, 1),
            (7, 2) => $run!(7, 2),
            (8, 0) => $run!(8, 0),
            (8, 1) => $run!(8, 1),
            (9, 0) => $run!(9, 0),
            _ => unreachable!("ChunkLayout::for_bits makes no other layout"),
        }
    };
}
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(super) use match_layout;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_covers_its_bits_within_the_lanes_and_is_matched() {
        for varying in 0..=62 {
            let layout = ChunkLayout::for_bits(varying);
            assert!(layout.bits() >= varying, "{varying}: {layout:?}");
            assert!(layout.wide <= layout.chunks);
            assert!(layout.lanes() <= MAX_BLOCK_LANES, "{varying}: {layout:?}");
            if layout.wide == 0 {
                assert_eq!(layout.chunks, varying.div_ceil(NARROW_BITS));
            }
            macro_rules! pair {
                ($chunks:literal, $wide:literal) => {
                    ($chunks, $wide)
                };
            }
            assert_eq!(match_layout!(layout, pair), (layout.chunks, layout.wide));
            // The last chunk ends at or past the last varying bit, the tables end at
            // the layout's lanes.
            if layout.chunks > 0 {
                let last = layout.chunks - 1;
                let end = chunk_shift(layout.wide, last)
                    + chunk_entries(layout.wide, last).trailing_zeros() as usize;
                assert_eq!(end, layout.bits());
                assert_eq!(
                    chunk_offset(layout.wide, last) + chunk_entries(layout.wide, last),
                    layout.lanes()
                );
            }
        }
        // Where the wide chunks pay: one chunk fewer.
        for (varying, chunks, wide) in [(32, 4, 4), (33, 5, 0), (36, 5, 1), (40, 6, 0), (62, 9, 0)]
        {
            let want = ChunkLayout { chunks, wide };
            assert_eq!(ChunkLayout::for_bits(varying), want, "{varying} bits");
        }
    }

    #[test]
    fn chunk_lanes_pick_each_chunks_bits() {
        let layout = ChunkLayout::for_bits(36);
        let compact: u64 = 0x81 | 3 << 8 | 1 << 15 | 1 << 22 | 65 << 29;
        let lanes: Vec<usize> = (0..layout.chunks)
            .map(|chunk| chunk_lane(compact, layout.wide, chunk))
            .collect();
        assert_eq!(lanes, vec![0x81, 256 + 3, 384 + 1, 512 + 1, 640 + 65]);
    }
}
