//! `nqueens estimate N`: the expected work, memory and run time of `count N`.

use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::limits::{Quantity, DEFAULT_PROBES, DEFAULT_SAMPLE_SECONDS};
use nqueens::{estimate_with, Estimate, EstimateStage, Sampling};

use super::args::{board_size, parse_quantity, RunArgs};
use super::numbers::{core_time, grouped, grouped_usize, threads};
use super::output::print_stdout;
use super::Outcome;

/// Examples shown at the end of `nqueens estimate --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens estimate 16                         # time and memory of count 16 here
  nqueens estimate 20 --threads 64            # the time on 64 threads
  nqueens estimate 19 --memory 32M --threads 2    # within a budget: less memory, more time
  nqueens estimate 27 --engine backtrack --probes 100000 --json
  nqueens estimate 20 --sample-seconds 60     # up to a minute more of units: a narrower interval
  nqueens estimate 24 --engine backtrack --threads 16 --shard-hours 24
                                              # shards of a day each on a 16-thread node";

/// Arguments of `estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// The board size, from 0 to 32.
    #[arg(value_parser = board_size, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Random probes to draw for the backtracking engine (more probes, narrower
    /// spread); the join engine times a sample of its units instead.
    #[arg(
        long,
        value_name = "P",
        default_value_t = DEFAULT_PROBES,
        value_parser = probes,
        allow_negative_numbers = true
    )]
    pub probes: u64,
    /// Seed of the probes (the same seed gives the same node estimate) or of the
    /// sample of units.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Seconds the join engine keeps timing units after it has timed two of each cost
    /// class, from 0 to 604800 (a week; it stops sooner once 64 units of every class
    /// are timed): more units timed, a narrower interval. From n = 26 on a unit takes
    /// seconds to minutes, so the default times little beyond those two; give an hour
    /// or more, and compare several seeds, before planning a frontier run on the
    /// figure. The backtracking engine draws probes instead.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = DEFAULT_SAMPLE_SECONDS,
        value_parser = sample_seconds,
        allow_negative_numbers = true
    )]
    pub sample_seconds: u64,
    /// Also give the number of shards (`count --shard I/K`) whose runs on these
    /// threads last at most H hours each, from 0.01 to 100000.
    #[arg(long, value_name = "H", value_parser = shard_hours, allow_negative_numbers = true)]
    pub shard_hours: Option<f64>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

fn shard_hours(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(h) if (0.01..=100_000.0).contains(&h) => Ok(h),
        _ => Err("the hours per shard must be a number from 0.01 to 100000".to_string()),
    }
}

/// The shards of at most `hours` hours each that a count of `seconds` (on its
/// threads) needs.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a positive count of shards, far below 2^53"
)]
fn shards(seconds: f64, hours: f64) -> u64 {
    ((seconds / (hours * 3600.0)).ceil() as u64).max(1)
}

/// The shard counts of an estimate for `hours` per shard: for its time, and its 95%
/// interval.
fn shard_counts(e: &Estimate, hours: f64) -> Option<(u64, u64, u64)> {
    Some((
        shards(e.seconds?, hours),
        shards(e.seconds_low?, hours),
        shards(e.seconds_high?, hours),
    ))
}

/// A spinner on stderr, on a terminal only, that says what the estimate is doing.
fn working() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

fn probes(s: &str) -> Result<u64, String> {
    parse_quantity(s, Quantity::Probes).map(|p| p as u64)
}

fn sample_seconds(s: &str) -> Result<u64, String> {
    parse_quantity(s, Quantity::SampleSeconds).map(|seconds| seconds as u64)
}

/// Runs `estimate`.
pub fn run(args: &EstimateArgs) -> Outcome {
    let options = args.run.options(args.n)?;
    let bar = working();
    let shown = |stage: EstimateStage| match stage {
        EstimateStage::Planning => bar.set_message("estimate: building the plan"),
        EstimateStage::Measuring { units: 0 } => bar.set_message("estimate: measuring"),
        EstimateStage::Measuring { units } => {
            bar.set_message(format!("estimate: {units} units timed"));
        }
    };
    let sampling = Sampling {
        probes: args.probes,
        seed: args.seed,
        unit_seconds: args.sample_seconds,
    };
    let e = estimate_with(args.n, &options, &sampling, &shown);
    bar.finish_and_clear();
    let e = e?;
    let text = if args.json {
        let mut value = serde_json::to_value(&e).expect("an estimate serializes");
        if let (Some(hours), Some((count, low, high))) = (
            args.shard_hours,
            args.shard_hours.and_then(|h| shard_counts(&e, h)),
        ) {
            value["shards"] = serde_json::json!({
                "hours": hours, "count": count, "count_low": low, "count_high": high
            });
        }
        value.to_string() + "\n"
    } else {
        summary(&e, args.shard_hours)
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The human-readable estimate (with shards of at most `shard_hours` hours, if given).
fn summary(e: &Estimate, shard_hours: Option<f64>) -> String {
    let depth = e
        .split_depth
        .map_or(String::new(), |d| format!(", split depth {d}"));
    let sampled = match (e.probes, e.units_sampled) {
        (Some(probes), _) => format!(", {} probes (seed {})", grouped(probes), e.seed),
        (None, Some(units)) => format!(", {} units timed (seed {})", grouped(units), e.seed),
        (None, None) => String::new(),
    };
    let tasks = e
        .tasks
        .map_or(String::new(), |t| format!(", {} tasks", grouped_usize(t)));
    let mut lines = vec![format!(
        "n = {}, {} engine, symmetry {}{depth}{tasks}{sampled}",
        e.n, e.engine, e.symmetry
    )];
    if let (Some(nodes), Some(stderr), Some(low), Some(high)) =
        (e.nodes, e.nodes_stderr, e.nodes_low, e.nodes_high)
    {
        let percent = if nodes > 0.0 {
            100.0 * 1.96 * stderr / nodes
        } else {
            0.0
        };
        lines.push(format!(
            "nodes:   {nodes:.4e} +/- {percent:.1}% (95%: {low:.4e} .. {high:.4e})"
        ));
    }
    if let Some(pairs) = e.pairs {
        lines.push(format!("pairs:   {pairs:.4e}"));
    }
    let available = e
        .memory_available
        .map_or(String::new(), |a| format!(" of {} available", bytes(a)));
    lines.push(format!("memory:  {}{available}", bytes(e.memory_bytes)));
    match (e.seconds, e.seconds_low, e.seconds_high, e.core_hours) {
        (Some(seconds), Some(low), Some(high), Some(core_hours)) => {
            lines.push(format!(
                "time:    {} on {} (95%: {} .. {})",
                duration(seconds),
                threads(e.threads),
                duration(low),
                duration(high)
            ));
            if e.threads > 1 {
                lines.push(format!("threads: {}", scaling(e)));
            }
            let speed = match (e.nodes_per_second_per_thread, e.setup_seconds) {
                (Some(rate), _) => format!("at {rate:.3e} nodes/s per thread"),
                (None, Some(setup)) => format!("after tables built in {}", duration(setup)),
                (None, None) => String::new(),
            };
            lines.push(format!(
                "cpu:     {} {speed} ({} kernel, measured here)",
                core_time(core_hours),
                e.kernel
            ));
            if let (Some(true), Some(sampled), Some(classes)) =
                (e.thin_sample, e.units_sampled, e.unit_classes)
            {
                lines.push(format!(
                    "sample:  thin: {} units timed in {} cost classes, too few to trust the interval; give it more --sample-seconds (from n = 26 on, 600 or more) and compare seeds before planning on it",
                    grouped(sampled),
                    grouped(classes)
                ));
            }
        }
        _ => lines.push(format!(
            "time:    not estimated: the {} engine needs at least {} on {} thread{} for N = {}, more than {}: give it a budget that fits with --memory (a cluster node's memory, such as --memory 16G), or use fewer threads",
            e.engine,
            bytes(e.memory_bytes),
            e.threads,
            if e.threads == 1 { "" } else { "s" },
            e.n,
            e.memory_budget.map_or("is available".to_string(), |b| format!("the budget of {}", bytes(b)))
        )),
    }
    if let Some((hours, (count, low, high))) =
        shard_hours.and_then(|h| Some((h, shard_counts(e, h)?)))
    {
        lines.push(format!(
            "shards:  {count} of at most {hours} hours each on {} threads (95%: {low} .. {high}): count {} --shard I/{count}",
            e.threads, e.n
        ));
    }
    lines.join("\n") + "\n"
}

/// How the threads were modelled: the measured speedup, and what happens to threads
/// past the CPUs.
fn scaling(e: &Estimate) -> String {
    let speedup = format!("{:.2}x one thread (measured here)", e.speedup);
    if e.threads > e.cpus {
        format!(
            "{speedup}: {} asked for, but this machine lets this process use {} CPUs, \
             so only {} run at once",
            threads(e.threads),
            grouped_usize(e.cpus),
            grouped_usize(e.cpus)
        )
    } else {
        speedup
    }
}

/// A byte count in the largest fitting binary unit.
fn bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    #[allow(
        clippy::cast_precision_loss,
        reason = "a size for people to read: three digits are plenty"
    )]
    let mut value = bytes as f64;
    if value < 1024.0 {
        return format!("{bytes} bytes");
    }
    let mut unit = 0;
    value /= 1024.0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// Seconds in the largest fitting unit; a thousand years and more in scientific
/// notation with three significant digits (`3.24e7 years`).
fn duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    const UNITS: [(f64, &str); 5] = [
        (YEAR, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    if seconds >= 1000.0 * YEAR {
        return format!("{:.2e} years", seconds / YEAR);
    }
    for (size, name) in UNITS {
        if seconds >= size {
            return format!("{:.3} {name}", seconds / size);
        }
    }
    format!("{seconds:.3} seconds")
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_read_at_every_scale() {
        const YEAR: f64 = 365.25 * 86400.0;
        assert_eq!(duration(0.2639), "0.264 seconds");
        assert_eq!(duration(90.0), "1.500 minutes");
        assert_eq!(duration(7200.0), "2.000 hours");
        assert_eq!(duration(3.0 * 86400.0), "3.000 days");
        assert_eq!(duration(812.5 * YEAR), "812.500 years");
        assert_eq!(duration(32_414_541.58 * YEAR), "3.24e7 years");
        assert_eq!(duration(1000.0 * YEAR), "1.00e3 years");
    }
}
