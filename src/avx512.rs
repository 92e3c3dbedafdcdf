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
//! runs only where the processor has AVX-512F, AVX-512 VPOPCNTDQ and BMI2
//! ([`is_supported`]); `unsafe` is confined to the vector loads and stores (bounds
//! checked slices) and to the one call that relies on the detected features.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_loadu_si512,
    _mm512_mask_add_epi32, _mm512_mask_expand_epi32, _mm512_mask_mov_epi32, _mm512_mask_or_epi32,
    _mm512_mask_test_epi32_mask, _mm512_maskz_compress_epi32, _mm512_or_si512, _mm512_popcnt_epi32,
    _mm512_reduce_add_epi32, _mm512_set1_epi32, _mm512_setr_epi32, _mm512_setzero_si512,
    _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_test_epi32_mask, _mm512_xor_si512, _pdep_u32,
};
use std::cell::RefCell;

use crate::canonical::{class_weight, Ties};
use crate::constraints::{full_mask, Constraints, MAX_N};
use crate::kernel::{Frontier, Tally};

/// Nodes handled at once: the 32-bit lanes of a 512-bit vector.
const LANES: usize = 16;

/// A row's buffer is drained once it holds this many nodes.
const DRAIN_AT: usize = 512;

/// The room of one row's buffer: a last step may add a vector past [`DRAIN_AT`], and a
/// vector load may read a vector past the last node.
const ROW_ROOM: usize = DRAIN_AT + 2 * LANES;

/// The mark of a tied board in its used columns (see [`Ties`]).
const TIED: u32 = 1 << 31;

/// Whether this processor can run the kernel (checked once by the standard library,
/// then cached).
pub fn is_supported() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vpopcntdq")
        && is_x86_feature_detected!("bmi2")
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

/// The per-row node buffers, one set per thread, reused from task to task.
struct Buffers {
    cols: Vec<u32>,
    ld: Vec<u32>,
    rd: Vec<u32>,
    /// Index of each node's parent in the previous row's buffer (when weighing).
    parent: Vec<u32>,
    /// Nodes waiting in each row's buffer.
    len: [usize; MAX_N],
}

impl Buffers {
    fn new() -> Self {
        let room = ROW_ROOM * MAX_N;
        Buffers {
            cols: vec![0; room],
            ld: vec![0; room],
            rd: vec![0; room],
            parent: vec![0; room],
            len: [0; MAX_N],
        }
    }
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::new());
}

fn run<const WEIGH: bool>(
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Option<Tally> {
    let n = constraints.n();
    // Weighing marks tied boards with bit 31 of the used columns: n <= 31 only.
    if start.row + 3 > n || (WEIGH && n >= 32) || !is_supported() {
        return None;
    }
    BUFFERS.with(|cell| {
        let buffers = &mut *cell.borrow_mut();
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
/// remaining free squares, its index in the buffer (when weighing), the busy lanes, the
/// next node to load, and the nodes counted so far (per lane).
#[derive(Clone, Copy)]
struct RowState {
    cols: __m512i,
    ld: __m512i,
    rd: __m512i,
    avail: __m512i,
    index: __m512i,
    node_lanes: __m512i,
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
            node_lanes: zero,
            busy: 0,
            next: 0,
        }
    }
}

/// Expands `start` into its whole subtree: (weighted) solutions and nodes.
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2,popcnt")]
fn expand<const WEIGH: bool>(
    buffers: &mut Buffers,
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Tally {
    let n = constraints.n();
    let rows = constraints.rows();
    let first = start.row;
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
    // When weighing, a node whose board has a queen on a tie square of the seed
    // ([`Ties`]) carries TIED in its columns: only such solutions need their images
    // compared, the others weigh 8. Without tie squares every solution is compared.
    let ties = if WEIGH {
        Ties::of_seed(constraints)
    } else {
        None
    };
    let tied_above = WEIGH
        && ties.is_none_or(|t| {
            t.rows
                .iter()
                .any(|&row| row < first && t.edge_columns >> prefix[row] & 1 == 1)
        });
    let tie_columns_on = |row: usize| match ties {
        Some(t) if t.rows.contains(&row) => t.edge_columns,
        _ => 0,
    };
    let at = first * ROW_ROOM;
    col_buf[at] = start.cols | if tied_above { TIED } else { 0 };
    ld_buf[at] = start.ld;
    rd_buf[at] = start.rd;
    len.fill(0);
    len[first] = 1;

    let zero = _mm512_setzero_si512();
    let ramp = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let allowed_penultimate = _mm512_set1_epi32(rows[n - 2] as i32);
    let allowed_last = _mm512_set1_epi32(rows[n - 1] as i32);
    let full = _mm512_set1_epi32(full_mask(n) as i32);
    let tied = _mm512_set1_epi32(TIED as i32);
    let penultimate_ties = _mm512_set1_epi32(tie_columns_on(n - 2) as i32);
    let last_ties = _mm512_set1_epi32(ties.map_or(0, |t| t.last_row) as i32);
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
        let tie_columns = _mm512_set1_epi32(tie_columns_on(d) as i32);
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
                st.node_lanes = _mm512_mask_add_epi32(
                    st.node_lanes,
                    take,
                    st.node_lanes,
                    _mm512_popcnt_epi32(fresh),
                );
                st.next += take.count_ones() as usize;
                st.busy = _mm512_test_epi32_mask(st.avail, st.avail);
            }
            if st.busy == 0 {
                if st.next >= len[d] {
                    break;
                }
                continue;
            }
            let busy = st.busy;
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
                st.node_lanes = _mm512_mask_add_epi32(
                    st.node_lanes,
                    busy,
                    st.node_lanes,
                    _mm512_popcnt_epi32(penultimate),
                );
                let free = _mm512_andnot_si512(child_cols, full);
                let low = _mm512_and_si512(free, _mm512_sub_epi32(zero, free));
                let high = _mm512_xor_si512(free, low);
                let low_first = _mm512_mask_test_epi32_mask(busy, penultimate, low)
                    & _mm512_test_epi32_mask(last_row(child_ld, child_rd, low, allowed_last), high);
                let high_first = _mm512_mask_test_epi32_mask(busy, penultimate, high)
                    & _mm512_test_epi32_mask(last_row(child_ld, child_rd, high, allowed_last), low);
                let found = u64::from(low_first.count_ones() + high_first.count_ones());
                nodes += found;
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
        nodes += u64::from(_mm512_reduce_add_epi32(st.node_lanes) as u32);
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

/// What it takes to read a solution back from the buffers: the used columns and the
/// parent of every buffered node, and the rows above the search's start.
struct Path<'a> {
    cols: &'a [u32],
    parent: &'a [u32],
    first: usize,
    prefix: &'a [u8],
    n: usize,
}

impl Path<'_> {
    /// The class weight of the solution whose node `index` in row `d`'s buffer takes
    /// the queens `tail` (bits) on rows `d`, `d + 1`, `d + 2`; the rows above come
    /// back through the parents.
    fn weight(&self, d: usize, index: usize, tail: [u32; 3]) -> u64 {
        let mut board = [0u8; MAX_N];
        for (k, bit) in tail.into_iter().enumerate() {
            board[d + k] = bit.trailing_zeros() as u8;
        }
        let mut node = index;
        for row in (self.first + 1..=d).rev() {
            let parent = self.parent[row * ROW_ROOM + node] as usize;
            let placed =
                self.cols[row * ROW_ROOM + node] ^ self.cols[(row - 1) * ROW_ROOM + parent];
            board[row - 1] = placed.trailing_zeros() as u8;
            node = parent;
        }
        board[..self.first].copy_from_slice(&self.prefix[..self.first]);
        class_weight(&board[..self.n])
    }
}
