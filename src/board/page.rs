//! The page's JSON, built from the game object ([`Position`]) alone: a
//! position as the page draws it (picture, state, legal moves with the
//! squares they touch), a page of a large choice's outcomes, the
//! engine's progress as the analysis panel shows it, and a line as a game
//! record. Nothing here needs the server, its sockets or its threads: the
//! same code can build the page's JSON wherever a position is.

use crate::lines::{Line, Replayed};
use gamut_core::game::{NodeKind, Player};
use gamut_core::svg::SvgOptions;
use gamut_engine::search::Step;
use gamut_engine::sides::TupleText;
use gamut_engine::{game, AnyGame, Listing, MoveFacts, Position};
use gamut_games::GameId;
use gamut_search::score::Score;
use gamut_search::Progress;
use serde_json::{json, Value};
use std::time::Duration;

/// Every game as the page's menu lists it: its id, name, setup options
/// and `label`, its name on the menu (the name, followed by the id where
/// the name does not start with it: a variant's).
#[must_use]
pub fn games_json() -> Value {
    let list: Vec<Value> = GameId::ALL
        .iter()
        .map(|&id| {
            let info = game(id).info();
            let label = if info.name.to_lowercase().starts_with(id.name()) {
                info.name.to_string()
            } else {
                format!("{} ({id})", info.name)
            };
            json!({ "id": id.name(), "name": info.name, "setup": info.setup, "label": label })
        })
        .collect();
    Value::Array(list)
}

/// `score` for the side to move at `pos` as a score for the first side.
#[must_use]
pub fn for_first(pos: &Position, score: f64) -> f64 {
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
#[must_use]
pub fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// A completed iteration as the page shows it: the depth, the score for
/// the first side (and its text where the result is proven), the speed,
/// and the lines, best first (the MultiPV lines at a decision root).
#[must_use]
pub fn progress_json(pos: &Position, p: Progress<'_, Step>) -> Value {
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

/// The decisions of the game that begin a principal variation of a
/// side's two-sided search.
fn side_pv_moves(pv: &[TupleText]) -> impl Iterator<Item = &TupleText> {
    pv.iter().take_while(|t| t.decision)
}

/// One side's latest verdict in the analysis of a game of more than two
/// players: its paranoid search (the side against all the others) to
/// `depth`.
pub fn side_json(game: &dyn AnyGame, side: Player, p: Progress<'_, TupleText>) -> Option<Value> {
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

/// The line as a game record (one JSON line, its checksum last) that `gamut replay` reads:
/// game 1 between `player 1`, `player 2`… (one a side), the moves as
/// given (`texts`, one per step), ended as the rules end it or saved
/// `unfinished`; a game of more than two players as a seats game (no
/// pair, encounter or result text).
pub fn record_line(line: &Line, texts: &[String]) -> Result<String, String> {
    use gamut_players::record::{Adjudication, GameRecord, JointStep};
    use gamut_tournament::records;
    let game = line.last().game();
    let names: Vec<String> = (1..=game.info().sides.len())
        .map(|i| format!("player {i}"))
        .collect();
    let pairs = game.players() == 2;
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
                if actions.len() != game.players() {
                    return Err(format!(
                        "step {}: not {} players' actions",
                        i + 1,
                        game.players()
                    ));
                }
                moves.push(text.trim().to_string());
                joint.push(JointStep {
                    step: i,
                    strategies: actions.iter().map(|a| vec![(a.clone(), 1.0)]).collect(),
                    actions,
                });
            }
            NodeKind::Terminal => return Err(format!("step {}: the game was over", i + 1)),
        }
    }
    let outcome = line.last().outcome();
    let winner = outcome.as_ref().and_then(|o| o.winner);
    let rec = GameRecord {
        game: game.id().name().to_string(),
        number: 1,
        pair: pairs.then_some(0),
        encounter: pairs.then(|| [names[0].clone(), names[1].clone()]),
        opening_index: Some(0),
        opening: line.positions[0].text(),
        specs: vec!["human".to_string(); names.len()],
        engines: names,
        moves,
        rolls,
        joint,
        scores: Vec::new(),
        result: pairs.then(|| match &outcome {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Lines;

    /// The menu names every game by its name and shows its id: at the
    /// name's start, or after it (a variant's).
    #[test]
    fn every_game_has_its_own_label_on_the_menu() {
        let games = games_json();
        let games = games.as_array().unwrap();
        assert_eq!(games.len(), GameId::ALL.len());
        let mut labels = Vec::new();
        for g in games {
            let (id, name) = (g["id"].as_str().unwrap(), g["name"].as_str().unwrap());
            let label = g["label"].as_str().unwrap();
            assert!(label.starts_with(name), "{label}");
            assert!(
                label.to_lowercase().starts_with(id) || label.ends_with(&format!(" ({id})")),
                "{label} does not show {id}"
            );
            assert!(!labels.contains(&label), "two games labelled {label}");
            labels.push(label);
        }
    }

    /// A line of two steps of every game (at a simultaneous node every
    /// player's action) exports as a record that checks, a game of more
    /// than two players as a seats game.
    #[test]
    fn a_line_of_every_game_exports_as_a_record() {
        let lines = Lines::default();
        for &id in GameId::ALL {
            let mut texts: Vec<String> = Vec::new();
            for _ in 0..2 {
                let line = lines
                    .replay(game(id), None, None, Some(&texts.join(";")))
                    .unwrap();
                let pos = line.last();
                let step = if pos.node() == NodeKind::Simultaneous {
                    (0..pos.game().players())
                        .map(|p| pos.action_texts(Player::nth(p))[0].clone())
                        .collect::<Vec<_>>()
                        .join(",")
                } else {
                    line.moves().text(0)
                };
                texts.push(step);
            }
            let line = lines
                .replay(game(id), None, None, Some(&texts.join(";")))
                .unwrap();
            let record = record_line(&line, &texts).unwrap_or_else(|e| panic!("{id}: {e}"));
            let v: Value = serde_json::from_str(&record).unwrap();
            assert_eq!(v["moves"].as_array().unwrap().len(), 2, "{id}");
            assert_eq!(
                v["engines"].as_array().unwrap().len(),
                game(id).info().sides.len()
            );
        }
    }

    #[test]
    fn every_start_is_drawn_with_its_games_facts() {
        let lines = Lines::default();
        for &id in GameId::ALL {
            let g = game(id);
            let line = lines.replay(g, None, None, None).unwrap();
            let v = position_json(&line);
            assert_eq!(v["game"], id.name());
            assert_eq!(v["unit"], g.info().score_unit);
            assert_eq!(v["players"], g.players());
            let moves = v["moves"].as_array().unwrap().len();
            let actions = v["actions"].as_array().unwrap().len();
            assert!(
                moves > 0 || actions == g.players(),
                "{id}: something to play"
            );
            assert!(v["svg"].as_str().unwrap().contains("<svg"), "{id}");
        }
    }
}
