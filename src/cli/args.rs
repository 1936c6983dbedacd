//! The command line's grammar (clap derive): every subcommand and option.

use clap::{Args, Parser, Subcommand};
use gamut::game::Game;
use gamut::games::GameId;
use gamut::with_game;

/// gamut: best moves, perft counts and self-play tournaments for abstract
/// board games.
#[derive(Parser, Debug)]
#[command(name = "gamut", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Draw no progress bars (they are drawn only on a terminal anyway).
    #[arg(long, global = true)]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to a depth (the rules' proof).
    Perft(PerftArgs),
    /// List the legal children of a position, one canonical text per line, sorted.
    Moves(MovesArgs),
    /// Draw a position with its side to move and state.
    Show(ShowArgs),
    /// Search for the best move: one line per completed depth, then `bestmove`.
    Analyze(AnalyzeArgs),
    /// Play engine settings against each other in pairs of games, with
    /// statistics (`merge` rebuilds the report from record files).
    Tournament(super::tournament::TournamentArgs),
    /// Play a game against the engine at the terminal.
    Play(super::play::PlayArgs),
    /// Step through a recorded tournament game, position by position.
    Replay(super::tournament::ReplayArgs),
    /// Measure speed: perft leaves/s and search nodes/s from start positions
    /// (medians over several runs).
    Bench(BenchArgs),
    /// Solve a game outright and store the value of every state in a table.
    Solve(super::solve::SolveArgs),
    /// Write a book of openings for `tournament --openings`: walks from the
    /// start kept by a search score near zero or a value in the solved table.
    Openings(super::openings::OpeningsArgs),
    /// Play random games checking every invariant of the rules' code at
    /// every ply, with a summary line per game.
    Soak(super::soak::SoakArgs),
    /// Play self-play games at a fixed node budget per move and write their
    /// positions, search scores and results as training data.
    Datagen(super::datagen::DatagenArgs),
    /// Speak the engine protocol (docs/protocol.md) on standard input and
    /// output, for tournaments and other programs.
    Engine(EngineArgs),
    /// Analyse and play every game in the browser: a local web server.
    Serve(super::serve::ServeArgs),
}

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
}

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

/// Options of `gamut moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Write each move in its short form for people (Spokes outcomes by
    /// the nodes they change; other moves as their canonical text).
    #[arg(long)]
    pub short: bool,
}

/// Options of `gamut perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many plies to count (chance outcomes and simultaneous joint
    /// actions use none), at most 1000.
    #[arg(long, value_name = "N", value_parser = perft_depth)]
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
    /// Also write an SVG picture of the board to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Print the position's exact value from this table (default: the
    /// game's table in the data directory, when it exists).
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// Play this move too and mark it in the picture (the last of --moves
    /// is marked without it).
    #[arg(
        long,
        value_name = "MOVE",
        allow_hyphen_values = true,
        requires = "svg"
    )]
    pub last_move: Option<String>,
    /// The picture's width in pixels.
    #[arg(long, value_name = "PX", default_value_t = 480, requires = "svg",
          value_parser = clap::value_parser!(u32).range(64..=8192))]
    pub size: u32,
    /// Leave the file and rank (or node) names out of the picture.
    #[arg(long, requires = "svg")]
    pub no_coordinates: bool,
}

/// Options that set up a search (shared by `analyze`, `bench` and engine
/// specs).
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Stop after completing this depth (plies).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Stop after this many milliseconds (the best move comes by then).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// Stop after this many nodes (over all threads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = gamut::search::params::DEFAULT_HASH_MIB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// How threads share the work: lazysmp (all search, sharing the table)
    /// or rootsplit (root moves spread over threads).
    #[arg(long, value_name = "MODE", default_value = "lazysmp", value_parser = ["lazysmp", "rootsplit"])]
    pub parallel: String,
    /// Evaluation terms to switch off, comma-separated (names per game in
    /// docs/rules/<game>.md).
    #[arg(long, value_name = "TERMS")]
    pub eval_off: Option<String>,
    /// The static evaluation: classic (the hand-written terms) or net (the
    /// game's learned network, for games that have one: apart, aporia,
    /// epaminondas). Default: the game's own, net for apart (its matches
    /// say it is stronger), classic for the others.
    #[arg(long, value_name = "KIND", value_parser = ["classic", "net"])]
    pub eval: Option<String>,
    /// With --eval net: the network file to use instead of the built-in
    /// one (written by tools/train.sh).
    #[arg(long, value_name = "FILE")]
    pub net: Option<std::path::PathBuf>,
    /// Ordering heuristics to switch off, comma-separated: tt, captures,
    /// killers, history.
    #[arg(long, value_name = "LIST")]
    pub ordering_off: Option<String>,
    /// Switch off the capture search at the leaves.
    #[arg(long)]
    pub no_quiescence: bool,
    /// Switch off aspiration windows.
    #[arg(long)]
    pub no_aspiration: bool,
    /// Switch off Star1 pruning at chance nodes (plain expectimax).
    #[arg(long)]
    pub no_star1: bool,
    /// Exact mode: every unsound pruning and reduction off (late-move
    /// reductions, null moves, futility, partial move lists, narrow matrix
    /// games), so the score is the minimax value
    /// at the depth searched.
    #[arg(long)]
    pub exact: bool,
    /// Late-move reductions on or off (default: as the game has them).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub lmr: Option<String>,
    /// Null-move pruning on or off, where the game has null moves
    /// (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub nmp: Option<String>,
    /// Reverse futility pruning on or off (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub rfp: Option<String>,
    /// Futility pruning on or off (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub futility: Option<String>,
    /// Partial move lists below the root on or off: a Spokes resolution
    /// inside the search ends with the outcomes found after a hundred
    /// boards (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub partial: Option<String>,
    /// Narrow matrix games below a simultaneous root on or off: each player
    /// keeps sixteen actions, ten that did best at the root in the last
    /// completed iteration and six the game calls urgent (default: as the
    /// game has it).
    #[arg(long, value_name = "SWITCH", value_parser = ["on", "off"])]
    pub narrow: Option<String>,
}

impl SearchArgs {
    /// The selective feature switches given, by name (`lmr`, ...), each
    /// `"on"` or `"off"`.
    pub fn selective_switches(&self) -> [(&'static str, Option<&str>); 6] {
        [
            ("lmr", self.lmr.as_deref()),
            ("nmp", self.nmp.as_deref()),
            ("rfp", self.rfp.as_deref()),
            ("futility", self.futility.as_deref()),
            ("partial", self.partial.as_deref()),
            ("narrow", self.narrow.as_deref()),
        ]
    }
}

/// Options of `gamut analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The search's limits and settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Search and print the best N root moves' lines at every iteration
    /// (MultiPV), each line with `multipv <rank>`; chance and simultaneous
    /// roots report their one result.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=gamut::search::params::MAX_MULTIPV as i64))]
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
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub width: u32,
    /// With --method mcts: stop after this many iterations.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
}

/// Options of `gamut bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game to measure; default: every implemented game.
    #[arg(value_parser = parse_game)]
    pub game: Option<GameId>,
    /// Runs per measurement; the median is reported.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Perft depth (default: per game, about a second of work), at most
    /// 1000.
    #[arg(long, value_name = "N", value_parser = perft_depth)]
    pub perft_depth: Option<u32>,
    /// Search depth (default: per game).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub search_depth: Option<u32>,
    /// Threads for both measurements.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Search in exact mode (no unsound pruning), as the searcher was
    /// before selective search: the same tree for the same code.
    #[arg(long)]
    pub exact: bool,
    /// The static evaluation: classic or net; default the game's own (see
    /// `analyze --eval`).
    #[arg(long, value_name = "KIND", value_parser = ["classic", "net"])]
    pub eval: Option<String>,
    /// With --eval net: the network file to use instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub net: Option<std::path::PathBuf>,
}

/// Parses a perft depth for clap: 0 to [`gamut::perft::MAX_DEPTH`].
fn perft_depth(s: &str) -> Result<u32, String> {
    let max = gamut::perft::MAX_DEPTH;
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
        if let Some(setup) = with_game!(id, G => G::INFO.setup) {
            help.push_str(&format!("\n{id}: {setup}"));
        }
    }
    help
}
