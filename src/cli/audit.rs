//! `nqueens audit FILES...`: independent confirmation of a long run, from its
//! checkpoints: recorded units drawn at random, recounted by an independent method
//! and compared.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nqueens::{audit, Audit, AuditOptions, DEFAULT_SAMPLE, MAX_SAMPLE};

use super::args::{parse_usize_in_range, thread_count};
use super::output::print_stdout;
use super::{paths, Outcome};

/// Examples shown at the end of `nqueens audit --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens count 14 --checkpoint n14.ckpt          # 365596, every unit recorded
  nqueens audit n14.ckpt --sample 20 --seed 1     # recount 20 units drawn at random
  nqueens audit n14.ckpt --sample all --json      # recount every recorded unit";

/// The most mismatches named on stderr (the JSON lists them all).
const NAMED_MISMATCHES: usize = 10;

/// Arguments of `audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Checkpoint files of one run (`count --checkpoint FILE`), such as the
    /// checkpoints of its shards. Shard reports hold sums, not units: audit a sharded
    /// run through its shards' checkpoints.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Recorded units to draw and recount, from 1 to 10000000, or `all` (at least the
    /// recorded units recounts them all).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_SAMPLE, value_parser = sample)]
    pub sample: usize,
    /// Seed of the draw: the same seed draws the same units of the same files
    /// [default: a new one each time, printed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads, each recounting one unit at a time [default: every logical
    /// CPU].
    #[arg(long, value_name = "T", value_parser = thread_count, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// Parses `--sample`: an integer in `1..=MAX_SAMPLE`, or `all`.
fn sample(s: &str) -> Result<usize, String> {
    if s.trim() == "all" {
        return Ok(MAX_SAMPLE);
    }
    parse_usize_in_range(s, 1, MAX_SAMPLE, "--sample").map_err(|e| format!("{e}, or all"))
}

/// A seed for a draw that was given none: from the clock and the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    #[allow(
        clippy::cast_possible_truncation,
        reason = "any 64 bits of the clock make a seed"
    )]
    let low = nanos as u64;
    low ^ u64::from(std::process::id()).rotate_left(32)
}

/// Runs `audit`: exit status 1 if a drawn unit disagrees (named on stderr, the summary
/// on stdout all the same), 2 for files it cannot audit.
pub fn run(args: &AuditArgs) -> Outcome {
    for path in &args.files {
        paths::input_file(path, "the checkpoint")?;
    }
    let options = AuditOptions {
        sample: args.sample,
        seed: args.seed.unwrap_or_else(fresh_seed),
        threads: args.threads,
    };
    let found = audit(&args.files, &options)?;
    let text = if args.json {
        serde_json::to_string(&found).expect("an audit serializes") + "\n"
    } else {
        summary(&found)
    };
    print_stdout(&text)?;
    if found.agrees() {
        return Ok(ExitCode::SUCCESS);
    }
    for m in found.mismatches.iter().take(NAMED_MISMATCHES) {
        let work = match (m.recorded_work, m.recounted_work) {
            (Some(a), Some(b)) if a != b => format!(" (nodes: recorded {a}, recounted {b})"),
            _ => String::new(),
        };
        eprintln!(
            "error: unit {} ({}) is recorded in {} with {} solutions, and an independent \
             recount gives {}{work}",
            m.unit, m.description, m.recorded_in, m.recorded, m.recounted
        );
    }
    if found.mismatches.len() > NAMED_MISMATCHES {
        eprintln!(
            "error: and {} more units disagree (--json lists them all)",
            found.mismatches.len() - NAMED_MISMATCHES
        );
    }
    Ok(ExitCode::from(1))
}

/// Seconds for people: `1.23 s`, `45.6 ms`, `789 µs`, `3.2 h`.
fn duration(seconds: f64) -> String {
    if seconds >= 7200.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{:.0} µs", seconds * 1e6)
    }
}

/// The human-readable report.
fn summary(a: &Audit) -> String {
    let share = |part: usize| {
        #[allow(
            clippy::cast_precision_loss,
            reason = "a percentage for people to read"
        )]
        let percent = 100.0 * part as f64 / a.units_total.max(1) as f64;
        if percent >= 1.0 || percent == 0.0 {
            format!("{percent:.1}%")
        } else if percent >= 0.01 {
            format!("{percent:.2}%")
        } else {
            format!("{percent:.5}%")
        }
    };
    let depth = a
        .split_depth
        .map(|d| format!(", split depth {d}"))
        .unwrap_or_default();
    let placed = if a.placements.is_empty() {
        String::new()
    } else {
        format!(", queens placed at {}", a.placements)
    };
    let mut out = format!(
        "audit of {}\nrun: n = {}, {} engine (unit list version {}), {} symmetry{depth}{placed}, \
         {} units\n",
        a.files.join(", "),
        a.n,
        a.engine,
        a.units_version,
        a.symmetry,
        a.units_total
    );
    let _ = writeln!(
        out,
        "recorded: {} units ({} of the run)\ndrawn: {} ({} of the run), seed {} (--seed {} \
         draws them again)",
        a.units_recorded,
        share(a.units_recorded),
        a.units_drawn,
        share(a.units_drawn),
        a.seed,
        a.seed
    );
    let _ = writeln!(out, "recounted by: {}", a.method);
    out += if a.work_compared {
        "compared: each unit's weighted count and its nodes\n"
    } else {
        "compared: each unit's weighted count (the engine's work, pairs, has no independent \
         measure)\n"
    };
    let verdict = if a.agrees() {
        format!("all {} agree", a.units_drawn)
    } else {
        format!(
            "{} of {} agree; {} DISAGREE",
            a.agreed,
            a.units_drawn,
            a.mismatches.len()
        )
    };
    let _ = writeln!(out, "result: {verdict}");
    let threads = if a.threads == 1 { "thread" } else { "threads" };
    let _ = writeln!(
        out,
        "time: {} on {} {threads} ({} per unit on one thread, {} the longest)",
        duration(a.seconds),
        a.threads,
        duration(a.seconds_per_unit),
        duration(a.seconds_max_unit)
    );
    if a.units_drawn >= a.units_recorded {
        out += "what it proves: every recorded unit was recounted: a wrong recorded unit \
                would have been caught\n";
    } else {
        let chances: Vec<String> = a
            .catch
            .iter()
            .map(|c| {
                format!(
                    "{:.3}% for f = {}%",
                    100.0 * c.probability,
                    100.0 * c.fraction_wrong
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "what it proves: were a fraction f of the recorded units wrong, {} units drawn at \
             random would include one with probability at least 1 - (1 - f)^{}: {}",
            a.units_drawn,
            a.units_drawn,
            chances.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Failure;

    #[test]
    fn durations() {
        assert_eq!(duration(12.345), "12.35 s");
        assert_eq!(duration(0.0456), "45.6 ms");
        assert_eq!(duration(0.000_789), "789 µs");
        assert_eq!(duration(36_000.0), "10.0 h");
    }

    #[test]
    fn samples() {
        assert_eq!(sample("all"), Ok(MAX_SAMPLE));
        assert_eq!(sample("5"), Ok(5));
        let e = sample("0").unwrap_err();
        assert_eq!(e, "--sample must be an integer from 1 to 10000000, or all");
        assert!(sample("x").is_err());
    }

    #[test]
    fn failures_are_bad_input() {
        let e = Failure::from(nqueens::Error::Audit("x".into()));
        assert!(format!("{e:?}").contains("status: 2"), "{e:?}");
    }
}
