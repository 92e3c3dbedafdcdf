//! `nqueens solve`: exact output in every format, counts, order, threads, limits,
//! symmetry classes and closed pipes.

use std::fmt::Write as _;
use std::io::Read;
use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use crate::common::published;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Runs `nqueens args`, expecting success and a silent stderr; returns stdout.
fn stdout(args: &[&str]) -> String {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The solutions of n = 1..=6 in lexicographic order, written out by hand.
fn known_solutions(n: usize) -> Vec<Vec<usize>> {
    let table: &[&[usize]] = match n {
        1 => &[&[0]],
        2 | 3 => &[],
        4 => &[&[1, 3, 0, 2], &[2, 0, 3, 1]],
        5 => &[
            &[0, 2, 4, 1, 3],
            &[0, 3, 1, 4, 2],
            &[1, 3, 0, 2, 4],
            &[1, 4, 2, 0, 3],
            &[2, 0, 3, 1, 4],
            &[2, 4, 1, 3, 0],
            &[3, 0, 2, 4, 1],
            &[3, 1, 4, 2, 0],
            &[4, 1, 3, 0, 2],
            &[4, 2, 0, 3, 1],
        ],
        6 => &[
            &[1, 3, 5, 0, 2, 4],
            &[2, 5, 1, 4, 0, 3],
            &[3, 0, 4, 1, 5, 2],
            &[4, 2, 0, 5, 3, 1],
        ],
        _ => unreachable!(),
    };
    table.iter().map(|s| s.to_vec()).collect()
}

/// The row strings of a solution, written here independently of the library.
fn rows(cols: &[usize]) -> Vec<String> {
    let n = cols.len();
    cols.iter()
        .map(|&c| (0..n).map(|i| if i == c { 'Q' } else { '.' }).collect())
        .collect()
}

/// The expected output of `solve` in `format` for these solutions.
fn render(format: &str, solutions: &[Vec<usize>]) -> String {
    match format {
        "board" => solutions
            .iter()
            .map(|s| rows(s).iter().map(|r| r.clone() + "\n").collect::<String>() + "\n")
            .collect(),
        "leetcode" => {
            let boards: Vec<String> = solutions
                .iter()
                .map(|s| {
                    let quoted: Vec<String> = rows(s).iter().map(|r| format!("\"{r}\"")).collect();
                    format!("[{}]", quoted.join(","))
                })
                .collect();
            format!("[{}]\n", boards.join(","))
        }
        "columns" => solutions
            .iter()
            .map(|s| {
                let parts: Vec<String> = s.iter().map(usize::to_string).collect();
                parts.join(" ") + "\n"
            })
            .collect(),
        "jsonl" => solutions.iter().fold(String::new(), |mut out, s| {
            let parts: Vec<String> = s.iter().map(usize::to_string).collect();
            let _ = writeln!(out, "{{\"columns\":[{}]}}", parts.join(","));
            out
        }),
        _ => unreachable!(),
    }
}

const FORMATS: [&str; 4] = ["board", "leetcode", "columns", "jsonl"];

#[test]
fn four_queens_as_in_the_classic_exercises() {
    let board = ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n";
    assert_eq!(stdout(&["solve", "4"]), board);
    assert_eq!(stdout(&["solve", "4", "--format", "board"]), board);
    assert_eq!(
        stdout(&["solve", "4", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
    );
    assert_eq!(
        stdout(&["solve", "4", "--format", "columns"]),
        "1 3 0 2\n2 0 3 1\n"
    );
    assert_eq!(
        stdout(&["solve", "4", "--format", "jsonl"]),
        "{\"columns\":[1,3,0,2]}\n{\"columns\":[2,0,3,1]}\n"
    );
}

#[test]
fn exact_output_for_small_boards_in_every_format() {
    for n in 1..=6 {
        let solutions = known_solutions(n);
        for format in FORMATS {
            let got = stdout(&["solve", &n.to_string(), "--format", format]);
            assert_eq!(got, render(format, &solutions), "n = {n}, {format}");
        }
    }
}

#[test]
fn boards_without_solutions() {
    for n in ["2", "3"] {
        for format in ["board", "columns", "jsonl"] {
            assert_eq!(stdout(&["solve", n, "--format", format]), "");
        }
        assert_eq!(stdout(&["solve", n, "--format", "leetcode"]), "[]\n");
    }
}

#[test]
fn the_empty_board_is_one_solution() {
    assert_eq!(stdout(&["solve", "0"]), "\n");
    assert_eq!(stdout(&["solve", "0", "--format", "leetcode"]), "[[]]\n");
    assert_eq!(stdout(&["solve", "0", "--format", "columns"]), "\n");
}

/// Parses the `board` output into column sequences, checking its shape.
fn parse_boards(n: usize, text: &str) -> Vec<Vec<usize>> {
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(lines.last(), Some(&""), "output ends with a line end");
    let lines = &lines[..lines.len() - 1];
    assert_eq!(lines.len() % (n + 1), 0);
    lines
        .chunks(n + 1)
        .map(|block| {
            assert_eq!(block[n], "", "an empty line after every board");
            block[..n]
                .iter()
                .map(|row| {
                    assert_eq!(row.len(), n);
                    assert_eq!(row.matches('Q').count(), 1, "{row}");
                    assert_eq!(row.matches('.').count(), n - 1, "{row}");
                    row.find('Q').unwrap()
                })
                .collect()
        })
        .collect()
}

fn is_solution(cols: &[usize]) -> bool {
    (0..cols.len()).all(|a| {
        (a + 1..cols.len()).all(|b| cols[a] != cols[b] && cols[a].abs_diff(cols[b]) != b - a)
    })
}

#[test]
fn every_board_is_a_distinct_valid_solution_and_they_number_a000170() {
    for n in 1..=10 {
        let boards = parse_boards(n, &stdout(&["solve", &n.to_string()]));
        assert_eq!(boards.len() as u128, published(n).unwrap().total, "n = {n}");
        assert!(boards.iter().all(|b| is_solution(b)), "n = {n}");
        assert!(
            boards.windows(2).all(|w| w[0] < w[1]),
            "n = {n}: strictly increasing"
        );
    }
}

/// The 8 images of a solution under the symmetries of the square.
fn images(cols: &[usize]) -> Vec<Vec<usize>> {
    let n = cols.len();
    let mut out = Vec::new();
    let mut current: Vec<usize> = cols.to_vec();
    for _ in 0..4 {
        // Quarter turn: the queen (r, c) goes to (c, n - 1 - r).
        let mut turned = vec![0; n];
        for (r, &c) in current.iter().enumerate() {
            turned[c] = n - 1 - r;
        }
        let mirrored: Vec<usize> = current.iter().map(|&c| n - 1 - c).collect();
        out.push(current);
        out.push(mirrored);
        current = turned;
    }
    out
}

#[test]
fn unique_lists_one_canonical_solution_per_class_a002562() {
    for n in 1..=10 {
        let text = stdout(&["solve", &n.to_string(), "--unique", "--format", "columns"]);
        let listed: Vec<Vec<usize>> = text
            .lines()
            .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
            .collect();
        assert_eq!(
            listed.len() as u128,
            published(n).unwrap().unique,
            "n = {n}"
        );
        for s in &listed {
            assert!(is_solution(s));
            assert_eq!(
                images(s).iter().min(),
                Some(s),
                "n = {n}: {s:?} is not the smallest"
            );
        }
        assert!(listed.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    for args in [
        vec!["solve", "10"],
        vec!["solve", "11", "--format", "columns"],
        vec!["solve", "10", "--format", "leetcode", "--limit", "300"],
        vec!["solve", "11", "--unique", "--format", "jsonl"],
        vec!["solve", "10", "--place", "2:3"],
    ] {
        let one = stdout(&[args.as_slice(), &["--threads", "1"]].concat());
        let two = stdout(&[args.as_slice(), &["--threads", "2"]].concat());
        assert!(!one.is_empty());
        assert_eq!(one, two, "{args:?}");
    }
}

#[test]
fn limit_keeps_the_first_solutions() {
    let all = stdout(&["solve", "8", "--format", "columns"]);
    let first: String = all.lines().take(3).map(|l| l.to_owned() + "\n").collect();
    assert_eq!(
        stdout(&["solve", "8", "--format", "columns", "--limit", "3"]),
        first
    );
    assert_eq!(stdout(&["solve", "8", "--limit", "0"]), "");
    assert_eq!(
        stdout(&["solve", "8", "--format", "leetcode", "--limit", "0"]),
        "[]\n"
    );
    let one: Vec<Vec<String>> = serde_json::from_str(&stdout(&[
        "solve", "8", "--format", "leetcode", "--limit", "1",
    ]))
    .unwrap();
    assert_eq!(one, [rows(&[0, 4, 7, 5, 2, 6, 1, 3])]);
    // A limit on a large board returns at once: generation stops early.
    assert_eq!(
        stdout(&["solve", "27", "--limit", "2", "--format", "columns"])
            .lines()
            .count(),
        2
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = nqueens()
        .args(["solve", "16"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 17];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    assert_eq!(&first, b"Q...............\n");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn bad_arguments_are_one_line_with_status_2() {
    for args in [
        vec!["solve", "33"],
        vec!["solve", "-1"],
        vec!["solve", "8", "--format", "xml"],
        vec!["solve", "8", "--limit", "-1"],
        vec!["solve", "8", "--threads", "0"],
        vec!["solve", "8", "--unique", "--place", "0:0"],
    ] {
        let out = nqueens().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error:"), "{args:?}: {err}");
    }
}
