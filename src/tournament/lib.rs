//! Self-play tournaments between engine settings, for games of two sides
//! and of more: the runner that takes a tournament from settings to report
//! ([`runner`]), which games are played ([`schedule`]) by the players of
//! `gamut_players`, playing them, one engine per side
//! ([`play`]), a session that keeps the records and the running tally as
//! games finish ([`session`]), one JSON record per game ([`records`]), the
//! report with honest statistics ([`stats`], [`report`]), records and
//! reports as web pages ([`pages`]) and games of two sides in PGN
//! ([`pgn`]), and a game's balance from self-play at a ladder of
//! strengths ([`balance`]), and SPSA tuning of the search's parameters
//! through pairs of games ([`tune`]); output files are kept apart from input files by
//! [`gamut_core::paths`]. See `docs/tournament.md`.

pub mod balance;
pub mod pages;
pub mod pgn;
pub mod play;
pub mod records;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod stats;
pub mod tune;
