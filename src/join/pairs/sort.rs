//! The counting sort that orders the stored patterns by key and the items by key and
//! class, and the key's bit-frequency sample.

/// The interleaved streams of [`counting_sort`], each with its own counters.
pub(super) const STREAMS: usize = 4;

/// The buffers of [`counting_sort`].
#[derive(Default)]
pub(super) struct SortScratch {
    /// The group of each input value.
    groups: Vec<u32>,
    /// The per-stream counters, then cursors, of each group.
    cursors: Vec<u32>,
}

/// A counting sort of `input` (at most `2^30` values, so every counter fits in `u32`)
/// into `out` by `group_of` (below `groups`), storing `value_of(x)`;
/// `starts[g]..starts[g + 1]` is group `g` in `out`. Value `4c + k` uses counter set
/// `k`: consecutive values never update the same counter, so there are no
/// store-to-load chains. Within a group the values come stream by stream (the order
/// does not matter to a count).
#[inline(always)]
#[allow(
    clippy::inline_always,
    reason = "the sort must inline into the preparation compiled with the AVX2 features"
)]
pub(super) fn counting_sort(
    input: &[u64],
    groups: usize,
    group_of: impl Fn(u64) -> u32,
    value_of: impl Fn(u64) -> u64,
    scratch: &mut SortScratch,
    out: &mut Vec<u64>,
    starts: &mut Vec<u32>,
) {
    let len = input.len();
    if scratch.groups.len() < len {
        scratch.groups.resize(len, 0);
    }
    scratch.cursors.clear();
    scratch.cursors.resize(STREAMS * groups, 0);
    // Local slices keep the pointers in registers (no reloads after stores).
    let group_ids = &mut scratch.groups[..len];
    let cursors = &mut scratch.cursors[..];
    for (values, ids) in input.chunks(STREAMS).zip(group_ids.chunks_mut(STREAMS)) {
        for (k, (&value, id)) in values.iter().zip(ids.iter_mut()).enumerate() {
            let group = group_of(value);
            *id = group;
            cursors[k * groups + group as usize] += 1;
        }
    }
    starts.clear();
    starts.resize(groups + 1, 0);
    let mut running = 0u32;
    for group in 0..groups {
        starts[group] = running;
        for k in 0..STREAMS {
            let count = cursors[k * groups + group];
            cursors[k * groups + group] = running;
            running += count;
        }
    }
    starts[groups] = running;
    out.resize(len, 0);
    let out = &mut out[..];
    let group_ids = &scratch.groups[..len];
    for (values, ids) in input.chunks(STREAMS).zip(group_ids.chunks(STREAMS)) {
        for (k, (&value, &id)) in values.iter().zip(ids).enumerate() {
            let cursor = &mut cursors[k * groups + id as usize];
            out[*cursor as usize] = value_of(value);
            *cursor += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_group() {
        let input: Vec<u64> = (0..37u64).map(|i| i * 7 % 11).collect();
        let (mut out, mut starts) = (Vec::new(), Vec::new());
        let group_of = |v: u64| u32::try_from(v % 3).unwrap();
        counting_sort(
            &input,
            3,
            group_of,
            |v| v,
            &mut SortScratch::default(),
            &mut out,
            &mut starts,
        );
        assert_eq!((starts[0], starts[3]), (0, 37));
        for group in 0..3 {
            let range = starts[group] as usize..starts[group + 1] as usize;
            let mut got = out[range].to_vec();
            let mut want: Vec<u64> = input
                .iter()
                .copied()
                .filter(|v| v % 3 == group as u64)
                .collect();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "group {group}");
        }
    }
}
