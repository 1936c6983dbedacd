//! gamut: rules, perft, search and tournaments for five abstract board games.
//!
//! The layers are crates of their own, each using only those below it,
//! and each item has one path, in its layer's crate: `gamut_core` (the
//! traits every game implements: rules, text, pictures, evaluation),
//! `gamut_games` (the games), `gamut_search` (the searcher),
//! `gamut_players` (engines and the game loop), `gamut_engine` (the game
//! object), `gamut_tournament`, `gamut_protocol` and `gamut_serve`. The
//! command line lives in `main.rs` and its `cli` modules; this library
//! holds what it shares with the tests: [`console`] plays a game at the
//! terminal.

pub mod console;
