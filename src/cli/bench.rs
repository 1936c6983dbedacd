//! `gamut bench`: perft and search speed at each game's bench positions
//! ([`GameInfo::bench`](gamut_core::game::GameInfo::bench)), as medians of
//! several runs, and how much the whole search figure varied between runs.

use super::args::{parse_game, perft_depth};
use super::CliError;
use clap::Args;
use gamut_core::game::BenchCase;
use gamut_games::GameId;
use gamut_search::{self as search, Limits, Table};
use std::io::Write;
use std::time::Instant;

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
    #[command(flatten)]
    pub evaluation: gamut_search::options::EvalOptions,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `gamut bench`.
pub fn bench(a: &BenchArgs, out: &mut impl Write) -> Result<(), CliError> {
    let games: Vec<GameId> = match a.game {
        Some(g) => vec![g],
        None => GameId::ALL.to_vec(),
    };
    for &id in &games {
        gamut_engine::game(id).evaluation(a.evaluation.eval, a.evaluation.net.as_deref())?;
    }
    writeln!(
        out,
        "{:<12} {:>6} {:>14} {:>14} {:>6} {:>12} {:>12} {:>10}",
        "game", "perft", "leaves", "leaves/s", "search", "nodes", "nodes/s", "cells/s"
    )?;
    let mut nodes = 0;
    // The search time of every case, run by run.
    let mut run_seconds = vec![0.0; a.runs as usize];
    for id in games {
        for case in gamut_engine::game(id).info().bench {
            let row = bench_case(id, case, a)?;
            writeln!(out, "{}", row.line)?;
            out.flush()?;
            nodes += row.nodes;
            for (total, t) in run_seconds.iter_mut().zip(&row.seconds) {
                *total += t;
            }
        }
    }
    let rates: Vec<f64> = run_seconds
        .iter()
        .map(|&t| nodes as f64 / t.max(1e-9))
        .collect();
    writeln!(
        out,
        "signature nodes {nodes} nps {:.0} spread {:.1}%",
        median(rates.clone()),
        100.0 * spread(&rates)
    )?;
    Ok(())
}

/// How far apart the highest and lowest of `rates` are, as a fraction of
/// their median.
fn spread(rates: &[f64]) -> f64 {
    let max = rates.iter().copied().fold(f64::MIN, f64::max);
    let min = rates.iter().copied().fold(f64::MAX, f64::min);
    (max - min) / median(rates.to_vec()).max(1e-9)
}

/// One bench case's printed row, its search nodes and the time of each
/// run of its search.
struct Row {
    line: String,
    nodes: u64,
    seconds: Vec<f64>,
}

fn bench_case(id: GameId, case: &BenchCase, a: &BenchArgs) -> Result<Row, CliError> {
    let pd = a.perft_depth.unwrap_or(case.perft_depth);
    let sd = a.search_depth.unwrap_or(case.search_depth);
    let threads = a.threads as usize;
    let game = gamut_engine::game(id);
    let start = game
        .parse(case.position)
        .map_err(|e| CliError(format!("bad bench position for {id}: {e}")))?;
    let perft_start = start.clone();
    let mut leaves = 0;
    let mut perft_rates = Vec::new();
    for _ in 0..a.runs {
        let t = Instant::now();
        leaves = perft_start.perft_threads(pd, threads);
        perft_rates.push(leaves as f64 / t.elapsed().as_secs_f64().max(1e-9));
    }
    // Search the position, whatever its kind: the entry point handles
    // decision, chance and simultaneous roots alike.
    let eval = game.evaluation(a.evaluation.eval, a.evaluation.net.as_deref())?;
    let mut config = game.config_with(threads, eval);
    if a.exact {
        config = config.exact();
    }
    let limits = Limits {
        depth: Some(sd),
        ..Limits::default()
    };
    let mut nodes = 0;
    // Matrix cells searched, at a simultaneous root.
    let mut cells = None;
    let mut times = Vec::new();
    for _ in 0..a.runs {
        let tt = Table::try_new(search::params::DEFAULT_HASH_MIB)?;
        let t = Instant::now();
        // In a game of more than two players, each side's paranoid search
        // in turn, as `analyze` runs them.
        (nodes, cells) = start.bench_search(&limits, &config, &tt);
        times.push(t.elapsed().as_secs_f64());
    }
    let seconds = median(times.clone());
    let cell_rate = match cells {
        Some(c) => format!("{:.0}", c as f64 / seconds.max(1e-9)),
        None => "-".to_string(),
    };
    let line = format!(
        "{:<12} {:>6} {:>14} {:>14.0} {:>6} {:>12} {:>12.0} {:>10}",
        id.name(),
        pd,
        leaves,
        median(perft_rates),
        sd,
        nodes,
        nodes as f64 / seconds.max(1e-9),
        cell_rate
    );
    Ok(Row {
        line,
        nodes,
        seconds: times,
    })
}
