//! `gamut play`: a game at the terminal against the engine.

use super::args::{position, PositionArgs};
use super::CliError;
use clap::Args;
use gamut::console::{self, Settings};
use gamut_engine::AnyGame;
use std::io::{IsTerminal, Write};

/// Options of `gamut play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game and the position to start from.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The side you play, by number (1 or 2; spokes4: 1 to 4; spokes2v2:
    /// team 1 or 2), several joined by commas (`1,3`), or none (the engine
    /// plays every side).
    #[arg(long, value_name = "SIDE", default_value = "1")]
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
    /// `cmd=<program>,time=100`; in games of more than two sides
    /// `paranoid,depth=2`, `mcts,iterations=500`, `random`; see
    /// docs/tournament.md). Without it the engine is the searcher, in
    /// games of more than two sides the paranoid search.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// The seed of the die and of the engine's random choices (default:
    /// from the clock, and printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// Runs `gamut play` on standard input and `out`.
pub fn play(a: &PlayArgs, out: &mut impl Write) -> Result<(), CliError> {
    let start = position(&a.position)?;
    let game = start.game();
    // Games of more than two sides are searched by one side against all
    // the others.
    let search = if game.players() == 2 { "" } else { "paranoid," };
    let spec = match (&a.engine, a.depth, a.time) {
        (Some(spec), _, _) => spec.clone(),
        (None, Some(d), _) => format!("name=gamut,{search}depth={d}"),
        (None, None, t) => format!("name=gamut,{search}time={}", t.unwrap_or(1000)),
    };
    let engine = game.engine(&spec)?;
    let humans = humans(game, &a.side)?;
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

/// The sides `--side` gives the person, one flag per side of `game`:
/// `none`, or side numbers joined by commas.
fn humans(game: &dyn AnyGame, text: &str) -> Result<Vec<bool>, CliError> {
    let sides = game.info().sides.len();
    let mut humans = vec![false; sides];
    if text == "none" {
        return Ok(humans);
    }
    for part in text.split(',') {
        match part.trim().parse::<usize>() {
            Ok(n) if (1..=sides).contains(&n) && !humans[n - 1] => humans[n - 1] = true,
            _ => {
                return Err(CliError(format!(
                    "--side {text}: {} has sides 1 to {sides}; give one or several joined by commas (1,2), each once, or none",
                    game.id()
                )))
            }
        }
    }
    Ok(humans)
}
