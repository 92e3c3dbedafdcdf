//! Instruction counts: a noise-free measure of work for CI on shared runners.
//!
//! Each sample runs this same binary as `nqueens count N --threads 1 --json` under
//! valgrind's callgrind tool and reads the instructions it executed (the `totals:`
//! line of callgrind's output file). Valgrind runs the program on a virtual CPU, so
//! the count does not depend on the machine's load. Only the count itself is
//! collected: the calling thread inside `nqueens::run_long` (`MEASURED_FUNCTION`:
//! planning, the pool, the
//! wait) and the worker inside the pool's job (the search and the sums). Left out are
//! the process start (about 0.8 million instructions, arguments and loader) and the
//! worker's idle spinning, whose length depends on thread scheduling: with them, five
//! runs of n = 8 differ by up to 1%; without, they agree to the instruction. One
//! thread keeps scheduling out of the search as well. Since the load does not matter,
//! the samples run in parallel, one per logical CPU.
//!
//! Hardware counters (`perf stat -e instructions`) would be faster, but containers and
//! virtual machines, this project's development machine and most CI runners among
//! them, rarely expose them; valgrind works wherever it installs. Its virtual CPU has
//! AVX2 but no AVX-512, so runtime dispatch picks the AVX2 (or scalar) kernel, and a
//! build with `-C target-cpu=native` on an AVX-512 machine dies of an illegal
//! instruction there.

use std::path::Path;
use std::process::Command;

use nqueens::Options;
use serde::Deserialize;

use super::bench::{BenchRow, Measure};
use super::facts::CountFacts;
use super::ladder::check_total;

/// The functions inside which callgrind counts (each toggles collection for its
/// thread): the count on the calling thread, and the job the pool's worker runs.
const COLLECTED: [&str; 2] = [
    nqueens::MEASURED_FUNCTION,
    "<rayon_core::job::StackJob<*> as rayon_core::job::Job>::execute",
];

/// Whether valgrind can be run: `Err` is one line saying why not.
pub fn available() -> Result<(), String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(_) => Err("`valgrind --version` failed".to_string()),
        Err(_) => Err("valgrind is not installed (apt-get install valgrind)".to_string()),
    }
}

/// `runs` instruction counts of `count(n)` with `options` (one thread), taken `jobs`
/// at a time.
pub fn instructions_row(
    n: usize,
    options: &Options,
    runs: usize,
    jobs: usize,
) -> Result<(BenchRow, CountFacts), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let args = count_args(n, options);
    // Callgrind's outputs go to a private folder of this run (a unique name, mode 0700),
    // never to a guessable name in the shared temporary folder.
    let scratch =
        tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let mut results: Vec<Result<(u64, ChildCount), String>> = Vec::with_capacity(runs);
    let mut started = 0;
    while started < runs {
        let wave = jobs.max(1).min(runs - started);
        let wave_results: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..wave)
                .map(|i| {
                    let out = scratch
                        .path()
                        .join(format!("callgrind-{n}-{}.out", started + i));
                    let (exe, args) = (&exe, &args);
                    scope.spawn(move || callgrind(exe, args, &out))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a valgrind run panicked".into()))
                })
                .collect()
        });
        results.extend(wave_results);
        started += wave;
    }
    let mut samples = Vec::with_capacity(runs);
    let mut first: Option<ChildCount> = None;
    for result in results {
        let (instructions, child) = result?;
        if let Some(f) = &first {
            if (f.total, f.work()) != (child.total, child.work()) {
                return Err(format!(
                    "n = {n}: two runs under valgrind counted differently"
                ));
            }
        }
        first.get_or_insert(child);
        #[allow(
            clippy::cast_precision_loss,
            reason = "a bench run's instructions, far below 2^53"
        )]
        samples.push(instructions as f64);
    }
    let child = first.ok_or("no runs")?;
    check_total(n, child.total)?;
    let facts = CountFacts {
        n,
        total: child.total,
        engine: child.engine.clone(),
        work: child.work(),
        tasks: child.tasks,
        split_depth: child.split_depth,
        threads: child.threads,
        kernel: child.kernel,
    };
    Ok((
        BenchRow::new(&facts, 1, samples, Measure::Instructions),
        facts,
    ))
}

/// The arguments of the count each sample runs.
fn count_args(n: usize, options: &Options) -> Vec<String> {
    let options = options.for_board(n);
    let mut args = vec![
        "count".to_string(),
        n.to_string(),
        "--threads".to_string(),
        "1".to_string(),
        "--symmetry".to_string(),
        options.symmetry.to_string(),
        "--kernel".to_string(),
        options.kernel.to_string(),
        "--engine".to_string(),
        options.engine.to_string(),
        "--json".to_string(),
    ];
    if let Some(depth) = options.split_depth {
        args.extend(["--split-depth".to_string(), depth.to_string()]);
    }
    args
}

/// The part of `count --json` a sample needs.
#[derive(Deserialize)]
struct ChildCount {
    total: u128,
    engine: String,
    nodes: Option<u128>,
    pairs: Option<u128>,
    tasks: usize,
    split_depth: Option<usize>,
    threads: usize,
    kernel: String,
}

impl ChildCount {
    /// The count's work in its engine's unit.
    fn work(&self) -> u128 {
        self.nodes.or(self.pairs).unwrap_or(0)
    }
}

/// Runs `exe args` under callgrind, writing its profile to `out` (removed after), and
/// returns the instructions executed and the count printed.
fn callgrind(exe: &Path, args: &[String], out: &Path) -> Result<(u64, ChildCount), String> {
    let mut out_flag = std::ffi::OsString::from("--callgrind-out-file=");
    out_flag.push(out);
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .args(COLLECTED.map(|f| format!("--toggle-collect={f}")))
        .arg(out_flag)
        .arg(exe)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let profile = std::fs::read_to_string(out);
    let _ = std::fs::remove_file(out);
    let command = format!("valgrind --tool=callgrind nqueens {}", args.join(" "));
    if !output.status.success() {
        return Err(failure_line(&command, &output));
    }
    let profile = profile.map_err(|e| format!("{command}: no callgrind output ({e})"))?;
    let instructions = parse_totals(&profile)
        .ok_or_else(|| format!("{command}: no totals line in callgrind's output"))?;
    if instructions == 0 {
        return Err(format!(
            "{command}: no instructions inside {}: were they renamed or inlined?",
            COLLECTED.join(" or ")
        ));
    }
    let child: ChildCount = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("{command}: unexpected output ({e})"))?;
    Ok((instructions, child))
}

/// One line on why a run under valgrind failed.
fn failure_line(command: &str, output: &std::process::Output) -> String {
    use std::os::unix::process::ExitStatusExt;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.signal() == Some(4)
        || stderr.contains("Illegal instruction")
        || stderr.contains("unhandled instruction")
    {
        return format!(
            "{command}: killed by an illegal instruction: valgrind's CPU lacks an instruction \
             this build uses (AVX-512 from -C target-cpu=native?); build without target-cpu=native"
        );
    }
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.starts_with("=="))
        .unwrap_or("no message");
    format!("{command} failed ({}): {last}", output.status)
}

/// The instruction total of a callgrind profile (`totals:`, or `summary:` in older
/// versions).
fn parse_totals(profile: &str) -> Option<u64> {
    let field = |key: &str| {
        profile
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
    };
    field("totals:").or_else(|| field("summary:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_line() {
        let profile =
            "version: 1\ncmd: x\nevents: Ir\nfn=(1) main\n3 4\nsummary: 766025\ntotals: 766025\n";
        assert_eq!(parse_totals(profile), Some(766_025));
        assert_eq!(parse_totals("summary: 12\n"), Some(12));
        assert_eq!(parse_totals("events: Ir\n"), None);
    }

    #[test]
    fn count_arguments() {
        let options = Options {
            split_depth: Some(40),
            ..Options::default()
        };
        let args = count_args(8, &options).join(" ");
        assert_eq!(
            args,
            "count 8 --threads 1 --symmetry full --kernel auto --engine auto --json --split-depth 8"
        );
    }
}
