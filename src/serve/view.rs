//! What the page asks of a game, written once over the game object
//! ([`Position`]): a position as JSON (picture, state, legal moves with
//! the squares they touch), the engine's analysis as JSON events, its
//! choice of move, and the scores along a game. Nothing here needs the
//! server: the same code answers wherever the page's JSON is built.

use super::lines::{Line, Replayed};
use super::sessions::{Grant, Turns};
use gamut_core::game::{NodeKind, Player};
use gamut_core::svg::SvgOptions;
use gamut_engine::search::Step;
use gamut_engine::sides::{SidesPlan, SidesText, TupleText};
use gamut_engine::{AnyGame, Listing, MoveFacts, Position};
use gamut_players::engine::{Engine, Kind};
use gamut_search::draw::pick;
use gamut_search::score::{Score, WIN};
use gamut_search::sides::DEFAULT_WIDTH;
use gamut_search::sides_analysis::{Ended, Schedule};
use gamut_search::{Limits, Progress, Table, Verdict};
use rand::Rng;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// `score` for the side to move at `pos` as a score for the first side.
fn for_first(pos: &Position, score: f64) -> f64 {
    if pos.perspective() == Player::FIRST {
        score
    } else {
        -score
    }
}

/// The texts of written moves.
fn texts(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.text.clone()).collect()
}

/// The short texts of written moves
/// ([`Diagram::short_move_texts`](gamut_core::game::Diagram::short_move_texts)),
/// the texts a person reads everywhere on the page (`gamut moves
/// --short`'s).
fn shorts(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.short.clone()).collect()
}

/// The short text of move `text` (canonical) at the line's last
/// position, found among its moves (listed once and kept with the line;
/// an action of a simultaneous node is read from its text).
pub fn short_of(line: &Replayed, text: &str) -> Result<String, String> {
    line.moves()
        .short_of(text)
        .map_err(|e| format!("move '{text}': {e}"))
}

/// Moves (or actions) as JSON: each one's text and the squares a person
/// clicks for it.
fn moves_json(moves: Vec<MoveFacts>) -> Vec<Value> {
    moves
        .into_iter()
        .map(|m| {
            let mut v = json!({"text": m.text, "squares": m.squares});
            if m.short != m.text {
                v["short"] = json!(m.short);
            }
            if !m.also_from.is_empty() {
                v["from"] = json!(m.also_from);
            }
            if let Some(p) = m.probability {
                v["probability"] = json!(p);
                if let Some((name, does)) = m.words {
                    v["name"] = json!(name);
                    v["does"] = json!(does);
                }
            }
            v
        })
        .collect()
}

/// Every move of `moves` as JSON, with its chance facts where `chance`.
fn all_json(moves: &Listing, chance: bool) -> Vec<Value> {
    let all: Vec<usize> = (0..moves.len()).collect();
    moves_json(moves.shown(&all, chance))
}

/// What the die's outcome that led from `before` to `pos` did, in words:
/// its name and, where the game says (a transmutation), what it did to
/// the board. `None` where the last move was no outcome the game names.
fn roll_effect(before: &Position, pos: &Position, text: &str) -> Option<String> {
    let (name, effect) = before.rolled(text, pos)?;
    Some(match effect {
        Some(effect) => format!("rolled {name}: {effect}"),
        None => format!("rolled {name}"),
    })
}

/// The most outcomes of a choice made off the board (a four-player Spokes
/// resolution can have tens of thousands) that a position's answer lists;
/// beyond it `/api/outcomes` lists them a page at a time, narrowed by
/// what they leave on the board.
pub const OUTCOME_PAGE: usize = 60;

/// Whether `moves` are too many outcomes of a choice off the board to be
/// listed with the position: more than [`OUTCOME_PAGE`], none made on the
/// board.
fn paged(moves: &Listing) -> bool {
    moves.len() > OUTCOME_PAGE && (0..moves.len()).all(|i| moves.squares(i).is_empty())
}

/// `/api/outcomes`: the moves of decision `pos` that leave on the board
/// what `fix` asks (`<square>:<content>` joined by `,`, the content as
/// [`Diagram::move_changes`](gamut_core::game::Diagram::move_changes)
/// writes it, `=` for a square the move leaves as it was): their `count`
/// (of `total`), the squares on which they still differ with each
/// content's count (the most even split first), and from the `from`-th on
/// a page of at most [`OUTCOME_PAGE`] of them as the position lists moves.
pub fn outcomes_json(line: &Replayed, fix: &str, from: usize) -> Result<Value, String> {
    let moves = line.moves();
    let count = match line.last().node() {
        NodeKind::Decision(_) => moves.len(),
        _ => 0,
    };
    let changes = line.changes();
    let mut fixed = Vec::new();
    for item in fix.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (square, content) = item
            .split_once(':')
            .ok_or_else(|| format!("'{item}' is not <square>:<content>"))?;
        fixed.push((square, content));
    }
    // A move's content at a square: the index of its name, None for "=".
    let content = |i: usize, square: usize| -> Option<usize> {
        changes.of_move[i]
            .iter()
            .find(|&&(s, _)| s as usize == square)
            .map(|&(_, c)| c as usize)
    };
    // Each fixed square's index and content (None for "="); a content no
    // move leaves there leaves no move.
    let mut wanted = Vec::new();
    let mut possible = true;
    for (square, name) in fixed {
        let s = changes.squares.iter().position(|x| x == square);
        let c = (name != "=").then(|| changes.contents.iter().position(|x| x == name));
        match (s, c) {
            (None, None) => {}
            (None, Some(_)) | (Some(_), Some(None)) => possible = false,
            (Some(s), c) => wanted.push((s, c.flatten())),
        }
    }
    let chosen: Vec<usize> = (0..count)
        .filter(|&i| possible && wanted.iter().all(|&(s, c)| content(i, s) == c))
        .collect();
    // Each square some chosen move changes: its contents and their counts,
    // in the order they first appear.
    let mut squares: Vec<(usize, Vec<(String, usize)>)> = Vec::new();
    for &i in &chosen {
        for &(s, c) in &changes.of_move[i] {
            let (s, c) = (s as usize, &changes.contents[c as usize]);
            let at = match squares.iter().position(|(x, _)| *x == s) {
                Some(k) => k,
                None => {
                    squares.push((s, Vec::new()));
                    squares.len() - 1
                }
            };
            let list = &mut squares[at].1;
            match list.iter_mut().find(|(x, _)| x == c) {
                Some(e) => e.1 += 1,
                None => list.push((c.clone(), 1)),
            }
        }
    }
    for (_, list) in &mut squares {
        let changed: usize = list.iter().map(|e| e.1).sum();
        if changed < chosen.len() {
            list.push(("=".into(), chosen.len() - changed));
        }
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    }
    squares.retain(|(_, list)| list.len() > 1);
    squares.sort_by_key(|(_, list)| list[0].1);
    let page: Vec<usize> = chosen
        .iter()
        .skip(from)
        .take(OUTCOME_PAGE)
        .copied()
        .collect();
    Ok(json!({
        "count": chosen.len(),
        "total": count,
        "from": from,
        "squares": squares
            .iter()
            .map(|(s, list)| json!({
                "square": changes.squares[*s],
                "contents": list.iter().map(|(c, n)| json!({"content": c, "count": n})).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>(),
        "moves": moves_json(moves.shown(&page, false)),
    }))
}

/// What a score of `game` includes, as the page says beside its unit
/// ([`GameInfo::score_unit`](gamut_core::game::GameInfo)): the bonus for
/// having the move, and in a game with chance nodes how a proven win
/// counts in an expectation.
fn unit_note(game: &dyn AnyGame) -> &'static str {
    if game.rolls() {
        "for the first side; every score includes a small bonus for the side to move (so odd and even depths compare); at a die roll the expectation counts a proven win as 10000"
    } else {
        "for the first side; every score includes a small bonus for the side to move (so odd and even depths compare)"
    }
}

/// The line's last position as the page draws it: the game, the
/// picture (with the last move marked), the state in words, and what can
/// be played there.
pub fn position_json(line: &Replayed) -> Value {
    let pos = line.last();
    let game = pos.game();
    let info = game.info();
    let players = game.players();
    let n = line.positions.len();
    let before = (n > 1).then(|| &line.positions[n - 2]);
    let moves = line.moves();
    let mut actions = Vec::new();
    let (node, mover) = match pos.node() {
        NodeKind::Decision(p) => ("decision", Some(p.index())),
        NodeKind::Chance => ("chance", Some(pos.perspective().index())),
        NodeKind::Simultaneous => {
            for i in 0..players {
                actions.push(all_json(&pos.action_listing(Player::nth(i)), false));
            }
            ("simultaneous", None)
        }
        NodeKind::Terminal => ("terminal", None),
    };
    let winner = pos.outcome().and_then(|o| o.winner).map(|p| p.index());
    let rolled = before
        .filter(|b| b.node() == NodeKind::Chance)
        .and_then(|b| roll_effect(b, pos, line.texts.last()?));
    json!({
        "rolled": rolled,
        "game": game.id().name(),
        "name": info.name,
        "sides": info.sides,
        "players": players,
        "player_sides": (0..players).map(|i| game.side_of(Player::nth(i)).index()).collect::<Vec<_>>(),
        "setup": info.setup,
        "scale": game.score_scale(),
        "unit": info.score_unit,
        "unit_note": unit_note(game),
        "analysable": true,
        "text": pos.text(),
        "start": line.positions[0].text(),
        "state": pos.state_text(),
        "node": node,
        "mover": mover,
        "winner": winner,
        "svg": pos.svg(&SvgOptions::default(), before),
        "side_colours": pos.side_colours(),
        "outcome_count": moves.len(),
        "moves": if paged(&moves) {
            Vec::new()
        } else {
            all_json(&moves, node == "chance")
        },
        "actions": actions,
    })
}

/// Nodes per second.
fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// A completed iteration as the page shows it: the depth, the score for
/// the first side (and its text where the result is proven), the speed,
/// and the lines, best first (the MultiPV lines at a decision root).
fn progress_json(pos: &Position, p: Progress<'_, Step>) -> Value {
    match p {
        Progress::Decision(it) => {
            let first = for_first(pos, f64::from(it.score)) as i32;
            let lines: Vec<Value> = it
                .lines
                .iter()
                .enumerate()
                .map(|(k, l)| {
                    let s = for_first(pos, f64::from(l.score)) as i32;
                    json!({"multipv": k + 1, "score": s, "score_text": Score(s).to_string(),
                           "pv": texts(&l.pv), "pv_short": shorts(&l.pv)})
                })
                .collect();
            json!({
                "depth": it.depth,
                "score": first,
                "proven": Score(first).plies_to_end().is_some(),
                "score_text": Score(first).to_string(),
                "nodes": it.nodes,
                "nps": nps(it.nodes, it.time),
                "time_ms": it.time.as_millis() as u64,
                "lines": lines,
            })
        }
        Progress::Chance(it) => {
            let first = for_first(pos, f64::from(it.expected)) as i32;
            let lines: Vec<Value> = it
                .outcomes
                .iter()
                .map(|o| {
                    let s = for_first(pos, f64::from(o.score)) as i32;
                    let mut pv = vec![o.outcome.text.clone()];
                    pv.extend(texts(&o.pv));
                    let mut short = vec![o.outcome.short.clone()];
                    short.extend(shorts(&o.pv));
                    json!({"score": s, "score_text": Score(s).to_string(),
                           "probability": o.probability, "pv": pv, "pv_short": short})
                })
                .collect();
            json!({
                "depth": it.depth,
                "score": first,
                "proven": Score(first).plies_to_end().is_some(),
                "score_text": format!("expected {}", Score(first)),
                "nodes": it.nodes,
                "nps": nps(it.nodes, it.time),
                "time_ms": it.time.as_millis() as u64,
                "lines": lines,
            })
        }
        Progress::Simultaneous(m) => {
            let strategies: Vec<Vec<Value>> = m
                .strategies
                .iter()
                .map(|s| {
                    s.iter()
                        .map(|(a, p)| json!({"text": a.text, "probability": p}))
                        .collect()
                })
                .collect();
            json!({
                "depth": m.depth,
                "score": m.value,
                "proven": false,
                "score_text": format!("value {:.3}", m.value),
                "nodes": m.nodes,
                "nps": nps(m.nodes, m.time),
                "time_ms": m.time.as_millis() as u64,
                "lines": [],
                "strategies": strategies,
            })
        }
    }
}

/// The lines the analysis panel shows by default (MultiPV).
pub const ANALYSIS_LINES: usize = 3;

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
    turns: &mut Turns,
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
            ..game.search_config(grant.threads, grant.evaluation(game))
        };
        let tt = Table::new(grant.hash_mib);
        let halt = std::sync::Arc::clone(&turns.halt);
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
        let started = std::time::Instant::now();
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
        if turns.halt.load(Relaxed) {
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

/// The decisions of the game that begin a principal variation of a
/// side's two-sided search.
fn side_pv_moves(pv: &[TupleText]) -> impl Iterator<Item = &TupleText> {
    pv.iter().take_while(|t| t.decision)
}

/// One side's latest verdict in the analysis of a game of more than two
/// players: its paranoid search (the side against all the others) to
/// `depth`.
fn side_json(game: &dyn AnyGame, side: Player, p: Progress<'_, TupleText>) -> Option<Value> {
    let name = game
        .info()
        .sides
        .get(side.index())
        .copied()
        .unwrap_or("side");
    let (depth, value, strategy, lines) = match p {
        Progress::Simultaneous(m) => {
            let strategy: Vec<Value> = m.strategies[0]
                .iter()
                .map(|(t, pr)| json!({"text": t.text(), "probability": pr}))
                .collect();
            (m.depth, m.value, strategy, Vec::new())
        }
        Progress::Decision(it) => {
            let lines: Vec<Value> = it
                .lines
                .iter()
                .enumerate()
                .map(|(k, l)| {
                    let pv: Vec<String> = side_pv_moves(&l.pv)
                        .map(|t| t.actions[0].clone().unwrap_or_default())
                        .collect();
                    let short: Vec<String> = side_pv_moves(&l.pv)
                        .map(|t| t.short.clone().unwrap_or_default())
                        .collect();
                    json!({"multipv": k + 1, "score": l.score,
                           "score_text": Score(l.score).to_string(),
                           "pv": pv, "pv_short": short})
                })
                .collect();
            (it.depth, f64::from(it.score), Vec::new(), lines)
        }
        Progress::Chance(_) => return None,
    };
    let proven = Score(value as i32).plies_to_end().is_some();
    Some(json!({
        "side": side.index(),
        "name": name,
        "depth": depth,
        "value": value,
        "proven": proven,
        "value_text": if proven { Score(value as i32).to_string() } else { format!("{value:.0}") },
        "strategy": strategy,
        "lines": lines,
    }))
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
    turns: &mut Turns,
    send: &mut dyn FnMut(Value) -> bool,
) {
    let pos = line.last();
    let game = pos.game();
    if pos.node() == NodeKind::Terminal {
        send(json!({"done": true, "best": null}));
        return;
    }
    let start = std::time::Instant::now();
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
        let tt = Table::new(turns.grant().hash_mib);
        let ended = analysis.run(&config, &tt, Some(&turns.halt), &mut |r| match r {
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
                !gone && (!turns.halt.load(Relaxed) || turns.yielded())
            }
        });
        drop(tt);
        if ended == Ended::CutShort && turns.yielded() {
            let paused = std::time::Instant::now();
            if !turns.resume(send) {
                return;
            }
            analysis.pause(paused.elapsed());
            continue;
        }
        break;
    }
    if !gone && (!turns.halt.load(Relaxed) || turns.yielded()) {
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
    grant: &Grant,
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
                name: "engine".into(),
                spec: String::new(),
                kind: Kind::Paranoid {
                    limits: limits.clone(),
                    width: DEFAULT_WIDTH,
                    hash_mib: grant.hash_mib,
                    eval: grant.evaluation(game),
                },
                tc: None,
            };
            // A decision names its side; a simultaneous node's player
            // belongs to one.
            let seat = (node == NodeKind::Simultaneous).then(|| Player::nth(player));
            return pos.engine_choice(&engine, rng.gen(), stop, seat);
        }
        _ => {}
    }
    let config = game.search_config(grant.threads, grant.evaluation(game));
    let tt = Table::new(grant.hash_mib);
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
    turns: &mut Turns,
    send: &mut dyn FnMut(Value) -> bool,
) {
    let mut ply = 0;
    let mut tt = Table::new(turns.grant().hash_mib);
    while ply < line.positions.len() {
        let grant = turns.grant();
        let pos = &line.positions[ply];
        let game = pos.game();
        // Games of more than two players are searched on one thread.
        let threads = if game.players() == 2 {
            grant.threads
        } else {
            1
        };
        let config = game.search_config(threads, grant.evaluation(game));
        let halt = &turns.halt;
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
            tt = Table::new(turns.grant().hash_mib);
            continue;
        }
        if turns.halt.load(Relaxed) {
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

/// The line as a game record (one JSON line, its checksum last) that `gamut replay` reads:
/// game 1 between `player 1` and `player 2`, the moves as given (`texts`,
/// one per step), ended as the rules end it or saved `unfinished`.
pub fn record_line(line: &Line, texts: &[String]) -> Result<String, String> {
    use gamut_players::record::{Adjudication, GameRecord, JointStep};
    use gamut_tournament::records;
    let names = ["player 1".to_string(), "player 2".to_string()];
    let steps = line.positions.len() - 1;
    if texts.len() != steps {
        return Err(format!("{} move texts for {steps} steps", texts.len()));
    }
    let mut rolls = Vec::new();
    let mut joint = Vec::new();
    let mut plies = 0;
    let mut moves = Vec::with_capacity(steps);
    for (i, (pos, text)) in line.positions[..steps].iter().zip(texts).enumerate() {
        // A move in its canonical text (a short form given is read back).
        let canonical = || {
            pos.canonical(text)
                .map_err(|e| format!("step {}: {e}", i + 1))
        };
        match pos.node() {
            NodeKind::Decision(_) => {
                plies += 1;
                moves.push(canonical()?);
            }
            NodeKind::Chance => {
                let t = canonical()?;
                rolls.push(t.clone());
                moves.push(t);
            }
            NodeKind::Simultaneous => {
                let actions: Vec<String> = text.split(',').map(|a| a.trim().to_string()).collect();
                let [a, b] = <[String; 2]>::try_from(actions)
                    .map_err(|_| format!("step {}: not two players' actions", i + 1))?;
                moves.push(text.trim().to_string());
                joint.push(JointStep {
                    step: i,
                    strategies: vec![vec![(a.clone(), 1.0)], vec![(b.clone(), 1.0)]],
                    actions: vec![a, b],
                });
            }
            NodeKind::Terminal => return Err(format!("step {}: the game was over", i + 1)),
        }
    }
    let outcome = line.last().outcome();
    let winner = outcome.as_ref().and_then(|o| o.winner);
    let rec = GameRecord {
        game: line.last().game().id().name().to_string(),
        number: 1,
        pair: Some(0),
        encounter: Some(names.clone()),
        opening_index: Some(0),
        opening: line.positions[0].text(),
        engines: names.to_vec(),
        specs: vec!["human".to_string(); 2],
        moves,
        rolls,
        joint,
        scores: Vec::new(),
        result: Some(match &outcome {
            Some(_) => GameRecord::result_text(winner).to_string(),
            None => GameRecord::UNFINISHED.to_string(),
        }),
        winner: winner.map(|p| p.index() as u8 + 1),
        reason: match &outcome {
            Some(o) => o.reason.to_string(),
            None => Adjudication::Unfinished.reason().to_string(),
        },
        adjudicated: outcome.is_none(),
        points: outcome.as_ref().and_then(|o| o.points.map(|p| p.to_vec())),
        plies,
        ply_limit: None,
        adjudicate: None,
        time_ms: 0,
        seed: None,
    };
    records::verify(&rec).map_err(|e| format!("the record does not check: {e}"))?;
    Ok(rec.to_line())
}
