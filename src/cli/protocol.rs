//! `gamut engine`: the engine protocol of `docs/protocol.md` on standard
//! input and output (the session is the library's
//! [`gamut_protocol::server`]), or `--check`, which runs another program
//! through the protocol's contract.

use super::args::parse_game;
use super::CliError;
use clap::Args;
use gamut_games::GameId;
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// Options of `gamut engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The game to start with (the protocol's `game` command changes it;
    /// with --check, the game the program is checked at).
    #[arg(value_parser = parse_game)]
    pub game: Option<GameId>,
    /// Instead of speaking the protocol, check that another program does:
    /// run COMMAND (its arguments separated by spaces) through the
    /// protocol's contract, one `ok <check>` line per check passed; the
    /// first failure is `FAIL <check>: <reason>` and an error.
    #[arg(long, value_name = "COMMAND")]
    pub check: Option<String>,
    /// With --check: how long, in milliseconds, an answer that should
    /// come at once (`gamutok`, `readyok`, the bestmove of `go depth 1`,
    /// the exit after `quit`) may take.
    #[arg(long, value_name = "MS", default_value_t = 10_000, requires = "check",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub patience: u64,
}

/// Runs `gamut engine` until `quit` or the end of input.
pub fn engine(a: &EngineArgs, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(command) = &a.check {
        let patience = std::time::Duration::from_millis(a.patience);
        return super::compliance::check(command, a.game, patience, out);
    }
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let hash = gamut_search::params::DEFAULT_HASH_MIB as u32;
    gamut_protocol::server::session(a.game, seed, hash, std::io::stdin(), out)?;
    Ok(())
}
