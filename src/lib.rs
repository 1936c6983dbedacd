//! gamut: rules, perft, search and tournaments for five abstract board games.
//!
//! The layers are crates of their own, each using only those below it;
//! this library re-exports them under one name. [`game`] holds the traits
//! every game implements (rules, text, pictures); [`games`] holds the
//! games; [`search`] the searcher; [`tournament`] tournaments; [`protocol`]
//! the engine protocol; [`serve`] the browser board. The command line lives
//! in `main.rs` and its `cli` modules; [`console`] plays a game at the
//! terminal.

pub mod console;

pub use gamut_core::{
    bits, evaluate, game, message, moves, nnue, paths, perft, soak, suite, svg, tablebase,
};
pub use gamut_engine as engine;
pub use gamut_games as games;
pub use gamut_games::with_game;
pub use gamut_players as players;
pub use gamut_protocol as protocol;
pub use gamut_search as search;
pub use gamut_serve as serve;
pub use gamut_tournament as tournament;
