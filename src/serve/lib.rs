//! `gamut serve`: analysis and play in the browser. A local web server
//! (axum on tokio) answers one page, with its script and style embedded
//! in the binary ([`assets`]), and a small JSON API over any game
//! ([`routes`]): a position's picture and legal moves, the engine's
//! analysis streamed as server-sent events and its move (built by
//! [`gamut_board`], which the static site's WebAssembly answers with
//! too), and the tournament records of one folder. Searches run on their own
//! threads within the server's thread and hash budget ([`sessions`]).
//! Each connection is read by the server itself first ([`conn`]): a head
//! that is slow, too large or malformed is refused with a JSON answer, and
//! the connections open at once are capped; a request must name the
//! server's own address (or an allowed host) as its `Host` and `Origin`
//! ([`hosts`]), against DNS rebinding and other sites' pages.

mod assets;
mod conn;
mod hosts;
mod records;
mod routes;
pub mod sessions;

pub use conn::HEAD_TIMEOUT;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

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
    /// Host names (or addresses) a request's `Host` and `Origin` may name
    /// besides the listening address's own (see [`hosts`]).
    pub allow_hosts: Vec<String>,
    /// The most connections open at once (fewer where the open-file limit
    /// leaves room for fewer).
    pub max_connections: usize,
    /// How long a connection may take, from opening, to send its request
    /// head (then 408).
    pub head_timeout: std::time::Duration,
}

/// The server without its listener: the routes over the shared state, and
/// the connections open now. [`App::connection`] answers one connection,
/// as the listener does each one it accepts.
pub struct App {
    router: axum::Router,
    conns: Arc<conn::Connections>,
}

impl App {
    /// The server of `opts` as it answers on address `bound` (the port
    /// chosen where `opts.port` is 0): the requests it accepts name that
    /// address (or an allowed host) and that port.
    #[must_use]
    pub fn new(opts: &Options, bound: SocketAddr) -> App {
        let state = Arc::new(routes::Server {
            budget: sessions::Budget::new(
                opts.threads,
                opts.hash_mib,
                opts.eval,
                opts.nets.clone(),
            ),
            records_dir: opts.records_dir.clone(),
            lines: gamut_board::lines::Lines::default(),
            oracles: solved_tables(opts.table.as_deref()),
            hosts: hosts::Hosts::new(bound, &opts.allow_hosts),
            reading: Arc::new(tokio::sync::Semaphore::new(1)),
            seen: Arc::default(),
        });
        let cap = opts
            .max_connections
            .min(conn::room_for_connections())
            .max(1);
        App {
            router: routes::router(state),
            conns: conn::Connections::new(cap, opts.head_timeout),
        }
    }

    /// Answers one connection until it closes: its request through the
    /// routes, or the server's own refusal of a head that is slow, too
    /// large or malformed, or of a connection over the cap.
    pub async fn connection<IO>(&self, io: IO)
    where
        IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        conn::serve(&self.conns, self.router.clone(), io).await;
    }
}

/// Whether `name` may be given as an allowed host: a host name, an IPv4
/// address or an IPv6 address in brackets, without a port.
#[must_use]
pub fn valid_host_name(name: &str) -> bool {
    hosts::valid_name(name)
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
        let app = Arc::new(App::new(&opts, addr));
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    let app = Arc::clone(&app);
                    let ticket = app.conns.admit();
                    tokio::spawn(async move {
                        conn::serve_admitted(&app.conns, app.router.clone(), ticket, stream).await;
                    });
                }
                // Out of file descriptors (or a connection that broke
                // before it was accepted): wait for some to close.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            }
        }
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
