//! The players of a game and the games they play: what an `--engine` spec
//! says ([`spec`]), a game clock ([`clock`]), a table of exact values to
//! play from ([`exact`]), an engine playing one side of one game
//! ([`engine`]), another program speaking the engine protocol
//! ([`external`]), one game between engines ([`game`]) and its record
//! ([`record`]), with the random streams every game derives from its seed
//! ([`seed`]), and self-play for training data ([`selfplay`]). Tournaments, the board in the browser, the console and
//! learning all play through them.

pub mod clock;
pub mod engine;
pub mod exact;
pub mod external;
pub mod game;
pub mod record;
pub mod seed;
pub mod selfplay;
pub mod spec;
