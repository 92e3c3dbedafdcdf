//! `nqueens compare OLD.json NEW.json`: the verdict on two bench reports, as a Markdown
//! table (or JSON), with exit status 1 when any row regressed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::output::print_stdout;
use super::report::bench::BenchReport;
use super::report::compare::{compare, Comparison};
use super::report::{load::load, plot};
use super::{paths, Failure, Outcome};

/// Examples shown at the end of `nqueens compare --help` (each one runs as shown).
pub const EXAMPLES: &str = "\
Examples:
  nqueens bench --to 12 --runs 5 --json --no-save > old.json
  nqueens compare old.json old.json           # a verdict per row; status 1 if any regressed
  nqueens compare old.json old.json --threshold 2 --json --plot both.svg";

/// Arguments of `compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The earlier report (the baseline), as `bench --json` prints or saves it.
    #[arg(value_name = "OLD.json")]
    pub baseline: PathBuf,
    /// The later report.
    #[arg(value_name = "NEW.json")]
    pub new: PathBuf,
    #[command(flatten)]
    pub verdict: VerdictArgs,
    /// Print the comparison as one JSON object instead of Markdown.
    #[arg(long)]
    pub json: bool,
    /// Draw both reports into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// How a comparison decides.
#[derive(Debug, Clone, Args)]
pub struct VerdictArgs {
    /// The smallest change that counts, in percent: a row regressed when the whole 95%
    /// interval of its ratio (new / baseline) lies above 1 + P/100.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 5.0,
        value_parser = threshold,
        allow_negative_numbers = true
    )]
    pub threshold: f64,
}

/// Parses a threshold in percent, from 0 to 1000 (`5` or `5%`).
fn threshold(s: &str) -> Result<f64, String> {
    match s.trim().trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=1000.0).contains(&p) => Ok(p),
        _ => Err("--threshold must be a percentage from 0 to 1000".to_string()),
    }
}

/// Runs `compare`.
pub fn run(args: &CompareArgs) -> Outcome {
    let baseline = load_report(&args.baseline)?;
    let new = load_report(&args.new)?;
    if let Some(path) = &args.plot {
        paths::output_file(path, "the plot")?;
    }
    let comparison = compare_reports(&baseline, &new, &args.verdict)?;
    if let Some(path) = &args.plot {
        draw_pair(path, &baseline, &new, &comparison)?;
    }
    if args.json {
        let json = serde_json::to_string(&comparison).expect("a comparison serializes");
        print_stdout(&format!("{json}\n"))?;
    } else {
        print_stdout(&comparison.to_markdown())?;
    }
    Ok(exit_status(&comparison))
}

/// Reads a report; a missing, damaged or foreign file is bad input (status 2).
pub fn load_report(path: &Path) -> Result<BenchReport, Failure> {
    paths::input_file(path, "the bench report")?;
    load(path).map_err(Failure::usage)
}

/// Compares two reports, printing the warnings on stderr; reports that cannot be
/// compared are bad input (status 2).
pub fn compare_reports(
    baseline: &BenchReport,
    new: &BenchReport,
    verdict: &VerdictArgs,
) -> Result<Comparison, Failure> {
    let comparison = compare(baseline, new, verdict.threshold / 100.0).map_err(Failure::usage)?;
    for warning in &comparison.warnings {
        super::output::note(&format!("warning: {warning}"));
    }
    Ok(comparison)
}

/// Draws the baseline and the new run into one SVG file, with the ratios of
/// `comparison` below them.
pub fn draw_pair(
    path: &Path,
    baseline: &BenchReport,
    new: &BenchReport,
    comparison: &Comparison,
) -> Result<(), Failure> {
    let old_label = format!("baseline {}", baseline.label());
    let new_label = format!("new {}", new.label());
    plot::draw_comparison(
        path,
        &[(&old_label, baseline), (&new_label, new)],
        comparison,
    )
    .map_err(Failure::runtime)
}

/// Status 1 when any row regressed, else 0.
pub fn exit_status(comparison: &Comparison) -> ExitCode {
    if comparison.regressed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(threshold("5"), Ok(5.0));
        assert_eq!(threshold("2.5%"), Ok(2.5));
        assert_eq!(threshold("0"), Ok(0.0));
        assert!(threshold("-1").is_err());
        assert!(threshold("abc").is_err());
        assert!(threshold("1001").is_err());
    }
}
