//! The `gamut` command: parses the command line, runs it, and turns every
//! failure into one line on stderr with exit status 2.

mod cli;

use clap::error::ErrorKind;
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let parsed = match cli::args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: bad command line");
            eprintln!("{first}");
            return ExitCode::from(2);
        }
    };
    // Output is buffered and written only on success, so a failure prints
    // nothing on stdout.
    let mut out = Vec::new();
    match cli::run(parsed, &mut out) {
        Ok(()) => {
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&out).and_then(|_| stdout.flush()).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(cli::CliError(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
