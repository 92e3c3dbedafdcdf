//! The lane machine shared by the vector kernels ([`crate::search::arch::x86_64::avx512`], [`crate::search::arch::x86_64::avx2`]),
//! written once as a macro over each kernel's vector operations.
//!
//! A kernel module defines a `Vector` of `LANES` 32-bit lanes and the operations the
//! machine uses (each an inlined `#[target_feature]` function of the kernel's features),
//! then invokes [`lane_machine!`] with those features. Masks of lanes are `u32`s, bit `i`
//! for lane `i`.
//!
//! | operation | meaning |
//! |---|---|
//! | `zero()`, `splat(x)`, `ramp()` | all 0, all `x`, lane `i` = `i` |
//! | `load(v, at)`, `store(v, at, x)`, `lanes(x)` | `LANES` values of a slice from `at`; the lanes as an array |
//! | `or`, `and`, `andnot(a, b)` (`!a & b`), `xor`, `add`, `sub`, `shl1`, `shr1` | lane by lane |
//! | `nonzero(x)`, `test(a, b)` | the mask of the lanes where `x != 0`, where `a & b != 0` |
//! | `blend(old, mask, new)`, `or_where(x, mask, y)` | `new`, or `x \| y`, in the lanes of `mask`; `old`, `x` elsewhere |
//! | `compress(x, mask)` | the lanes of `mask`, in order, moved to the front |
//! | `expand_into(old, mask, packed)` | the lanes of `mask` take `packed`'s first values, in order; the others keep `old` |
//!
//! The machine (see [`crate::search::arch::x86_64::avx512`] for the idea): the nodes waiting on a row sit in
//! that row's buffer ([`crate::search::lanes::buffers`]); each step places the lowest free queen
//! of every busy lane and appends the children to the next row's buffer with
//! `compress`; idle lanes are refilled from their row's buffer with `expand_into`; a
//! full buffer is drained first; rows n-2 and n-1 are checked together, unstored.

/// Defines, in the invoking kernel module, the public `search` and `weigh_by_class`,
/// and `RowState` and `expand::<WEIGH_BY_CLASS>` (the whole search of one start) compiled with
/// the target features `$features`. The module provides `is_supported()`.
macro_rules! lane_machine {
    ($features:literal) => {
        /// Counts the completions of `start` under `constraints`, like
        /// [`crate::search::scalar::count`]; `None` when the processor lacks the features
        /// ([`is_supported`]) or fewer than three rows are left (the scalar kernel's job).
        pub(crate) fn search(constraints: &Constraints, start: Frontier) -> Option<Tally> {
            run::<false>(constraints, start, &[])
        }

        /// Weighs the completions of `start` by their full-symmetry class, like
        /// [`crate::search::scalar::weigh_by_class`] (so `constraints` are an edge seed's);
        /// `prefix` holds the columns of the rows above `start`. `None` under the same
        /// conditions as [`search`], and for n = 32 (weighing marks boards in bit 31).
        pub(crate) fn weigh_by_class(
            constraints: &Constraints,
            start: Frontier,
            prefix: &[u8],
        ) -> Option<Tally> {
            run::<true>(constraints, start, prefix)
        }

        fn run<const WEIGH_BY_CLASS: bool>(
            constraints: &Constraints,
            start: Frontier,
            prefix: &[u8],
        ) -> Option<Tally> {
            if !suits(constraints, start, WEIGH_BY_CLASS) || !is_supported() {
                return None;
            }
            with_buffers(|buffers| {
                // SAFETY: `is_supported` checked every feature `expand` is compiled with.
                Some(unsafe { expand::<WEIGH_BY_CLASS>(buffers, constraints, start, prefix) })
            })
        }

        /// Where the expansion of one row's buffer stands: the node in each lane, its
        /// remaining free squares, its index in the buffer (when weighing), the busy
        /// lanes, and the next node to load.
        #[derive(Clone, Copy)]
        struct RowState {
            cols: Vector,
            ld: Vector,
            rd: Vector,
            avail: Vector,
            index: Vector,
            busy: u32,
            next: usize,
        }

        /// Every lane.
        const ALL_LANES: u32 = (1 << LANES) - 1;

        /// The squares of row `n - 1` left free by the diagonals once a queen stands on
        /// `queen` of row `n - 2` (whose diagonals are `ld`, `rd`).
        #[inline]
        #[target_feature(enable = $features)]
        fn last_row(ld: Vector, rd: Vector, queen: Vector, allowed_last: Vector) -> Vector {
            andnot(or(shl1(or(ld, queen)), shr1(or(rd, queen))), allowed_last)
        }

        /// Expands `start` into its whole subtree: (weighted) solutions and nodes.
        #[target_feature(enable = $features)]
        fn expand<const WEIGH_BY_CLASS: bool>(
            buffers: &mut Buffers,
            constraints: &Constraints,
            start: Frontier,
            prefix: &[u8],
        ) -> Tally {
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
            } = buffers;
            let (col_buf, ld_buf, rd_buf, parent_buf) = (
                &mut col_buf[..],
                &mut ld_buf[..],
                &mut rd_buf[..],
                &mut parent_buf[..],
            );
            let zero = zero();
            let ramp = ramp();
            let allowed_penultimate = splat(rows[n - 2]);
            let allowed_last = splat(rows[n - 1]);
            let full = splat(full_mask(n));
            let tied = splat(TIED);
            let penultimate_ties = splat(ties.on_row[n - 2]);
            let last_ties = splat(ties.last_row);
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
                // Expand row d until its buffer is used up or the row below must be
                // drained.
                let here = d * ROW_ROOM;
                let below = here + ROW_ROOM;
                let last_pair = d + 3 == n;
                let allowed = splat(rows[d]);
                let tie_columns = splat(ties.on_row[d]);
                let mut descend = false;
                loop {
                    let idle = !st.busy & ALL_LANES;
                    if idle != 0 && st.next < len[d] {
                        let left = len[d] - st.next;
                        let take = if left >= idle.count_ones() as usize {
                            idle
                        } else {
                            _pdep_u32((1u32 << left) - 1, idle)
                        };
                        let from = here + st.next;
                        st.cols = expand_into(st.cols, take, load(col_buf, from));
                        st.ld = expand_into(st.ld, take, load(ld_buf, from));
                        st.rd = expand_into(st.rd, take, load(rd_buf, from));
                        if WEIGH_BY_CLASS {
                            let positions = add(splat(st.next as u32), ramp);
                            st.index = expand_into(st.index, take, positions);
                        }
                        let attacked = or(st.cols, or(st.ld, st.rd));
                        st.avail = blend(st.avail, take, andnot(attacked, allowed));
                        st.next += take.count_ones() as usize;
                        st.busy = nonzero(st.avail);
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
                    let bit = and(st.avail, sub(zero, st.avail));
                    st.avail = xor(st.avail, bit);
                    st.busy = nonzero(st.avail);
                    let mut child_cols = or(st.cols, bit);
                    if WEIGH_BY_CLASS {
                        let ties_here = busy & test(bit, tie_columns);
                        child_cols = or_where(child_cols, ties_here, tied);
                    }
                    let child_ld = shl1(or(st.ld, bit));
                    let child_rd = shr1(or(st.rd, bit));
                    if last_pair {
                        // The children stand on row n - 2 with two free columns, low and
                        // high: one goes there and the other on row n - 1, either way.
                        let attacked = or(child_cols, or(child_ld, child_rd));
                        let penultimate = andnot(attacked, allowed_penultimate);
                        let free = andnot(child_cols, full);
                        let low = and(free, sub(zero, free));
                        let high = xor(free, low);
                        let low_placed = busy & test(penultimate, low);
                        let high_placed = busy & test(penultimate, high);
                        let low_first = low_placed
                            & test(last_row(child_ld, child_rd, low, allowed_last), high);
                        let high_first = high_placed
                            & test(last_row(child_ld, child_rd, high, allowed_last), low);
                        let found = u64::from(low_first.count_ones() + high_first.count_ones());
                        // Queens placed on row n - 2, then on row n - 1 (the solutions).
                        nodes +=
                            u64::from(low_placed.count_ones() + high_placed.count_ones()) + found;
                        if !WEIGH_BY_CLASS {
                            solutions += found;
                        } else if found != 0 {
                            // Boards with a queen on a tie square are compared with their
                            // images; the others weigh 8.
                            let tied_above = nonzero(and(child_cols, tied));
                            let low_tied = low_first
                                & (tied_above
                                    | test(low, penultimate_ties)
                                    | test(high, last_ties));
                            let high_tied = high_first
                                & (tied_above
                                    | test(high, penultimate_ties)
                                    | test(low, last_ties));
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
                        store(col_buf, to, compress(child_cols, busy));
                        store(ld_buf, to, compress(child_ld, busy));
                        store(rd_buf, to, compress(child_rd, busy));
                        if WEIGH_BY_CLASS {
                            store(parent_buf, to, compress(st.index, busy));
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
    };
}

pub(crate) use lane_machine;
