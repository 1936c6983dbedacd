//! The `gamut` command: parses the command line, runs it, and turns every
//! failure into one line on stderr with exit status 2. What a command
//! prints goes straight to standard output, each line as soon as it is
//! known.

mod cli;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use std::process::ExitCode;

/// A clap error as one line: its message lines (up to the usage block)
/// joined, so a list of missing arguments stays on the line that names it;
/// an argument it echoes has its control characters escaped, as every
/// other error has.
fn one_line(e: &clap::Error) -> String {
    let mut text = e.render().to_string();
    for arg in std::env::args_os().skip(1) {
        let arg = arg.to_string_lossy();
        // The whole argument, or the value of `--option=value`.
        let value = arg.split_once('=').map_or("", |(_, v)| v);
        for echoed in [&*arg, value] {
            if echoed.contains(char::is_control) {
                text = text.replace(echoed, &cli::one_line(echoed));
            }
        }
    }
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:"))
        .filter(|l| !l.is_empty())
        .collect();
    if parts.is_empty() {
        "error: bad command line".to_string()
    } else {
        cli::one_line(&parts.join(" "))
    }
}

/// The one-line usage printed when no command is given.
fn usage() -> String {
    let names: Vec<String> = cli::args::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    format!(
        "usage: gamut <{}> ... (gamut --help, or gamut <command> --help)",
        names.join("|")
    )
}

fn main() -> ExitCode {
    cli::mark_start();
    let parsed = match cli::args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                    if std::env::args_os().len() <= 1 =>
                {
                    eprintln!("{}", usage());
                    ExitCode::from(2)
                }
                _ => {
                    eprintln!("{}", one_line(&e));
                    ExitCode::from(2)
                }
            };
        }
    };
    let mut out = std::io::stdout().lock();
    match cli::run(parsed, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::CliError(msg)) => {
            eprintln!("error: {}", cli::one_line(&msg));
            ExitCode::from(2)
        }
    }
}
