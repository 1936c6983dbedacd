//! Move lists as text: moves separated by `;` (Spokes outcome texts contain
//! spaces), as `--moves` and the engine protocol's `position ... moves`
//! give them.

use crate::game::{Game, NodeKind, ParseError, Player};

/// `pos` after the moves of `list`, separated by `;`: decision moves and
/// chance outcomes by their text, joint actions at a simultaneous node by
/// their joint text. An illegal move is an error naming it, its place in
/// the list and `source` (`of --moves`).
pub fn play_moves<G: Game>(mut pos: G, list: &str, source: &str) -> Result<G, ParseError> {
    for (i, item) in list.split(';').enumerate() {
        let text = item.trim();
        let fail = |why: String| ParseError(format!("move {} '{text}' of {source}: {why}", i + 1));
        if text.is_empty() {
            return Err(fail("empty (moves are separated by ';')".into()));
        }
        pos = match pos.node() {
            NodeKind::Terminal => return Err(fail("the game is already over".into())),
            NodeKind::Simultaneous => parse_joint(&pos, text)
                .ok_or_else(|| fail("not a legal joint action here".into()))?,
            _ => {
                let m = pos.parse_move(text).map_err(|e| fail(e.to_string()))?;
                pos.play(m)
            }
        };
    }
    Ok(pos)
}

/// The child of simultaneous node `pos` after the joint action `text`
/// (every player's action in player order, joined by `,`), if each action
/// is legal; without listing the joint actions, which can be millions.
fn parse_joint<G: Game>(pos: &G, text: &str) -> Option<G> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != G::players() {
        return None;
    }
    let mut actions = Vec::with_capacity(parts.len());
    let mut list = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        pos.actions(Player::nth(i), &mut list);
        actions.push(*list.iter().find(|&&m| pos.move_text(m) == *part)?);
    }
    match actions[..] {
        [first, second] if pos.joint_text(first, second) == text => {
            Some(pos.play_joint(first, second))
        }
        [_, _] => None,
        _ => Some(pos.play_joint_all(&actions)),
    }
}
