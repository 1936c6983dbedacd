//! The JSON API answered on the calling thread, with no server: what the
//! static site's Web Worker asks of the engine's WebAssembly module
//! (`gamut-web`'s `api`). The routes and their answers are `gamut
//! serve`'s (docs/serve.md), built by the same code ([`crate::page`],
//! [`crate::view`]); a search has the one thread and a table of
//! [`Local::new`]'s size, and runs until its limits or until the worker
//! is ended. The routes that read the server's files (its records folder,
//! a solved table) and its searches' count are not answered here.

use crate::lines::Lines;
use crate::page;
use crate::query::Params;
use crate::view::{self, Share, Turns};
use gamut_engine::AnyGame;
use gamut_search::{Eval, Evaluation};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The share of a search here: one thread, a table of `hash_mib`, each
/// game's own evaluation (its built-in network where it has one).
struct One {
    hash_mib: usize,
}

impl Share for One {
    fn threads(&self) -> usize {
        1
    }

    fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    fn evaluation(&self, game: &dyn AnyGame) -> Evaluation {
        game.evaluation(Eval::Game, None).unwrap_or_default()
    }
}

/// The turns of a search here: it holds its thread to its end and never
/// yields.
struct Always {
    share: One,
    halt: Arc<AtomicBool>,
}

impl Turns for Always {
    type Share = One;

    fn grant(&self) -> &One {
        &self.share
    }

    fn halt(&self) -> &Arc<AtomicBool> {
        &self.halt
    }

    fn yielded(&self) -> bool {
        false
    }

    fn resume(&mut self, _send: &mut dyn FnMut(Value) -> bool) -> bool {
        false
    }
}

/// The API on this thread: the lines replayed lately, and each search's
/// table size.
pub struct Local {
    lines: Lines,
    hash_mib: usize,
}

impl Local {
    /// The API whose searches each have a table of `hash_mib` MiB.
    #[must_use]
    pub fn new(hash_mib: usize) -> Local {
        Local {
            lines: Lines::default(),
            hash_mib,
        }
    }

    fn turns(&self) -> Always {
        Always {
            share: One {
                hash_mib: self.hash_mib,
            },
            halt: Arc::default(),
        }
    }

    /// Answers `route` (`/api/position`…) with `query` (a URL's query
    /// string, read as `gamut serve` reads it): the answer `gamut serve`
    /// gives. A stream's route (`/api/analysis`, `/api/scores`) hands each
    /// event to `send` in order, as the server sends them, and answers
    /// `null` once the stream ends; `send` saying `false` ends it.
    ///
    /// # Errors
    /// What `gamut serve` answers 400 or 404, its message.
    pub fn answer(
        &self,
        route: &str,
        query: &str,
        send: &mut dyn FnMut(Value) -> bool,
    ) -> Result<Value, String> {
        let p = Params::parse(query)?;
        match route {
            "/api/games" => Ok(page::games_json()),
            "/api/position" => {
                let line = p.line(&self.lines)?;
                let mut v = page::position_json(&line);
                if let Some(text) = &p.short_of {
                    v["short_of"] = json!(page::short_of(&line, text)?);
                }
                Ok(v)
            }
            "/api/outcomes" => {
                let line = p.line(&self.lines)?;
                page::outcomes_json(&line, p.fix.as_deref().unwrap_or(""), p.from.unwrap_or(0))
            }
            "/api/export" => {
                let id = p.game()?;
                let line = p.line(&self.lines)?;
                let record = page::record_line(&line, &p.move_texts())?;
                Ok(json!({ "record": record, "file": format!("{id}-game.jsonl") }))
            }
            "/api/engine" => {
                let limits = p.engine_limits();
                let line = p.line(&self.lines)?;
                let turns = self.turns();
                let stop = AtomicBool::new(false);
                let m =
                    view::engine_move(&line, &limits, turns.grant(), p.player.unwrap_or(0), &stop)?;
                let short = page::short_of(&line, &m)?;
                Ok(json!({ "move": m, "short": short }))
            }
            "/api/analysis" => {
                let limits = p.analysis_limits();
                let line = p.line(&self.lines)?;
                let mut turns = self.turns();
                if send(json!({
                    "threads": 1,
                    "hash": self.hash_mib,
                    "eval": Eval::Game.name(),
                })) {
                    view::analyse(&line, &limits, p.multipv(), &mut turns, send);
                }
                Ok(Value::Null)
            }
            "/api/scores" => {
                let limits = p.score_limits();
                let line = p.line(&self.lines)?;
                view::line_scores(&line, &limits, &mut self.turns(), send);
                Ok(Value::Null)
            }
            _ => Err(format!("{route} is not answered without gamut serve")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route answers as the server does: a position with its moves,
    /// an engine move that plays, an analysis streamed to its end with
    /// MultiPV lines, the scores of a line, and an export.
    #[test]
    fn the_routes_answer_an_epaminondas_line() {
        let api = Local::new(4);
        let none = &mut |_: Value| true;
        let games = api.answer("/api/games", "", none).unwrap();
        assert!(games.as_array().unwrap().len() > 4);
        let pos = api
            .answer("/api/position", "game=epaminondas", none)
            .unwrap();
        let first = pos["moves"][0]["text"].as_str().unwrap().to_string();
        let q = format!("game=epaminondas&moves={first}&time=100");
        let m = api.answer("/api/engine", &q, none).unwrap();
        let second = m["move"].as_str().unwrap();
        let line = format!("game=epaminondas&moves={first}%3B{second}");
        let after = api.answer("/api/position", &line, none).unwrap();
        assert_eq!(after["node"], "decision");
        let mut events = Vec::new();
        let done = api
            .answer(
                "/api/analysis",
                &format!("{line}&depth=3&multipv=2"),
                &mut |v| {
                    events.push(v);
                    true
                },
            )
            .unwrap();
        assert_eq!(done, Value::Null);
        assert_eq!(events[0]["threads"], 1);
        assert_eq!(events.last().unwrap()["done"], true);
        let deepest = &events[events.len() - 2];
        assert_eq!(deepest["depth"], 3);
        assert_eq!(deepest["lines"].as_array().unwrap().len(), 2);
        let mut scores = Vec::new();
        api.answer("/api/scores", &format!("{line}&depth=2"), &mut |v| {
            scores.push(v);
            true
        })
        .unwrap();
        assert_eq!(scores.len(), 4, "three positions and the end: {scores:?}");
        let export = api
            .answer(
                "/api/export",
                &format!("game=epaminondas&moves={first}%3B+{second}"),
                none,
            )
            .unwrap();
        assert_eq!(export["file"], "epaminondas-game.jsonl");
        assert!(export["record"].as_str().unwrap().contains(&first));
    }

    #[test]
    fn a_server_s_route_and_a_bad_query_are_refused() {
        let api = Local::new(4);
        let none = &mut |_: Value| true;
        assert_eq!(
            api.answer("/api/records", "", none).unwrap_err(),
            "/api/records is not answered without gamut serve"
        );
        assert_eq!(
            api.answer("/api/position", "", none).unwrap_err(),
            "which game? (game=<id>)"
        );
    }
}
