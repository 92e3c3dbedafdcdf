//! `nqueens bench`: measure a ladder of counts repeatedly, save the report, and
//! optionally compare it with a baseline and plot it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::args::{board_size, parse_usize_in_range, RunArgs};
use super::compare::{compare_reports, draw_pair, exit_status, load_report, VerdictArgs};
use super::output::print_stdout;
use super::report::bench::{table_header, table_row, BenchReport, Measure};
use super::report::compare::check_plan;
use super::report::instructions::{available as valgrind_available, instructions_row};
use super::report::ladder::{assemble, start_date, time_row, Settings};
use super::report::plot;
use super::{against, paths, Failure, Outcome};

/// Examples shown at the end of `nqueens bench --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens bench --to 12 --no-save             # n = 8..=12, 10 samples a row, the table only
  nqueens bench --from 10 --to 14 --runs 5 --json --no-save > run.json
  nqueens bench --to 12 --kernel scalar --plot scalar.svg --out bench-scalar    # saves JSON and Markdown
  nqueens bench --to 12 --runs 3 --threshold 50 --against \"$(command -v nqueens)\"   # two binaries in turns";

/// The largest n of the default ladder, by measure: instruction counts run about 50
/// times slower under valgrind.
const DEFAULT_TO: [usize; 2] = [16, 13];

/// The default number of samples per row, by measure: instruction counts barely vary.
const DEFAULT_RUNS: [usize; 2] = [10, 3];

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The smallest n of the ladder.
    #[arg(long, default_value_t = 8, value_parser = board_size)]
    pub from: usize,
    /// The largest n of the ladder [default: 16, or 13 with --measure instructions].
    #[arg(long, value_parser = board_size)]
    pub to: Option<usize>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Recorded samples per row [default: 10, or 3 with --measure instructions].
    #[arg(long, value_name = "R", value_parser = runs, allow_negative_numbers = true)]
    pub runs: Option<usize>,
    /// Samples per row taken first and thrown away (time only).
    #[arg(
        long,
        value_name = "W",
        default_value_t = 1,
        value_parser = warmup,
        allow_negative_numbers = true
    )]
    pub warmup: usize,
    /// The least duration of one time sample, in seconds: a short count is repeated
    /// back to back until it is reached, and the sample is the mean.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0.02,
        value_parser = sample_time,
        allow_negative_numbers = true
    )]
    pub sample_time: f64,
    /// What to measure: time (wall clock), or instructions (one thread under valgrind:
    /// the same however loaded the machine is).
    #[arg(long, value_enum, default_value_t = Measure::Time)]
    pub measure: Measure,
    /// Print the report as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Folder for the JSON and Markdown reports.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// Write no report files.
    #[arg(long)]
    pub no_save: bool,
    /// Draw the medians against n into this SVG file (with the baseline's, if given).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Compare with this earlier report: print the verdicts, and exit with status 1 if
    /// any row regressed.
    #[arg(long, value_name = "OLD.json")]
    pub baseline: Option<PathBuf>,
    /// Time this binary against `OLD_BINARY` instead, running `count N` of each in turns
    /// (as hyperfine does): a verdict per rung on the ratio of median wall times and its
    /// interval, confirmed by CPU seconds; exit status 1 if any rung regressed. Writes
    /// no files.
    #[arg(long, value_name = "OLD_BINARY", conflicts_with_all = ["baseline", "plot"])]
    pub against: Option<PathBuf>,
    /// With --against: the new binary to time [default: this one] (any build, or a
    /// wrapper script that adds options).
    #[arg(long = "new", value_name = "NEW_BINARY", requires = "against")]
    pub new_binary: Option<PathBuf>,
    #[command(flatten)]
    pub verdict: VerdictArgs,
}

fn runs(s: &str) -> Result<usize, String> {
    parse_usize_in_range(s, 1, 1000, "--runs")
}

fn warmup(s: &str) -> Result<usize, String> {
    parse_usize_in_range(s, 0, 100, "--warmup")
}

fn sample_time(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if (0.0..=60.0).contains(&t) => Ok(t),
        _ => Err("--sample-time must be a number of seconds from 0 to 60".to_string()),
    }
}

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Outcome {
    let mut measure = args.measure;
    if measure == Measure::Instructions {
        if args.run.threads.is_some_and(|t| t != 1) {
            return Err(Failure::usage(
                "--measure instructions counts one thread (with more, idle threads spin for \
                 as long as the others take): drop --threads",
            ));
        }
        if let Err(why) = valgrind_available() {
            super::output::note(&format!(
                "bench: no instruction counts: {why}; measuring time instead"
            ));
            measure = Measure::Time;
        }
    }
    let index = usize::from(measure == Measure::Instructions);
    let (from, to) = (args.from, args.to.unwrap_or(DEFAULT_TO[index]));
    if from > to {
        return Err(Failure::usage(format!(
            "--from {from} is larger than --to {to}: the ladder must go up"
        )));
    }
    // Check every rung, and the baseline, before anything is printed.
    for n in from..=to {
        args.run.options(n)?;
    }
    let mut options = args.run.options_clamped(to)?;
    if measure == Measure::Instructions {
        options.threads = Some(1);
    }
    let sizes: Vec<usize> = (from..=to).collect();
    if let Some(old) = &args.against {
        if measure == Measure::Instructions {
            return Err(Failure::usage(
                "--against times both binaries: it cannot be combined with --measure \
                 instructions",
            ));
        }
        let old_version = against::check_binary(old)?;
        let new_version = match &args.new_binary {
            Some(new) => against::check_binary(new)?,
            None => format!("nqueens {}", super::version::SHORT),
        };
        let plan = against::Plan {
            old,
            new: args.new_binary.as_deref(),
            sizes,
            run: &args.run,
            runs: args.runs.unwrap_or(DEFAULT_RUNS[index]),
            threshold: args.verdict.threshold / 100.0,
            json: args.json,
        };
        return against::run(&plan, [old_version, new_version]);
    }
    if !args.no_save {
        paths::output_folder(&args.out, "the report folder (--out)")?;
    }
    if let Some(path) = &args.plot {
        paths::output_file(path, "the plot")?;
    }
    let baseline = match &args.baseline {
        Some(path) => {
            let baseline = load_report(path)?;
            check_plan(&baseline, measure, &options.symmetry.to_string(), &sizes)
                .map_err(Failure::usage)?;
            Some(baseline)
        }
        None => None,
    };
    let settings = Settings {
        runs: args.runs.unwrap_or(DEFAULT_RUNS[index]),
        warmup: args.warmup,
        sample_time: args.sample_time,
    };

    let date = start_date();
    if !args.json {
        print_stdout(&table_header(measure))?;
    }
    let jobs = nqueens::limits::resolve_threads(None).unwrap_or(1);
    let mut rows = Vec::with_capacity(sizes.len());
    let mut last = None;
    for &n in &sizes {
        let (row, facts) = match measure {
            Measure::Time => time_row(n, &options, &settings),
            Measure::Instructions => instructions_row(n, &options, settings.runs, jobs),
        }
        .map_err(Failure::runtime)?;
        if !args.json {
            print_stdout(&(table_row(measure, &row) + "\n"))?;
        }
        rows.push(row);
        last = Some(facts);
    }
    let report = assemble(date, measure, &settings, &options, last.as_ref(), rows);
    finish(args, &report, baseline.as_ref())
}

/// Prints the JSON, saves the files, draws the plot and compares with the baseline.
fn finish(args: &BenchArgs, report: &BenchReport, baseline: Option<&BenchReport>) -> Outcome {
    if args.json {
        print_stdout(&report.to_json())?;
    }
    if !args.no_save {
        let (json, md) = report.save(&args.out)?;
        super::output::note(&format!("saved {} and {}", json.display(), md.display()));
    }
    let comparison = match baseline {
        Some(baseline) => Some(compare_reports(baseline, report, &args.verdict)?),
        None => None,
    };
    if let Some(path) = &args.plot {
        match (baseline, &comparison) {
            (Some(baseline), Some(comparison)) => draw_pair(path, baseline, report, comparison)?,
            _ => plot::draw(path, &[(&report.label(), report)]).map_err(Failure::runtime)?,
        }
    }
    let Some(comparison) = comparison else {
        return Ok(ExitCode::SUCCESS);
    };
    // Keep stdout pure JSON with --json: the verdicts then go to stderr.
    if args.json {
        eprint!("{}", comparison.to_markdown());
    } else {
        print_stdout(&format!("\n{}", comparison.to_markdown()))?;
    }
    Ok(exit_status(&comparison))
}
