//! gamut: rules, perft, search and tournaments for five abstract board games.
//!
//! [`game`] holds the traits every game implements (rules, text,
//! pictures); [`games`] holds the games; [`perft`] counts game trees; the
//! command line lives in `main.rs` and [`cli`].

pub mod bits;
pub mod console;
pub mod game;
#[macro_use]
pub mod games;
pub mod moves;
pub mod nnue;
pub mod paths;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod serve;
pub mod soak;
pub mod suite;
pub mod svg;
pub mod tablebase;
pub mod tournament;
