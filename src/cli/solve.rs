//! `gamut solve`: solve a game outright into a table file, and the table
//! lookup `show` prints.

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::paths::check_outputs;
use gamut_core::tablebase::agreement::{self as agree, Agreement};
use gamut_core::tablebase::{self, Oracle, Tablebase, Value};
use gamut_engine::{AnyGame, Position};
use gamut_games::data::{encode_game, read_all, write_header, GameRecord, Sample};
use gamut_games::{self as games, GameId};
use gamut_search::{Config, Eval, Limits, Table, Verdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Options of `gamut solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game to solve.
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// Where to write the table (default: `<game>.table` in
    /// `$XDG_DATA_HOME/gamut/` or `~/.local/share/gamut/`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Instead of solving: compare the evaluations (classic, and the
    /// network where the game has one) with the solved table on N random
    /// reachable positions: signs right on won and on lost positions,
    /// their balanced mean, and rank correlations.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000),
          conflicts_with_all = ["positions", "decided", "hold_out", "scored_by", "nodes"])]
    pub agreement: Option<u64>,
    /// With --agreement: the network file to compare instead of the
    /// game's built-in network.
    #[arg(long, value_name = "FILE", requires = "agreement")]
    pub net: Option<PathBuf>,
    /// With --agreement: leave out of the measured positions every one
    /// some position of these data files (`gamut datagen`'s format, e.g.
    /// a network's training data) stands for: the same text, or the same
    /// state of the table (the same position up to the game's symmetries).
    #[arg(long, value_name = "DATA", num_args = 1.., requires = "agreement")]
    pub unseen: Vec<PathBuf>,
    /// Instead of solving: write training data labelled by the table
    /// (the format `gamut datagen` writes, one position per game): random
    /// reachable positions, each scored by its exact value (a win in d
    /// plies 10,000 − d, a loss its negation, a draw 0; see --scored-by)
    /// with the result that value forces.
    #[arg(long, value_name = "FILE", conflicts_with = "agreement")]
    pub training_data: Option<PathBuf>,
    /// Positions to write, with --training-data.
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "training_data",
          value_parser = clap::value_parser!(u64).range(1..=50_000_000))]
    pub positions: u64,
    /// With --training-data: keep only the positions the table calls won
    /// or lost.
    #[arg(long, requires = "training_data")]
    pub decided: bool,
    /// With --training-data: leave out every position of about one table
    /// state in K (the states, positions up to symmetry, picked by a hash
    /// of their number), so that those states stay unseen: `--agreement
    /// --unseen FILE` then measures on them.
    #[arg(long, value_name = "K", requires = "training_data",
          value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub hold_out: Option<u64>,
    /// With --training-data: what scores each position: the table's exact
    /// value, or a search with the game's default evaluation at --nodes
    /// (the score the board shows as a win probability, so that
    /// `tools/winprob-fit.py` fits the board's scale to the table's
    /// results). A position whose search proves a result is left out.
    #[arg(long, value_enum, value_name = "BY", default_value_t = ScoredBy::Table, requires = "training_data")]
    pub scored_by: ScoredBy,
    /// Nodes of each position's search, with --scored-by search (default
    /// 4000, as `datagen`'s nodes a move).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: Option<u64>,
    /// The table to read (default: the one `solve` writes), with
    /// --agreement or --training-data.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Seed of the random positions, with --agreement or --training-data.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub seed: u64,
}

/// What scores a position of `--training-data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScoredBy {
    /// The table's exact value.
    Table,
    /// A search with the default evaluation.
    Search,
}

fn solver(id: GameId) -> Result<&'static dyn Tablebase, CliError> {
    games::tablebase(id).ok_or_else(|| CliError(format!("no solver for {id}")))
}

fn default_path(game: &str) -> Result<PathBuf, CliError> {
    tablebase::default_path(game).ok_or_else(|| {
        CliError("no data directory (set XDG_DATA_HOME or HOME, or give --out)".into())
    })
}

/// Solves the game, writes the table and prints the summary with the time
/// and peak memory.
pub fn solve(a: &SolveArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let tb = solver(a.game)?;
    if let Some(n) = a.agreement {
        return agreement(a, n as usize, out);
    }
    if let Some(path) = &a.training_data {
        return training_data(a, path, out);
    }
    if a.table.is_some() {
        return Err(CliError(
            "--table is read by --agreement or --training-data".into(),
        ));
    }
    let path = match &a.out {
        Some(p) => p.clone(),
        None => default_path(tb.game())?,
    };
    // The table's folder is made as writing the table makes it, and the
    // table proven writable before the solve.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError(format!(
                "--out {}: cannot create {}: {e}",
                path.display(),
                dir.display()
            ))
        })?;
    }
    check_outputs(&[], &[("--out", &path)])?;
    let started = Instant::now();
    // One bar per stage.
    let bar: Mutex<Option<(String, Progress)>> = Mutex::new(None);
    let progress = |stage: &str, done: u64, total: u64| {
        let mut guard = bar.lock().expect("progress lock");
        if guard.as_ref().is_none_or(|(s, _)| s != stage) {
            if let Some((_, old)) = guard.take() {
                old.finish();
            }
            let b = Progress::new(
                total,
                "{prefix:>15} {bar:40} {human_pos}/{human_len} states {elapsed} (eta {eta})",
                quiet,
            );
            b.set_prefix(stage.to_string());
            *guard = Some((stage.to_string(), b));
        }
        // Threads report out of order: the bar only moves forward.
        if let Some((_, b)) = guard.as_ref().filter(|(_, b)| done > b.position()) {
            b.set_position(done);
        }
    };
    let solution = tb.solve(a.threads as usize, &progress)?;
    if let Some((_, b)) = bar.lock().expect("progress lock").take() {
        b.finish();
    }
    // What was solved is printed even when the table cannot be written.
    let written = tablebase::write(&path, tb.game(), &solution.entries);
    for line in &solution.summary {
        writeln!(out, "{line}")?;
    }
    if written.is_ok() {
        writeln!(
            out,
            "table {} ({} bytes)",
            path.display(),
            solution.entries.len() + 40
        )?;
    }
    let memory =
        tablebase::peak_memory().map_or_else(|| "unknown".into(), |b| format!("{} MiB", b >> 20));
    writeln!(
        out,
        "time {:.1} s, peak memory {memory}, {} thread{}",
        started.elapsed().as_secs_f64(),
        a.threads,
        if a.threads == 1 { "" } else { "s" }
    )?;
    Ok(written?)
}

/// The table of game `G` to use: the one at `explicit`, else the one at the
/// default location if there is one; `None` when the game has no solver
/// and no table was asked for, or no table is there.
pub fn open_table(
    id: GameId,
    explicit: Option<&Path>,
) -> Result<Option<Box<dyn Oracle>>, CliError> {
    let Some(tb) = games::tablebase(id) else {
        return match explicit {
            Some(_) => Err(CliError(format!("no solver for {id}"))),
            None => Ok(None),
        };
    };
    match tablebase::locate(tb.game(), explicit) {
        Some(path) => Ok(Some(tb.open(&path)?)),
        None => Ok(None),
    }
}

/// `show`'s line with the exact value of `pos` and the moves keeping it,
/// when a table is there.
pub fn table_value(table: Option<&Path>, pos: &Position) -> Result<Option<String>, CliError> {
    let Some(oracle) = open_table(pos.game().id(), table)? else {
        return Ok(None);
    };
    let probe = oracle.probe(&pos.text())?;
    Ok(Some(format!(
        "value    {} (best: {})",
        probe.value,
        if probe.best.is_empty() {
            "-".to_string()
        } else {
            probe.best.join(" ")
        }
    )))
}

/// The table of the game for `--agreement` and `--training-data`.
fn required_table(a: &SolveArgs) -> Result<Box<dyn Oracle>, CliError> {
    open_table(a.game, a.table.as_deref())?.ok_or_else(|| {
        CliError(format!(
            "no table for {} (run 'gamut solve {}' first, or give --table)",
            a.game, a.game
        ))
    })
}

/// Random walks drawn per round of `--training-data`.
const ROUND: usize = 100_000;
/// Rounds in a row that find no new position before `--training-data`
/// stops short.
const BARREN_ROUNDS: u32 = 20;

/// `solve --training-data FILE`: `--positions` distinct random reachable
/// positions (only decided ones with `--decided`), each written as a game
/// of one position: scored by the table ([`Value::score`]) or by a search
/// (`--scored-by search`), from the side to move's view, with the result
/// the table's value forces (a draw for a draw).
fn training_data(a: &SolveArgs, path: &Path, out: &mut impl Write) -> Result<(), CliError> {
    let game = gamut_engine::game(a.game);
    let inputs: Vec<(&str, &Path)> = a.table.iter().map(|t| ("--table", t.as_path())).collect();
    check_outputs(&inputs, &[("--training-data", path)])?;
    if path.exists() {
        return Err(CliError(format!(
            "{} exists: choose another file",
            path.display()
        )));
    }
    let search = match (a.scored_by, a.nodes) {
        (ScoredBy::Table, Some(_)) => {
            return Err(CliError(
                "--nodes is read only with --scored-by search".into(),
            ))
        }
        (ScoredBy::Table, None) => None,
        (ScoredBy::Search, nodes) => Some(PositionSearch::new(
            game,
            nodes.unwrap_or(super::datagen::NODES),
        )?),
    };
    let table = required_table(a)?;
    let started = Instant::now();
    let want = a.positions as usize;
    let mut bytes = Vec::new();
    write_header(&mut bytes, a.game.name())?;
    let mut seen = rustc_hash::FxHashSet::default();
    let (mut written, mut decided, mut barren, mut round, mut drawn) =
        (0usize, 0usize, 0u32, 0u64, 0usize);
    let mut held = 0usize;
    while written < want && barren < BARREN_ROUNDS {
        let walks = if a.decided {
            ROUND
        } else {
            ROUND.min(want - written)
        };
        let seed = a
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(round);
        round += 1;
        drawn += walks;
        let before = written;
        for pos in game.random_positions(walks, seed) {
            if written == want {
                break;
            }
            let text = pos.text();
            if seen.contains(&text) {
                continue;
            }
            let value = table.probe(&text)?.value;
            if a.decided && value == Value::Draw {
                continue;
            }
            if let Some(k) = a.hold_out {
                let state = table.state(&text)?.ok_or_else(|| {
                    CliError(format!(
                        "{}'s table numbers no states: --hold-out needs them",
                        a.game
                    ))
                })?;
                if agree::held_out(state, k) {
                    held += 1;
                    continue;
                }
            }
            let side = pos.perspective();
            let winner = match value {
                Value::Win(_) => Some(side),
                Value::Loss(_) => Some(side.other()),
                Value::Draw => None,
            };
            let score = match &search {
                None => value.score(),
                Some(search) => match search.score(&pos) {
                    Some(score) => score,
                    None => continue,
                },
            };
            let score = i16::try_from(score).expect("a score within the limits fits 16 bits");
            decided += usize::from(winner.is_some());
            seen.insert(text.clone());
            bytes.extend(encode_game(&GameRecord {
                winner,
                samples: vec![Sample { text, side, score }],
            }));
            written += 1;
        }
        barren = if written > before { 0 } else { barren + 1 };
    }
    std::fs::write(path, &bytes)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    let held = match a.hold_out {
        Some(_) => format!(" held-out {held}"),
        None => String::new(),
    };
    writeln!(
        out,
        "positions {written} decided {decided}{held} walks {drawn} time {:.1} s",
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// The search that scores positions for `--scored-by search`.
struct PositionSearch {
    config: Config,
    limits: Limits,
    tt: Table,
}

impl PositionSearch {
    fn new(game: &dyn AnyGame, nodes: u64) -> Result<Self, CliError> {
        Ok(PositionSearch {
            config: game.default_config(1),
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            tt: Table::try_new(super::datagen::HASH_MIB)?,
        })
    }

    /// The search's score of `pos` (a decision position) for its side to
    /// move, from an empty table; none for a proven result (beyond the
    /// evaluation's limit).
    fn score(&self, pos: &Position) -> Option<i32> {
        self.tt.clear();
        let Verdict::Decision(r) =
            pos.search(&self.limits, &self.config, &self.tt, None, &mut |_| {})
        else {
            unreachable!("the positions scored are decisions")
        };
        (r.score.abs() <= EVAL_LIMIT).then_some(r.score)
    }
}

/// `solve --agreement N`: one line per evaluation with how well it orders
/// N random positions as the solved table does.
fn agreement(a: &SolveArgs, n: usize, out: &mut impl Write) -> Result<(), CliError> {
    let game = gamut_engine::game(a.game);
    let table = required_table(a)?;
    let mut positions = game.random_positions(n, a.seed);
    if !a.unseen.is_empty() {
        let drawn = positions.len();
        let mut seen = Vec::new();
        for path in &a.unseen {
            let file = std::fs::File::open(path)
                .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
            let games = read_all(std::io::BufReader::new(file), a.game.name())
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            seen.extend(games.into_iter().flat_map(|g| g.samples).map(|s| s.text));
        }
        let unseen = game.unseen(positions, seen, &*table)?;
        writeln!(
            out,
            "unseen drawn {drawn} kept {} left-out {} same-text {} same-state {} data-positions {} data-states {}",
            unseen.kept.len(),
            unseen.same_text + unseen.same_state,
            unseen.same_text,
            unseen.same_state,
            unseen.seen_texts,
            unseen.seen_states
        )?;
        positions = unseen.kept;
    }
    let classic = game.agreement(&positions, &*table, None)?;
    write_agreement(out, "classic", &classic)?;
    let net = match &a.net {
        Some(path) => Some(game.evaluation(Eval::Net, Some(path))?),
        None => game.builtin_evaluation(),
    };
    if let Some(net) = net {
        let net = game.agreement(&positions, &*table, Some(&net))?;
        write_agreement(out, "net", &net)?;
    }
    Ok(())
}

fn write_agreement(out: &mut impl Write, eval: &str, r: &Agreement) -> Result<(), CliError> {
    writeln!(
        out,
        "eval {eval} positions {} decided {} same-sign {} ({:.1}%) won {} right {} lost {} right {} balanced {:.1}% rank-correlation {:.3} decided-rank-correlation {:.3}",
        r.positions,
        r.decided,
        r.same_sign(),
        100.0 * r.same_sign_share(),
        r.won,
        r.won_right,
        r.lost(),
        r.lost_right,
        100.0 * r.balanced_share(),
        r.rank_correlation,
        r.decided_rank_correlation
    )?;
    out.flush()?;
    Ok(())
}
