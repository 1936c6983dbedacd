//! What differs between a native build and one for a browser's
//! WebAssembly (`wasm32-unknown-unknown`), in one place: there a page
//! has no `std::time::Instant` (its clock is the page's
//! `performance.now()`), a module starts no threads and no programs, and
//! it has no files. Code above uses [`Instant`], [`threads`] and
//! [`PROGRAMS`] from here, never `cfg` of its own.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;

/// Whether this build can start threads.
pub const THREADS: bool = cfg!(not(target_arch = "wasm32"));

/// Whether this build can start other programs (engines speaking the
/// engine protocol); a browser cannot.
pub const PROGRAMS: bool = cfg!(not(target_arch = "wasm32"));

/// Why a program cannot be started in a build where [`PROGRAMS`] is false.
pub const NO_PROGRAMS: &str = "a program cannot be started in a browser";

/// The threads work asked for `asked` may use here: `asked` (at least
/// one) natively, one in a browser.
#[must_use]
pub fn threads(asked: usize) -> usize {
    if THREADS {
        asked.max(1)
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_native_build_has_the_threads_and_programs_asked_for() {
        const { assert!(THREADS && PROGRAMS) };
        assert_eq!(threads(0), 1);
        assert_eq!(threads(6), 6);
        let start = Instant::now();
        assert!(start.elapsed() < std::time::Duration::from_secs(60));
    }
}
