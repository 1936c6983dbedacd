//! The lines of play the server replayed lately, each kept with what was
//! listed of its last position. A page asks about one line many times
//! (its position, each narrowing of a large resolution's outcomes, the
//! scores, the analysis), and a four-player Spokes resolution can take
//! seconds to list (85,052 outcomes in about 4.5 s), which every replay
//! through it, and every narrowing, would otherwise pay again.

use super::view::{self, Line};
use gamut_core::evaluate::FullGame;
use gamut_core::game::NodeKind;
use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock};

/// How many lines are kept; the one used longest ago is dropped first.
const KEPT: usize = 8;

/// A line replayed, with its last position's moves and their changes on
/// the board, each listed on first use.
pub struct Replayed<G: FullGame> {
    line: Line<G>,
    moves: OnceLock<Vec<G::Move>>,
    /// Held while the moves are listed: a request asking for them then
    /// waits for that list rather than listing them again.
    listing: Mutex<()>,
    changes: OnceLock<Changes>,
}

impl<G: FullGame> std::ops::Deref for Replayed<G> {
    type Target = Line<G>;

    fn deref(&self) -> &Line<G> {
        &self.line
    }
}

impl<G: FullGame> Replayed<G> {
    fn new(line: Line<G>) -> Replayed<G> {
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
    pub fn moves(&self) -> &[G::Move] {
        if let Some(moves) = self.moves.get() {
            return moves;
        }
        let _one = self
            .listing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(moves) = self.moves.get() {
            return moves;
        }
        let pos = self.line.last();
        let mut moves = Vec::new();
        let choice = matches!(pos.node(), NodeKind::Decision(_) | NodeKind::Chance);
        if choice {
            pos.moves(&mut moves);
        }
        // A choice always has a move, unless its listing was stopped.
        if choice && moves.is_empty() && gamut_core::game::thread_stop() {
            return &[];
        }
        self.moves.get_or_init(|| moves)
    }

    /// What each of [`moves`](Self::moves) changes on the board (nothing,
    /// not kept, where their listing was stopped).
    pub fn changes(&self) -> &Changes {
        static NONE: Changes = Changes {
            squares: Vec::new(),
            contents: Vec::new(),
            of_move: Vec::new(),
        };
        self.moves();
        if self.moves.get().is_none() {
            return &NONE;
        }
        self.changes.get_or_init(|| {
            let pos = self.line.last();
            let mut changes = Changes::default();
            for &m in self.moves() {
                let of_move = pos
                    .move_changes(m)
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
    replayed: Arc<dyn Any + Send + Sync>,
}

/// The lines replayed lately, the most recent first.
#[derive(Default)]
pub struct Lines(Mutex<Vec<Kept>>);

impl Lines {
    /// The line a request names: `fen` (or `setup`, or the game's start),
    /// then `moves` separated by `;` (at most [`view::MAX_PLIES`]),
    /// replayed from the longest line kept that it continues. A move right
    /// after a kept line whose moves were listed is found among them by
    /// its text rather than parsed (a parse lists them again).
    pub fn replay<G: FullGame>(
        &self,
        fen: Option<&str>,
        setup: Option<&str>,
        moves: Option<&str>,
    ) -> Result<Arc<Replayed<G>>, String> {
        let start = format!("{}\n{fen:?}\n{setup:?}", G::ID);
        let items: Vec<&str> = match moves.filter(|m| !m.trim().is_empty()) {
            Some(list) => list.split(';').collect(),
            None => Vec::new(),
        };
        if items.len() > view::MAX_PLIES {
            return Err(format!("more than {} moves", view::MAX_PLIES));
        }
        let texts: Vec<String> = items.iter().map(|t| t.trim().to_string()).collect();
        let base = self.longest_prefix::<G>(&start, &texts);
        if let Some(b) = base.as_ref().filter(|b| b.texts.len() == texts.len()) {
            return Ok(Arc::clone(b));
        }
        let mut line = match &base {
            Some(b) => Line {
                positions: b.positions.clone(),
                texts: b.texts.clone(),
            },
            None => Line {
                positions: vec![view::start::<G>(fen, setup)?],
                texts: Vec::new(),
            },
        };
        let listed = base.as_ref().and_then(|b| b.moves.get());
        let from = line.texts.len();
        for (i, item) in items.iter().enumerate().skip(from) {
            let last = line.last();
            let found = listed
                .filter(|_| i == from)
                .and_then(|list| list.iter().find(|&&m| last.move_text(m) == texts[i]));
            let next = match found {
                Some(&m) => last.play(m),
                None => view::play_item(last, item, i)?,
            };
            line.positions.push(next);
            line.texts.push(texts[i].clone());
        }
        let replayed = Arc::new(Replayed::new(line));
        let mut kept = self.0.lock().expect("the lines are not poisoned");
        kept.insert(
            0,
            Kept {
                start,
                texts,
                replayed: Arc::clone(&replayed) as Arc<dyn Any + Send + Sync>,
            },
        );
        kept.truncate(KEPT);
        Ok(replayed)
    }

    /// The longest kept line of `start` whose moves begin `texts`, made
    /// the most recent.
    fn longest_prefix<G: FullGame>(
        &self,
        start: &str,
        texts: &[String],
    ) -> Option<Arc<Replayed<G>>> {
        let mut kept = self.0.lock().expect("the lines are not poisoned");
        let best = kept
            .iter()
            .enumerate()
            .filter(|(_, k)| k.start == start && texts.starts_with(&k.texts))
            .max_by_key(|(i, k)| (k.texts.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i)?;
        let entry = kept.remove(best);
        let replayed = Arc::clone(&entry.replayed).downcast::<Replayed<G>>().ok();
        kept.insert(0, entry);
        replayed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_games::epaminondas::Epaminondas;
    use gamut_games::spokes::Spokes;

    /// Every move after a kept line whose moves were listed (found among
    /// them by its text) gives the position a replay from nothing gives,
    /// and a line asked again is the one kept.
    fn continued_as_replayed<G: FullGame>(moves: &str) {
        let lines = Lines::default();
        let base = lines.replay::<G>(None, None, Some(moves)).unwrap();
        let listed = base.moves().to_vec();
        assert!(listed.len() > 1, "{}: a choice at the line's end", G::ID);
        for m in listed {
            let text = format!("{moves};{}", base.last().move_text(m));
            let kept = lines.replay::<G>(None, None, Some(&text)).unwrap();
            let fresh = Lines::default()
                .replay::<G>(None, None, Some(&text))
                .unwrap();
            assert_eq!(kept.positions, fresh.positions, "{}: {text}", G::ID);
            assert_eq!(kept.texts, fresh.texts);
            assert_eq!(kept.last(), &base.last().play(m));
        }
        let again = lines.replay::<G>(None, None, Some(moves)).unwrap();
        assert!(Arc::ptr_eq(&again, &base), "the kept line is used again");
    }

    #[test]
    fn a_move_after_a_listed_line_is_the_move_a_replay_plays() {
        continued_as_replayed::<Epaminondas>("m1-j4");
        // A Spokes round's resolution: its outcomes are boards.
        continued_as_replayed::<Spokes>("bA,bA");
    }

    #[test]
    fn a_bad_move_is_refused_with_its_ply_after_a_kept_line() {
        let lines = Lines::default();
        lines
            .replay::<Epaminondas>(None, None, Some("m1-j4"))
            .unwrap();
        let err = lines
            .replay::<Epaminondas>(None, None, Some("m1-j4;zz"))
            .err()
            .unwrap();
        assert!(err.starts_with("move 2 'zz'"), "{err}");
    }
}
