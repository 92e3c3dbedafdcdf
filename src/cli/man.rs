//! `nqueens man [COMMAND]`: the manual pages, in roff, built by `clap_mangen` from the
//! same definition as `--help`: `nqueens(1)` and one page per command
//! (`nqueens-count(1)`, ...), as git and cargo have. A page goes to stdout; `--dir`
//! writes them all as files.
//!
//! The pages are made by the binary rather than by a build script because the command
//! line is defined in the binary, over the library; this way an installed binary always
//! carries the pages of its own options.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use clap_mangen::roff::{bold, italic, roman, Inline, Roff};
use clap_mangen::Man;

use super::choices::named;
use super::output::print_stdout;
use super::{paths, Failure, Outcome};

/// Examples shown at the end of `nqueens man --help`.
pub const EXAMPLES: &str = "\
Examples:
  nqueens man | man -l -                       # read nqueens(1) now
  nqueens man count | man -l -                 # read nqueens-count(1)
  nqueens man --dir ~/.local/share/man/man1    # install every page";

/// The commands with a page, as `man <TAB>` completes them (a test checks that the
/// list is the command line's).
pub const COMMANDS: [&str; 10] = [
    "count",
    "solve",
    "verify",
    "bench",
    "compare",
    "merge",
    "audit",
    "estimate",
    "completions",
    "man",
];

/// Arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (count, solve, ...) [default: the page of
    /// nqueens itself].
    #[arg(value_name = "COMMAND", conflicts_with = "dir",
          value_parser = named(clap::builder::NonEmptyStringValueParser::new(), COMMANDS))]
    pub command: Option<String>,
    /// Write every page (nqueens.1, nqueens-count.1, ...) into DIR instead, creating
    /// it if needed.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Runs `man`.
pub fn run(args: &ManArgs) -> Outcome {
    let top = built_command();
    if let Some(dir) = &args.dir {
        paths::output_folder(dir, "the manual folder (--dir)")?;
        let written = write_pages(&top, dir).map_err(|e| {
            Failure::runtime(format!(
                "cannot write the pages into {}: {e}",
                dir.display()
            ))
        })?;
        super::output::note(&format!("wrote {written} pages into {}", dir.display()));
        return Ok(ExitCode::SUCCESS);
    }
    let page = match &args.command {
        None => page(&top, None),
        Some(name) => match top.find_subcommand(name) {
            Some(command) => page(command, Some(&top)),
            None => {
                return Err(Failure::usage(format!(
                    "there is no command '{name}': the commands are {}",
                    command_names(&top).join(", ")
                )))
            }
        },
    }
    .map_err(|e| Failure::runtime(format!("cannot render the page: {e}")))?;
    print_stdout(&String::from_utf8_lossy(&page))?;
    Ok(ExitCode::SUCCESS)
}

/// The command line definition, built (subcommands know their full names), without
/// the `help` command.
fn built_command() -> clap::Command {
    let mut top = super::command().disable_help_subcommand(true);
    top.build();
    top
}

/// The names of the commands that have a page.
fn command_names(top: &clap::Command) -> Vec<&str> {
    top.get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(clap::Command::get_name)
        .collect()
}

/// Writes `nqueens.1` and a page per command into `dir`; returns how many.
fn write_pages(top: &clap::Command, dir: &Path) -> io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let mut written = 0;
    let mut write = |command: &clap::Command, parent: Option<&clap::Command>| {
        let name = Man::new(command.clone()).get_filename();
        std::fs::write(dir.join(name), page(command, parent)?)?;
        written += 1;
        io::Result::Ok(())
    };
    write(top, None)?;
    for command in top.get_subcommands().filter(|c| !c.is_hide_set()) {
        write(command, Some(top))?;
    }
    Ok(written)
}

/// The page of `command` (of a command of `parent`, or of nqueens itself): `clap_mangen`'s
/// sections, with the examples of `--help` as EXAMPLES, the exit statuses on the page
/// of nqueens, and the related pages.
fn page(command: &clap::Command, parent: Option<&clap::Command>) -> io::Result<Vec<u8>> {
    let man = Man::new(command.clone()).source(format!("nqueens {}", env!("CARGO_PKG_VERSION")));
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    let mut head = Roff::new();
    synopsis(&mut head, command, parent);
    head.to_writer(&mut out)?;
    man.render_description_section(&mut out)?;
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if parent.is_none() {
        man.render_subcommands_section(&mut out)?;
    }
    let mut roff = Roff::new();
    if let Some(help) = command.get_after_help() {
        examples(&mut roff, &help.to_string());
    }
    if parent.is_none() {
        exit_statuses(&mut roff);
    }
    see_also(&mut roff, command, parent);
    roff.to_writer(&mut out)?;
    if command.get_version().is_some() {
        man.render_version_section(&mut out)?;
    }
    Ok(without_repeated_preamble(&out))
}

/// The SYNOPSIS section, with the value of each option (`[--threads <T>]`), which
/// `clap_mangen`'s own synopsis leaves out.
fn synopsis(roff: &mut Roff, command: &clap::Command, parent: Option<&clap::Command>) {
    let name = match parent {
        Some(parent) => format!("{} {}", parent.get_name(), command.get_name()),
        None => command.get_name().to_string(),
    };
    let mut line: Vec<Inline> = vec![bold(name)];
    let arguments = command.get_arguments().filter(|a| !a.is_hide_set());
    let (positionals, options): (Vec<&clap::Arg>, Vec<&clap::Arg>) =
        arguments.partition(|a| a.is_positional());
    for arg in options {
        line.push(roman(" ["));
        let names: Vec<String> = arg
            .get_short()
            .map(|s| format!("-{s}"))
            .into_iter()
            .chain(arg.get_long().map(|l| format!("--{l}")))
            .collect();
        line.push(bold(names.join("|")));
        if arg.get_action().takes_values() {
            line.push(roman(" "));
            line.push(italic(placeholder(arg)));
        }
        line.push(roman("]"));
    }
    for arg in positionals {
        let value = placeholder(arg);
        let repeated = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        line.push(roman(" "));
        if arg.is_required_set() {
            line.push(italic(format!("{value}{repeated}")));
        } else {
            line.push(roman("["));
            line.push(italic(format!("{value}{repeated}")));
            line.push(roman("]"));
        }
    }
    if command.has_subcommands() {
        line.push(roman(" "));
        line.push(italic("<COMMAND>"));
    }
    roff.control("SH", ["SYNOPSIS"]);
    roff.text(line);
}

/// `<T>`: an argument's value name, as `--help` shows it.
fn placeholder(arg: &clap::Arg) -> String {
    let names: Vec<String> = arg.get_value_names().map_or_else(
        || vec![arg.get_id().to_string().to_uppercase()],
        |names| names.iter().map(ToString::to_string).collect(),
    );
    names
        .iter()
        .map(|n| format!("<{n}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The page with `clap_mangen`'s two-line preamble (which each section it renders on its
/// own starts with) kept once, at the top.
fn without_repeated_preamble(page: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    let mut lines: Vec<&str> = text.lines().collect();
    let preamble: Vec<&str> = lines.iter().take(2).copied().collect();
    if preamble.len() == 2 && preamble[0].starts_with(".ie ") && preamble[1].starts_with(".el ") {
        let mut i = 2;
        while i + 1 < lines.len() {
            if lines[i] == preamble[0] && lines[i + 1] == preamble[1] {
                lines.drain(i..i + 2);
            } else {
                i += 1;
            }
        }
    }
    (lines.join("\n") + "\n").into_bytes()
}

/// An EXAMPLES section with the example lines of `--help` (after its `Examples:`
/// line), kept as they are.
fn examples(roff: &mut Roff, after_help: &str) {
    let lines: Vec<&str> = after_help
        .lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return;
    }
    roff.control("SH", ["EXAMPLES"]);
    roff.control("nf", []);
    for line in lines {
        roff.text([roman(line)]);
    }
    roff.control("fi", []);
}

/// The EXIT STATUS section of nqueens(1).
fn exit_statuses(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    for (status, meaning) in [
        ("0", "success"),
        (
            "1",
            "a failure while running (a full disk, a failed write), or a check that found \
             a mismatch: verify; count or merge whose total differs from the published one \
             (printed all the same); audit with a unit whose recount disagrees; a regression \
             (compare, bench --baseline, bench --against)",
        ),
        (
            "2",
            "bad input: a value out of range, or a file that cannot be used (missing, \
             unreadable, a folder, not a regular file, not our format); one line on \
             stderr naming the problem, nothing on stdout, no file written (with --json, \
             one JSON object on stderr)",
        ),
        (
            "130, 143, 129",
            "count stopped by SIGINT, SIGTERM or SIGHUP (with --checkpoint, after saving)",
        ),
    ] {
        roff.control("TP", []);
        roff.text([bold(status)]);
        roff.text([roman(meaning)]);
    }
}

/// A SEE ALSO section: the commands' pages on nqueens(1), nqueens(1) on theirs.
fn see_also(roff: &mut Roff, command: &clap::Command, parent: Option<&clap::Command>) {
    let pages: Vec<String> = match parent {
        None => command_names(command)
            .iter()
            .map(|name| format!("nqueens-{name}(1)"))
            .collect(),
        Some(_) => vec!["nqueens(1)".to_string()],
    };
    roff.control("SH", ["SEE ALSO"]);
    roff.text([roman(pages.join(", "))]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_completed_names_are_the_commands() {
        assert_eq!(command_names(&built_command()), COMMANDS);
    }
}
