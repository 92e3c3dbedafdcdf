//! `nqueens bench --against OLD_BINARY`: the old and the new binary (this one, or
//! `--new NEW_BINARY`) timed
//! alternately in one command, as hyperfine does, so that both see the same machine:
//! the drift of its load and clock between two separate bench runs, which a
//! comparison of saved reports cannot tell from a change, falls on both alike.
//!
//! Each rung runs `BINARY count N --json` with the run options given (only those
//! given, so that a wrapper script may add its own), first one warm-up run of each,
//! then in turns: old and new, new and old, old and new, ... (so that an order effect
//! falls on both alike). Each run's wall time is measured around the process,
//! and its CPU time (user and system) from the kernel's accounting of waited-for
//! children (`/proc/self/stat`, Linux; elsewhere the wall time decides alone). Both
//! binaries must print the same total. The verdicts are `report::against`'s; the
//! command writes no files.
//!
//! Uses `report` (verdicts and tables), `paths` and the library's options.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use super::args::RunArgs;
use super::output::{note, print_stdout};
use super::paths;
use super::report::against::{Against, AgainstRow};
use super::report::ladder::check_total;
use super::{Failure, Outcome};

/// What `bench --against` needs from `bench`'s arguments.
pub struct Plan<'a> {
    /// The old binary.
    pub old: &'a Path,
    /// The new binary (this one if `None`).
    pub new: Option<&'a Path>,
    /// The rungs.
    pub sizes: Vec<usize>,
    /// The run options, as given.
    pub run: &'a RunArgs,
    /// Runs of each binary per rung.
    pub runs: usize,
    /// The verdict threshold, as a fraction.
    pub threshold: f64,
    /// Print JSON instead of the table.
    pub json: bool,
}

/// Checks a binary to time before anything runs: a regular, executable file whose
/// `-V` says it is nqueens (bad input, exit status 2, otherwise); returns that line.
pub fn check_binary(old: &Path) -> Result<String, Failure> {
    paths::input_file(old, "the binary (--against)")?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(old).map_or(0, |m| m.permissions().mode());
        if mode & 0o111 == 0 {
            return Err(Failure::usage(format!(
                "the binary (--against) {}: it is not executable",
                old.display()
            )));
        }
    }
    let out = Command::new(old)
        .arg("-V")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            Failure::usage(format!(
                "the binary (--against) {}: cannot run it: {e}",
                old.display()
            ))
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("").trim();
    if !out.status.success() || !line.starts_with("nqueens ") {
        return Err(Failure::usage(format!(
            "the binary (--against) {}: not an nqueens binary (its -V printed '{line}')",
            old.display()
        )));
    }
    Ok(line.to_string())
}

/// Runs the comparison of `plan` and prints it; exit status 1 if a rung regressed.
pub fn run(plan: &Plan<'_>, versions: [String; 2]) -> Outcome {
    let new = match plan.new {
        Some(new) => new.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| Failure::runtime(format!("cannot find this binary: {e}")))?,
    };
    let [old_version, new_version] = versions;
    let arguments = count_arguments(plan.run);
    let binaries = [plan.old.to_path_buf(), new.clone()];
    let mut rows = Vec::with_capacity(plan.sizes.len());
    for &n in &plan.sizes {
        let row = rung(n, &binaries, &arguments, plan)?;
        if !plan.json {
            note(&format!(
                "n = {n}: new / old = {:.3} (median; {})",
                row.wall_ratio,
                row.verdict.word().trim_matches('*')
            ));
        }
        rows.push(row);
    }
    let against = Against {
        old: plan.old.display().to_string(),
        old_version,
        new: new.display().to_string(),
        new_version,
        arguments,
        runs: plan.runs,
        threshold: plan.threshold,
        geometric_mean_ratio: Against::geometric_mean(&rows),
        rows,
    };
    if plan.json {
        let json = serde_json::to_string(&against).expect("a comparison serializes");
        print_stdout(&format!("{json}\n"))?;
    } else {
        print_stdout(&against.to_markdown())?;
    }
    Ok(if against.regressed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The options given to `bench`, as arguments of `count` (defaults left out).
fn count_arguments(run: &RunArgs) -> Vec<String> {
    let mut arguments = vec!["--json".to_string(), "--no-progress".to_string()];
    let mut add = |name: &str, value: String| {
        arguments.push(name.to_string());
        arguments.push(value);
    };
    if let Some(threads) = run.threads {
        add("--threads", threads.to_string());
    }
    if run.symmetry != nqueens::Symmetry::Full {
        add("--symmetry", run.symmetry.to_string());
    }
    if let Some(depth) = run.split_depth {
        add("--split-depth", depth.to_string());
    }
    if run.kernel != nqueens::Kernel::Auto {
        add("--kernel", run.kernel.to_string());
    }
    if run.engine != nqueens::EngineChoice::Auto {
        add("--engine", run.engine.to_string());
    }
    arguments
}

/// Times rung `n`: a warm-up run of each binary, then `runs` of each in turns.
fn rung(
    n: usize,
    binaries: &[PathBuf; 2],
    arguments: &[String],
    plan: &Plan<'_>,
) -> Result<AgainstRow, Failure> {
    let mut wall = [Vec::new(), Vec::new()];
    let mut cpu = [Vec::new(), Vec::new()];
    let mut cpu_known = true;
    let mut total = None;
    for round in 0..=plan.runs {
        // Old first in even rounds, new first in odd ones (ABBA): whatever the order
        // does (a warm cache, a clock that ramps up) falls on both alike.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for which in order {
            let binary = &binaries[which];
            let timed = time_count(binary, n, arguments)?;
            match total {
                None => {
                    check_total(n, timed.total).map_err(Failure::runtime)?;
                    total = Some(timed.total);
                }
                Some(t) if t != timed.total => {
                    return Err(Failure::runtime(format!(
                        "n = {n}: {} counted {}, the other binary {t}: one of them counts \
                         wrong",
                        binary.display(),
                        timed.total
                    )))
                }
                Some(_) => {}
            }
            if round > 0 {
                wall[which].push(timed.wall);
                match timed.cpu {
                    Some(c) => cpu[which].push(c),
                    None => cpu_known = false,
                }
            }
        }
    }
    Ok(AgainstRow::judge(
        n,
        total.unwrap_or(0),
        wall,
        cpu_known.then_some(cpu),
        plan.threshold,
    ))
}

/// One timed run of a binary.
struct Timed {
    total: u128,
    wall: f64,
    cpu: Option<f64>,
}

/// Runs `binary count n arguments...` and times it.
fn time_count(binary: &Path, n: usize, arguments: &[String]) -> Result<Timed, Failure> {
    let before = children_cpu_seconds();
    let start = Instant::now();
    let out = Command::new(binary)
        .arg("count")
        .arg(n.to_string())
        .args(arguments)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| Failure::runtime(format!("cannot run {}: {e}", binary.display())))?;
    let wall = start.elapsed().as_secs_f64();
    let cpu = before
        .zip(children_cpu_seconds())
        .map(|(before, after)| after - before);
    let what = format!("{} count {n} {}", binary.display(), arguments.join(" "));
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(Failure::runtime(format!(
            "{what} failed ({}): {}",
            out.status,
            err.trim()
        )));
    }
    let total = serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .ok()
        .and_then(|v| v.get("total")?.as_u64().map(u128::from))
        .ok_or_else(|| Failure::runtime(format!("{what} printed no JSON total")))?;
    Ok(Timed { total, wall, cpu })
}

/// The user and system seconds of this process's waited-for children, from
/// `/proc/self/stat` (fields 16 and 17, in ticks of 1/100 s); `None` where there is no
/// such file.
fn children_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3: fields 16 and 17 are its 13th and 14th.
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    let (user, system) = (ticks(13)?, ticks(14)?);
    #[allow(
        clippy::cast_precision_loss,
        reason = "ticks of a process's children, far below 2^53"
    )]
    Some((user + system) as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_cpu_time_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(children_cpu_seconds().is_some_and(|s| s >= 0.0));
        }
    }
}
