//! Self-play for training data (`gamut datagen`, `gamut learn`): games
//! at a fixed node budget per move from the start, after a few random
//! plies, each played into the positions it keeps with their search
//! scores and the game's result ([`gamut_games::data`]).

use gamut_core::bits::splitmix64;
use gamut_core::evaluate::{Evaluate, EVAL_LIMIT};
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::data::{GameRecord, Sample};
use gamut_search::draw::pick;
use gamut_search::sides::{merge, players_of, Tuple, TwoSided, DEFAULT_WIDTH, MAX_PLAYERS};
use gamut_search::{self as search, Config, Evaluation, Limits, Table, TableAllocError, Verdict};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The transposition table of each game's searches (and of each
/// position's, for `solve --scored-by search`), in MiB.
pub const HASH_MIB: usize = 16;

/// Game number `i` of the data of `seed`: its own random stream (from
/// `seed` and `i` alone), a table for its searches, and the start.
fn new_game<G: Game>(seed: u64, i: u64) -> Result<(StdRng, Table, G), TableAllocError> {
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
/// limits and the search's configuration ([`two_player_game`] or
/// [`seated_game`]).
type PlayOne = fn(u64, u32, u64, &Limits, &Config) -> Result<GameRecord, TableAllocError>;

/// How self-play plays the games of one game with one evaluation: in a
/// game of more than two players each side by its own paranoid search
/// ([`TwoSided`], which reads the game's network for its side), otherwise
/// by the game's search.
pub struct SelfPlay {
    config: Config,
    play: PlayOne,
}

impl SelfPlay {
    /// Self-play of `G` evaluating with `eval`.
    #[must_use]
    pub fn new<G: Evaluate + Notation>(eval: Evaluation) -> SelfPlay {
        if G::players() > 2 {
            SelfPlay {
                config: Config::new::<TwoSided<G>>(1, eval),
                play: seated_game::<G>,
            }
        } else {
            SelfPlay {
                config: Config::new::<G>(1, eval),
                play: two_player_game::<G>,
            }
        }
    }

    /// Game number `i` of the data of `seed`, after `random_plies` random
    /// plies, each search within `limits`.
    ///
    /// # Errors
    /// A transposition table that cannot be had.
    pub fn game(
        &self,
        seed: u64,
        random_plies: u32,
        i: u64,
        limits: &Limits,
    ) -> Result<GameRecord, TableAllocError> {
        (self.play)(seed, random_plies, i, limits, &self.config)
    }
}

/// Game number `i` of the data of `seed`: `random_plies` random decision
/// plies from its own seed, then the
/// search's choice at every ply; keeps the decision positions whose best
/// move is not a capture ([`Evaluate::is_capture`]) and whose score is not
/// a proven result, and the simultaneous nodes (round starts) whose matrix
/// game was solved to a value that is not a proven result. Chance outcomes
/// are drawn with the game's probabilities, and joint actions from the
/// mixed strategies the search found (uniformly during the random plies),
/// all from the game's own random stream; neither uses a ply.
fn two_player_game<G: Evaluate + Notation>(
    seed: u64,
    random_plies: u32,
    i: u64,
    limits: &Limits,
    config: &Config,
) -> Result<GameRecord, TableAllocError> {
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
fn seated_game<G: Evaluate + Notation>(
    seed: u64,
    random_plies: u32,
    i: u64,
    limits: &Limits,
    config: &Config,
) -> Result<GameRecord, TableAllocError> {
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
                    let mut t = [None; MAX_PLAYERS];
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
