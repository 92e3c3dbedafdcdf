//! Progress on stderr from the command line: plain lines into a file or a pipe, and
//! on a terminal (a pseudo-terminal made by `script`) a bar that waits a second before
//! it appears and is cleared before the result.

use std::process::Command as StdCommand;

use assert_cmd::Command;

fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Whether a plain progress line has the expected shape: `HH:MM:SS D/T tasks (P%), ...`
/// and no control character.
/// Digits grouped by thousands: `6,266`.
fn grouped_number(text: &str) -> bool {
    let groups: Vec<&str> = text.split(',').collect();
    groups.iter().all(|g| g.parse::<u64>().is_ok())
        && groups.iter().skip(1).all(|g| g.len() == 3)
        && (1..=3).contains(&groups[0].len())
}

fn is_plain_line(line: &str) -> bool {
    let mut words = line.split(' ');
    let clock = words.next().unwrap_or("");
    let tasks = words.next().unwrap_or("");
    let clock_ok = clock.len() >= 8
        && clock.split(':').count() == 3
        && clock.split(':').all(|p| p.parse::<u64>().is_ok());
    let tasks_ok = tasks
        .split_once('/')
        .is_some_and(|(d, t)| grouped_number(d) && grouped_number(t));
    clock_ok && tasks_ok && words.next() == Some("tasks") && !line.chars().any(char::is_control)
}

#[test]
fn progress_into_a_file_is_plain_lines() {
    // A quick count: the one line at the end, nothing else.
    let out = nqueens()
        .args(["count", "11", "--progress"])
        .env_remove("NQUEENS_PROGRESS_MS")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"2680\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with('\n'));
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err:?}");
    assert!(is_plain_line(lines[0]), "{err:?}");
    assert!(
        lines[0].contains("(100%), done: 2,680 solutions"),
        "{err:?}"
    );
    let (done, tasks) = lines[0]
        .split(' ')
        .nth(1)
        .and_then(|t| t.split_once('/'))
        .unwrap();
    assert_eq!(done, tasks);

    // Lines every 10 ms: some while the count runs, then the last one.
    let out = nqueens()
        .args([
            "count",
            "15",
            "--threads",
            "1",
            "--kernel",
            "scalar",
            "--progress",
        ])
        .env("NQUEENS_PROGRESS_MS", "10")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"2279184\n");
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() >= 2, "{err:?}");
    for line in &lines {
        assert!(is_plain_line(line), "{line:?}");
        assert!(!line.contains(" 0/0 tasks"), "{line:?}");
    }
    let (last, periodic) = lines.split_last().unwrap();
    for line in periodic {
        assert!(
            line.contains("ETA") && line.contains("solutions so far"),
            "{line:?}"
        );
    }
    assert!(
        last.contains("(100%), done: 2,279,184 solutions"),
        "{last:?}"
    );
}

/// Runs `nqueens ARGS` under `script` (a pseudo-terminal for stdout and stderr) and
/// returns what the terminal received; `None` if `script` is not here.
fn on_a_terminal(args: &str, progress_ms: Option<&str>) -> Option<String> {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_nqueens"));
    let mut script = StdCommand::new("script");
    script.args(["-qfec", &command, "/dev/null"]);
    match progress_ms {
        Some(ms) => script.env("NQUEENS_PROGRESS_MS", ms),
        None => script.env_remove("NQUEENS_PROGRESS_MS"),
    };
    let Ok(out) = script.output() else {
        eprintln!("note: script(1) is not installed; the terminal bar is not tested");
        return None;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn a_quick_count_on_a_terminal_shows_no_bar() {
    let Some(screen) = on_a_terminal("count 10 --json", None) else {
        return;
    };
    // The terminal turns "\n" into "\r\n".
    assert!(screen.starts_with("{\"n\":10,\"total\":724,"), "{screen:?}");
    assert!(screen.ends_with("}\r\n"), "{screen:?}");
    assert!(!screen.contains("tasks,"), "{screen:?}");
}

#[test]
fn the_bar_is_cleared_before_the_result() {
    // The bar shows as soon as the tasks start (delay 0), on a count long enough to
    // draw it.
    let Some(screen) = on_a_terminal("count 15 --threads 1 --json", Some("0")) else {
        return;
    };
    let at = screen.find("{\"n\":15").expect("the JSON is printed");
    let (before, result) = screen.split_at(at);
    assert!(before.contains(" tasks, ETA "), "no bar drawn: {before:?}");
    // The result starts on a clean line: the bar's line is erased and the cursor is
    // back at its start.
    assert!(
        before.ends_with("\r\x1b[2K"),
        "{:?}",
        &before[before.len().saturating_sub(80)..]
    );
    assert!(result.ends_with("}\r\n"), "{result:?}");
    assert!(!result.contains("solutions so far"), "{result:?}");
}
