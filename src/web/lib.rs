//! gamut's engine in a browser's WebAssembly: what a page's script (in a
//! Web Worker, `tools/web/worker.js`) asks of the game object
//! ([`gamut_engine`]) — the games, a position's text, picture and legal
//! moves with the squares each is clicked on, a move played, perft, and an
//! analysis that hands each completed iteration to a callback as it
//! comes, within a depth, nodes or time.
//!
//! A position is always named the way the board's page names it: a game
//! id, the text it starts from (empty for the game's start) and the moves
//! played since, separated by `;`. Every answer is a JSON text; every
//! refusal is one line. The functions below are the module's exports
//! (`wasm_bindgen`) over plain functions ([`position`], [`play`],
//! [`analyse`]…), which the tests call natively.

use gamut_core::game::{NodeKind, Player};
use gamut_core::platform::Instant;
use gamut_core::svg::SvgOptions;
use gamut_engine::sides::{SidesPlan, SidesText, TupleText};
use gamut_engine::{game, AnyGame, Position};
use gamut_games::GameId;
use gamut_search::params::COALITION_WIDTH;
use gamut_search::sides_analysis::Schedule;
use gamut_search::{Eval, Limits, Progress, Table, Verdict};
use serde_json::{json, Value};
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The transposition table of a search in the browser, in MiB: a page's
/// memory is the module's, grown on demand, and a tab of a few hundred
/// MiB is common; 32 MiB holds the entries of a minute's search at the
/// browser's speed.
pub const TABLE_MIB: usize = 32;

/// The game of id `id`.
fn game_of(id: &str) -> Result<&'static dyn AnyGame, String> {
    id.parse::<GameId>().map(game)
}

/// The position of game `id` from `from` (its start where empty) after
/// the moves of `moves` (separated by `;`).
///
/// # Errors
/// An unknown game, a text that is not a position of it, or a move that
/// is not legal where it is played.
pub fn line(id: &str, from: &str, moves: &str) -> Result<Position, String> {
    let g = game_of(id)?;
    let start = if from.trim().is_empty() {
        g.start()
    } else {
        g.parse(from).map_err(|e| e.to_string())?
    };
    if moves.trim().is_empty() {
        return Ok(start);
    }
    start.play_moves(moves, "moves").map_err(|e| e.to_string())
}

/// Every game: id, name, number of players, side names and setups.
#[must_use]
pub fn games() -> Value {
    Value::Array(
        GameId::ALL
            .iter()
            .map(|&id| {
                let g = game(id);
                json!({
                    "id": id.name(),
                    "name": g.info().name,
                    "players": g.players(),
                    "sides": g.info().sides,
                    "setups": g.setups(),
                })
            })
            .collect(),
    )
}

/// The name of a node's kind in the answers.
fn node_name(node: NodeKind) -> &'static str {
    match node {
        NodeKind::Decision(_) => "decision",
        NodeKind::Chance => "chance",
        NodeKind::Simultaneous => "simultaneous",
        NodeKind::Terminal => "over",
    }
}

/// A position: its text, who is to act, the kind of node, its SVG
/// picture, its moves (decision and chance nodes) each with the squares
/// it is clicked on, and at a simultaneous node every player's actions.
#[must_use]
pub fn describe(pos: &Position) -> Value {
    let moves: Vec<Value> = pos
        .move_texts()
        .into_iter()
        .map(|m| {
            let squares = pos.step_squares(&m);
            json!({ "text": m, "squares": squares })
        })
        .collect();
    let players = pos.game().players();
    let actions: Vec<Vec<String>> = if pos.node() == NodeKind::Simultaneous {
        (0..players)
            .map(|p| pos.action_texts(Player::nth(p)))
            .collect()
    } else {
        Vec::new()
    };
    json!({
        "game": pos.game().id().name(),
        "text": pos.text(),
        "state": pos.state_text(),
        "node": node_name(pos.node()),
        "svg": pos.svg(&SvgOptions::default(), None),
        "moves": moves,
        "actions": actions,
    })
}

/// The position of [`line`], described ([`describe`]).
///
/// # Errors
/// As [`line`].
pub fn position(id: &str, from: &str, moves: &str) -> Result<Value, String> {
    line(id, from, moves).map(|p| describe(&p))
}

/// Plays `step` at the position of [`line`]: a move or chance outcome by
/// its text, or at a simultaneous node every player's action separated
/// by `,`. The answer is the step's text as the line writes it (`move`)
/// and the position it leads to (`position`, [`describe`]).
///
/// # Errors
/// As [`line`], or a step that is not legal there.
pub fn play(id: &str, from: &str, moves: &str, step: &str) -> Result<Value, String> {
    let pos = line(id, from, moves)?;
    let (text, next) = if pos.node() == NodeKind::Simultaneous {
        let actions: Vec<String> = step.split(',').map(str::to_string).collect();
        pos.play_actions(&actions).map_err(|e| e.to_string())?
    } else {
        let next = pos.play_text(step).map_err(|e| e.to_string())?;
        (step.to_string(), next)
    };
    Ok(json!({ "move": text, "position": describe(&next) }))
}

/// The perft count of the position of [`line`] at `depth`.
///
/// # Errors
/// As [`line`].
pub fn perft(id: &str, from: &str, moves: &str, depth: u32) -> Result<u64, String> {
    Ok(line(id, from, moves)?.perft(depth, 1, &mut || {}))
}

/// The nodes per second of `nodes` in `time`.
fn rate(nodes: u64, time: Duration) -> f64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)).round()
}

/// A search's progress report as one analysis line: depth, score (the
/// expected value at a chance node, the matrix game's value at a
/// simultaneous one), nodes, nodes per second, milliseconds, the
/// principal variation and, at a decision node, every MultiPV line, each
/// variation written by `pv`.
#[must_use]
pub fn progress_line<M>(p: &Progress<'_, M>, pv: impl Fn(&[M]) -> Vec<String>) -> Value {
    match p {
        Progress::Decision(it) => json!({
            "depth": it.depth,
            "score": it.score,
            "nodes": it.nodes,
            "nps": rate(it.nodes, it.time),
            "ms": it.time.as_millis() as u64,
            "pv": pv(&it.pv),
            "lines": it.lines.iter().map(|l| json!({ "score": l.score, "pv": pv(&l.pv) })).collect::<Vec<_>>(),
        }),
        Progress::Chance(it) => json!({
            "depth": it.depth,
            "score": it.expected,
            "nodes": it.nodes,
            "nps": rate(it.nodes, it.time),
            "ms": it.time.as_millis() as u64,
            "pv": [],
        }),
        Progress::Simultaneous(m) => json!({
            "depth": m.depth,
            "score": m.value,
            "nodes": m.nodes,
            "nps": rate(m.nodes, m.time),
            "ms": m.time.as_millis() as u64,
            "pv": [],
        }),
    }
}

/// What an analysis may spend: a depth, a node count and milliseconds
/// (zero: no such limit; at least one must be given), and the number of
/// best lines to report at a decision node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The deepest iteration to complete (0: none).
    pub depth: u32,
    /// Nodes (0: none).
    pub nodes: u64,
    /// Milliseconds (0: none).
    pub millis: u64,
    /// Best lines at a decision node (at least one).
    pub multipv: usize,
}

impl Budget {
    /// The search limits of the budget.
    ///
    /// # Errors
    /// A budget of no limit: a search in the page's worker cannot be
    /// interrupted, so it must end by itself.
    pub fn limits(&self) -> Result<Limits, String> {
        let limits = Limits {
            depth: (self.depth > 0).then_some(self.depth),
            nodes: (self.nodes > 0).then_some(self.nodes),
            time: (self.millis > 0).then(|| Duration::from_millis(self.millis)),
            clock: None,
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
            return Err("an analysis needs a depth, nodes or time".into());
        }
        Ok(limits)
    }
}

/// Analyses the position of [`line`] on one thread within `budget`,
/// handing each completed iteration to `on_line` ([`progress_line`]) as it
/// comes. The answer is the verdict: the move to play (`best`: at a
/// simultaneous node every player's likeliest action, joined by `,` as
/// [`play`] reads them; at a chance node the likeliest outcome), its
/// score, depth, nodes, nodes per second and milliseconds.
///
/// # Errors
/// As [`line`], a game over, or a budget of no limit.
pub fn analyse(
    id: &str,
    from: &str,
    moves: &str,
    budget: Budget,
    on_line: &mut dyn FnMut(Value),
) -> Result<Value, String> {
    let pos = line(id, from, moves)?;
    let limits = budget.limits()?;
    let g = pos.game();
    if let Some(o) = pos.outcome() {
        return Err(format!(
            "the game is over ({}): nothing to search",
            o.describe(g.info().sides)
        ));
    }
    let tt = Table::try_new(TABLE_MIB).map_err(|e| e.to_string())?;
    let multipv = budget.multipv.max(1);
    let started = Instant::now();
    let (best, score, depth, nodes) = if g.players() == 2 {
        let mut config = g.default_config(1);
        config.multipv = multipv;
        let mut observe = |p: Progress<'_, String>| on_line(progress_line(&p, <[String]>::to_vec));
        verdict_of(pos.search(&limits, &config, &tt, None, &mut observe), |m| m)?
    } else {
        analyse_side(&pos, &limits, multipv, &tt, on_line)?
    };
    let time = started.elapsed();
    Ok(json!({
        "best": best,
        "score": score,
        "depth": depth,
        "nodes": nodes,
        "nps": rate(nodes, time),
        "ms": time.as_millis() as u64,
    }))
}

/// The move to play, score, depth and nodes of a verdict whose moves
/// `text` writes: at a simultaneous node every player's likeliest action
/// joined by `,` (as [`play`] reads them), at a chance node the likeliest
/// outcome.
fn verdict_of<M: Clone>(
    verdict: Verdict<M>,
    text: impl Fn(M) -> String,
) -> Result<(String, i32, u32, u64), String> {
    Ok(match verdict {
        Verdict::Over(_) => return Err("the game is over: nothing to search".into()),
        Verdict::Stopped => return Err("the search was stopped before any move".into()),
        Verdict::Decision(r) => (text(r.best), r.score, r.depth, r.nodes),
        Verdict::Chance(it) => {
            let likeliest = it
                .outcomes
                .iter()
                .max_by(|a, b| a.probability.total_cmp(&b.probability))
                .map(|o| text(o.outcome.clone()))
                .unwrap_or_default();
            (likeliest, it.expected, it.depth, it.nodes)
        }
        Verdict::Simultaneous(m) => {
            let actions: Vec<String> = m
                .strategies
                .iter()
                .map(|s| s.first().map(|(a, _)| text(a.clone())).unwrap_or_default())
                .collect();
            (actions.join(","), m.value.round() as i32, m.depth, m.nodes)
        }
    })
}

/// [`analyse`] in a game of more than two players: the paranoid search of
/// the side to act (at a simultaneous node the first) against all the
/// others, as `gamut bench` and the board search them, through the game
/// object's analysis of the sides. A line's principal variation is its
/// first step; at a simultaneous node the verdict's move is every
/// player's action, by player.
fn analyse_side(
    pos: &Position,
    limits: &Limits,
    multipv: usize,
    tt: &Table,
    on_line: &mut dyn FnMut(Value),
) -> Result<(String, i32, u32, u64), String> {
    let g = pos.game();
    let mut config = g.search_config(1, g.evaluation(Eval::Game, None)?);
    config.multipv = multipv;
    let mut analysis = pos.sides_analysis(SidesPlan {
        sides: vec![pos.perspective()],
        width: COALITION_WIDTH,
        schedule: Schedule::InTurn,
        limits: limits.clone(),
        fresh_table: false,
        shorts: None,
    });
    let first =
        |pv: &[TupleText]| -> Vec<String> { pv.first().map(TupleText::text).into_iter().collect() };
    analysis.run(&config, tt, None, &mut |report| {
        if let SidesText::Iteration { progress, .. } = report {
            on_line(progress_line(&progress, first));
        }
        true
    });
    let (_, verdict) = analysis
        .verdicts()
        .into_iter()
        .next()
        .ok_or("the search was stopped before any move")?;
    if let Verdict::Simultaneous(m) = &verdict {
        // Each player's action from the side's tuple or the others'.
        let mut joint = vec![String::new(); g.players()];
        for s in &m.strategies {
            if let Some((t, _)) = s.first() {
                for (slot, a) in joint.iter_mut().zip(&t.actions) {
                    if let Some(a) = a {
                        slot.clone_from(a);
                    }
                }
            }
        }
        return Ok((joint.join(","), m.value.round() as i32, m.depth, m.nodes));
    }
    verdict_of(verdict, |t| t.text())
}

/// The search half of `gamut bench` for game `id` on one thread: its
/// bench position searched to the bench depth with a fresh table of the
/// native default size; the answer is the nodes, milliseconds and nodes
/// per second, to compare with the native command's `nodes` column.
///
/// # Errors
/// An unknown game or one without a bench position.
pub fn bench(id: &str) -> Result<Value, String> {
    let g = game_of(id)?;
    let case = g
        .info()
        .bench
        .first()
        .ok_or_else(|| format!("{id} has no bench position"))?;
    let pos = g.parse(case.position).map_err(|e| e.to_string())?;
    let limits = Limits {
        depth: Some(case.search_depth),
        ..Limits::default()
    };
    let tt = Table::try_new(gamut_search::params::DEFAULT_HASH_MIB).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let verdict = pos.search(&limits, &g.default_config(1), &tt, None, &mut |_| {});
    let time = started.elapsed();
    let nodes = match verdict {
        Verdict::Decision(r) => r.nodes,
        Verdict::Chance(it) => it.nodes,
        Verdict::Simultaneous(m) => m.nodes,
        Verdict::Over(_) | Verdict::Stopped => 0,
    };
    Ok(json!({
        "game": id,
        "depth": case.search_depth,
        "nodes": nodes,
        "ms": time.as_secs_f64() * 1000.0,
        "nps": rate(nodes, time),
    }))
}

/// A refusal as the exception the page's script catches.
fn refused(message: String) -> JsError {
    JsError::new(&message)
}

/// The games, as JSON ([`games`]).
#[wasm_bindgen(js_name = games)]
#[must_use]
pub fn games_js() -> String {
    games().to_string()
}

/// A position, as JSON ([`position`]).
///
/// # Errors
/// As [`position`], thrown.
#[wasm_bindgen(js_name = position)]
pub fn position_js(game: &str, from: &str, moves: &str) -> Result<String, JsError> {
    position(game, from, moves)
        .map(|v| v.to_string())
        .map_err(refused)
}

/// A step played, as JSON ([`play`]).
///
/// # Errors
/// As [`play`], thrown.
#[wasm_bindgen(js_name = play)]
pub fn play_js(game: &str, from: &str, moves: &str, step: &str) -> Result<String, JsError> {
    play(game, from, moves, step)
        .map(|v| v.to_string())
        .map_err(refused)
}

/// The perft count ([`perft`]), as a decimal text (counts pass 2^53).
///
/// # Errors
/// As [`perft`], thrown.
#[wasm_bindgen(js_name = perft)]
pub fn perft_js(game: &str, from: &str, moves: &str, depth: u32) -> Result<String, JsError> {
    perft(game, from, moves, depth)
        .map(|n| n.to_string())
        .map_err(refused)
}

/// An analysis ([`analyse`]): `on_line` is called with each line's JSON
/// text as it comes; the answer is the verdict's JSON. `nodes` and
/// `millis` are numbers (0: no limit).
///
/// # Errors
/// As [`analyse`], thrown.
#[wasm_bindgen(js_name = analyse)]
#[allow(clippy::too_many_arguments)]
pub fn analyse_js(
    game: &str,
    from: &str,
    moves: &str,
    depth: u32,
    nodes: f64,
    millis: f64,
    multipv: u32,
    on_line: &js_sys::Function,
) -> Result<String, JsError> {
    let budget = Budget {
        depth,
        nodes: nodes.max(0.0) as u64,
        millis: millis.max(0.0) as u64,
        multipv: multipv as usize,
    };
    let mut call = |v: Value| {
        // A callback that throws does not stop the search.
        let _ = on_line.call1(&JsValue::NULL, &JsValue::from_str(&v.to_string()));
    };
    analyse(game, from, moves, budget, &mut call)
        .map(|v| v.to_string())
        .map_err(refused)
}

/// The search half of the bench ([`bench`]), as JSON.
///
/// # Errors
/// As [`bench`], thrown.
#[wasm_bindgen(js_name = bench)]
pub fn bench_js(game: &str) -> Result<String, JsError> {
    bench(game).map(|v| v.to_string()).map_err(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_lists_moves_plays_one_and_analyses_to_a_move() {
        let list = games();
        let ids: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), GameId::ALL.len());
        for id in ids {
            let start = position(id, "", "").unwrap();
            let first = match start["node"].as_str().unwrap() {
                "simultaneous" => start["actions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a[0].as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                _ => start["moves"][0]["text"].as_str().unwrap().to_string(),
            };
            let played = play(id, "", "", &first).unwrap();
            let step = played["move"].as_str().unwrap();
            assert_eq!(
                played["position"]["text"],
                position(id, "", step).unwrap()["text"],
                "{id}: the step's text replays"
            );
            assert!(start["svg"].as_str().unwrap().contains("<svg"), "{id}");
            let mut lines = Vec::new();
            // Two iterations, in every game.
            let budget = Budget {
                depth: 2,
                multipv: 2,
                ..Budget::default()
            };
            let verdict = analyse(id, "", step, budget, &mut |l| lines.push(l)).unwrap();
            assert!(
                lines.iter().any(|l| l["depth"] == 2),
                "{id}: the second iteration's line"
            );
            assert!(lines.iter().all(|l| l["nodes"].as_u64().is_some()), "{id}");
            let best = verdict["best"].as_str().unwrap();
            play(id, "", step, best).unwrap_or_else(|e| panic!("{id}: {best}: {e}"));
        }
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        assert!(position("chess", "", "")
            .unwrap_err()
            .starts_with("unknown game 'chess' (games: aporia,"));
        assert!(play("epaminondas", "", "", "z9-z10").is_err());
        assert_eq!(
            analyse("epaminondas", "", "", Budget::default(), &mut |_| {}).unwrap_err(),
            "an analysis needs a depth, nodes or time"
        );
    }

    #[test]
    fn perft_and_bench_nodes_match_the_native_counts() {
        let g = game_of("epaminondas").unwrap();
        assert_eq!(
            perft("epaminondas", "", "", 2).unwrap(),
            g.start().perft(2, 1, &mut || {})
        );
        let b = bench("epaminondas").unwrap();
        assert!(b["nodes"].as_u64().unwrap() > 0);
    }
}
