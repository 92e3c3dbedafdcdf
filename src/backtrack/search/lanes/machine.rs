//! The lane machine shared by the vector kernels, written once as generic code over a
//! kernel's vector operations ([`Lanes`]).
//!
//! The nodes waiting on a row sit in that row's buffer
//! ([`crate::backtrack::search::lanes::buffers`]); each step places the lowest free queen of every
//! busy lane and appends the children to the next row's buffer with `compress`; idle
//! lanes are refilled from their row's buffer with `expand_into`; a full buffer is
//! drained first (depth-first between rows, breadth-first within one); rows n-2 and
//! n-1 are checked together, unstored. The kernels visit exactly the scalar kernel's
//! nodes, in another order, so `nodes` and every count are the same.
//!
//! [`search`] is the entry: it hands the search to the kernel's [`Lanes::expand`], which
//! runs [`expand`] (inlined there) with the kernel's target features.

#![allow(
    clippy::inline_always,
    reason = "the machine and its helpers must inline into each kernel's function compiled with its target features, where the kernel's operations inline too"
)]

use crate::backtrack::search::lanes::buffers::{
    seed, suits, with_buffers, Buffers, Path, DRAIN_AT, TIED,
};
use crate::backtrack::search::lanes::ops::{Job, Lanes};
use crate::backtrack::search::scalar::{Frontier, Tally};
use crate::model::constraints::{full_mask, Constraints, MAX_N};

/// Runs the search of `job`'s start on `kernel`: counts its completions, like
/// [`crate::backtrack::search::scalar::count`], or with `WEIGH_BY_CLASS` weighs them by their
/// full-symmetry class, like [`crate::backtrack::search::scalar::weigh_by_class`] (so the
/// constraints are an edge seed's and `prefix` holds the columns of the rows above the
/// start). `None` when fewer than three rows are left, or for n = 32 when weighing (the
/// tie mark is bit 31): the scalar kernel's job.
pub(crate) fn search<K: Lanes, const WEIGH_BY_CLASS: bool>(
    kernel: K,
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
) -> Option<Tally> {
    if !suits(constraints, start, WEIGH_BY_CLASS) {
        return None;
    }
    Some(with_buffers(K::ROW_ROOM, |buffers| {
        kernel.expand::<WEIGH_BY_CLASS>(Job {
            buffers,
            constraints,
            start,
            prefix,
        })
    }))
}

/// Where the expansion of one row's buffer stands: the node in each lane, its remaining
/// free squares, its index in the buffer (when weighing), the busy lanes, and the next
/// node to load.
#[derive(Clone, Copy)]
struct RowState<V> {
    cols: V,
    ld: V,
    rd: V,
    avail: V,
    index: V,
    busy: u32,
    next: usize,
}

/// The squares of row `n - 1` left free by the diagonals once a queen stands on `queen`
/// of row `n - 2` (whose diagonals are `ld`, `rd`).
#[inline(always)]
fn last_row<K: Lanes>(
    k: K,
    ld: K::Vector,
    rd: K::Vector,
    queen: K::Vector,
    allowed_last: K::Vector,
) -> K::Vector {
    k.andnot(
        k.or(k.shl1(k.or(ld, queen)), k.shr1(k.or(rd, queen))),
        allowed_last,
    )
}

/// Expands `job`'s start into its whole subtree: (weighted) solutions and nodes. Only a
/// kernel's [`Lanes::expand`] calls it, from a function compiled with the kernel's
/// features, into which it is inlined.
#[inline(always)]
#[allow(
    clippy::too_many_lines,
    reason = "one loop whose state must stay in registers; the rare paths are apart already (`last_row`, `weigh_tied`)"
)]
#[allow(
    clippy::similar_names,
    reason = "`ld` and `rd`, the two diagonals, are named as everywhere in the crate"
)]
pub(crate) fn expand<K: Lanes, const WEIGH_BY_CLASS: bool>(k: K, job: Job<'_>) -> Tally {
    // Masks of lanes are u32s, and a row holds a vector past DRAIN_AT plus one read past
    // its last node (checked when the kernel is compiled).
    const {
        assert!(K::LANES >= 1 && K::LANES <= 16);
        assert!(K::ROW_ROOM >= DRAIN_AT + 2 * K::LANES);
    };
    let Job {
        buffers,
        constraints,
        start,
        prefix,
    } = job;
    let room = K::ROW_ROOM;
    assert_eq!(buffers.room, room, "buffers sized for another kernel");
    let n = constraints.n();
    let rows = constraints.rows();
    let first = start.row;
    let ties = seed(buffers, constraints, start, prefix, WEIGH_BY_CLASS);
    let Buffers {
        cols: col_buf,
        ld: ld_buf,
        rd: rd_buf,
        parent: parent_buf,
        len,
        ..
    } = buffers;
    let (col_buf, ld_buf, rd_buf, parent_buf) = (
        &mut col_buf[..],
        &mut ld_buf[..],
        &mut rd_buf[..],
        &mut parent_buf[..],
    );
    let all_lanes: u32 = (1 << K::LANES) - 1;
    let zero = k.zero();
    let ramp = k.ramp();
    let allowed_penultimate = k.splat(rows[n - 2]);
    let allowed_last = k.splat(rows[n - 1]);
    let full = k.splat(full_mask(n));
    let tie_mark = k.splat(TIED);
    let penultimate_ties = k.splat(ties.on_row[n - 2]);
    let last_ties = k.splat(ties.last_row);
    let fresh_state = RowState {
        cols: zero,
        ld: zero,
        rd: zero,
        avail: zero,
        index: zero,
        busy: 0,
        next: 0,
    };
    let mut saved = [fresh_state; MAX_N];
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    let mut d = first;
    let mut st = fresh_state;
    loop {
        // Expand row d until its buffer is used up or the row below must be drained.
        let here = d * room;
        let below = here + room;
        let last_pair = d + 3 == n;
        let allowed = k.splat(rows[d]);
        let tie_columns = k.splat(ties.on_row[d]);
        let mut descend = false;
        loop {
            let idle = !st.busy & all_lanes;
            if idle != 0 && st.next < len[d] {
                let left = len[d] - st.next;
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "`left` is below the idle lanes' count, at most 16, here"
                )]
                let take = if left >= idle.count_ones() as usize {
                    idle
                } else {
                    k.first_lanes(idle, left as u32)
                };
                // The load stays in row d's room, as next < len[d] < DRAIN_AT + LANES;
                // checked in release builds too (it costs nothing measurable), so that
                // a broken invariant stops the search instead of reading the next row.
                assert!(st.next + K::LANES <= room, "load past row {d}'s buffer");
                let from = here + st.next;
                st.cols = k.expand_into(st.cols, take, k.load(col_buf, from));
                st.ld = k.expand_into(st.ld, take, k.load(ld_buf, from));
                st.rd = k.expand_into(st.rd, take, k.load(rd_buf, from));
                if WEIGH_BY_CLASS {
                    #[allow(
                        clippy::cast_possible_truncation,
                        reason = "`next` is below `len[d]`, within the row's room (a few hundred)"
                    )]
                    let positions = k.add(k.splat(st.next as u32), ramp);
                    st.index = k.expand_into(st.index, take, positions);
                }
                let attacked = k.or(st.cols, k.or(st.ld, st.rd));
                st.avail = k.blend(st.avail, take, k.andnot(attacked, allowed));
                st.next += take.count_ones() as usize;
                st.busy = k.nonzero(st.avail);
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
            let bit = k.and(st.avail, k.sub(zero, st.avail));
            st.avail = k.xor(st.avail, bit);
            st.busy = k.nonzero(st.avail);
            let mut child_cols = k.or(st.cols, bit);
            if WEIGH_BY_CLASS {
                let ties_here = busy & k.test(bit, tie_columns);
                child_cols = k.or_where(child_cols, ties_here, tie_mark);
            }
            let child_ld = k.shl1(k.or(st.ld, bit));
            let child_rd = k.shr1(k.or(st.rd, bit));
            if last_pair {
                // The children stand on row n - 2 with two free columns, low and high:
                // one goes there and the other on row n - 1, either way.
                let attacked = k.or(child_cols, k.or(child_ld, child_rd));
                let penultimate = k.andnot(attacked, allowed_penultimate);
                let free = k.andnot(child_cols, full);
                let low = k.and(free, k.sub(zero, free));
                let high = k.xor(free, low);
                let low_placed = busy & k.test(penultimate, low);
                let high_placed = busy & k.test(penultimate, high);
                let low_first =
                    low_placed & k.test(last_row(k, child_ld, child_rd, low, allowed_last), high);
                let high_first =
                    high_placed & k.test(last_row(k, child_ld, child_rd, high, allowed_last), low);
                let found = u64::from(low_first.count_ones() + high_first.count_ones());
                // Queens placed on row n - 2, then on row n - 1 (the solutions).
                nodes += u64::from(low_placed.count_ones() + high_placed.count_ones()) + found;
                if !WEIGH_BY_CLASS {
                    solutions += found;
                } else if found != 0 {
                    // Boards with a queen on a tie square are compared with their images;
                    // the others weigh 8.
                    let tied_above = k.nonzero(k.and(child_cols, tie_mark));
                    let low_tied = low_first
                        & (tied_above | k.test(low, penultimate_ties) | k.test(high, last_ties));
                    let high_tied = high_first
                        & (tied_above | k.test(high, penultimate_ties) | k.test(low, last_ties));
                    let untied = (low_first & !low_tied).count_ones()
                        + (high_first & !high_tied).count_ones();
                    solutions += 8 * u64::from(untied);
                    if low_tied | high_tied != 0 {
                        let path = Path {
                            cols: col_buf,
                            parent: parent_buf,
                            first,
                            prefix,
                            n,
                            room,
                        };
                        solutions += weigh_tied(
                            k,
                            &path,
                            d,
                            [low_tied, high_tied],
                            bit,
                            [low, high],
                            st.index,
                        );
                    }
                }
            } else {
                // The store stays in row d + 1's room, as len[d + 1] < DRAIN_AT here
                // (checked like the load).
                assert!(
                    len[d + 1] + K::LANES <= room,
                    "store past row {}'s buffer",
                    d + 1
                );
                let to = below + len[d + 1];
                k.store(col_buf, to, k.compress(child_cols, busy));
                k.store(ld_buf, to, k.compress(child_ld, busy));
                k.store(rd_buf, to, k.compress(child_rd, busy));
                if WEIGH_BY_CLASS {
                    k.store(parent_buf, to, k.compress(st.index, busy));
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
            st = fresh_state;
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

/// The class weights of the tied solutions found under row `d`: in the lanes of
/// `tied[0]`, the queen `bit` on row `d`, then `low` on row `d + 1` and `high` on row
/// `d + 2`; in the lanes of `tied[1]`, the other way round. `index` holds each lane's
/// node in row `d`'s buffer.
#[inline(always)]
fn weigh_tied<K: Lanes>(
    k: K,
    path: &Path<'_>,
    d: usize,
    tied: [u32; 2],
    bit: K::Vector,
    [low, high]: [K::Vector; 2],
    index: K::Vector,
) -> u64 {
    let lanes = |x: K::Vector| {
        let mut out = [0u32; 16];
        k.store(&mut out, 0, x);
        out
    };
    let (bit, low, high, index) = (lanes(bit), lanes(low), lanes(high), lanes(index));
    let mut weight = 0;
    for (mut mask, one, other) in [(tied[0], &low, &high), (tied[1], &high, &low)] {
        while mask != 0 {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let tail = [bit[lane], one[lane], other[lane]];
            weight += path.weight(d, index[lane] as usize, tail);
        }
    }
    weight
}
