//! `nqueens completions SHELL`: the shell's completion script for nqueens, on stdout
//! (written by `clap_complete` from the same definition as `--help`, so it always
//! matches this binary's commands and options).

use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

use super::output::print_stdout;
use super::Outcome;

/// Examples shown at the end of `nqueens completions --help`.
pub const EXAMPLES: &str = "\
Examples:
  nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens
  nqueens completions zsh > ~/.zfunc/_nqueens      # a folder on $fpath
  nqueens completions fish > ~/.config/fish/completions/nqueens.fish";

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Runs `completions`.
pub fn run(args: &CompletionsArgs) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "nqueens", &mut script);
    print_stdout(&String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}
