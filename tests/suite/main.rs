//! The integration tests, compiled as one binary so that the test command
//! links once. Each module checks one part of gamut:
//!
//! - `<game>`: a game's rules, text, evaluation and perft suite, against
//!   the library;
//! - `naive_<game>`: the plain generator in `naive/<game>.rs` against the
//!   spec's counts and the game's perft suite;
//! - `search`, `tactics`, `tournament`, `records`, `cli`, `analysis`: the
//!   searcher, the tactics files, tournaments and their records, the
//!   command-line contract, and analysis as it streams, on the built binary;
//! - `edges`: the command line at its edges: outputs proven writable before
//!   the work, counts no machine could hold, input that is not text;
//! - `protocol`: `gamut engine` as a child process, and tournaments against
//!   programs (`engines/` holds deliberately broken ones);
//! - `pages`, `play`: records and reports as web pages, and games at the
//!   terminal (`gamut play`), scripted and through a pseudo-terminal.
//!
//! A new test goes into the module for what it checks; a new file here
//! needs its `mod` line below. A check that takes more than about twenty
//! seconds is a long check: marked `#[ignore = "long check"]` and named
//! `long_…`, it runs with `cargo test --profile test-release -- --ignored
//! long_`. Other ignored tests are generators run by hand.

mod common;
mod naive;

mod analysis;
mod apart;
mod aporia;
mod aporia_solve;
mod balance;
mod browser;
mod cli;
mod cli_fuzz;
mod edges;
mod empedocles;
mod epaminondas;
mod game_object;
mod integrity;
mod layers;
mod learn;
mod naive_apart;
mod naive_aporia;
mod naive_empedocles;
mod naive_epaminondas;
mod naive_spokes;
mod naive_spokes4;
mod nnue;
mod pages;
mod pgn;
mod pictures;
mod play;
mod properties;
mod protocol;
mod readme;
mod records;
mod resources;
mod search;
mod serve;
mod soak;
mod spokes;
mod spokes4;
mod spokes4_search;
mod spokes_search;
mod spokes_short;
mod tactics;
mod tournament;
mod tune;
mod web;
