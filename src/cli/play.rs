//! `gamut play`: a game at the terminal against the engine.

use super::args::position;
use super::args::PositionArgs;
use super::CliError;
use clap::Args;
use gamut::console::{self, Settings};
use gamut::game::FullGame;
use gamut::tournament::engine::Engine;
use std::io::{IsTerminal, Write};

/// Options of `gamut play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game and the position to start from.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The side you play: 1, 2, or none (the engine plays both).
    #[arg(long, value_name = "SIDE", default_value = "1", value_parser = ["1", "2", "none"])]
    pub side: String,
    /// The engine searches this many plies per move.
    #[arg(long, value_name = "N", conflicts_with_all = ["time", "engine"],
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// The engine searches this many milliseconds per move (default 1000).
    #[arg(long, value_name = "MS", conflicts_with = "engine",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// The engine as a tournament spec (`depth=4,threads=2`, `greedy`,
    /// `cmd=<program>,time=100`; see docs/tournament.md).
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// The seed of the die and of the engine's random choices (default:
    /// from the clock, and printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// Runs `gamut play` on standard input and `out`.
pub fn play<G: FullGame>(a: &PlayArgs, out: &mut impl Write) -> Result<(), CliError> {
    super::two_players::<G>("gamut play")?;
    let start: G = position(&a.position)?;
    let spec = match (&a.engine, a.depth, a.time) {
        (Some(spec), _, _) => spec.clone(),
        (None, Some(d), _) => format!("name=gamut,depth={d}"),
        (None, None, t) => format!("name=gamut,time={}", t.unwrap_or(1000)),
    };
    let engine = Engine::parse::<G>(&spec)?;
    let humans = match a.side.as_str() {
        "1" => [true, false],
        "2" => [false, true],
        _ => [false, false],
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    // NO_COLOR set to anything but the empty string turns colour off.
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let settings = Settings {
        engine: &engine,
        humans,
        seed,
        colour,
    };
    let stdin = std::io::stdin();
    console::play(start, &settings, &mut stdin.lock(), out)?;
    Ok(())
}
