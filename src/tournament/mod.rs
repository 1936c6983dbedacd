//! Self-play tournaments between engine settings: engines from specs
//! ([`engine`]), which games are played ([`schedule`]), playing them
//! ([`play`]), one JSON record per game ([`records`]), and the report with
//! honest statistics ([`stats`], [`report`]). See `docs/tournament.md`.

pub mod engine;
pub mod play;
pub mod records;
pub mod report;
pub mod schedule;
pub mod stats;
