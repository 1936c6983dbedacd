//! `gamut tournament`, `gamut tournament merge` and `gamut replay`.

use super::args::parse_game;
use super::interrupt::Interrupt;
use super::progress::GamesBar;
use super::show::show_text;
use super::CliError;
use clap::{Args, Subcommand};
use gamut_core::paths::check_outputs;
use gamut_core::svg::SvgOptions;
use gamut_engine::Position;
use gamut_games::GameId;
use gamut_players::record::{Adjudicator, GameRecord, Threshold};
use gamut_tournament::records;
use gamut_tournament::runner::{self, MergeSettings, Settings, TournamentOutcome};
use gamut_tournament::schedule::{Format, Shard, MAX_GAMES};
use gamut_tournament::session::Ended;
use gamut_tournament::stats::Sprt;
use gamut_tournament::{pages, pgn};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `gamut tournament`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    /// `merge`: rebuild the report from record files.
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,
    /// The game (`gamut show --help` lists the ids).
    #[arg(value_parser = parse_game, required = true)]
    pub game: Option<GameId>,
    /// An engine: `name=d4,search=alphabeta,depth=4`, `name=fast,time=50`,
    /// `random`, `greedy`; for games of more than two sides
    /// `name=p,paranoid,time=200`, `name=m,mcts,time=200` (also
    /// `iterations=`, `width=`, `exploration=`) or `random`, one per seat,
    /// rotated over the seats (see docs/tournament.md). Give two or more.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Who meets whom with more than two engines.
    #[arg(long, value_name = "FORMAT", default_value = "roundrobin", value_parser = ["roundrobin", "gauntlet"])]
    pub format: String,
    /// Games per encounter, in pairs with sides swapped (even).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=MAX_GAMES))]
    pub games: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// The seed of random openings, dice, and random and mixed choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Openings: one position text per line (text after `;` is ignored,
    /// so perft suites work).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Openings made by this many random plies from the start.
    #[arg(long, value_name = "N", conflicts_with = "openings")]
    pub random_plies: Option<u32>,
    /// Plies after which a game is a draw (default: the game's own limit,
    /// from its rules).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_limit: Option<u32>,
    /// Resign adjudication: a side loses when both engines agree it is at
    /// least this far behind for --resign-moves moves each.
    #[arg(long, value_name = "SCORE", value_parser = clap::value_parser!(i32).range(1..))]
    pub resign_score: Option<i32>,
    /// Moves of each side for resign adjudication.
    #[arg(long, value_name = "N", default_value_t = runner::RESIGN_MOVES, value_parser = clap::value_parser!(u32).range(1..))]
    pub resign_moves: u32,
    /// Draw adjudication: a draw when both engines' scores stay within
    /// ±SCORE for --draw-moves moves each.
    #[arg(long, value_name = "SCORE", value_parser = clap::value_parser!(i32).range(0..))]
    pub draw_score: Option<i32>,
    /// Moves of each side for draw adjudication.
    #[arg(long, value_name = "N", default_value_t = runner::DRAW_MOVES, value_parser = clap::value_parser!(u32).range(1..))]
    pub draw_moves: u32,
    /// The ply from which draw adjudication applies.
    #[arg(long, value_name = "PLY", default_value_t = 0)]
    pub draw_after: u32,
    /// Adjudication as fastchess writes it: `resign=<score>,<moves>` (the
    /// --resign options) and `draw=<score>,<moves>[,<from ply>]` (the
    /// --draw options); give one or both.
    #[arg(long, value_name = "RULE", num_args = 1..=2,
          conflicts_with_all = ["resign_score", "draw_score"])]
    pub adjudicate: Vec<String>,
    /// Milliseconds an engine with a game clock (`tc=`) may go past it
    /// before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub time_margin: u64,
    /// Stop when a sequential test decides:
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic]`
    /// (two engines only).
    #[arg(long, value_name = "TEST", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Write every game as one JSON line to this file (which must not
    /// exist, unless --resume or --overwrite is given).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Continue the tournament in the --records file: its games are checked
    /// and kept, and only the rest of the schedule is played.
    #[arg(long, requires = "records", conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the --records file if it exists.
    #[arg(long, requires = "records")]
    pub overwrite: bool,
    /// Play only share K of N of the pairs (same seed, same pairs).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report as one web page to this file, every game in
    /// it viewable in place (a link `#game=N` opens game N).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write every finished game to this file in PGN's export format
    /// (games of two sides), each as it ends.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
}

/// Subcommands of `gamut tournament`.
#[derive(Subcommand, Debug)]
pub enum TournamentCommand {
    /// Rebuild the report from record files (shards of one tournament).
    Merge(MergeArgs),
}

/// Options of `gamut tournament merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The record files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Apply this sequential test to the merged results.
    #[arg(long, value_name = "TEST", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report and every game as web pages, as `tournament
    /// --html` does.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write every merged game, in game-number order, to this file
    /// in PGN's export format, as `tournament --pgn` does (games of two
    /// sides).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Join records of different tournaments (another seed, or another
    /// spec under one engine name), which are otherwise refused.
    #[arg(long)]
    pub allow_mixed: bool,
}

/// Options of `gamut replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by `gamut tournament --records`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The game's number (with --pgn: only that game; without, every game).
    #[arg(long, value_name = "N", required_unless_present = "pgn")]
    pub game: Option<u64>,
    /// Print only the position after step K (0: the opening), as `show`
    /// prints it.
    #[arg(long = "move", value_name = "K")]
    pub step: Option<usize>,
    /// With --move: also write that position's picture, its last step
    /// marked, to this SVG file.
    #[arg(long, value_name = "FILE", requires = "step")]
    pub svg: Option<PathBuf>,
    /// Write the game as one self-contained web page to this file: every
    /// position's board, the steps, and the engines' scores.
    #[arg(long, value_name = "FILE", conflicts_with = "step")]
    pub html: Option<PathBuf>,
    /// Write the games (or with --game, that one) to this file in PGN's
    /// export format (games of two sides).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["step", "html"])]
    pub pgn: Option<PathBuf>,
}

/// Runs `gamut tournament` (or `merge`): the library plays it, this prints
/// each game's line, a progress bar and the report.
pub fn tournament(a: &TournamentArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(TournamentCommand::Merge(m)) = &a.command {
        let outcome = runner::merge(&MergeSettings {
            files: m.files.clone(),
            sprt: m.sprt,
            html: m.html.clone(),
            pgn: m.pgn.clone(),
            allow_mixed: m.allow_mixed,
        })?;
        print_report(&outcome, m.json, out)?;
        return unwritten(outcome);
    }
    let id = a.game.expect("clap requires the game");
    let settings = settings(a)?;
    // Ctrl-C or SIGTERM: no new moves are started, finished games are kept
    // and reported, then the exit status is the signal's.
    let interrupt = Interrupt::install()?;
    let lines: Option<&mut dyn Write> = if a.json { None } else { Some(&mut *out) };
    let mut watch = GamesBar::new(quiet, String::new(), lines);
    let outcome = runner::run(
        gamut_engine::game(id),
        &settings,
        interrupt.flag(),
        &mut watch,
    )?;
    print_report(&outcome, a.json, out)?;
    interrupt.exit_if_signalled();
    unwritten(outcome)
}

/// The failure to write an output after the games, once the report is
/// printed.
fn unwritten(outcome: TournamentOutcome) -> Result<(), CliError> {
    match outcome.unwritten {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// The library's settings from the options: the adjudication rules
/// (`--adjudicate`, or `--resign-score` and `--draw-score`) read here.
fn settings(a: &TournamentArgs) -> Result<Settings, CliError> {
    let mut adjudicate = Adjudicator {
        resign: a.resign_score.map(|score| Threshold {
            score,
            moves: a.resign_moves,
        }),
        draw: a.draw_score.map(|score| Threshold {
            score,
            moves: a.draw_moves,
        }),
        draw_after: a.draw_after,
    };
    for rule in &a.adjudicate {
        adjudicate.add_rule(rule).map_err(CliError)?;
    }
    Ok(Settings {
        engines: a.engines.clone(),
        format: match a.format.as_str() {
            "gauntlet" => Format::Gauntlet,
            _ => Format::RoundRobin,
        },
        games: a.games,
        concurrency: a.concurrency,
        seed: a.seed,
        openings: a.openings.clone(),
        random_plies: a.random_plies,
        ply_limit: a.ply_limit,
        adjudicate,
        time_margin: a.time_margin,
        sprt: a.sprt,
        records: a.records.clone(),
        resume: a.resume,
        overwrite: a.overwrite,
        shard: a.shard,
        html: a.html.clone(),
        pgn: a.pgn.clone(),
    })
}

/// Prints the report as a table or as JSON, with how the tournament ended.
fn print_report(
    outcome: &TournamentOutcome,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let ended = outcome.ended;
    if json {
        let mut v = outcome.summary.json()?;
        v["ended"] = ended.as_str().into();
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", outcome.summary.table())?;
        if ended != Ended::Complete {
            writeln!(out, "ended      {}", ended.as_str())?;
        }
    }
    Ok(())
}

/// Runs `gamut replay`: every record of the file checked, then every
/// position of the game in turn, as `show` draws it, and the result.
pub fn replay(a: &ReplayArgs, out: &mut impl Write) -> Result<(), CliError> {
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &a.html {
        outputs.push(("--html", p));
    }
    if let Some(p) = &a.svg {
        outputs.push(("--svg", p));
    }
    if let Some(p) = &a.pgn {
        outputs.push(("--pgn", p));
    }
    check_outputs(&[("FILE", &a.file)], &outputs)?;
    let all: Vec<GameRecord> = records::read(&a.file)?
        .into_iter()
        .map(|(_, rec)| rec)
        .collect();
    let numbers: Vec<u64> = all.iter().map(|r| r.number).collect();
    if let Some(n) = a.game {
        one_game(a, n, &numbers)?;
    }
    if let Some(path) = &a.pgn {
        return replay_pgn(a, path, &all);
    }
    let game = a.game.expect("clap requires --game without --pgn");
    let rec = all
        .iter()
        .find(|r| r.number == game)
        .ok_or_else(|| no_game(a, game, all.len()))?;
    rec.game.parse::<GameId>().map_err(CliError)?;
    replay_game(a, rec, out)
}

/// `gamut replay` of one game: its page, the position at --move, or
/// every position and the result.
fn replay_game(a: &ReplayArgs, rec: &GameRecord, out: &mut impl Write) -> Result<(), CliError> {
    let game = runner::replayed(rec)?;
    if let Some(path) = &a.html {
        return Ok(runner::write_file(
            path,
            &pages::game_page(rec, &game.steps),
        )?);
    }
    if replay_step(a, game.number, &game.steps, out)? {
        return Ok(());
    }
    writeln!(out, "game {}: {}", game.number, game.seated.join(" vs "))?;
    for (i, (step, pos)) in game.steps.iter().enumerate() {
        match step {
            None => writeln!(out, "\nopening")?,
            Some(text) => writeln!(out, "\nstep {i}: {text}")?,
        }
        write!(out, "{}", show_text(pos))?;
    }
    writeln!(
        out,
        "\nresult {} ({}), {} plies",
        game.result, game.reason, game.plies
    )?;
    Ok(())
}

/// `gamut replay --pgn`: the games of the records (or game --game) in
/// PGN, in the file's order, undated.
fn replay_pgn(a: &ReplayArgs, path: &Path, all: &[GameRecord]) -> Result<(), CliError> {
    let text = pgn::undated(all.iter().filter(|r| a.game.is_none_or(|n| n == r.number)))?;
    if text.is_empty() {
        let n = a.game.unwrap_or_default();
        return Err(no_game(a, n, all.len()));
    }
    Ok(runner::write_file(path, &text)?)
}

/// Refuses a records file that holds game `game` more than once.
fn one_game(a: &ReplayArgs, game: u64, numbers: &[u64]) -> Result<(), CliError> {
    let copies = numbers.iter().filter(|&&n| n == game).count();
    if copies > 1 {
        return Err(CliError(format!(
            "{} holds game {game} {copies} times: which one is meant is unknown",
            a.file.display(),
        )));
    }
    Ok(())
}

/// The error for a --game not in the records file of `count` games.
fn no_game(a: &ReplayArgs, game: u64, count: usize) -> CliError {
    CliError(format!(
        "no game {game} in {} ({count} games)",
        a.file.display()
    ))
}

/// With --move K: prints the position after step K of game `number` (and
/// with --svg draws it) and returns true; false without --move.
fn replay_step(
    a: &ReplayArgs,
    number: u64,
    steps: &[(Option<String>, Position)],
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let Some(k) = a.step else {
        return Ok(false);
    };
    let Some((_, pos)) = steps.get(k) else {
        return Err(CliError(format!(
            "--move {k}: game {number} has {} steps (0 is the opening)",
            steps.len() - 1
        )));
    };
    if let Some(path) = &a.svg {
        let before = k.checked_sub(1).map(|b| &steps[b].1);
        runner::write_file(path, &pos.svg(&SvgOptions::default(), before))?;
    }
    write!(out, "{}", show_text(pos))?;
    Ok(true)
}
