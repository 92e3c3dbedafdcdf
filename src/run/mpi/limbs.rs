//! The exact sum of `u128` totals over MPI ranks: each rank's sums as 32-bit limbs,
//! which an MPI reduction adds up as `u64`s without overflow.
//!
//! Compiled without the `mpi` feature too, so that its tests always run.

use crate::error::Error;
use crate::run::count::drive::Sums;

/// The values one rank contributes to the reduction: the total and the work as four
/// 32-bit limbs each, then the thread count.
pub(crate) const LIMBS: usize = 9;

/// Packs a rank's sums and threads into limbs. Summed over fewer than 2^32 ranks, no
/// limb overflows a `u64`, so the reduction is exact.
pub(crate) fn pack(sums: Sums, threads: usize) -> [u64; LIMBS] {
    let mut limbs = [0u64; LIMBS];
    for i in 0..4 {
        limbs[i] = ((sums.total >> (32 * i)) & 0xffff_ffff) as u64;
        limbs[4 + i] = ((sums.work >> (32 * i)) & 0xffff_ffff) as u64;
    }
    limbs[8] = threads as u64;
    limbs
}

/// The summed sums and threads from summed limbs; a total past 2^128 is
/// [`Error::Overflow`].
pub(crate) fn unpack(limbs: &[u64; LIMBS]) -> Result<(Sums, usize), Error> {
    let from_limbs = |limbs: &[u64]| {
        limbs
            .iter()
            .zip(0u32..4)
            .try_fold(0u128, |acc, (&limb, i)| {
                // A carried limb may reach past bit 128: check every step.
                if i == 3 && limb >> 32 != 0 {
                    return None;
                }
                acc.checked_add(u128::from(limb) << (32 * i))
            })
    };
    let total = from_limbs(&limbs[..4]).ok_or(Error::Overflow("the ranks' total"))?;
    let work = from_limbs(&limbs[4..8]).ok_or(Error::Overflow("the ranks' work"))?;
    let threads = usize::try_from(limbs[8]).unwrap_or(usize::MAX);
    Ok((Sums { total, work }, threads))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limbs_round_trip_and_sum_exactly() {
        let a = Sums {
            total: u128::from(u64::MAX) * 3 + 7,
            work: 1 << 100,
        };
        let b = Sums {
            total: (1 << 127) - 1,
            work: 12345,
        };
        assert_eq!(unpack(&pack(a, 4)).unwrap(), (a, 4));
        let mut summed = [0u64; LIMBS];
        for (i, limb) in pack(a, 4)
            .iter()
            .zip(pack(b, 2))
            .map(|(x, y)| x + y)
            .enumerate()
        {
            summed[i] = limb;
        }
        let expected = a.checked_add(b).unwrap();
        assert_eq!(unpack(&summed).unwrap(), (expected, 6));
        // Two totals of 2^127 overflow: the top limb carries past bit 128.
        let half = Sums {
            total: 1 << 127,
            work: 0,
        };
        let mut over = pack(half, 1);
        over[3] *= 2;
        assert!(unpack(&over).is_err());
    }
}
