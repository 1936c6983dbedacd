//! `gamut datagen`: self-play games at a fixed node budget per move,
//! written as training data for a learned evaluation
//! ([`gamut_games::data`], documented in `docs/datagen.md`).

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut_core::paths::check_outputs;
use gamut_games::data::{encode_game_in, write_header, Reader, VERSION};
use gamut_games::GameId;
use gamut_search::Limits;
use gamut_tournament::schedule::{Shard, MAX_GAMES};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::Instant;

pub(super) use gamut_players::selfplay::HASH_MIB;
/// Search nodes per move (or per position) of data, by default.
pub(super) const NODES: u64 = 4000;

/// Options of `gamut datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game. In a game of more than two players (`spokes4`,
    /// `spokes2v2`) every side plays and scores by its paranoid search.
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// The file to write (with --resume: to append to).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games in all, over every shard.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Search nodes per move.
    #[arg(long, value_name = "N", default_value_t = NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Uniformly random plies at the start of each game.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub random_plies: u32,
    /// Seed: game i's random plies come from (seed, i) alone, so the data
    /// does not depend on sharding or resuming.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub seed: u64,
    /// Play only part K of N: the games whose number is K-1 modulo N
    /// (e.g. 3/8); the parts' files concatenated after the first one's
    /// header make the whole.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Append to an existing file: check and count its games and play the
    /// rest (only a last game the file ends inside is dropped; a damaged
    /// game is refused, naming its byte offset).
    #[arg(long)]
    pub resume: bool,
    /// The self-play search's evaluation: a later generation's data is
    /// played with the network of the generation before.
    #[command(flatten)]
    pub evaluation: gamut_search::options::EvalOptions,
}

/// How many of `games` games share `k` of `n` plays (those numbered
/// `k - 1` modulo `n`); its `j`-th is game `k - 1 + j n`. The numbers are
/// made as they are played, whatever their count.
pub(super) fn share_count(games: u64, k: u64, n: u64) -> u64 {
    games.saturating_sub(k - 1).div_ceil(n)
}

/// Runs `gamut datagen`.
pub fn datagen(a: &DatagenArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let (k, n) = a.shard.map_or((1, 1), |sh| (sh.index + 1, sh.count));
    let game = gamut_engine::game(a.game);
    let self_play =
        game.self_play(game.evaluation(a.evaluation.eval, a.evaluation.net.as_deref())?);
    if let Some(net) = &a.evaluation.net {
        check_outputs(&[("--net", net)], &[("--out", &a.out)])?;
    }
    let (mut file, done, version) = open(a)?;
    let count = share_count(a.games, k, n).saturating_sub(done);
    let todo = (0..count).map(|j| k - 1 + (done + j) * n);
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let progress = Progress::new(count, "{bar:30} {pos}/{len} games {msg} eta {eta}", quiet);
    let started = Instant::now();
    let mut positions = 0u64;
    for i in todo {
        let game = self_play.game(a.seed, a.random_plies, i, &limits);
        positions += game.samples.len() as u64;
        file.write_all(&encode_game_in(&game, version))
            .and_then(|_| file.flush())
            .map_err(|e| CliError(format!("cannot write {}: {e}", a.out.display())))?;
        progress.inc();
        let rate = positions as f64 / started.elapsed().as_secs_f64().max(1e-9);
        progress.set_message(format!("{positions} positions {rate:.0}/s"));
    }
    progress.finish();
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "games {count} positions {positions} time {secs:.1} s positions/s {:.1}",
        positions as f64 / secs.max(1e-9)
    )?;
    Ok(())
}

/// The output file, positioned for appending, how many of this shard's
/// games it holds already, and the format version to append in (the
/// file's own).
fn open(a: &DatagenArgs) -> Result<(File, u64, u16), CliError> {
    let path = &a.out;
    let id = a.game.name();
    let cannot = |e: std::io::Error| CliError(format!("cannot open {}: {e}", path.display()));
    if a.resume && path.exists() {
        let mut reader = Reader::new(BufReader::new(File::open(path).map_err(cannot)?))
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        if reader.game() != id {
            return Err(CliError(format!(
                "{}: holds {} data, not {id}",
                path.display(),
                reader.game(),
            )));
        }
        if reader.version() < 2 {
            return Err(CliError(format!(
                "{}: format version {} has no checksums, so --resume cannot tell a torn game from a damaged one: write a new file",
                path.display(),
                reader.version()
            )));
        }
        let (games, end) = reader
            .resume_point()
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        let mut file = OpenOptions::new().write(true).open(path).map_err(cannot)?;
        file.set_len(end).map_err(cannot)?;
        file.seek(SeekFrom::Start(end)).map_err(cannot)?;
        return Ok((file, games, reader.version()));
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(!a.resume)
        .create(a.resume)
        .truncate(a.resume)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                CliError(format!(
                    "{} exists: give --resume to add to it, or another file",
                    path.display()
                ))
            } else {
                cannot(e)
            }
        })?;
    write_header(&mut file, id).map_err(cannot)?;
    Ok((file, 0, VERSION))
}

#[cfg(test)]
mod tests {
    use super::{share_count, Shard};

    #[test]
    fn shards_are_k_of_n() {
        let k_of_n = |text| Shard::parse(text).map(|sh| (sh.index + 1, sh.count));
        assert_eq!(k_of_n("3/8"), Ok((3, 8)));
        assert!(k_of_n("0/8").is_err());
        assert!(k_of_n("9/8").is_err());
        assert!(k_of_n("8").is_err());
        assert_eq!(share_count(10, 3, 4), 2, "games 2 and 6");
        assert_eq!(share_count(10, 1, 1), 10);
        assert_eq!(share_count(2, 3, 4), 0);
        assert_eq!(share_count(u64::MAX, 1, 1), u64::MAX);
    }
}
