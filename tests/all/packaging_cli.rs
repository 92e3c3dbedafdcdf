//! Packaging from the command line: completion scripts for each shell, the manual
//! pages, and the examples at the end of each command's `--help` (each one is run).

use assert_cmd::Command;
use predicates::prelude::*;

/// The commands of nqueens (the `help` command aside).
const COMMANDS: [&str; 10] = [
    "count",
    "solve",
    "verify",
    "bench",
    "compare",
    "merge",
    "audit",
    "estimate",
    "completions",
    "man",
];

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = nqueens().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn completions_know_every_command_and_option() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        for option in ["checkpoint", "shard", "kernel", "probes", "format"] {
            assert!(script.contains(option), "{shell}: no --{option}");
        }
    }
    // The bash script is valid bash, if bash is here to say so.
    let script = stdout(&["completions", "bash"]);
    if let Ok(out) = std::process::Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_bad_shell_is_one_line_and_status_2() {
    for bad in ["tcsh", "", "BASH!"] {
        nqueens()
            .args(["completions", bad])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("bash").and(predicate::str::contains('\n').count(1)));
    }
    nqueens().arg("completions").assert().code(2).stdout("");
}

/// Checks a page's roff: the title, the sections every page has, and (if groff is
/// installed) no warning from groff.
fn check_roff(page: &str, title: &str) {
    assert!(
        page.lines()
            .any(|l| l.starts_with(&format!(".TH {title} 1 "))),
        "no .TH {title}"
    );
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "\"SEE ALSO\""] {
        assert!(
            page.lines().any(|l| l == format!(".SH {section}")),
            "{title}: no section {section}"
        );
    }
    for line in page.lines().filter(|l| l.starts_with('.')) {
        let request = line[1..].split_whitespace().next().unwrap_or("");
        assert!(
            ["TH", "SH", "SS", "TP", "IP", "PP", "RS", "RE", "nf", "fi", "br", "ie", "el",]
                .contains(&request),
            "{title}: unexpected roff request in {line:?}"
        );
    }
    let groff = std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    match groff {
        Ok(mut child) => {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(page.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success());
            assert_eq!(String::from_utf8_lossy(&out.stderr), "", "groff on {title}");
        }
        Err(_) => eprintln!("note: groff is not installed; {title} checked without it"),
    }
}

#[test]
fn man_pages_are_roff_with_the_commands() {
    let top = stdout(&["man"]);
    check_roff(&top, "nqueens");
    for command in COMMANDS {
        assert!(
            top.contains(&format!("nqueens\\-{command}(1)")),
            "nqueens(1) does not list {command}"
        );
    }
    assert!(top.contains(".SH \"EXIT STATUS\""));
    let count = stdout(&["man", "count"]);
    check_roff(&count, "nqueens-count");
    for option in ["checkpoint", "shard", "unique", "kernel", "progress"] {
        assert!(count.contains(&format!("\\-\\-{option}")), "no --{option}");
    }
    assert!(count.contains(".SH EXAMPLES"));
    for command in COMMANDS {
        check_roff(&stdout(&["man", command]), &format!("nqueens-{command}"));
    }
    nqueens()
        .args(["man", "counts"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("there is no command 'counts'")
                .and(predicate::str::contains('\n').count(1)),
        );
}

#[test]
fn man_dir_writes_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("share/man/man1");
    nqueens()
        .args(["man", "--dir"])
        .arg(&pages)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("wrote 11 pages"));
    let top = std::fs::read_to_string(pages.join("nqueens.1")).unwrap();
    assert_eq!(top, stdout(&["man"]));
    for command in COMMANDS {
        let page = std::fs::read_to_string(pages.join(format!("nqueens-{command}.1"))).unwrap();
        assert_eq!(page, stdout(&["man", command]));
    }
    nqueens()
        .args(["man", "count", "--dir"])
        .arg(&pages)
        .assert()
        .code(2);
}

/// The example lines at the end of `nqueens COMMAND --help`: the command and the
/// comment after `#`.
fn examples(command: &str) -> Vec<(String, String)> {
    let help = stdout(&[command, "--help"]);
    let Some((_, examples)) = help.split_once("\nExamples:\n") else {
        panic!("nqueens {command} --help has no examples");
    };
    examples
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once(" # ") {
            Some((run, comment)) => (run.trim().to_string(), comment.trim().to_string()),
            None => (l.trim().to_string(), String::new()),
        })
        .collect()
}

/// Runs every example of `nqueens COMMAND --help` as shown, in a fresh folder, with
/// this build first on `PATH`; a comment that is a number is the expected output.
#[cfg(unix)]
fn examples_run_as_shown(command: &str) {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_nqueens"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    let examples = examples(command);
    assert!(examples.len() >= 3, "{command}: fewer than 3 examples");
    assert!(examples
        .iter()
        .any(|(line, _)| line.starts_with(&format!("nqueens {command}"))));
    for (line, comment) in examples {
        let out = std::process::Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        // A comparison of two binaries' times (`--against`) may find a rung regressed in
        // the noise of a loaded machine (the tests run side by side): its status 1 is a
        // measurement, not a failure of the example, as long as it printed its table.
        let timing_verdict = line.contains("--against")
            && out.status.code() == Some(1)
            && String::from_utf8_lossy(&out.stdout).contains("| n |");
        assert!(
            out.status.success() || timing_verdict,
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if comment.parse::<u128>().is_ok() {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                comment + "\n",
                "{line}"
            );
        }
    }
}

/// One test per command, so that the examples run side by side.
macro_rules! help_examples_run_as_shown {
    ($($test:ident: $command:literal,)*) => {$(
        #[cfg(unix)]
        #[test]
        fn $test() {
            examples_run_as_shown($command);
        }
    )*};
}

help_examples_run_as_shown! {
    count_help_examples_run_as_shown: "count",
    solve_help_examples_run_as_shown: "solve",
    verify_help_examples_run_as_shown: "verify",
    bench_help_examples_run_as_shown: "bench",
    compare_help_examples_run_as_shown: "compare",
    merge_help_examples_run_as_shown: "merge",
    audit_help_examples_run_as_shown: "audit",
    estimate_help_examples_run_as_shown: "estimate",
}

#[test]
fn completions_and_man_have_examples() {
    for command in ["completions", "man"] {
        assert!(!examples(command).is_empty());
    }
}
