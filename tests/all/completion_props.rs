//! Library properties of completions and listings, checked in-process against the
//! independent textbook search.

use nqueens::{
    count_within, write_solutions, Board, Format, ListOptions, Options, Placement, Solutions,
    Symmetry,
};
use proptest::prelude::*;

fn all_solutions(n: usize) -> Vec<Board> {
    let mut all = Vec::new();
    nqueens::naive::for_each_solution(n, |q| all.push(Board::new(q).unwrap()));
    all
}

fn placement() -> impl Strategy<Value = Placement> {
    (1usize..=9).prop_flat_map(|n| {
        let rows = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 0..=n.min(4));
        (Just(n), rows, proptest::collection::vec(0..n, 4)).prop_map(|(n, rows, cols)| {
            let queens: Vec<(usize, usize)> = rows.into_iter().zip(cols).collect();
            Placement::new(n, &queens).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn completions_are_the_filtered_solutions(p in placement(), threads in 1usize..=3) {
        let expected: Vec<Board> = all_solutions(p.n())
            .into_iter()
            .filter(|b| p.admits(b.columns()))
            .collect();

        let listed: Vec<Board> = Solutions::completions(&p).collect();
        prop_assert_eq!(&listed, &expected);

        for symmetry in Symmetry::ALL {
            let options = Options { threads: Some(threads), symmetry, ..Options::default() };
            let count = count_within(&p, &options).unwrap();
            prop_assert_eq!(count.total, expected.len() as u128);
        }

        let mut out = Vec::new();
        let options = ListOptions { threads: Some(threads), ..ListOptions::default() };
        let listing = write_solutions(&p, &options, Format::Board, &mut out).unwrap();
        prop_assert_eq!(listing.solutions, expected.len() as u64);
        let text: String = expected.iter().map(Board::to_text).collect();
        prop_assert_eq!(String::from_utf8(out).unwrap(), text);
    }
}
