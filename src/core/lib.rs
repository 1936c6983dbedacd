//! gamut's ground floor: what every layer above shares and no game names.
//! [`game`] holds the traits every game implements (rules, text, pictures)
//! and [`evaluate`] what a searcher asks of one beyond its rules;
//! [`bits`] the bitset building block the games pack their boards into;
//! [`svg`] the parts of every picture; [`perft`] counts game trees and
//! [`moves`] names their children; [`suite`] reads perft suites; [`soak`]
//! plays random games against the rules' invariants; [`tablebase`] stores
//! solved games; [`nnue`] holds what a game gives a learned evaluation;
//! [`text`] makes messages fit one line; [`paths`] keeps a command's
//! outputs apart from its inputs; [`platform`] holds what a browser's
//! WebAssembly build lacks (a clock, threads).

pub mod bits;
pub mod evaluate;
pub mod game;
pub mod message;
pub mod moves;
pub mod nnue;
pub mod paths;
pub mod perft;
pub mod platform;
pub mod soak;
pub mod suite;
pub mod svg;
pub mod tablebase;
