//! Independent, deliberately simple move generators, one per game, written
//! from the rules and sharing no code with the crate: the integration tests
//! recount perft with them.

pub mod apart;
pub mod aporia;
pub mod empedocles;
pub mod epaminondas;
pub mod spokes;
pub mod spokes4;
pub mod suite;
