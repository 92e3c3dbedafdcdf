//! `bench`: a ladder of counts, reported as a table and saved as JSON and Markdown.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use nqueens::{count, Error, Kernel, Options, Symmetry};

use super::machine;

/// One rung of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// The board size.
    pub n: usize,
    /// The computed total.
    pub total: u128,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Queens placed by the search.
    pub nodes: u128,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// Tasks the count was split into.
    pub tasks: usize,
    /// Rows fixed to form tasks.
    pub split_depth: usize,
}

/// A whole benchmark run, with the facts needed to compare it with others.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    /// When the run started (UTC).
    pub date: String,
    /// The host it ran on.
    pub host: String,
    /// The CPU model.
    pub cpu: String,
    /// Logical CPUs of the machine.
    pub logical_cpus: usize,
    /// Worker threads used.
    pub threads: usize,
    /// The symmetry mode.
    pub symmetry: Symmetry,
    /// The kernel that ran the counts.
    pub kernel: Kernel,
    /// The version of this crate.
    pub version: &'static str,
    /// The counts, smallest n first.
    pub rows: Vec<BenchRow>,
}

/// Runs counts for n = `from..=to`, calling `on_row` after each.
pub fn run(
    from: usize,
    to: usize,
    options: &Options,
    mut on_row: impl FnMut(&BenchRow),
) -> Result<BenchReport, Error> {
    let date = machine::utc_timestamp();
    let mut rows = Vec::new();
    let mut threads = nqueens::limits::resolve_threads(options.threads)?;
    let kernel = options.kernel.resolved()?;
    for n in from..=to {
        let c = count(n, &options.for_board(n))?;
        threads = c.threads;
        let row = BenchRow {
            n,
            total: c.total,
            seconds: c.seconds,
            nodes: c.nodes,
            nodes_per_second: if c.seconds > 0.0 {
                c.nodes as f64 / c.seconds
            } else {
                0.0
            },
            threads: c.threads,
            tasks: c.tasks,
            split_depth: c.split_depth,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(BenchReport {
        date,
        host: machine::host_name(),
        cpu: machine::cpu_model(),
        logical_cpus: machine::logical_cpus(),
        threads,
        symmetry: options.symmetry,
        kernel,
        version: nqueens::VERSION,
        rows,
    })
}

impl BenchReport {
    /// The file stem of this report:
    /// `bench-<date>-<host>-<symmetry>-<kernel>-t<threads>`.
    pub fn file_stem(&self) -> String {
        let date: String = self
            .date
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == 'T')
            .collect();
        let host: String = self
            .host
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!(
            "bench-{date}-{host}-{}-{}-t{}",
            self.symmetry, self.kernel, self.threads
        )
    }

    /// The report as a Markdown document.
    pub fn to_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# nqueens bench, {}\n", self.date);
        let _ = writeln!(md, "- host: {}", self.host);
        let _ = writeln!(
            md,
            "- cpu: {} ({} logical CPUs)",
            self.cpu, self.logical_cpus
        );
        let _ = writeln!(md, "- threads: {}", self.threads);
        let _ = writeln!(md, "- symmetry: {}", self.symmetry);
        let _ = writeln!(md, "- kernel: {}", self.kernel);
        let _ = writeln!(md, "- version: {}\n", self.version);
        md.push_str(&table(&self.rows));
        md
    }

    /// Writes `<stem>.json` and `<stem>.md` into `dir` (created if missing) and returns
    /// their paths. Each file is written whole to a temporary name and then renamed.
    pub fn save(&self, dir: &Path) -> Result<(PathBuf, PathBuf), Error> {
        let io = |context: String| move |source| Error::Io { context, source };
        std::fs::create_dir_all(dir).map_err(io(format!("cannot create {}", dir.display())))?;
        let stem = self.file_stem();
        let json_path = dir.join(format!("{stem}.json"));
        let md_path = dir.join(format!("{stem}.md"));
        let json = serde_json::to_string_pretty(self).expect("a report serializes") + "\n";
        write_atomically(&json_path, &json)?;
        write_atomically(&md_path, &self.to_markdown())?;
        Ok((json_path, md_path))
    }
}

/// The ladder as a Markdown (and terminal) table.
pub fn table(rows: &[BenchRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| n | total | seconds | nodes/s | threads |");
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
    for row in rows {
        let _ = writeln!(out, "{}", table_row(row));
    }
    out
}

/// One row of [`table`].
pub fn table_row(row: &BenchRow) -> String {
    format!(
        "| {} | {} | {:.3} | {:.3e} | {} |",
        row.n, row.total, row.seconds, row.nodes_per_second, row.threads
    )
}

/// Writes `text` to `path` through a temporary file in the same folder, so that a
/// reader never sees half a file.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), Error> {
    let tmp = path.with_extension("tmp");
    let io = |context: String| move |source| Error::Io { context, source };
    std::fs::write(&tmp, text).map_err(io(format!("cannot write {}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(io(format!("cannot write {}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_and_files() {
        let options = Options {
            threads: Some(1),
            ..Options::default()
        };
        let report = run(4, 6, &options, |_| {}).unwrap();
        assert_eq!(
            report.rows.iter().map(|r| r.total).collect::<Vec<_>>(),
            [2, 10, 4]
        );
        let dir = tempfile::tempdir().unwrap();
        let (json, md) = report.save(dir.path()).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        assert_eq!(value["rows"][0]["total"], 2);
        assert!(std::fs::read_to_string(md).unwrap().contains("| 6 | 4 |"));
    }
}
