//! `nqueens estimate N`: the expected nodes and run time of `count N`.

use std::process::ExitCode;

use clap::Args;
use nqueens::limits::{Quantity, DEFAULT_PROBES};
use nqueens::{estimate, Estimate};

use super::args::{board_size, parse_quantity, RunArgs};
use super::output::print_stdout;
use super::Outcome;

/// Examples shown at the end of `nqueens estimate --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens estimate 16                         # nodes and time of count 16 here
  nqueens estimate 20 --threads 64            # the time on 64 threads
  nqueens estimate 24 --probes 100000 --json";

/// Arguments of `estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// The board size, from 0 to 32.
    #[arg(value_parser = board_size, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// Random probes to draw (more probes, narrower spread).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PROBES, value_parser = probes)]
    pub probes: u64,
    /// Seed of the probes: the same seed gives the same node estimate.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

fn probes(s: &str) -> Result<u64, String> {
    parse_quantity(s, Quantity::Probes).map(|p| p as u64)
}

/// Runs `estimate`.
pub fn run(args: &EstimateArgs) -> Outcome {
    let e = estimate(args.n, &args.run.options(args.n)?, args.probes, args.seed)?;
    let text = if args.json {
        serde_json::to_string(&e).expect("an estimate serializes") + "\n"
    } else {
        summary(&e)
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The human-readable estimate.
fn summary(e: &Estimate) -> String {
    let percent = if e.nodes > 0.0 {
        100.0 * 1.96 * e.nodes_stderr / e.nodes
    } else {
        0.0
    };
    format!(
        "n = {}, symmetry {}, split depth {}, {} tasks, {} probes (seed {})\n\
         nodes:   {:.4e} +/- {:.1}% (95%: {:.4e} .. {:.4e})\n\
         time:    {} on {} threads (95%: {} .. {})\n\
         cpu:     {:.3e} core-hours at {:.3e} nodes/s per thread ({} kernel, measured here)\n",
        e.n,
        e.symmetry,
        e.split_depth,
        e.tasks,
        e.probes,
        e.seed,
        e.nodes,
        percent,
        e.nodes_low,
        e.nodes_high,
        duration(e.seconds),
        e.threads,
        duration(e.seconds_low),
        duration(e.seconds_high),
        e.core_hours,
        e.nodes_per_second_per_thread,
        e.kernel,
    )
}

/// Seconds in the largest fitting unit; a thousand years and more in scientific
/// notation with three significant digits (`3.24e7 years`), as the core-hours are.
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
