//! `verify`: compute totals and compare them with the published values.

use serde::Serialize;

use crate::count::{count, Options};
use crate::error::Error;
use crate::published::published;

/// One line of a verification: a computed count next to the published one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyRow {
    /// The board size.
    pub n: usize,
    /// The computed total.
    pub computed: u128,
    /// The published total (A000170), if known.
    pub published: Option<u128>,
    /// Whether the two agree (false when nothing is published).
    pub ok: bool,
    /// Time of the count.
    pub seconds: f64,
}

/// Counts n = 0..=max with `options` and compares each total with A000170, calling
/// `on_row` as soon as each row is known.
pub fn verify(
    max: usize,
    options: &Options,
    mut on_row: impl FnMut(&VerifyRow),
) -> Result<Vec<VerifyRow>, Error> {
    let mut rows = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let c = count(n, options)?;
        let expected = published(n).map(|p| p.total);
        let row = VerifyRow {
            n,
            computed: c.total,
            published: expected,
            ok: expected == Some(c.total),
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
