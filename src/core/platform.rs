//! What differs between a native build and one for a browser's
//! WebAssembly (`wasm32-unknown-unknown`), in one place: there a page
//! has no `std::time::Instant` (its clock is the page's
//! `performance.now()`) and a module starts no threads. Code above uses
//! [`Instant`] and [`threads`] from here, never `cfg` of its own.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;

/// Whether this build can start threads.
pub const THREADS: bool = cfg!(not(target_arch = "wasm32"));

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
    fn a_native_build_has_the_threads_asked_for() {
        const { assert!(THREADS) };
        assert_eq!(threads(0), 1);
        assert_eq!(threads(6), 6);
        let start = Instant::now();
        assert!(start.elapsed() < std::time::Duration::from_secs(60));
    }
}
