//! `verify`: compute totals and compare them with the published values.

use serde::Serialize;

use nqueens::{count, Error, Options};

use super::published::published;

/// One line of a verification: computed counts next to the published ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyRow {
    /// The board size.
    pub n: usize,
    /// The computed total.
    pub computed: u128,
    /// The published total (A000170), if known.
    pub published: Option<u128>,
    /// The computed number of fundamental solutions.
    pub unique: u128,
    /// The published number of fundamental solutions (A002562), if known.
    pub published_unique: Option<u128>,
    /// Whether both counts agree with the published ones (false when nothing is published).
    pub ok: bool,
    /// Time of the count.
    pub seconds: f64,
}

/// Counts n = 0..=max with `options` (a split depth is capped at each n) and compares
/// each total with A000170 and each fundamental count with A002562, calling `on_row` as
/// soon as each row is known.
pub fn verify(
    max: usize,
    options: &Options,
    mut on_row: impl FnMut(&VerifyRow),
) -> Result<Vec<VerifyRow>, Error> {
    let mut rows = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let options = Options {
            unique: true,
            ..options.for_board(n)
        };
        let c = count(n, &options)?;
        let unique = c.unique.expect("unique was asked for");
        let expected = published(n);
        let row = VerifyRow {
            n,
            computed: c.total,
            published: expected.map(|p| p.total),
            unique,
            published_unique: expected.map(|p| p.unique),
            ok: expected.is_some_and(|p| p.total == c.total && p.unique == unique),
            seconds: c.seconds,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_range_verifies() {
        let mut seen = 0;
        let rows = verify(9, &Options::default(), |_| seen += 1).unwrap();
        assert_eq!(seen, 10);
        assert!(rows.iter().all(|r| r.ok));
    }
}
