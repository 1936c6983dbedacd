//! `gamut openings`: a book of start positions for `tournament --openings`,
//! walked from the start position and kept by a filter (a search score
//! near zero, or a value in the game's solved table).
//!
//! Searches are what cost: every position's score and list of near-best
//! moves is kept for the rest of the run, so walks that share their first
//! plies share their searches, and a ply's near-best moves come from one
//! search of the position (MultiPV with a margin), not one per child.

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::{Args, ValueEnum};
use gamut_core::game::NodeKind;
use gamut_core::tablebase::{Probe, Value};
use gamut_engine::{AnyGame, Position};
use gamut_games::GameId;
use gamut_search::score::outcome_score;
use gamut_search::{self as search, Config, Limits, Table, Verdict};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;

/// Options of `gamut openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// The game.
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// Openings to write (distinct positions).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Decision plies from the start position (chance outcomes and joint
    /// actions on the way are drawn at random and use no ply).
    #[arg(long, value_name = "R", default_value_t = 4)]
    pub plies: u32,
    /// Choose each ply uniformly among the moves scored within this many
    /// points of the best (children searched --near-depth plies deep, by
    /// one search of the position that lists every move within the
    /// margin), instead of among all moves.
    #[arg(long, value_name = "POINTS", value_parser = clap::value_parser!(u32).range(0..30000))]
    pub near_best: Option<u32>,
    /// Keep a position only if its search score is within this many points
    /// of zero.
    #[arg(long, value_name = "POINTS", value_parser = clap::value_parser!(u32).range(0..30000))]
    pub max_score: Option<u32>,
    /// Search depth of --max-score.
    #[arg(long, value_name = "D", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Search depth of each child for --near-best (default: one less than
    /// --depth, at least 1). Every ply of every walk is searched to this
    /// depth plus one, so this is where the time goes (in Empedocles'
    /// setup depth 2 does not see the first transmutation and walks into
    /// lost setups).
    #[arg(long, value_name = "D", requires = "near_best", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub near_depth: Option<u32>,
    /// Keep a position only if its value in the solved table (`--table`,
    /// else the default table) is of this kind: `win` (the side to move
    /// wins), `draw`, or `sharp` (exactly one of two or more moves keeps
    /// the value).
    #[arg(long, value_name = "KIND")]
    pub keep: Option<Keep>,
    /// With `--keep win`: only wins at least this many plies away.
    #[arg(long, value_name = "PLIES", default_value_t = 1, requires = "keep")]
    pub min_distance: u32,
    /// The solved table for --keep (see `gamut solve`).
    #[arg(long, value_name = "FILE", requires = "keep")]
    pub table: Option<PathBuf>,
    /// Seed of the random choices: the same seed writes the same book.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub seed: u64,
    /// Walks to try before giving up.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub attempts: u64,
}

/// Which table values `--keep` keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Keep {
    /// The side to move wins.
    Win,
    /// Neither side can force a result.
    Draw,
    /// Exactly one of two or more moves keeps the value.
    Sharp,
}

/// Writes the book: one line per opening, its position text then `;` and
/// what it was kept for (which `--openings` ignores), each line flushed as
/// soon as it is found.
pub fn openings(a: &OpeningsArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let id = a.game;
    let bar = Progress::new(
        a.count,
        "{bar:40} {pos}/{len} openings kept of {msg} walks {elapsed}, about {eta} left",
        quiet,
    );
    let result = book(gamut_engine::game(id), a, &bar, out);
    bar.finish();
    result
}

fn book(
    game: &dyn AnyGame,
    a: &OpeningsArgs,
    bar: &Progress,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let id = game.id();
    if a.near_best.is_some() || a.max_score.is_some() {
        super::two_players(game, "--near-best or --max-score")?;
    }
    let oracle = match a.keep {
        Some(_) if gamut_games::tablebase(id).is_none() => {
            return Err(CliError(format!(
                "--keep needs a solved table, and there is no solver for {id}"
            )))
        }
        Some(_) => Some(
            super::solve::open_table(a.game, a.table.as_deref())?.ok_or_else(|| {
                CliError(format!(
                    "--keep needs {id}'s solved table: run `gamut solve {id}` or give --table"
                ))
            })?,
        ),
        None => None,
    };
    let tt = Table::try_new(gamut_search::params::OPENINGS_HASH_MIB)?;
    let config = game.default_config(1);
    let scores = RefCell::new(FxHashMap::default());
    let score = |pos: &Position, depth: u32| {
        *scores
            .borrow_mut()
            .entry((pos.hash(), depth))
            .or_insert_with(|| child_score(pos, depth, &config, &tt))
    };
    let near_lists = RefCell::new(FxHashMap::default());
    let mut rng = StdRng::seed_from_u64(a.seed);
    let mut seen = FxHashSet::default();
    let mut choose = |pos: &Position, moves: &[String], rng: &mut StdRng| {
        let Some(margin) = a.near_best else {
            return Some(moves[rng.gen_range(0..moves.len())].clone());
        };
        let depth = a.near_depth.unwrap_or(a.depth.saturating_sub(1).max(1));
        let mut lists = near_lists.borrow_mut();
        let near: &Vec<String> = lists
            .entry((pos.hash(), depth))
            .or_insert_with(|| near_best(pos, depth, margin, &config, &tt));
        Some(near[rng.gen_range(0..near.len())].clone())
    };
    let start = game.start();
    let mut kept = 0;
    for walks in 1..=a.attempts {
        if walks % 64 == 1 || a.near_best.is_some() || a.max_score.is_some() {
            bar.set_message(walks.to_string());
        }
        let Some(pos) = start.walk(a.plies, &mut rng, &mut choose) else {
            continue;
        };
        let text = pos.text();
        if seen.contains(&text) {
            continue;
        }
        let mut notes = Vec::new();
        if let Some(limit) = a.max_score {
            let s = score(&pos, a.depth);
            if s.unsigned_abs() > limit {
                continue;
            }
            notes.push(format!("score {s} at depth {}", a.depth));
        }
        if let (Some(keep), Some(oracle)) = (a.keep, &oracle) {
            let probe = oracle.probe(&text)?;
            if !kept_by_table(keep, &probe, a.min_distance, &pos) {
                continue;
            }
            notes.push(format!("{} (best: {})", probe.value, probe.best.join(" ")));
        }
        let line = if notes.is_empty() {
            text.clone()
        } else {
            format!("{text} ; {}", notes.join("; "))
        };
        bar.suspend(|| writeln!(out, "{line}").and_then(|_| out.flush()))?;
        bar.inc();
        seen.insert(text);
        kept += 1;
        if kept == a.count {
            return Ok(());
        }
    }
    Err(CliError(format!(
        "only {kept} of {} openings kept in {} walks; loosen the filter or give more --attempts",
        a.count, a.attempts
    )))
}

/// The score of `pos` for its [`Game::perspective`], searched `depth` deep
/// (a finished game scores its result).
fn child_score(pos: &Position, depth: u32, config: &Config, tt: &Table) -> i32 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    match pos.search(&limits, config, tt, None, &mut |_| {}) {
        Verdict::Over(o) => outcome_score(&o, pos.perspective(), 0),
        Verdict::Decision(r) => r.score,
        Verdict::Chance(it) => it.expected,
        Verdict::Simultaneous(r) => r.value.round() as i32,
        Verdict::Stopped => unreachable!("no stop check ends a listing here"),
    }
}

/// The moves of decision position `pos` whose children, searched `depth`
/// deep, score within `margin` of the best child: one search of `pos` one
/// ply deeper listing every line within the margin (a child below it is
/// refuted by a null window rather than scored).
fn near_best(pos: &Position, depth: u32, margin: u32, config: &Config, tt: &Table) -> Vec<String> {
    let limits = Limits {
        depth: Some(depth + 1),
        ..Limits::default()
    };
    let config = Config {
        multipv: usize::MAX,
        multipv_margin: Some(margin),
        ..config.clone()
    };
    let mut near = Vec::new();
    let verdict = pos.search(&limits, &config, tt, None, &mut |p| {
        if let search::Progress::Decision(it) = p {
            near = it.lines.iter().map(|l| l.pv[0].clone()).collect();
        }
    });
    match verdict {
        Verdict::Decision(r) if near.is_empty() => vec![r.best],
        _ => near,
    }
}

/// Whether the table's answer for `pos` is what `--keep` asks for.
fn kept_by_table(keep: Keep, probe: &Probe, min_distance: u32, pos: &Position) -> bool {
    match keep {
        Keep::Win => matches!(probe.value, Value::Win(d) if d >= min_distance),
        Keep::Draw => probe.value == Value::Draw,
        Keep::Sharp => {
            let moves = match pos.node() {
                NodeKind::Decision(_) => pos.move_texts().len(),
                _ => 0,
            };
            probe.best.len() == 1 && moves >= 2
        }
    }
}
