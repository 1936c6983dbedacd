//! The lines of play the server replayed lately, each kept with what was
//! listed of its last position. A page asks about one line many times
//! (its position, each narrowing of a large resolution's outcomes, the
//! scores, the analysis), and a four-player Spokes resolution can take
//! seconds to list (85,052 outcomes in about 4.5 s), which every replay
//! through it, and every narrowing, would otherwise pay again.

use gamut_core::game::{thread_stop, NodeKind};
use gamut_engine::{AnyGame, Listing, Position};
use std::sync::{Arc, Mutex, OnceLock};

/// How many lines are kept; the one used longest ago is dropped first.
const KEPT: usize = 8;

/// The most moves a request's line may hold.
pub const MAX_PLIES: usize = 5000;

/// A line of play: the start position and the position after each move,
/// with the moves' texts.
pub struct Line {
    /// The start, then the position after each move.
    pub positions: Vec<Position>,
    /// The moves' texts, as given.
    pub texts: Vec<String>,
}

impl Line {
    /// The last position of the line.
    #[must_use]
    pub fn last(&self) -> &Position {
        self.positions.last().expect("a line has its start")
    }
}

/// The start a request names in game `game`: `fen`, or `setup`, or the
/// game's start.
pub fn start(
    game: &dyn AnyGame,
    fen: Option<&str>,
    setup: Option<&str>,
) -> Result<Position, String> {
    let id = game.id();
    match (fen, setup) {
        (Some(_), Some(_)) => Err("give a position or a setup, not both".into()),
        (Some(f), None) => game
            .parse(f)
            .map_err(|e| format!("bad position for {id}: {e}")),
        (None, Some(s)) => game
            .start_with(s)
            .map_err(|e| format!("bad setup for {id}: {e}")),
        (None, None) => Ok(game.start()),
    }
}

/// The position after `item`, the `i`-th (from 0) of a request's moves,
/// is played at `pos`.
pub fn play_item(pos: &Position, item: &str, i: usize) -> Result<Position, String> {
    // One numbering, the request's: the move's place in its whole line.
    pos.play_moves(item, "the moves")
        .map_err(|e| e.0.replacen("move 1 ", &format!("move {} ", i + 1), 1))
}

/// A line replayed, with its last position's moves and their changes on
/// the board, each listed on first use.
pub struct Replayed {
    line: Line,
    moves: OnceLock<Listing>,
    /// Held while the moves are listed: a request asking for them then
    /// waits for that list rather than listing them again.
    listing: Mutex<()>,
    changes: OnceLock<Changes>,
}

impl std::ops::Deref for Replayed {
    type Target = Line;

    fn deref(&self) -> &Line {
        &self.line
    }
}

impl Replayed {
    fn new(line: Line) -> Replayed {
        Replayed {
            line,
            moves: OnceLock::new(),
            listing: Mutex::new(()),
            changes: OnceLock::new(),
        }
    }

    /// The moves of the last position if it is a decision or a chance
    /// node, else none. A listing the thread's stop check ended
    /// ([`gamut_core::game::with_thread_stop`]) gives none and is not
    /// kept.
    pub fn moves(&self) -> Listing {
        if let Some(moves) = self.moves.get() {
            return Arc::clone(moves);
        }
        let _one = self
            .listing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(moves) = self.moves.get() {
            return Arc::clone(moves);
        }
        let pos = self.line.last();
        let moves = pos.listing();
        let choice = matches!(pos.node(), NodeKind::Decision(_) | NodeKind::Chance);
        // A choice always has a move, unless its listing was stopped.
        if choice && moves.is_empty() && thread_stop() {
            return moves;
        }
        Arc::clone(self.moves.get_or_init(|| moves))
    }

    /// What each of [`moves`](Self::moves) changes on the board (nothing,
    /// not kept, where their listing was stopped).
    pub fn changes(&self) -> &Changes {
        static NONE: Changes = Changes {
            squares: Vec::new(),
            contents: Vec::new(),
            of_move: Vec::new(),
        };
        let moves = self.moves();
        if self.moves.get().is_none() {
            return &NONE;
        }
        self.changes.get_or_init(|| {
            let mut changes = Changes::default();
            for i in 0..moves.len() {
                let of_move = moves
                    .changes(i)
                    .into_iter()
                    .map(|(s, c)| {
                        (
                            intern(&mut changes.squares, s),
                            intern(&mut changes.contents, c),
                        )
                    })
                    .collect();
                changes.of_move.push(of_move);
            }
            changes
        })
    }
}

/// The changes on the board of a list of moves
/// ([`Diagram::move_changes`]), as indices into their squares' and
/// contents' names: a few bytes a change, where a list can hold tens of
/// thousands of moves.
#[derive(Default)]
pub struct Changes {
    /// The squares' names.
    pub squares: Vec<String>,
    /// The contents' names.
    pub contents: Vec<String>,
    /// Each move's changes: (square, content) as indices.
    pub of_move: Vec<Vec<(u32, u32)>>,
}

/// The index of `name` in `names`, added if it is new.
fn intern(names: &mut Vec<String>, name: String) -> u32 {
    let i = match names.iter().position(|n| *n == name) {
        Some(i) => i,
        None => {
            names.push(name);
            names.len() - 1
        }
    };
    u32::try_from(i).expect("fewer than 2^32 names")
}

/// A line kept: its game and start, its moves' texts, and the line.
struct Kept {
    start: String,
    texts: Vec<String>,
    replayed: Arc<Replayed>,
}

/// The lines replayed lately, the most recent first.
#[derive(Default)]
pub struct Lines(Mutex<Vec<Kept>>);

impl Lines {
    /// The line a request names in game `game`: `fen` (or `setup`, or
    /// the game's start), then `moves` separated by `;` (at most
    /// [`MAX_PLIES`]),
    /// replayed from the longest line kept that it continues. A move right
    /// after a kept line whose moves were listed is found among them by
    /// its text rather than parsed (a parse lists them again).
    pub fn replay(
        &self,
        game: &dyn AnyGame,
        fen: Option<&str>,
        setup: Option<&str>,
        moves: Option<&str>,
    ) -> Result<Arc<Replayed>, String> {
        let key = format!("{}\n{fen:?}\n{setup:?}", game.id());
        let items: Vec<&str> = match moves.filter(|m| !m.trim().is_empty()) {
            Some(list) => list.split(';').collect(),
            None => Vec::new(),
        };
        if items.len() > MAX_PLIES {
            return Err(format!("more than {MAX_PLIES} moves"));
        }
        let texts: Vec<String> = items.iter().map(|t| t.trim().to_string()).collect();
        let base = self.longest_prefix(&key, &texts);
        if let Some(b) = base.as_ref().filter(|b| b.texts.len() == texts.len()) {
            return Ok(Arc::clone(b));
        }
        let mut line = match &base {
            Some(b) => Line {
                positions: b.positions.clone(),
                texts: b.texts.clone(),
            },
            None => Line {
                positions: vec![start(game, fen, setup)?],
                texts: Vec::new(),
            },
        };
        let listed = base.as_ref().and_then(|b| b.moves.get());
        let from = line.texts.len();
        for (i, item) in items.iter().enumerate().skip(from) {
            let last = line.last();
            let found = listed
                .filter(|_| i == from)
                .and_then(|list| Some((list, list.find(&texts[i])?)));
            let next = match found {
                Some((list, m)) => list.play(m),
                None => play_item(last, item, i)?,
            };
            line.positions.push(next);
            line.texts.push(texts[i].clone());
        }
        let replayed = Arc::new(Replayed::new(line));
        let mut kept = self.0.lock().expect("the lines are not poisoned");
        kept.insert(
            0,
            Kept {
                start: key,
                texts,
                replayed: Arc::clone(&replayed),
            },
        );
        kept.truncate(KEPT);
        Ok(replayed)
    }

    /// The longest kept line of `start` whose moves begin `texts`, made
    /// the most recent.
    fn longest_prefix(&self, start: &str, texts: &[String]) -> Option<Arc<Replayed>> {
        let mut kept = self.0.lock().expect("the lines are not poisoned");
        let best = kept
            .iter()
            .enumerate()
            .filter(|(_, k)| k.start == start && texts.starts_with(&k.texts))
            .max_by_key(|(i, k)| (k.texts.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i)?;
        let entry = kept.remove(best);
        let replayed = Arc::clone(&entry.replayed);
        kept.insert(0, entry);
        Some(replayed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_engine::game;
    use gamut_games::GameId;

    /// Every move after a kept line whose moves were listed (found among
    /// them by its text) gives the position a replay from nothing gives,
    /// and a line asked again is the one kept.
    fn continued_as_replayed(id: GameId, moves: &str) {
        let g = game(id);
        let lines = Lines::default();
        let base = lines.replay(g, None, None, Some(moves)).unwrap();
        let listed = base.moves();
        assert!(listed.len() > 1, "{id}: a choice at the line's end");
        for m in 0..listed.len() {
            let text = format!("{moves};{}", listed.text(m));
            let kept = lines.replay(g, None, None, Some(&text)).unwrap();
            let fresh = Lines::default().replay(g, None, None, Some(&text)).unwrap();
            let texts = |l: &Line| l.positions.iter().map(|p| p.text()).collect::<Vec<_>>();
            assert_eq!(texts(&kept), texts(&fresh), "{id}: {text}");
            assert_eq!(kept.texts, fresh.texts);
            assert_eq!(kept.last().text(), listed.play(m).text());
        }
        let again = lines.replay(g, None, None, Some(moves)).unwrap();
        assert!(Arc::ptr_eq(&again, &base), "the kept line is used again");
    }

    #[test]
    fn a_move_after_a_listed_line_is_the_move_a_replay_plays() {
        continued_as_replayed(GameId::Epaminondas, "m1-j4");
        // A Spokes round's resolution: its outcomes are boards.
        continued_as_replayed(GameId::Spokes, "bA,bA");
    }

    #[test]
    fn a_bad_move_is_refused_with_its_ply_after_a_kept_line() {
        let lines = Lines::default();
        let g = game(GameId::Epaminondas);
        lines.replay(g, None, None, Some("m1-j4")).unwrap();
        let err = lines.replay(g, None, None, Some("m1-j4;zz")).err().unwrap();
        assert!(err.starts_with("move 2 'zz'"), "{err}");
    }

    #[test]
    fn lines_of_two_games_are_kept_apart() {
        let lines = Lines::default();
        let a = lines
            .replay(game(GameId::Aporia), None, None, None)
            .unwrap();
        let b = lines.replay(game(GameId::Apart), None, None, None).unwrap();
        assert_eq!(a.last().game().id(), GameId::Aporia);
        assert_eq!(b.last().game().id(), GameId::Apart);
    }
}
