//! The command line's grammar (clap derive) and its dispatch: each
//! subcommand to the module that does it.

use super::args::AnalyzeArgs;
use super::{
    analyze, balance, bench, datagen, learn, moves, openings, params, perft, play, protocol, serve,
    show, soak, solve, tournament, tune, CliError,
};
use clap::{Parser, Subcommand};
use std::io::Write;

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
    Perft(perft::PerftArgs),
    /// List the legal children of a position, one canonical text per line, sorted.
    Moves(moves::MovesArgs),
    /// Draw a position with its side to move and state.
    Show(show::ShowArgs),
    /// Search for the best move: one line per completed depth, then `bestmove`.
    Analyze(AnalyzeArgs),
    /// Play engine settings against each other in pairs of games, with
    /// statistics (`merge` rebuilds the report from record files).
    Tournament(tournament::TournamentArgs),
    /// A game's balance: self-play at a ladder of strengths for every
    /// setup, each side's score with its interval, draws, game length and
    /// when games are decided (`merge` joins shards' records).
    Balance(balance::BalanceArgs),
    /// Play a game against the engine at the terminal.
    Play(play::PlayArgs),
    /// Step through a recorded tournament game, position by position.
    Replay(tournament::ReplayArgs),
    /// Measure speed: perft leaves/s and search nodes/s from start positions
    /// (medians over several runs).
    Bench(bench::BenchArgs),
    /// Solve a game outright and store the value of every state in a table.
    Solve(solve::SolveArgs),
    /// Write a book of openings for `tournament --openings`: walks from the
    /// start kept by a search score near zero or a value in the solved table.
    Openings(openings::OpeningsArgs),
    /// Play random games checking every invariant of the rules' code at
    /// every ply, with a summary line per game.
    Soak(soak::SoakArgs),
    /// Play self-play games at a fixed node budget per move and write their
    /// positions, search scores and results as training data.
    Datagen(datagen::DatagenArgs),
    /// Make a game's network stronger generation by generation: self-play
    /// data, training from the best network, a gate against the best,
    /// promotion; resumable, with a ledger (docs/learn.md).
    Learn(learn::LearnArgs),
    /// Tune the search's parameters by SPSA through pairs of short games
    /// between two settings, one line per iteration and a ledger to resume
    /// from (docs/tune.md).
    Tune(tune::TuneArgs),
    /// List the search's tunable parameters, one per line: name, default,
    /// range and SPSA step (set them with --param NAME=VALUE, an engine
    /// spec's param.NAME=VALUE or the protocol's setoption).
    Params(params::ParamsArgs),
    /// Speak the engine protocol (docs/protocol.md) on standard input and
    /// output, for tournaments and other programs.
    Engine(protocol::EngineArgs),
    /// Analyse and play every game in the browser: a local web server.
    Serve(serve::ServeArgs),
}

/// Runs a parsed command line; what it prints goes to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<(), CliError> {
    match cli.command {
        Command::Perft(a) => perft::perft(&a, cli.quiet, out),
        Command::Moves(a) => moves::moves(&a, cli.quiet, out),
        Command::Show(a) => show::show(&a, out),
        Command::Analyze(a) => analyze::analyze(&a, out),
        Command::Tournament(a) => tournament::tournament(&a, cli.quiet, out),
        Command::Replay(a) => tournament::replay(&a, out),
        Command::Balance(a) => balance::balance(&a, cli.quiet, out),
        Command::Play(a) => play::play(&a, out),
        Command::Bench(a) => bench::bench(&a, out),
        Command::Solve(a) => solve::solve(&a, cli.quiet, out),
        Command::Openings(a) => openings::openings(&a, cli.quiet, out),
        Command::Engine(a) => protocol::engine(&a, out),
        Command::Params(a) => params::params(&a, out),
        Command::Tune(a) => tune::tune(&a, cli.quiet, out),
        Command::Datagen(a) => datagen::datagen(&a, cli.quiet, out),
        Command::Learn(a) => learn::learn(&a, cli.quiet, out),
        Command::Soak(a) => soak::soak(&a, cli.quiet, out),
        Command::Serve(a) => serve::serve(&a, out),
    }
}
