//! The command line's grammar (clap derive): every subcommand and option.

use clap::{Args, Parser, Subcommand};
use gamut::games::GameId;

/// gamut: best moves, perft counts and self-play tournaments for Aporia,
/// Apart, Empedocles' Stones, Spokes and Epaminondas.
#[derive(Parser, Debug)]
#[command(name = "gamut", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to a depth (the rules' proof).
    Perft(PerftArgs),
    /// List the legal children of a position, one canonical text per line, sorted.
    Moves(PositionArgs),
    /// Draw a position with its side to move and state.
    Show(ShowArgs),
}

/// Which game and position a command works on.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The game: aporia, apart, empedocles, spokes or epaminondas.
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// The position text (see the game's rules); default: the start position.
    #[arg(long, value_name = "POSITION")]
    pub fen: Option<String>,
    /// Empedocles only: the element pairing of the start position, player 1's
    /// first (e.g. fire,water); default fire,earth. Not with --fen.
    #[arg(long, value_name = "E1,E2")]
    pub elements: Option<String>,
}

/// Options of `gamut perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many plies (rounds, for Spokes) to count.
    #[arg(long, value_name = "N")]
    pub depth: u32,
    /// First print each child with its own count, sorted by child text.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the root's children over.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Options of `gamut show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Also write an SVG picture of the board to this file (games that draw one).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// Parses a game id for clap.
pub fn parse_game(s: &str) -> Result<GameId, String> {
    s.parse()
}
