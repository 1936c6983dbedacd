//! `gamut serve`: analysis and play in the browser (see [`gamut_serve`]).

use super::CliError;
use clap::Args;
use gamut_games::GameId;
use gamut_search::nnue::network::{game_of, MAX_HEADER};
use gamut_search::Eval;
use std::io::{Read, Write};
use std::net::IpAddr;
use std::path::PathBuf;

/// Options of `gamut serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; the default answers this machine only.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the system's browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Search threads over all open pages together.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition-table MiB over all open pages together.
    #[arg(long, value_name = "MiB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The folder of tournament records the page may open (read-only;
    /// nothing outside it is read).
    #[arg(long, value_name = "DIR")]
    pub records_dir: Option<PathBuf>,
    /// The static evaluation: classic (the hand-written terms), net (the
    /// game's network, where it has one; the others use classic) or game
    /// (each game's own, docs/nnue.md).
    #[arg(long, value_name = "KIND", value_enum, default_value_t = Eval::Game)]
    pub eval: Eval,
    /// A network file to evaluate its game with instead of the built-in
    /// network (the file names its game); repeat for several games.
    #[arg(long, value_name = "FILE")]
    pub net: Vec<PathBuf>,
    /// A solved game's table (Aporia's), whose verdict the page shows
    /// beside the engine's (default: where `gamut solve` writes it); none
    /// there: no verdict.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// A host name (or address) requests may name besides the listening
    /// address, with any port (a name of this machine on the network, or
    /// a proxy's); repeatable. Requests naming other hosts are refused
    /// (403), against DNS rebinding.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// The most connections open at once (at most the open-file limit less
    /// 128); above it the oldest one still sending its request is closed,
    /// or the new one answered 503 where every one is busy.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Seconds a connection may take, from opening, to send its request
    /// head; a slower one is answered 408 and closed (a connection is one
    /// request, so an idle one is closed too).
    #[arg(long, value_name = "S", default_value_t = gamut_serve::HEAD_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub head_timeout: u64,
}

/// Runs the server until the process ends, printing its URL first.
pub fn serve(a: &ServeArgs, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(dir) = &a.records_dir {
        if !dir.is_dir() {
            return Err(CliError(format!(
                "--records-dir {}: not a folder",
                dir.display()
            )));
        }
    }
    if let Some(bad) = a
        .allow_host
        .iter()
        .find(|n| !gamut_serve::valid_host_name(n))
    {
        return Err(CliError(format!(
            "--allow-host {bad}: not a host name or address (no port; IPv6 in brackets)"
        )));
    }
    let opts = gamut_serve::Options {
        host: a.host,
        port: a.port,
        threads: a.threads as usize,
        hash_mib: a.hash as usize,
        records_dir: a.records_dir.clone(),
        eval: a.eval,
        nets: networks(&a.net)?,
        table: a.table.clone(),
        allow_hosts: a.allow_host.clone(),
        max_connections: a.max_connections as usize,
        head_timeout: std::time::Duration::from_secs(a.head_timeout),
    };
    let mut printed = Ok(());
    gamut_serve::run(opts, |url| {
        printed = writeln!(out, "serving {url}").and_then(|_| out.flush());
        if a.open {
            // The system's opener; a failure leaves the printed URL to use.
            let _ = std::process::Command::new("xdg-open")
                .arg(url)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn();
        }
    })
    .map_err(|e| CliError(format!("cannot serve on {}:{}: {e}", a.host, a.port)))?;
    printed?;
    Ok(())
}

/// The networks of files `paths`, each for the game its header names; two
/// files for one game, or a file that is not a network, are an error.
fn networks(paths: &[PathBuf]) -> Result<gamut_serve::sessions::Networks, CliError> {
    let mut nets: gamut_serve::sessions::Networks = Vec::new();
    for path in paths {
        // The header names the game; the game's own reader reads the rest,
        // once the file's size is checked.
        let cannot = |e: std::io::Error| CliError(format!("cannot read {}: {e}", path.display()));
        let mut head = Vec::with_capacity(MAX_HEADER);
        std::fs::File::open(path)
            .map_err(cannot)?
            .take(MAX_HEADER as u64)
            .read_to_end(&mut head)
            .map_err(cannot)?;
        let game = game_of(&head).map_err(|e| CliError(format!("{}: {}", path.display(), e.0)))?;
        let id: GameId = game
            .parse()
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        if nets.iter().any(|(g, _)| *g == id.name()) {
            return Err(CliError(format!("--net: two networks for {}", id.name())));
        }
        let net = gamut_engine::game(id).evaluation(Eval::Net, Some(path))?;
        nets.push((id.name(), net));
    }
    Ok(nets)
}
