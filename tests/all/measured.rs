//! The function `bench --measure instructions` counts inside: the built binary has it
//! under the name [`nqueens::MEASURED_FUNCTION`] says, and callgrind finds it there (a
//! count runs inside it). Without valgrind the second check says so and passes.

use std::process::Command;

/// The `nqueens` binary of this crate.
const EXE: &str = env!("CARGO_BIN_EXE_nqueens");

#[test]
fn the_binary_has_the_measured_function() {
    let binary = std::fs::read(EXE).unwrap();
    // A mangled Rust symbol spells each path segment as its length and its name.
    let mut mangled = String::new();
    for segment in nqueens::MEASURED_FUNCTION.split("::") {
        mangled.push_str(&segment.len().to_string());
        mangled.push_str(segment);
    }
    assert!(
        binary
            .windows(mangled.len())
            .any(|w| w == mangled.as_bytes()),
        "no symbol {mangled} ({}) in {EXE}",
        nqueens::MEASURED_FUNCTION
    );
}

#[test]
fn callgrind_counts_inside_the_measured_function() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("skipped: valgrind is not installed (apt-get install valgrind)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("callgrind.out");
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(format!("--toggle-collect={}", nqueens::MEASURED_FUNCTION))
        .args([EXE, "count", "9", "--threads", "1"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let profile = std::fs::read_to_string(&out).unwrap();
    let totals: u64 = profile
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    // A count of n = 9 runs some 10^5 instructions on its calling thread; a name that
    // matched nothing would collect none.
    assert!(totals > 10_000, "callgrind collected {totals} instructions");
}
