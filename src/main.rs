//! The `gamut` command: parses the command line, runs it, and turns every
//! failure into one line on stderr with exit status 2. What a command
//! prints goes straight to standard output, each line as soon as it is
//! known. A reader that goes away (a closed pipe, as `gamut moves spokes |
//! head -4` makes) ends the command silently with status 0; a standard
//! output that cannot be written (closed, or a full disk) is a failure.

mod cli;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use std::io::{self, Write};
use std::process::ExitCode;

/// Standard output, noting whether its reader went away.
struct Stdout {
    lock: io::StdoutLock<'static>,
    reader_gone: bool,
}

impl Stdout {
    fn check<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if matches!(&r, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            self.reader_gone = true;
        }
        r
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.lock.write(buf);
        self.check(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.lock.flush();
        self.check(r)
    }
}

/// Whether standard output was closed when the process started. The Rust
/// runtime reopens a closed standard output on `/dev/null` before `main`
/// (where every line would be lost without an error), so this is noted by
/// a constructor that runs before the runtime starts.
#[cfg(target_os = "linux")]
mod closed_at_start {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

    static CLOSED: AtomicBool = AtomicBool::new(false);

    extern "C" fn note() {
        // SAFETY: F_GETFD only asks about the descriptor; it fails with
        // EBADF exactly when descriptor 1 is not open.
        let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
        CLOSED.store(closed, Relaxed);
    }

    #[used]
    #[link_section = ".init_array"]
    static NOTE: extern "C" fn() = note;

    pub fn stdout() -> bool {
        CLOSED.load(Relaxed)
    }
}

#[cfg(not(target_os = "linux"))]
mod closed_at_start {
    pub fn stdout() -> bool {
        false
    }
}

/// A clap error as one line: its message lines (up to the usage block)
/// joined, so a list of missing arguments stays on the line that names it;
/// an argument it echoes has its control characters escaped, as every
/// other error has.
fn one_line(e: &clap::Error) -> String {
    // The error as the parser gives it without styles: its plain text keeps
    // the control characters of the arguments it echoes, which the text of
    // a styled error loses (an escape and what follows it read as a style),
    // so that they are escaped below rather than dropped.
    let plain = cli::Cli::command()
        .styles(clap::builder::Styles::plain())
        .try_get_matches_from(std::env::args_os());
    let mut text = match plain {
        Err(plain) if plain.kind() == e.kind() => plain.render().ansi().to_string(),
        _ => e.render().to_string(),
    };
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
    let names: Vec<String> = cli::Cli::command()
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
    if closed_at_start::stdout() {
        eprintln!("error: standard output is closed");
        return ExitCode::from(2);
    }
    let parsed = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    match e.print().and_then(|()| io::stdout().flush()) {
                        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                            eprintln!("error: {}", cli::one_line(&e.to_string()));
                            ExitCode::from(2)
                        }
                        _ => ExitCode::SUCCESS,
                    }
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
    let mut out = Stdout {
        lock: io::stdout().lock(),
        reader_gone: false,
    };
    let result = cli::run(parsed, &mut out).and_then(|()| Ok(out.flush()?));
    if out.reader_gone {
        return ExitCode::SUCCESS;
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::CliError(msg)) => {
            eprintln!("error: {}", cli::one_line(&msg));
            ExitCode::from(2)
        }
    }
}
