//! The board's JSON API without a server: what `gamut serve`'s routes
//! answer (docs/serve.md), built from the game object alone, so that the
//! same code answers the page in `gamut serve` and in the static site's
//! Web Worker (`gamut-web`, built for WebAssembly). The lines of play
//! replayed lately ([`lines`]), a position and its moves as the page
//! draws them and a line as a game record ([`page`]), the engine's
//! analysis, move and scores within the turns its searches get
//! ([`view`]), the routes' query ([`query`]), and the routes answered on
//! the calling thread ([`local`]).

pub mod lines;
pub mod local;
pub mod page;
pub mod query;
pub mod view;
