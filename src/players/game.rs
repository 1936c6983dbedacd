//! One game between engines, one per side, from an opening, with
//! adjudication and game clocks, played into its [`GameRecord`]: the one
//! game loop of tournaments, balance runs, tuning and self-play for
//! training data ([`crate::selfplay`]).

use crate::clock::TimeControl;
use crate::engine::{Engine, Evaluated, Instance};
use crate::external::Forfeit;
use crate::record::{Adjudicator, GameRecord, JointStep, StepScore};
use crate::seed::{seed_for, Stream};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_core::platform::Instant;
use gamut_search::draw::pick;
use gamut_search::sides::{merge, tuple_text, Tuple};
use gamut_search::Clock;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// How games end besides the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Decision plies after which the game is a draw (`ply limit`).
    pub ply_limit: u32,
    /// Resign and draw adjudication on the engines' scores (kept in each
    /// record, which is checked against it).
    pub adjudicate: Adjudicator,
    /// How far past its clock an engine with a `tc=` may go before it
    /// loses on time.
    pub time_margin: Duration,
}

/// What one game needs besides the engines.
#[derive(Clone, Debug)]
pub struct Setup<G> {
    /// The game's number (from 1).
    pub number: u64,
    /// The pair's number, in a game of two sides.
    pub pair: Option<u64>,
    /// The opening's index as the record keeps it ([`Plan::recorded_opening`]).
    pub opening_index: Option<u64>,
    /// The opening position.
    pub opening: G,
    /// The tournament seed.
    pub seed: u64,
}

/// How many engine streams each game number has room for: one per side,
/// two in a game of two players, up to eight in a game of more.
fn streams<G: Game>() -> u64 {
    if G::players() == 2 {
        2
    } else {
        8
    }
}

/// How many of a side's mixed strategy's choices a record keeps in a game
/// of more than two players (a team's joint choices multiply).
const STRATEGY_KEPT: usize = 10;

/// Who plays a game's sides.
#[derive(Copy, Clone, Debug)]
pub enum Sides<'a> {
    /// An engine for each side, in the order of the sides, each with its
    /// own table and random stream (a tournament's game).
    Each(&'a [&'a Engine]),
    /// One engine playing every side with one table and one random stream
    /// (self-play): a round start of two players is searched once for
    /// both.
    Shared(&'a Engine),
}

/// What a game's engines said as it was played: called with the position
/// of each choice made by a search, the move chosen at a decision (`None`
/// at a round start) and what the search said.
pub type Watch<'a, G> = dyn FnMut(&G, Option<<G as Game>::Move>, Evaluated) + 'a;

/// Plays game `setup.number` between `sides`; `encounter` is the pair's
/// two engines in a game of two sides; `watch` sees what each search said.
/// Returns `None` if `stop` was raised before it ended.
pub fn play_game<G: Evaluate + Notation>(
    setup: &Setup<G>,
    sides: Sides<'_>,
    encounter: Option<[&Engine; 2]>,
    rules: &Rules,
    stop: &AtomicBool,
    watch: &mut Watch<'_, G>,
) -> Option<GameRecord> {
    let started = Instant::now();
    let two = G::players() == 2;
    let count = G::INFO.sides.len();
    let shared;
    let engines: &[&Engine] = match sides {
        Sides::Each(engines) => engines,
        Sides::Shared(engine) => {
            shared = vec![engine; count];
            &shared
        }
    };
    let one = matches!(sides, Sides::Shared(_));
    let instances = if one { 1 } else { count };
    let mut players: Vec<Instance> = engines[..instances]
        .iter()
        .enumerate()
        .map(|(s, e)| {
            let seed = seed_for(
                setup.seed,
                Stream::Engine,
                streams::<G>() * setup.number + s as u64,
            );
            let instance = Instance::new(e, seed).interruptible(stop);
            if one {
                instance.keeping_table()
            } else {
                instance
            }
        })
        .collect();
    let player_of = |side: usize| if one { 0 } else { side };
    let mut chance = StdRng::seed_from_u64(seed_for(
        setup.seed,
        Stream::Chance,
        setup.opening_index.unwrap_or(0),
    ));
    let mut pos = setup.opening.clone();
    let mut moves = Vec::new();
    let mut rolls = Vec::new();
    let mut joint = Vec::new();
    let mut scored = Vec::new();
    // Decision scores from the first player's view, `None` for engines
    // without a score.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut buf = Vec::new();
    let tcs: Vec<Option<TimeControl>> = engines.iter().map(|e| e.tc).collect();
    let mut clocks: Vec<Option<Clock>> = tcs.iter().map(|tc| tc.map(|tc| tc.start())).collect();
    let margin = rules.time_margin;
    let (winner, reason, points, adjudicated) = loop {
        if let Some(o) = pos.outcome() {
            break (o.winner, o.reason.to_string(), o.points, false);
        }
        if scores.len() as u32 >= rules.ply_limit {
            break (None, "ply limit".to_string(), None, true);
        }
        if stop.load(Relaxed) {
            return None;
        }
        match pos.node() {
            NodeKind::Decision(side) => {
                let player = &mut players[player_of(side.index())];
                player.set_clocks(&clocks);
                let thinking = Instant::now();
                let c = match player.decide(&pos) {
                    Ok(c) => c,
                    Err(f) => break forfeit(side, &f),
                };
                if let Some(e) = player.take_evaluated() {
                    watch(&pos, Some(c.mv), e);
                }
                let s = side.index();
                let took = thinking.elapsed();
                if let Some(lost) = charge(tcs[s], &mut clocks[s], side, took, margin) {
                    break lost;
                }
                if let Some(score) = c.score {
                    scored.push(StepScore {
                        step: moves.len(),
                        score,
                        depth: c.depth,
                        time_ms: Some(u64::try_from(took.as_millis()).unwrap_or(u64::MAX)),
                    });
                }
                moves.push(pos.move_text(c.mv));
                scores.push(c.score.map(|s| if side == Player::FIRST { s } else { -s }));
                pos = pos.play(c.mv);
                // A move that ends the game by the rules is not adjudicated.
                if pos.outcome().is_none() {
                    if let Some((w, a)) = rules.adjudicate.judge(&scores) {
                        break (w, a.reason().into(), None, true);
                    }
                }
            }
            NodeKind::Chance => {
                pos.moves(&mut buf);
                let m = pick(&mut chance, buf.iter().map(|&m| (m, pos.probability(m))));
                let text = pos.move_text(m);
                rolls.push(text.clone());
                moves.push(text);
                pos = pos.play(m);
            }
            NodeKind::Simultaneous => {
                let mut spent = Vec::new();
                let mut answers = Vec::new();
                for side in 0..count {
                    let player = &mut players[player_of(side)];
                    player.set_clocks(&clocks);
                    let thinking = Instant::now();
                    answers.push(player.joint(&pos, Player::nth(side)));
                    spent.push(thinking.elapsed());
                    if let Some(e) = player.take_evaluated() {
                        watch(&pos, None, e);
                    }
                }
                let mut parts = Vec::new();
                let mut lost = None;
                for (s, answer) in answers.into_iter().enumerate() {
                    match answer {
                        Ok(j) => parts.push(j),
                        Err(f) => {
                            lost = Some(forfeit(Player::nth(s), &f));
                            break;
                        }
                    }
                }
                for s in 0..parts.len() {
                    if lost.is_some() {
                        break;
                    }
                    lost = charge(tcs[s], &mut clocks[s], Player::nth(s), spent[s], margin);
                }
                if let Some(lost) = lost {
                    break lost;
                }
                let tuples: Vec<&Tuple<G::Move>> = parts.iter().map(|j| &j.actions).collect();
                let actions = merge(&tuples, G::players());
                let kept = if two { usize::MAX } else { STRATEGY_KEPT };
                joint.push(JointStep {
                    step: moves.len(),
                    actions: actions.iter().map(|&a| pos.move_text(a)).collect(),
                    strategies: parts
                        .iter()
                        .map(|j| {
                            j.strategy
                                .iter()
                                .take(kept)
                                .map(|(t, p)| (tuple_text(&pos, t), *p))
                                .collect()
                        })
                        .collect(),
                });
                moves.push(pos.joint_text_all(&actions));
                pos = pos.play_joint_all(&actions);
            }
            NodeKind::Terminal => unreachable!("terminal positions have an outcome"),
        }
    };
    Some(GameRecord {
        game: G::ID.to_string(),
        number: setup.number,
        pair: setup.pair,
        encounter: encounter.map(|pair| pair.map(|e| e.name.clone())),
        opening_index: setup.opening_index,
        opening: setup.opening.text(),
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        specs: engines.iter().map(|e| e.spec.clone()).collect(),
        moves,
        rolls,
        joint,
        scores: scored,
        result: two.then(|| GameRecord::result_text(winner).to_string()),
        winner: winner.map(|p| p.index() as u8 + 1),
        reason,
        adjudicated,
        // Points are a pair's: games of more than two players score none.
        points: points.filter(|_| two).map(|p| p.to_vec()),
        plies: scores.len() as u32,
        ply_limit: Some(rules.ply_limit),
        // Games of more than two sides are not adjudicated on scores.
        adjudicate: two.then_some(rules.adjudicate),
        time_ms: started.elapsed().as_millis() as u64,
        seed: Some(setup.seed),
    })
}

type Ending = (Option<Player>, String, Option<[u32; 2]>, bool);

/// Charges `side`, under time control `tc` with `clock`, for a choice that
/// took `spent`: the ending if it ran out of time (past `margin`), else
/// its clock runs on.
fn charge(
    tc: Option<TimeControl>,
    clock: &mut Option<Clock>,
    side: Player,
    spent: Duration,
    margin: Duration,
) -> Option<Ending> {
    let (Some(tc), Some(c)) = (tc, *clock) else {
        return None;
    };
    if spent > c.remaining + margin {
        let f = Forfeit(format!(
            "time: {} ms spent with {} ms left",
            spent.as_millis(),
            c.remaining.as_millis()
        ));
        return Some(forfeit(side, &f));
    }
    *clock = Some(tc.after_move(c, spent));
    None
}

/// The ending of a game `loser` forfeited: a win for the other side.
fn forfeit(loser: Player, f: &Forfeit) -> Ending {
    (Some(loser.other()), f.reason(), None, true)
}

/// Plays `plies` random decision plies from `start`; `None` if the game
/// ends first.
pub fn random_walk<G: Game>(start: &G, plies: u32, rng: &mut StdRng) -> Option<G> {
    walk(start, plies, rng, &mut |_, moves, rng| {
        Some(moves[rng.gen_range(0..moves.len())])
    })
}

/// Picks one of a decision node's moves (`None`: give up the walk).
pub type Chooser<'a, G> =
    dyn FnMut(&G, &[<G as Game>::Move], &mut StdRng) -> Option<<G as Game>::Move> + 'a;

/// Plays `plies` decision plies from `start`, each the move `choose` picks
/// among the position's moves; chance outcomes are drawn by their
/// probabilities and every player's action uniformly, using no ply. `None` if the
/// game ends first or `choose` gives up.
pub fn walk<G: Game>(
    start: &G,
    plies: u32,
    rng: &mut StdRng,
    choose: &mut Chooser<'_, G>,
) -> Option<G> {
    let mut pos = start.clone();
    let mut played = 0;
    let mut v = Vec::new();
    let mut w = Vec::new();
    loop {
        match pos.node() {
            NodeKind::Terminal => return None,
            _ if played == plies => return Some(pos),
            NodeKind::Decision(_) => {
                pos.moves(&mut v);
                pos = pos.play(choose(&pos, &v, rng)?);
                played += 1;
            }
            NodeKind::Chance => {
                pos.moves(&mut v);
                let m = pick(rng, v.iter().map(|&m| (m, pos.probability(m))));
                pos = pos.play(m);
            }
            NodeKind::Simultaneous => {
                w.clear();
                for p in (0..G::players()).map(Player::nth) {
                    pos.actions(p, &mut v);
                    w.push(v[rng.gen_range(0..v.len())]);
                }
                pos = pos.play_joint_all(&w);
            }
        }
    }
}
