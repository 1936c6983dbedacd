//! What the subcommands share: the game and position options and the
//! position they give, the search options and the search they set up, and
//! the argument parsers. Each subcommand's own options live with it.

use super::CliError;
use clap::Args;
use gamut_engine::Position;
use gamut_games::GameId;
use gamut_search::options::SearchOptions;

/// Which game and position a command works on.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The game.
    #[arg(value_parser = parse_game, help = game_help())]
    pub game: GameId,
    /// The position text (see the game's rules); default: the start position.
    #[arg(long, value_name = "POSITION")]
    pub fen: Option<String>,
    /// Options of the start position, for games that take them (also
    /// spelt --elements). Not with --fen.
    #[arg(long, alias = "elements", value_name = "TEXT", long_help = setup_help())]
    pub setup: Option<String>,
    /// Moves to play from the position, in order, in their canonical text,
    /// separated by `;` (no game's move text contains one), e.g.
    /// "b2-a3; c3-c2". A Spokes round is its joint placement then its
    /// resolution outcome: "wD12,bB3; <nodes>".
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
}

/// Options of `gamut analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The search's limits and settings.
    #[command(flatten)]
    pub search: SearchOptions,
    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Search and print the best N root moves' lines at every iteration
    /// (MultiPV), each line with `multipv <rank>`; chance and simultaneous
    /// roots report their one result.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=gamut_search::params::MAX_MULTIPV as i64))]
    pub multipv: u32,
    /// Analyse until interrupted (Ctrl-C), printing every iteration; the
    /// same as giving no --depth, --time or --nodes.
    #[arg(long)]
    pub infinite: bool,
    /// Answer from this table of exact values (`gamut solve`) instead of
    /// searching (default: the game's table in the data directory, when it
    /// exists).
    #[arg(long, value_name = "FILE", conflicts_with = "no_table")]
    pub table: Option<std::path::PathBuf>,
    /// Search even when a table of exact values is there.
    #[arg(long)]
    pub no_table: bool,
    /// Search under a game clock: the time left on the side to move's
    /// clock, in milliseconds, spent as the engine protocol's `go wtime`
    /// is (a soft budget, no new iteration after it, and a hard limit).
    #[arg(long, value_name = "MS", conflicts_with = "infinite")]
    pub clock: Option<u64>,
    /// With --clock: the time added to the clock after each move, in ms.
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "clock")]
    pub inc: u64,
    /// With --clock: moves to play before the clock's next time control.
    #[arg(long, value_name = "N", requires = "clock", value_parser = clap::value_parser!(u32).range(1..))]
    pub movestogo: Option<u32>,
    /// Games of more than two players: `paranoid`
    /// searches each side against all the others as one opponent (exact
    /// for two teams); `mcts` samples every side's strategy at once.
    #[arg(long, value_name = "METHOD", default_value = "paranoid", value_parser = ["paranoid", "mcts"])]
    pub method: String,
    /// Games of more than two players: actions kept per player when
    /// several players choose together (a coalition or a team).
    #[arg(long, value_name = "N", default_value_t = gamut_search::params::COALITION_WIDTH as u32, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub width: u32,
    /// With --method mcts: stop after this many iterations.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
}

/// Parses a perft depth for clap: 0 to [`gamut_core::perft::MAX_DEPTH`].
pub fn perft_depth(s: &str) -> Result<u32, String> {
    let max = gamut_core::perft::MAX_DEPTH;
    match s.parse::<u32>() {
        Ok(d) if d <= max => Ok(d),
        _ => Err(format!("perft counts 0 to {max} plies")),
    }
}

/// Parses a game id for clap.
pub fn parse_game(s: &str) -> Result<GameId, String> {
    s.parse()
}

/// The help of the game argument: every game id.
fn game_help() -> String {
    format!("The game: {}", GameId::names())
}

/// The long help of `--setup`: what each game that has setup options takes.
fn setup_help() -> String {
    let mut help = String::from(
        "Options of the start position, for games that take them (also spelt \
         --elements). Not with --fen.",
    );
    for &id in GameId::ALL {
        if let Some(setup) = gamut_engine::game(id).info().setup {
            help.push_str(&format!("\n{id}: {setup}"));
        }
    }
    help
}

/// The position a command starts from: `--fen`, the start position set up
/// by `--setup`, or the start position; then `--moves` played on it.
pub fn position(a: &PositionArgs) -> Result<Position, CliError> {
    let pos = base_position(a)?;
    match &a.moves {
        Some(list) => Ok(pos.play_moves(list, "--moves")?),
        None => Ok(pos),
    }
}

/// The position given by `--fen` or the start options, before `--moves`.
pub fn base_position(a: &PositionArgs) -> Result<Position, CliError> {
    let game = gamut_engine::game(a.game);
    match (&a.fen, &a.setup) {
        (Some(_), Some(_)) => Err(CliError(
            "--setup chooses the start position; give it or --fen, not both".into(),
        )),
        (Some(f), None) => game
            .parse(f)
            .map_err(|e| CliError(format!("bad position for {}: {e}", a.game))),
        (None, Some(s)) => game
            .start_with(s)
            .map_err(|e| CliError(format!("bad setup for {}: {e}", a.game))),
        (None, None) => Ok(game.start()),
    }
}
