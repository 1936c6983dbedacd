//! The engine's work for the page, within the turns its searches get
//! ([`Turns`]: `gamut serve`'s scheduler of its threads, or the one thread
//! of a browser's Web Worker, [`crate::local`]): the analysis of a
//! position streamed as JSON events, the engine's choice of move, and the
//! scores along a game. The JSON itself is [`crate::page`]'s.

use crate::lines::{Line, Replayed};
use crate::page::{for_first, nps, progress_json, side_json};
use gamut_core::game::{NodeKind, Player};
use gamut_core::platform::Instant;
use gamut_engine::search::Step;
use gamut_engine::sides::{SidesPlan, SidesText};
use gamut_engine::AnyGame;
use gamut_engine::Position;
use gamut_players::engine::{Engine, Kind};
use gamut_search::draw::pick;
use gamut_search::score::{Score, WIN};
use gamut_search::sides::DEFAULT_WIDTH;
use gamut_search::sides_analysis::{Ended, Schedule};
use gamut_search::{Evaluation, Limits, Progress, Table, Verdict};
use rand::Rng;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// What one search may use: threads, table memory and an evaluation.
pub trait Share {
    /// Threads the search may use.
    fn threads(&self) -> usize;
    /// Its table's size in MiB.
    fn hash_mib(&self) -> usize;
    /// The evaluation a search of game `game` uses.
    fn evaluation(&self, game: &dyn AnyGame) -> Evaluation;
}

/// A search's turns on the threads it may use: the share it holds now,
/// its stop flag, and when asked to yield (its `halt` raised, not for
/// good: [`yielded`](Turns::yielded)) a wait for its next turn
/// ([`resume`](Turns::resume)).
pub trait Turns {
    /// What a turn grants.
    type Share: Share;
    /// The share held now.
    fn grant(&self) -> &Self::Share;
    /// Raised to stop the search now: to yield, or for good.
    fn halt(&self) -> &Arc<AtomicBool>;
    /// Whether the search stopped to yield its threads (not for good).
    fn yielded(&self) -> bool;
    /// Waits for the next turn, telling the page (through `send`) what it
    /// waits for; `false` if the page went away meanwhile.
    fn resume(&mut self, send: &mut dyn FnMut(Value) -> bool) -> bool;
}

/// `limits` less the time already spent (`spent`), for a search resumed
/// after yielding its threads.
fn left(limits: &Limits, spent: Duration) -> Limits {
    Limits {
        time: limits
            .time
            .map(|t| t.saturating_sub(spent).max(Duration::from_millis(1))),
        ..limits.clone()
    }
}

/// Searches `pos` within `limits` and the threads and hash of its turns
/// until the page goes away, sending each iteration with its `multipv`
/// best lines to `send` (which says `false` once nobody listens, which
/// stops the search), then the best move. Asked to yield, the search
/// stops, waits for its next turn and searches again (with a new table,
/// within what is left of the time), sending only iterations deeper than
/// those sent before.
pub fn analyse(
    line: &Replayed,
    limits: &Limits,
    multipv: usize,
    turns: &mut impl Turns,
    send: &mut dyn FnMut(Value) -> bool,
) {
    let pos = line.last();
    let game = pos.game();
    if game.players() != 2 {
        return analyse_sides(line, limits, multipv, turns, send);
    }
    let moves = line.moves();
    let mut deepest = 0;
    let mut spent = Duration::ZERO;
    loop {
        let grant = turns.grant();
        let config = gamut_search::Config {
            multipv,
            ..game.search_config(grant.threads(), grant.evaluation(game))
        };
        let tt = Table::new(grant.hash_mib());
        let halt = Arc::clone(turns.halt());
        let mut observe = |p: Progress<'_, Step>| {
            let depth = match &p {
                Progress::Decision(it) => it.depth,
                Progress::Chance(it) => it.depth,
                Progress::Simultaneous(m) => m.depth,
            };
            if depth <= deepest {
                return;
            }
            deepest = depth;
            if !send(progress_json(pos, p)) {
                halt.store(true, Relaxed);
            }
        };
        let started = Instant::now();
        let verdict = moves.search(
            &left(limits, spent),
            &config,
            &tt,
            Some(&halt),
            &mut observe,
        );
        spent += started.elapsed();
        drop(tt);
        if turns.yielded() {
            if !turns.resume(send) {
                return;
            }
            continue;
        }
        if turns.halt().load(Relaxed) {
            return;
        }
        let best = match verdict {
            Verdict::Decision(r) => Some(r.best.text),
            _ => None,
        };
        send(json!({"done": true, "best": best}));
        return;
    }
}

/// The analysis of a game of more than two players (`spokes4`,
/// `spokes2v2`), as `gamut analyze` gives it: each side's paranoid search
/// (the side against all the others) in turn, one depth at a time
/// ([`Schedule::Rounds`]), every side at a round start and the mover's
/// side at a decision. After each side's depth an event with every side's
/// latest value and strategy (or best lines at a decision) goes to
/// `send`; the search is one thread's, its table the grant's. Ends at
/// `limits`' depth or time (the time waiting for a turn not counted), or
/// when the page goes away; asked to yield, it waits for its next turn
/// and searches the same side to the same depth again.
fn analyse_sides(
    line: &Replayed,
    limits: &Limits,
    multipv: usize,
    turns: &mut impl Turns,
    send: &mut dyn FnMut(Value) -> bool,
) {
    let pos = line.last();
    let game = pos.game();
    if pos.node() == NodeKind::Terminal {
        send(json!({"done": true, "best": null}));
        return;
    }
    let start = Instant::now();
    let config = gamut_search::Config {
        multipv,
        ..game.search_config(1, turns.grant().evaluation(game))
    };
    let rounds = Limits {
        depth: Some(limits.depth.unwrap_or(64)),
        time: limits.time,
        ..Limits::default()
    };
    let moves = line.moves();
    let mut analysis = pos.sides_analysis(SidesPlan {
        sides: pos.sides_to_analyse(),
        width: DEFAULT_WIDTH,
        schedule: Schedule::Rounds,
        limits: rounds,
        fresh_table: false,
        shorts: Some(&moves),
    });
    let mut latest: Vec<Option<Value>> = vec![None; game.info().sides.len()];
    let mut found = None;
    let mut nodes = 0u64;
    let mut best = None;
    let mut gone = false;
    loop {
        let tt = Table::new(turns.grant().hash_mib());
        let ended = analysis.run(&config, &tt, Some(turns.halt()), &mut |r| match r {
            SidesText::Iteration { us, progress } => {
                found = side_json(game, us, progress);
                true
            }
            SidesText::Searched {
                us,
                verdict,
                completed,
            } => {
                nodes += match verdict {
                    Verdict::Decision(r) => r.nodes,
                    Verdict::Simultaneous(m) => m.nodes,
                    _ => 0,
                };
                let Some(v) = found.take().filter(|_| completed) else {
                    return true;
                };
                if let Verdict::Decision(r) = verdict {
                    best = r.best.actions[0].clone();
                }
                let depth = v["depth"].clone();
                latest[us.index()] = Some(v);
                let time = start.elapsed();
                let shown: Vec<&Value> = latest.iter().flatten().collect();
                let event = json!({
                    "depth": depth,
                    "side": us.index(),
                    "sides": shown,
                    "nodes": nodes,
                    "nps": nps(nodes, time),
                    "time_ms": time.as_millis() as u64,
                });
                gone = !send(event);
                // On unless the page went away.
                !gone && (!turns.halt().load(Relaxed) || turns.yielded())
            }
        });
        drop(tt);
        if ended == Ended::CutShort && turns.yielded() {
            let paused = Instant::now();
            if !turns.resume(send) {
                return;
            }
            analysis.pause(paused.elapsed());
            continue;
        }
        break;
    }
    if !gone && (!turns.halt().load(Relaxed) || turns.yielded()) {
        send(json!({"done": true, "best": best}));
    }
}

/// A chance outcome at `pos` drawn by its probability (`None` where `pos`
/// is not a chance node): what needs no search thread. A finished game
/// has no move.
pub fn drawn_outcome(line: &Replayed) -> Result<Option<String>, String> {
    match line.last().node() {
        NodeKind::Terminal => Err("the game is over".into()),
        NodeKind::Chance => {
            let list = line.moves();
            let mut r: f64 = rand::thread_rng().gen();
            for i in 0..list.len() {
                r -= list.probability(i);
                if r <= 0.0 {
                    return Ok(Some(list.text(i)));
                }
            }
            assert!(!list.is_empty(), "a chance node has outcomes");
            Ok(Some(list.text(list.len() - 1)))
        }
        _ => Ok(None),
    }
}

/// The engine's move at the line's last position (for `player` at a
/// simultaneous node): its search's best move, an action drawn from its
/// mixed strategy, or a chance outcome drawn by its probability. In
/// games of more than two players, the paranoid search of the side
/// `player` belongs to (the tournaments' [`Kind::Paranoid`] engine)
/// against all the others: its move, or `player`'s part of the side's
/// joint action drawn from its strategy.
pub fn engine_move(
    line: &Replayed,
    limits: &Limits,
    grant: &impl Share,
    player: usize,
    stop: &AtomicBool,
) -> Result<String, String> {
    if let Some(drawn) = drawn_outcome(line)? {
        return Ok(drawn);
    }
    let pos = line.last();
    let game = pos.game();
    // A long listing (a Spokes resolution) stopped by the client's leaving
    // gives no move to search; one that completes is kept for the search.
    if matches!(pos.node(), NodeKind::Decision(_)) && line.moves().is_empty() {
        return Err("the search was stopped".into());
    }
    let mut rng = rand::thread_rng();
    match pos.node() {
        NodeKind::Simultaneous if player >= game.players() => {
            return Err(format!("{} has {} players", game.id(), game.players()))
        }
        node if game.players() != 2 => {
            let engine = Engine {
                reads: Vec::new(),
                name: "engine".into(),
                spec: String::new(),
                kind: Kind::Paranoid {
                    limits: limits.clone(),
                    width: DEFAULT_WIDTH,
                    hash_mib: grant.hash_mib(),
                    eval: grant.evaluation(game),
                },
                tc: None,
            };
            // A decision names its side; a simultaneous node's player
            // belongs to one.
            let seat = (node == NodeKind::Simultaneous).then(|| Player::nth(player));
            return pos.engine_move(&engine, rng.gen(), stop, seat);
        }
        _ => {}
    }
    let config = game.search_config(grant.threads(), grant.evaluation(game));
    let tt = Table::new(grant.hash_mib());
    match pos.search(limits, &config, &tt, Some(stop), &mut |_| {}) {
        Verdict::Decision(r) => Ok(r.best),
        Verdict::Simultaneous(m) => {
            let strategy = &m.strategies[player];
            if strategy.is_empty() {
                return Err("no action to choose".into());
            }
            let i = pick(
                &mut rng,
                strategy.iter().enumerate().map(|(i, &(_, p))| (i, p)),
            );
            Ok(strategy[i].0.clone())
        }
        Verdict::Chance(_) | Verdict::Over(_) => Err("nothing to choose here".into()),
        Verdict::Stopped => Err("the search was stopped".into()),
    }
}

/// The first side's win probability at score `s` (for it, in the
/// evaluation's unit) on `scale`, the game's: `1 / (1 + 3^(-s / scale))`,
/// a proven result 0 or 1 (docs/serve.md).
fn win_probability(s: f64, scale: f64) -> f64 {
    if Score(s as i32).plies_to_end().is_some() {
        return if s > 0.0 {
            1.0
        } else if s < 0.0 {
            0.0
        } else {
            0.5
        };
    }
    1.0 / (1.0 + 3f64.powf(-s / scale))
}

/// The labels of a move by the win probability it lost for its side, the
/// largest first (docs/serve.md): at least 0.15 a blunder, 0.10 a
/// mistake, 0.05 an inaccuracy.
const LABELS: [(f64, &str); 3] = [(0.15, "??"), (0.10, "?"), (0.05, "?!")];

/// One position's score for the evaluation graph: for the first side,
/// with the engine's best move there, the depth searched and, at a chance
/// node, each outcome's probability and score.
struct Scored {
    score: f64,
    best: Option<String>,
    depth: u32,
    /// At a decision, the score of the iteration one ply less deep.
    shallower: Option<f64>,
    outcomes: Vec<(f64, f64)>,
}

/// The score (for the side to move) of the decision iteration at `depth`
/// among those seen.
fn iteration_at(seen: &[(u32, i32)], depth: u32) -> Option<f64> {
    seen.iter()
        .find(|(d, _)| *d == depth)
        .map(|&(_, s)| f64::from(s))
}

/// The score of `pos` for the first side within `limits`: its search's
/// (in games of more than two players the paranoid value of the first
/// side, player 1 or team 1, against all the others, on one thread) or a
/// finished game's proven result.
fn score_position(
    pos: &Position,
    limits: &Limits,
    config: &gamut_search::Config,
    tt: &Table,
    halt: &AtomicBool,
) -> Scored {
    if let Some(o) = pos.outcome() {
        // The winner is a side (a team in `spokes2v2`).
        let score = match o.winner {
            Some(p) if p == Player::FIRST => f64::from(WIN),
            Some(_) => -f64::from(WIN),
            None => 0.0,
        };
        return Scored {
            score,
            best: None,
            depth: 0,
            shallower: None,
            outcomes: Vec::new(),
        };
    }
    let mut seen = Vec::new();
    if pos.game().players() != 2 {
        // The side's view's scores are for its side to move: the first
        // side, or the others.
        let first = match pos.node() {
            NodeKind::Simultaneous | NodeKind::Terminal => true,
            _ => pos.perspective() == Player::FIRST,
        };
        let sign = if first { 1.0 } else { -1.0 };
        let mut analysis = pos.sides_analysis(SidesPlan {
            sides: vec![Player::FIRST],
            width: DEFAULT_WIDTH,
            schedule: Schedule::InTurn,
            limits: limits.clone(),
            fresh_table: false,
            shorts: None,
        });
        let mut found = (0.0, None, 0);
        analysis.run(config, tt, Some(halt), &mut |r| {
            match r {
                SidesText::Iteration {
                    progress: Progress::Decision(it),
                    ..
                } => seen.push((it.depth, it.score)),
                SidesText::Searched { verdict, .. } => {
                    found = match verdict {
                        Verdict::Decision(r) => (
                            sign * f64::from(r.score),
                            r.best.actions[0].clone(),
                            r.depth,
                        ),
                        Verdict::Chance(c) => (sign * f64::from(c.expected), None, c.depth),
                        Verdict::Simultaneous(m) => (m.value, None, m.depth),
                        Verdict::Over(_) | Verdict::Stopped => (0.0, None, 0),
                    };
                }
                SidesText::Iteration { .. } => {}
            }
            true
        });
        let (score, best, depth) = found;
        return Scored {
            score,
            best,
            depth,
            shallower: iteration_at(&seen, depth.saturating_sub(1)).map(|s| sign * s),
            outcomes: Vec::new(),
        };
    }
    let mut observe = |p: Progress<'_, String>| {
        if let Progress::Decision(it) = p {
            seen.push((it.depth, it.score));
        }
    };
    match pos.search(limits, config, tt, Some(halt), &mut observe) {
        Verdict::Decision(r) => Scored {
            score: for_first(pos, f64::from(r.score)),
            best: Some(r.best),
            depth: r.depth,
            shallower: iteration_at(&seen, r.depth.saturating_sub(1)).map(|s| for_first(pos, s)),
            outcomes: Vec::new(),
        },
        Verdict::Chance(c) => Scored {
            score: for_first(pos, f64::from(c.expected)),
            best: None,
            depth: c.depth,
            shallower: None,
            outcomes: c
                .outcomes
                .iter()
                .map(|o| (o.probability, for_first(pos, f64::from(o.score))))
                .collect(),
        },
        Verdict::Simultaneous(m) => Scored {
            score: m.value,
            best: None,
            depth: m.depth,
            shallower: None,
            outcomes: Vec::new(),
        },
        Verdict::Over(_) | Verdict::Stopped => Scored {
            score: 0.0,
            best: None,
            depth: 0,
            shallower: None,
            outcomes: Vec::new(),
        },
    }
}

/// The score of every position of `line` for the first side, each
/// searched within `limits`, sent one by one with the engine's best move
/// there, the side whose loss labels the move played there (none where
/// that move was forced), and the score of the move played as the same
/// search saw it (`played`: its position searched one ply less deep,
/// so that it compares with `score` at equal depth, without the bonus
/// for having the move between them), the win probability it lost for
/// the labelled side (`loss`: the smaller of that comparison and the same
/// one ply less deep, so that the search's noise between depths labels
/// nothing) and its label (`?!`, `?`, `??` or none, as
/// [`LABELS`]); a finished game scores a proven
/// result for its winning side. In games of more than two players the
/// score is the first side's paranoid value. Asked to yield, the search
/// of a position waits for its next turn and starts again.
pub fn line_scores(
    line: &Line,
    limits: &Limits,
    turns: &mut impl Turns,
    send: &mut dyn FnMut(Value) -> bool,
) {
    let mut ply = 0;
    let mut tt = Table::new(turns.grant().hash_mib());
    while ply < line.positions.len() {
        let grant = turns.grant();
        let pos = &line.positions[ply];
        let game = pos.game();
        // Games of more than two players are searched on one thread.
        let threads = if game.players() == 2 {
            grant.threads()
        } else {
            1
        };
        let config = game.search_config(threads, grant.evaluation(game));
        let halt = turns.halt();
        let scored = score_position(pos, limits, &config, &tt, halt);
        let (mover, choices) = match pos.node() {
            NodeKind::Decision(p) => (Some(p), pos.listing().len()),
            _ => (None, 0),
        };
        // The move played here against the best, as pairs of scores (the
        // best's, the move played's) at equal depths: the move's position
        // searched one ply less deep than this one was (its score the
        // best's if it was the engine's best).
        let played: Vec<(f64, f64)> = match (line.positions.get(ply + 1), line.texts.get(ply)) {
            (Some(next), Some(text)) if mover.is_some() && choices > 1 => {
                let same = pos
                    .canonical(text)
                    .ok()
                    .is_some_and(|t| Some(&t) == scored.best.as_ref());
                if same {
                    vec![(scored.score, scored.score)]
                } else {
                    let at = |depth: u32| {
                        let deep = Limits {
                            depth: Some(depth.max(1)),
                            ..Limits::default()
                        };
                        score_position(next, &deep, &config, &tt, halt).score
                    };
                    let played = at(scored.depth.saturating_sub(1));
                    // The same comparison one ply less deep, where the
                    // search got that far: a move is labelled only if it
                    // loses at both depths (the search's noise between
                    // depths, as among Empedocles' setup placements of
                    // equal value, labels nothing).
                    let mut pairs = vec![(scored.score, played)];
                    if let Some(best) = scored.shallower.filter(|_| scored.depth >= 3) {
                        pairs.push((best, at(scored.depth - 2)));
                    }
                    pairs
                }
            }
            _ => Vec::new(),
        };
        if turns.yielded() {
            drop(tt);
            if !turns.resume(send) {
                return;
            }
            tt = Table::new(turns.grant().hash_mib());
            continue;
        }
        if turns.halt().load(Relaxed) {
            return;
        }
        // The side whose loss labels the move played here: the mover's
        // side in a game of two sides (a team in `spokes2v2`); in
        // `spokes4` only the first player's own moves (the scores are its
        // value against all the others). A forced move has no label.
        let labelled = mover
            .map(|p| game.side_of(p))
            .filter(|&s| game.info().sides.len() <= 2 || s == Player::FIRST)
            .filter(|_| choices > 1);
        // The win probability the move played lost for the labelled
        // side, against the best move's at the same depth.
        let loss = labelled.filter(|_| !played.is_empty()).map(|side| {
            played
                .iter()
                .map(|&(best, move_played)| {
                    let scale = game.score_scale();
                    let drop = win_probability(best, scale) - win_probability(move_played, scale);
                    if side == Player::FIRST {
                        drop
                    } else {
                        -drop
                    }
                })
                .fold(f64::INFINITY, f64::min)
        });
        let label = loss.and_then(|l| LABELS.iter().find(|(t, _)| l >= *t).map(|(_, m)| *m));
        let mut event = json!({"ply": ply, "score": scored.score, "best": scored.best,
                               "mover": mover.map(|p| p.index()),
                               "forced": mover.is_some() && choices == 1,
                               "labelled": labelled.map(|p| p.index()),
                               "played": played.first().map(|p| p.1),
                               "loss": loss, "label": label});
        if !scored.outcomes.is_empty() {
            event["outcomes"] = scored
                .outcomes
                .iter()
                .map(|&(p, s)| json!({"probability": p, "score": s}))
                .collect();
        }
        if !send(event) {
            return;
        }
        ply += 1;
    }
    send(json!({"done": true}));
}
