//! `gamut serve`: analysis and play in the browser. A local web server
//! (axum on tokio) answers one page, with its script and style embedded
//! in the binary ([`assets`]), and a small JSON API over any game
//! ([`routes`]): a position's picture and legal moves ([`view`]), the
//! engine's analysis streamed as server-sent events, the engine's move,
//! and the tournament records of one folder. Searches run on their own
//! threads within the server's thread and hash budget ([`sessions`]).

mod assets;
mod records;
mod routes;
pub mod sessions;
mod view;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

/// What `gamut serve` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on (127.0.0.1 by default: this machine only).
    pub host: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Search threads over all pages at once.
    pub threads: usize,
    /// Transposition-table MiB over all pages at once.
    pub hash_mib: usize,
    /// The folder whose tournament records the page may open; `None`: none.
    pub records_dir: Option<PathBuf>,
    /// The static evaluation of every search.
    pub eval: gamut_search::Eval,
    /// Networks to evaluate with instead, for the games they name.
    pub nets: sessions::Networks,
    /// A solved game's table given on the command line; `None`: each
    /// solvable game's table at its default place, if there.
    pub table: Option<PathBuf>,
}

/// Binds the address, calls `ready` with the page's URL, then serves until
/// the process ends. An address that cannot be bound is an error.
pub fn run(opts: Options, ready: impl FnOnce(&str)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(opts.host, opts.port)).await?;
        let addr = listener.local_addr()?;
        let host = match addr.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        ready(&format!("http://{host}:{}/", addr.port()));
        let state = Arc::new(routes::Server {
            budget: sessions::Budget::new(
                opts.threads,
                opts.hash_mib,
                opts.eval,
                opts.nets.clone(),
            ),
            records_dir: opts.records_dir.clone(),
            oracles: solved_tables(opts.table.as_deref()),
        });
        axum::serve(listener, routes::router(state)).await
    })
}

/// The tables of the games that have a solver: the file `explicit` where
/// it holds that game's table, else the one at the game's default place;
/// a table that is missing or does not load is left out.
fn solved_tables(
    explicit: Option<&std::path::Path>,
) -> Vec<(gamut_games::GameId, Box<dyn gamut_core::tablebase::Oracle>)> {
    gamut_games::GameId::ALL
        .iter()
        .filter_map(|&id| {
            let tb = gamut_games::tablebase(id)?;
            let path = gamut_core::tablebase::locate(tb.game(), explicit)?;
            Some((id, tb.open(&path).ok()?))
        })
        .collect()
}
