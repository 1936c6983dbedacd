//! Ctrl-C (SIGINT) and SIGTERM during a command that can stop early: the
//! signal only raises a flag, the command finishes what it prints, and then
//! exits with the shell's status for that signal (128 + its number: 130
//! for SIGINT, 143 for SIGTERM).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Once};

/// Raises `flag` on SIGINT, SIGTERM or SIGHUP for the rest of the process.
/// Installed once: a later call (tests run several commands in one
/// process) changes nothing, and the first flag is the one raised.
pub fn raise_for_good(flag: &'static AtomicBool) {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // SAFETY: the action only stores to an atomic, which is
            // async-signal-safe. A signal that cannot be caught is left
            // to its default.
            let _ =
                unsafe { signal_hook::low_level::register(sig, move || flag.store(true, Relaxed)) };
        }
    });
}

/// The signals a command listens for while it runs.
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
    handlers: Vec<signal_hook::SigId>,
}

impl Interrupt {
    /// Starts listening for SIGINT and SIGTERM.
    pub fn install() -> Result<Interrupt, super::CliError> {
        let flag = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        let mut handlers = Vec::new();
        for sig in [SIGINT, SIGTERM] {
            let fail = |e: std::io::Error| super::CliError(format!("cannot catch signals: {e}"));
            handlers.push(
                signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)
                    .map_err(fail)?,
            );
            handlers.push(signal_hook::flag::register(sig, Arc::clone(&flag)).map_err(fail)?);
        }
        Ok(Interrupt {
            flag,
            signal,
            handlers,
        })
    }

    /// The flag a signal raises, for the search to watch.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// If a signal arrived, flushes standard output and exits with the
    /// shell's status for it; otherwise stops listening and returns.
    pub fn exit_if_signalled(self) {
        let sig = self.signal.load(Relaxed);
        for id in &self.handlers {
            signal_hook::low_level::unregister(*id);
        }
        if sig != 0 {
            let _ = std::io::stdout().flush();
            std::process::exit(128 + sig as i32);
        }
    }
}
