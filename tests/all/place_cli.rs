//! `--place` on `count` and `solve`: completions agree with filtering the full list of
//! solutions of the independent textbook search; bad placements are refused.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use proptest::prelude::*;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Runs `nqueens args`, expecting success; returns (stdout, stderr).
fn run(args: &[&str]) -> (String, String) {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The solutions of the textbook search that extend `queens`, as `columns` lines.
fn filtered(n: usize, queens: &[(usize, usize)]) -> Vec<String> {
    let mut lines = Vec::new();
    nqueens::naive::for_each_solution(n, |q| {
        if queens.iter().all(|&(r, c)| q[r] == c) {
            let parts: Vec<String> = q.iter().map(usize::to_string).collect();
            lines.push(parts.join(" "));
        }
    });
    lines
}

fn place_arg(queens: &[(usize, usize)]) -> String {
    let parts: Vec<String> = queens.iter().map(|(r, c)| format!("{r}:{c}")).collect();
    parts.join(",")
}

fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// A board size and queens on distinct rows (in any order, possibly attacking).
fn placement() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1usize..=9).prop_flat_map(|n| {
        let rows = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(4));
        (
            Just(n),
            rows,
            proptest::collection::vec(0..n, 4),
            any::<bool>(),
        )
            .prop_map(|(n, rows, cols, reverse)| {
                let mut queens: Vec<(usize, usize)> = rows.into_iter().zip(cols).collect();
                if reverse {
                    queens.reverse();
                }
                (n, queens)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn completions_agree_with_filtering_every_solution((n, queens) in placement()) {
        let expected = filtered(n, &queens);
        let place = place_arg(&queens);
        let n_arg = n.to_string();

        let (count, count_err) = run(&["count", &n_arg, "--place", &place, "--threads", "2"]);
        prop_assert_eq!(count, format!("{}\n", expected.len()));

        let (listed, solve_err) =
            run(&["solve", &n_arg, "--place", &place, "--format", "columns", "--threads", "2"]);
        let listed: Vec<String> = listed.lines().map(str::to_string).collect();
        prop_assert_eq!(&listed, &expected);

        let attacking = queens
            .iter()
            .enumerate()
            .any(|(i, &a)| queens[i + 1..].iter().any(|&b| attack(a, b)));
        for err in [count_err, solve_err] {
            if attacking {
                prop_assert!(err.starts_with("note: the placed queens attack each other"), "{}", err);
                prop_assert_eq!(err.lines().count(), 1);
            } else {
                prop_assert!(err.is_empty(), "{}", err);
            }
        }
    }
}

#[test]
fn completions_with_every_symmetry_mode_and_depth() {
    // 9 has a middle column: a queen there keeps the mirror symmetry.
    for place in ["4:4", "0:4", "2:3", "0:0,8:4"] {
        let queens: Vec<(usize, usize)> = place
            .split(',')
            .map(|q| {
                let (r, c) = q.split_once(':').unwrap();
                (r.parse().unwrap(), c.parse().unwrap())
            })
            .collect();
        let expected = format!("{}\n", filtered(9, &queens).len());
        for symmetry in ["none", "mirror"] {
            for depth in ["1", "3", "9"] {
                let (out, _) = run(&[
                    "count",
                    "9",
                    "--place",
                    place,
                    "--symmetry",
                    symmetry,
                    "--split-depth",
                    depth,
                ]);
                assert_eq!(out, expected, "{place} {symmetry} {depth}");
            }
        }
    }
}

#[test]
fn json_reports_the_placement_and_the_symmetry_used() {
    let (out, _) = run(&["count", "9", "--place", "4:4", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 40);
    assert_eq!(v["symmetry"], "mirror");
    assert_eq!(v["placement"], "4:4");
    let (out, _) = run(&["count", "8", "--place", "0:0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 4);
    assert_eq!(v["symmetry"], "none");
}

#[test]
fn attacking_queens_have_no_completion() {
    let note =
        "note: the placed queens attack each other (0:0 and 3:3); there are no completions\n";
    assert_eq!(
        run(&["count", "8", "--place", "3:3,0:0"]),
        ("0\n".into(), note.into())
    );
    assert_eq!(
        run(&["solve", "8", "--place", "0:0,3:3"]),
        (String::new(), note.into())
    );
    assert_eq!(
        run(&["solve", "8", "--place", "0:0,3:3", "--format", "leetcode"]),
        ("[]\n".into(), note.into())
    );
}

#[test]
fn a_full_valid_placement_is_its_own_completion() {
    let (out, err) = run(&["solve", "4", "--place", "0:1,1:3,2:0,3:2"]);
    assert_eq!(out, ".Q..\n...Q\nQ...\n..Q.\n\n");
    assert!(err.is_empty());
}

#[test]
fn bad_placements_are_refused() {
    let cases = [
        ("8", "0:8", "off the board"),
        ("8", "8:0", "off the board"),
        ("8", "0:99999999999999999999999", "off the board"),
        ("0", "0:0", "off the board"),
        ("8", "2:1,2:5", "row 2"),
        ("8", "2:1,2:1", "row 2"),
        ("8", "", "malformed"),
        ("8", "1", "malformed"),
        ("8", "1:", "malformed"),
        ("8", "a:b", "malformed"),
        ("8", "1:2,", "malformed"),
        ("8", "1:2:3", "malformed"),
        ("8", "-1:2", "malformed"),
        ("8", "1;2", "malformed"),
    ];
    for command in ["count", "solve"] {
        for (n, place, what) in cases {
            let out = nqueens()
                .args([command, n, &format!("--place={place}")])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{command} {n} {place}");
            assert!(out.stdout.is_empty(), "{command} {n} {place}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with("error: ") && err.contains(what),
                "{place}: {err}"
            );
        }
    }
}
