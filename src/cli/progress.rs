//! Progress bars for long work: drawn on stderr only when it is a terminal,
//! only once the work has taken a second, and never with `--quiet`.

use gamut_tournament::runner::Watch;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long work runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A bar over `len` steps that appears after [`DELAY`] on a terminal.
pub struct Progress {
    bar: ProgressBar,
    done: Option<mpsc::Sender<()>>,
    shower: Option<JoinHandle<()>>,
}

impl Progress {
    /// A bar over `len` steps drawn with indicatif `template`, hidden when
    /// `quiet` or when stderr is not a terminal.
    pub fn new(len: u64, template: &str, quiet: bool) -> Progress {
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden())
            .with_style(style);
        if quiet || !std::io::stderr().is_terminal() {
            return Progress {
                bar,
                done: None,
                shower: None,
            };
        }
        let (done, wait) = mpsc::channel::<()>();
        let shown = bar.clone();
        let shower = std::thread::spawn(move || {
            if wait.recv_timeout(DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(200));
            }
        });
        Progress {
            bar,
            done: Some(done),
            shower: Some(shower),
        }
    }

    /// One more step done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Steps done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Sets the steps done so far.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Sets the bar's `{msg}`.
    pub fn set_message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Sets the bar's `{prefix}`.
    pub fn set_prefix(&self, prefix: String) {
        self.bar.set_prefix(prefix);
    }

    /// Runs `f` with the bar hidden, so lines written meanwhile are not
    /// torn by it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar (if it was drawn).
    pub fn finish(mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(shower) = self.shower.take() {
            let _ = shower.join();
        }
        self.bar.finish_and_clear();
    }
}

/// A run of games watched from the command line (`tournament`, `balance`,
/// `learn`'s matches): a bar of games on stderr with the running score,
/// each game's line on `lines` if given, warnings on stderr, and
/// `each_game` called after every game.
pub struct GamesBar<'a> {
    bar: Option<Progress>,
    quiet: bool,
    prefix: String,
    lines: Option<&'a mut dyn Write>,
    each_game: &'a dyn Fn(),
}

impl<'a> GamesBar<'a> {
    /// A bar headed by `prefix` (none if empty), printing each game's line
    /// on `lines` if given.
    pub fn new(quiet: bool, prefix: String, lines: Option<&'a mut dyn Write>) -> GamesBar<'a> {
        GamesBar {
            bar: None,
            quiet,
            prefix,
            lines,
            each_game: &|| {},
        }
    }

    /// Calls `f` after every game (and its line).
    pub fn after_each_game(self, f: &'a dyn Fn()) -> GamesBar<'a> {
        GamesBar {
            each_game: f,
            ..self
        }
    }
}

impl Watch for GamesBar<'_> {
    fn start(&mut self, total: u64, done: u64) {
        let bar = Progress::new(
            total,
            "{prefix}{bar:30} {pos}/{len} games {msg} {elapsed}",
            self.quiet,
        );
        if !self.prefix.is_empty() {
            bar.set_prefix(format!("{} ", self.prefix));
        }
        bar.set_position(done);
        self.bar = Some(bar);
    }

    fn game(&mut self, line: &str, status: Option<String>) -> io::Result<()> {
        if let Some(bar) = &self.bar {
            if let Some(out) = self.lines.as_deref_mut() {
                bar.suspend(|| {
                    writeln!(out, "{line}")?;
                    out.flush()
                })?;
            }
            bar.inc();
            if let Some(msg) = status {
                bar.set_message(msg);
            }
        }
        (self.each_game)();
        Ok(())
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish();
        }
    }

    fn warn(&mut self, msg: &str) {
        eprintln!("{msg}");
    }
}
