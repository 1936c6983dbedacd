//! Move lists as the command line's `--moves` takes them: canonical move
//! texts separated by `;`, played in order.

use crate::game::{Game, NodeKind, ParseError};
use crate::perft;

/// `pos` after the moves of `list`, separated by `;` (a joint action at a
/// simultaneous node, a move or chance outcome elsewhere); an illegal move
/// is an error naming it and its place in the list.
pub fn play_moves<G: Game>(mut pos: G, list: &str) -> Result<G, ParseError> {
    for (i, item) in list.split(';').enumerate() {
        let text = item.trim();
        let fail = |why: String| ParseError(format!("move {} '{text}' of --moves: {why}", i + 1));
        if text.is_empty() {
            return Err(fail("empty (moves are separated by ';')".into()));
        }
        pos = match pos.node() {
            NodeKind::Terminal => return Err(fail("the game is already over".into())),
            NodeKind::Simultaneous => {
                let joint = perft::children(&pos)
                    .into_iter()
                    .find(|(t, _)| t == text)
                    .ok_or_else(|| fail("not a legal joint action here".into()))?;
                perft::child_position(&pos, &joint.1)
            }
            _ => {
                let m = pos.parse_move(text).map_err(|e| fail(e.to_string()))?;
                pos.play(m)
            }
        };
    }
    Ok(pos)
}
