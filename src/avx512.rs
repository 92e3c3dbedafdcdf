//! The AVX-512 kernel: the search of [`crate::kernel`], sixteen nodes at a time.
//!
//! The scalar kernel spends most of its time on mispredicted branches: whether a node
//! has another free square is a coin toss the processor cannot learn. This kernel makes
//! those decisions for sixteen nodes at once, in the lanes of 512-bit vectors, with
//! masks instead of branches:
//!
//! - The nodes waiting on row `d` sit in a buffer of that row (used columns, the two
//!   diagonals, and, when solutions are weighed, the index of the parent node in the
//!   buffer of row `d - 1`).
//! - Each step places one queen in every busy lane (its lowest free square) and appends
//!   the children to the buffer of row `d + 1` with a compress store. A lane whose node
//!   has no free square left is refilled from its row's buffer with an expand, so the
//!   lanes stay busy whatever the branching.
//! - A buffer that fills up is drained (recursively) before its parents' row goes on:
//!   depth-first between rows, breadth-first within one, so each row needs only a few
//!   kilobytes.
//! - Rows `n - 2` and `n - 1` are not stored: under row `n - 2` exactly two columns are
//!   free, and both orders of placing them are checked at once.
//!
//! It visits exactly the nodes of the scalar kernel, so `nodes` and every count are the
//! same; only the order differs, which a count cannot see (the tests compare both). It
//! runs only where the processor has AVX-512F and BMI2 (Intel Xeon since Skylake, AMD
//! since Zen 4: [`is_supported`]); `unsafe` is confined to the vector loads and stores (bounds
//! checked slices) and to the one call that relies on the detected features.

use crate::constraints::{full_mask, Constraints, MAX_N};
use crate::kernel::{Frontier, Tally};
use crate::row_buffers::{seed, suits, with_buffers, Buffers, Path, DRAIN_AT, ROW_ROOM, TIED};
use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_loadu_si512,
    _mm512_mask_expand_epi32, _mm512_mask_mov_epi32, _mm512_mask_or_epi32,
    _mm512_mask_test_epi32_mask, _mm512_maskz_compress_epi32, _mm512_or_si512, _mm512_set1_epi32,
    _mm512_setr_epi32, _mm512_setzero_si512, _mm512_slli_epi32, _mm512_srli_epi32,
    _mm512_storeu_si512, _mm512_sub_epi32, _mm512_test_epi32_mask, _mm512_xor_si512, _pdep_u32,
};

/// Nodes handled at once: the 32-bit lanes of a 512-bit vector.
const LANES: usize = 16;

/// Whether this processor can run the kernel (checked once by the standard library,
/// then cached).
pub fn is_supported() -> bool {
    is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("bmi2")
}

/// Counts the completions of `start` under `constraints`, like
/// [`crate::kernel::search`]; `None` when the processor lacks the features
/// ([`is_supported`]) or fewer than three rows are left (the scalar kernel's job).
pub fn search(constraints: &Constraints, start: Frontier) -> Option<Tally> {
    run::<false>(constraints, start, &[])
}

/// Weighs the completions of `start` by their full-symmetry class, like
/// [`crate::kernel::search_canonical`] (so `constraints` are an edge seed's);
/// `prefix` holds the columns of the rows above `start`. `None` under the same
/// conditions as [`search`], and for n = 32 (weighing marks boards in bit 31).
pub fn search_canonical(
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Option<Tally> {
    run::<true>(constraints, start, prefix)
}

fn run<const WEIGH: bool>(
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Option<Tally> {
    if !suits(constraints, start, WEIGH) || !is_supported() {
        return None;
    }
    with_buffers(|buffers| {
        // SAFETY: `is_supported` checked every feature `expand` is compiled with.
        Some(unsafe { expand::<WEIGH>(buffers, constraints, start, prefix) })
    })
}

/// Loads the sixteen values of `v` from `at`.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(v: &[u32], at: usize) -> __m512i {
    let lanes = &v[at..at + LANES];
    // SAFETY: `lanes` is 16 readable u32s, 64 bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// Stores `x` into the sixteen values of `v` from `at`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &mut [u32], at: usize, x: __m512i) {
    let lanes = &mut v[at..at + LANES];
    // SAFETY: `lanes` is 16 writable u32s, 64 bytes; the store is unaligned.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), x) }
}

/// The sixteen lanes of `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes(x: __m512i) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    store(&mut out, 0, x);
    out
}

/// Where the expansion of one row's buffer stands: the node in each lane, its
/// remaining free squares, its index in the buffer (when weighing), the busy lanes, and
/// the next node to load.
#[derive(Clone, Copy)]
struct RowState {
    cols: __m512i,
    ld: __m512i,
    rd: __m512i,
    avail: __m512i,
    index: __m512i,
    busy: u16,
    next: usize,
}

impl RowState {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn fresh() -> Self {
        let zero = _mm512_setzero_si512();
        RowState {
            cols: zero,
            ld: zero,
            rd: zero,
            avail: zero,
            index: zero,
            busy: 0,
            next: 0,
        }
    }
}

/// Expands `start` into its whole subtree: (weighted) solutions and nodes.
#[target_feature(enable = "avx512f,bmi2,popcnt")]
fn expand<const WEIGH: bool>(
    buffers: &mut Buffers,
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Tally {
    let n = constraints.n();
    let rows = constraints.rows();
    let first = start.row;
    let ties = seed(buffers, constraints, start, prefix, WEIGH);
    let Buffers {
        cols: col_buf,
        ld: ld_buf,
        rd: rd_buf,
        parent: parent_buf,
        len,
    } = buffers;
    let (col_buf, ld_buf, rd_buf, parent_buf) = (
        &mut col_buf[..],
        &mut ld_buf[..],
        &mut rd_buf[..],
        &mut parent_buf[..],
    );

    let zero = _mm512_setzero_si512();
    let ramp = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let allowed_penultimate = _mm512_set1_epi32(rows[n - 2] as i32);
    let allowed_last = _mm512_set1_epi32(rows[n - 1] as i32);
    let full = _mm512_set1_epi32(full_mask(n) as i32);
    let tied = _mm512_set1_epi32(TIED as i32);
    let penultimate_ties = _mm512_set1_epi32(ties.on_row[n - 2] as i32);
    let last_ties = _mm512_set1_epi32(ties.last_row as i32);
    let mut saved = [RowState::fresh(); MAX_N];
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    let mut d = first;
    let mut st = RowState::fresh();
    loop {
        // Expand row d until its buffer is used up or the row below must be drained.
        let here = d * ROW_ROOM;
        let below = here + ROW_ROOM;
        let last_pair = d + 3 == n;
        let allowed = _mm512_set1_epi32(rows[d] as i32);
        let tie_columns = _mm512_set1_epi32(ties.on_row[d] as i32);
        let mut descend = false;
        loop {
            let idle = !st.busy;
            if idle != 0 && st.next < len[d] {
                let left = len[d] - st.next;
                let take = if left >= idle.count_ones() as usize {
                    idle
                } else {
                    _pdep_u32((1u32 << left) - 1, u32::from(idle)) as u16
                };
                let from = here + st.next;
                st.cols = _mm512_mask_expand_epi32(st.cols, take, load(col_buf, from));
                st.ld = _mm512_mask_expand_epi32(st.ld, take, load(ld_buf, from));
                st.rd = _mm512_mask_expand_epi32(st.rd, take, load(rd_buf, from));
                if WEIGH {
                    let positions = _mm512_add_epi32(_mm512_set1_epi32(st.next as i32), ramp);
                    st.index = _mm512_mask_expand_epi32(st.index, take, positions);
                }
                let attacked = _mm512_or_si512(st.cols, _mm512_or_si512(st.ld, st.rd));
                let fresh = _mm512_andnot_si512(attacked, allowed);
                st.avail = _mm512_mask_mov_epi32(st.avail, take, fresh);
                st.next += take.count_ones() as usize;
                st.busy = _mm512_test_epi32_mask(st.avail, st.avail);
            }
            if st.busy == 0 {
                if st.next >= len[d] {
                    break;
                }
                continue;
            }
            // One queen placed on row d in every busy lane: that many nodes.
            let busy = st.busy;
            nodes += u64::from(busy.count_ones());
            let bit = _mm512_and_si512(st.avail, _mm512_sub_epi32(zero, st.avail));
            st.avail = _mm512_xor_si512(st.avail, bit);
            st.busy = _mm512_test_epi32_mask(st.avail, st.avail);
            let mut child_cols = _mm512_or_si512(st.cols, bit);
            if WEIGH {
                let ties_here = _mm512_mask_test_epi32_mask(busy, bit, tie_columns);
                child_cols = _mm512_mask_or_epi32(child_cols, ties_here, child_cols, tied);
            }
            let child_ld = _mm512_slli_epi32::<1>(_mm512_or_si512(st.ld, bit));
            let child_rd = _mm512_srli_epi32::<1>(_mm512_or_si512(st.rd, bit));
            if last_pair {
                // The children stand on row n - 2 with two free columns, low and high:
                // one goes there and the other on row n - 1, in either order.
                let attacked = _mm512_or_si512(child_cols, _mm512_or_si512(child_ld, child_rd));
                let penultimate = _mm512_andnot_si512(attacked, allowed_penultimate);
                let free = _mm512_andnot_si512(child_cols, full);
                let low = _mm512_and_si512(free, _mm512_sub_epi32(zero, free));
                let high = _mm512_xor_si512(free, low);
                let low_placed = _mm512_mask_test_epi32_mask(busy, penultimate, low);
                let high_placed = _mm512_mask_test_epi32_mask(busy, penultimate, high);
                let low_first = low_placed
                    & _mm512_test_epi32_mask(last_row(child_ld, child_rd, low, allowed_last), high);
                let high_first = high_placed
                    & _mm512_test_epi32_mask(last_row(child_ld, child_rd, high, allowed_last), low);
                let found = u64::from(low_first.count_ones() + high_first.count_ones());
                // Queens placed on row n - 2, then on row n - 1 (the solutions).
                nodes += u64::from(low_placed.count_ones() + high_placed.count_ones()) + found;
                if !WEIGH {
                    solutions += found;
                } else if found != 0 {
                    // Boards with a queen on a tie square are compared with their
                    // images; the others weigh 8.
                    let tied_above = _mm512_test_epi32_mask(child_cols, tied);
                    let low_tied = low_first
                        & (tied_above
                            | _mm512_test_epi32_mask(low, penultimate_ties)
                            | _mm512_test_epi32_mask(high, last_ties));
                    let high_tied = high_first
                        & (tied_above
                            | _mm512_test_epi32_mask(high, penultimate_ties)
                            | _mm512_test_epi32_mask(low, last_ties));
                    let untied = (low_first & !low_tied).count_ones()
                        + (high_first & !high_tied).count_ones();
                    solutions += 8 * u64::from(untied);
                    if low_tied | high_tied != 0 {
                        let (bit, low, high, index) =
                            (lanes(bit), lanes(low), lanes(high), lanes(st.index));
                        let path = Path {
                            cols: col_buf,
                            parent: parent_buf,
                            first,
                            prefix,
                            n,
                        };
                        for (mut mask, one, other) in
                            [(low_tied, &low, &high), (high_tied, &high, &low)]
                        {
                            while mask != 0 {
                                let lane = mask.trailing_zeros() as usize;
                                mask &= mask - 1;
                                let tail = [bit[lane], one[lane], other[lane]];
                                solutions += path.weight(d, index[lane] as usize, tail);
                            }
                        }
                    }
                }
            } else {
                let to = below + len[d + 1];
                store(col_buf, to, _mm512_maskz_compress_epi32(busy, child_cols));
                store(ld_buf, to, _mm512_maskz_compress_epi32(busy, child_ld));
                store(rd_buf, to, _mm512_maskz_compress_epi32(busy, child_rd));
                if WEIGH {
                    store(parent_buf, to, _mm512_maskz_compress_epi32(busy, st.index));
                }
                len[d + 1] += busy.count_ones() as usize;
                if len[d + 1] >= DRAIN_AT {
                    descend = true;
                    break;
                }
            }
        }
        if descend || (!last_pair && len[d + 1] > 0) {
            // Drain the row below first; row d resumes where it stopped.
            saved[d] = st;
            d += 1;
            st = RowState::fresh();
            continue;
        }
        // Row d is used up and nothing waits below it.
        len[d] = 0;
        if d == first {
            return Tally { solutions, nodes };
        }
        d -= 1;
        st = saved[d];
    }
}

/// The squares of row `n - 1` left free by the diagonals once a queen stands on `bit`
/// of row `n - 2` (whose diagonals are `ld`, `rd`).
#[inline]
#[target_feature(enable = "avx512f")]
fn last_row(ld: __m512i, rd: __m512i, bit: __m512i, allowed_last: __m512i) -> __m512i {
    let attacked = _mm512_or_si512(
        _mm512_slli_epi32::<1>(_mm512_or_si512(ld, bit)),
        _mm512_srli_epi32::<1>(_mm512_or_si512(rd, bit)),
    );
    _mm512_andnot_si512(attacked, allowed_last)
}
