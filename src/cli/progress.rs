//! Progress bars for long work: drawn on stderr only when it is a terminal,
//! only once the work has taken a second, and never with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
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
