//! `gamut datagen`: self-play games at a fixed node budget per move,
//! written as training data for a learned evaluation
//! ([`gamut::games::data`], documented in `docs/datagen.md`).

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut::bits::splitmix64;
use gamut::evaluate::{FullGame, EVAL_LIMIT};
use gamut::game::{Game, NodeKind, NodeRules, Player};
use gamut::games::data::{encode_game_in, write_header, GameRecord, Reader, Sample, VERSION};
use gamut::games::GameId;
use gamut::paths::check_outputs;
use gamut::search::draw::pick;
use gamut::search::sides::{merge, players_of, Tuple, TwoSided, DEFAULT_WIDTH};
use gamut::search::{self, Config, Evaluation, Limits, Table, Verdict};
use gamut::tournament::schedule::MAX_GAMES;
use gamut::with_game;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The transposition table of each game's searches (and of each position's,
/// for `solve --scored-by search`), in MiB.
pub(super) const HASH_MIB: usize = 16;
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
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Append to an existing file: check and count its games and play the
    /// rest (only a last game the file ends inside is dropped; a damaged
    /// game is refused, naming its byte offset).
    #[arg(long)]
    pub resume: bool,
    /// The self-play search's evaluation: a later generation's data is
    /// played with the network of the generation before.
    #[command(flatten)]
    pub evaluation: gamut::search::options::EvalOptions,
}

/// Parses `K/N` with 1 ≤ K ≤ N.
pub(super) fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// How many of `games` games share `k` of `n` plays (those numbered
/// `k - 1` modulo `n`); its `j`-th is game `k - 1 + j n`. The numbers are
/// made as they are played, whatever their count.
pub(super) fn share_count(games: u64, k: u64, n: u64) -> u64 {
    games.saturating_sub(k - 1).div_ceil(n)
}

/// Runs `gamut datagen`.
pub fn datagen(a: &DatagenArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    with_game!(a.game, G => run::<G>(a, quiet, out))
}

fn run<G: FullGame>(a: &DatagenArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let (k, n) = a.shard.unwrap_or((1, 1));
    let self_play = SelfPlay::new::<G>(a.evaluation.evaluation::<G>()?);
    if let Some(net) = &a.evaluation.net {
        check_outputs(&[("--net", net)], &[("--out", &a.out)])?;
    }
    let (mut file, done, version) = open::<G>(a)?;
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
        let game = self_play.game(a.seed, a.random_plies, i, &limits)?;
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
fn open<G: Game>(a: &DatagenArgs) -> Result<(File, u64, u16), CliError> {
    let path = &a.out;
    let cannot = |e: std::io::Error| CliError(format!("cannot open {}: {e}", path.display()));
    if a.resume && path.exists() {
        let mut reader = Reader::new(BufReader::new(File::open(path).map_err(cannot)?))
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        if reader.game() != G::ID {
            return Err(CliError(format!(
                "{}: holds {} data, not {}",
                path.display(),
                reader.game(),
                G::ID
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
    write_header(&mut file, G::ID).map_err(cannot)?;
    Ok((file, 0, VERSION))
}

/// Game number `i` of the data of `seed`: its own random stream (from
/// `seed` and `i` alone), a table for its searches, and the start.
fn new_game<G: Game>(seed: u64, i: u64) -> Result<(StdRng, Table, G), CliError> {
    let rng = StdRng::seed_from_u64(splitmix64(seed ^ splitmix64(i)));
    Ok((rng, Table::try_new(HASH_MIB)?, G::start()))
}

/// The position after the chance outcome drawn at `pos` with the game's
/// probabilities.
fn roll<G: Game>(pos: &G, rng: &mut StdRng, moves: &mut Vec<G::Move>) -> G {
    pos.moves(moves);
    pos.play(pick(rng, moves.iter().map(|&m| (m, pos.probability(m)))))
}

/// One self-play game: the seed, the random plies, the game's number, the
/// limits and the search's configuration ([`play_game`] or
/// [`play_seated_game`]).
type PlayOne = fn(u64, u32, u64, &Limits, &Config) -> Result<GameRecord, CliError>;

/// How self-play plays the games of one game with one evaluation: in a
/// game of more than two players each side by its own paranoid search
/// ([`TwoSided`], which reads the game's network for its side), otherwise
/// by the game's search.
pub(super) struct SelfPlay {
    config: Config,
    play: PlayOne,
}

impl SelfPlay {
    /// Self-play of `G` evaluating with `eval`.
    pub(super) fn new<G: FullGame>(eval: Evaluation) -> SelfPlay {
        if G::players() > 2 {
            SelfPlay {
                config: Config::new::<TwoSided<G>>(1, eval),
                play: play_seated_game::<G>,
            }
        } else {
            SelfPlay {
                config: Config::new::<G>(1, eval),
                play: play_game::<G>,
            }
        }
    }

    /// Game number `i` of the data of `seed`, after `random_plies` random
    /// plies, each search within `limits`.
    pub(super) fn game(
        &self,
        seed: u64,
        random_plies: u32,
        i: u64,
        limits: &Limits,
    ) -> Result<GameRecord, CliError> {
        (self.play)(seed, random_plies, i, limits, &self.config)
    }
}

/// Game number `i` of the data of `seed`: `random_plies` random decision
/// plies from its own seed, then the
/// search's choice at every ply; keeps the decision positions whose best
/// move is not a capture ([`gamut::evaluate::Evaluate::is_capture`]) and whose score is not
/// a proven result, and the simultaneous nodes (round starts) whose matrix
/// game was solved to a value that is not a proven result. Chance outcomes
/// are drawn with the game's probabilities, and joint actions from the
/// mixed strategies the search found (uniformly during the random plies),
/// all from the game's own random stream; neither uses a ply.
fn play_game<G: FullGame>(
    seed: u64,
    random_plies: u32,
    i: u64,
    limits: &Limits,
    config: &Config,
) -> Result<GameRecord, CliError> {
    let (mut rng, tt, mut pos) = new_game::<G>(seed, i)?;
    let mut moves = Vec::new();
    let mut theirs = Vec::new();
    let mut samples = Vec::new();
    let mut ply = 0;
    let winner = loop {
        let side = match pos.node() {
            NodeKind::Terminal => break pos.outcome().and_then(|o| o.winner),
            _ if ply >= G::INFO.ply_limit => break None,
            NodeKind::Decision(p) => p,
            NodeKind::Chance => {
                pos = roll(&pos, &mut rng, &mut moves);
                continue;
            }
            NodeKind::Simultaneous => {
                let (first, second) = if ply < random_plies {
                    pos.actions(Player::FIRST, &mut moves);
                    pos.actions(Player::SECOND, &mut theirs);
                    (
                        moves[rng.gen_range(0..moves.len())],
                        theirs[rng.gen_range(0..theirs.len())],
                    )
                } else {
                    let r = search::search_simultaneous(&pos, limits, config, &tt, |_| {});
                    let value = r.value.round();
                    if r.depth > 0 && value.abs() <= f64::from(EVAL_LIMIT) {
                        samples.push(Sample {
                            text: pos.text(),
                            side: pos.perspective(),
                            score: value as i16,
                        });
                    }
                    let [s0, s1] = &r.strategies;
                    (
                        pick(&mut rng, s0.iter().copied()),
                        pick(&mut rng, s1.iter().copied()),
                    )
                };
                pos = pos.play_joint(first, second);
                continue;
            }
        };
        let m = if ply < random_plies {
            pos.moves(&mut moves);
            moves[rng.gen_range(0..moves.len())]
        } else {
            let r = search::search(&pos, limits, config, &tt, |_| {});
            if !pos.is_capture(r.best) && r.score.abs() <= EVAL_LIMIT {
                samples.push(Sample {
                    text: pos.text(),
                    side,
                    score: r.score as i16,
                });
            }
            r.best
        };
        pos = pos.play(m);
        ply += 1;
    };
    Ok(GameRecord { winner, samples })
}

/// Game number `i` of the data of `seed` in a game of more than two
/// players: every side plays by its own paranoid search ([`TwoSided`], its
/// players against all the others) with `config`. At a round start each
/// side's search scores the position for that side, a sample per side, and
/// its mixed strategy gives its players' actions; at a decision the
/// mover's side searches, chooses and scores. During the first
/// `random_plies` decision plies every player acts uniformly at random and
/// nothing is kept. Kept are the scores that are not proven results, each
/// with the side it is for; the game's winner is a side.
fn play_seated_game<G: FullGame>(
    seed: u64,
    random_plies: u32,
    i: u64,
    limits: &Limits,
    config: &Config,
) -> Result<GameRecord, CliError> {
    let (mut rng, tt, mut pos) = new_game::<G>(seed, i)?;
    let mut moves = Vec::new();
    let mut samples = Vec::new();
    let mut ply = 0;
    let sides = G::INFO.sides.len();
    let mut keep = |pos: &G, side: Player, score: f64| {
        let score = score.round();
        if score.abs() <= f64::from(EVAL_LIMIT) {
            samples.push(Sample {
                text: pos.text(),
                side,
                score: score as i16,
            });
        }
    };
    let winner = loop {
        match pos.node() {
            NodeKind::Terminal => break pos.outcome().and_then(|o| o.winner),
            _ if ply >= G::INFO.ply_limit => break None,
            NodeKind::Chance => pos = roll(&pos, &mut rng, &mut moves),
            NodeKind::Simultaneous => {
                let mut parts: Vec<Tuple<G::Move>> = Vec::with_capacity(sides);
                for side in (0..sides).map(Player::nth) {
                    let mut t = [None; gamut::search::sides::MAX_PLAYERS];
                    if ply < random_plies {
                        for p in players_of::<G>(side, false) {
                            pos.actions(p, &mut moves);
                            t[p.index()] = Some(moves[rng.gen_range(0..moves.len())]);
                        }
                    } else {
                        let view = TwoSided::new(pos.clone(), side, DEFAULT_WIDTH);
                        let Verdict::Simultaneous(r) =
                            search::run(&view, limits, config, &tt, None, &mut |_| {})
                        else {
                            unreachable!("a round start is simultaneous in every view")
                        };
                        if r.depth > 0 {
                            keep(&pos, side, r.value);
                        }
                        t = pick(&mut rng, r.strategies[0].iter().copied());
                    }
                    parts.push(t);
                }
                let tuples: Vec<&Tuple<G::Move>> = parts.iter().collect();
                pos = pos.play_joint_all(&merge(&tuples, G::players()));
            }
            NodeKind::Decision(side) => {
                let m = if ply < random_plies {
                    pos.moves(&mut moves);
                    moves[rng.gen_range(0..moves.len())]
                } else {
                    let view = TwoSided::new(pos.clone(), side, DEFAULT_WIDTH);
                    let Verdict::Decision(r) =
                        search::run(&view, limits, config, &tt, None, &mut |_| {})
                    else {
                        unreachable!("a decision is a decision in every view")
                    };
                    if r.depth > 0 {
                        keep(&pos, side, f64::from(r.score));
                    }
                    r.best[0].expect("a decision's move")
                };
                pos = pos.play(m);
                ply += 1;
            }
        }
    };
    Ok(GameRecord { winner, samples })
}

#[cfg(test)]
mod tests {
    use super::{parse_shard, share_count};

    #[test]
    fn shards_are_k_of_n() {
        assert_eq!(parse_shard("3/8"), Ok((3, 8)));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("8").is_err());
        assert_eq!(share_count(10, 3, 4), 2, "games 2 and 6");
        assert_eq!(share_count(10, 1, 1), 10);
        assert_eq!(share_count(2, 3, 4), 0);
        assert_eq!(share_count(u64::MAX, 1, 1), u64::MAX);
    }
}
