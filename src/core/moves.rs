//! Move lists as text: moves separated by `;` (Spokes outcome texts contain
//! spaces), as `--moves` and the engine protocol's `position ... moves`
//! give them.

use crate::game::{Child, NodeKind, NodeRules, Notation, ParseError, Player};

/// The texts of the moves of `line` played in turn from `pos` (a
/// principal variation, say).
pub fn texts_along<G: Notation>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(p.move_text(m));
        p = p.play(m);
    }
    out
}

/// `pos` after the moves of `list`, separated by `;`: decision moves and
/// chance outcomes by their text, joint actions at a simultaneous node by
/// their joint text. An illegal move is an error naming it, its place in
/// the list and `source` (`of --moves`).
pub fn play_moves<G: Notation>(mut pos: G, list: &str, source: &str) -> Result<G, ParseError> {
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
fn parse_joint<G: Notation>(pos: &G, text: &str) -> Option<G> {
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

/// The text of `child` of `pos`: its move text, or its joint action's
/// text.
pub fn child_text<G: Notation>(pos: &G, child: &Child<G::Move>) -> String {
    match *child {
        Child::Move(m) => pos.move_text(m),
        Child::Joint(a, b) => pos.joint_text(a, b),
        Child::Joints(ref all) => pos.joint_text_all(all),
    }
}

/// `kids`, children of `pos` (as [`crate::perft::children`] lists them),
/// with their texts, sorted by text: as `gamut perft --divide` and
/// `gamut moves` show them.
pub fn named_children<G: Notation>(
    pos: &G,
    kids: Vec<Child<G::Move>>,
) -> Vec<(String, Child<G::Move>)> {
    let mut out: Vec<(String, Child<G::Move>)> =
        kids.into_iter().map(|c| (child_text(pos, &c), c)).collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out
}

/// Compares two texts as people sort move lists: runs of digits as
/// numbers (`wD2` before `wD10`), everything else character by character;
/// texts equal that way (`a01`, `a1`) fall back to plain order.
#[must_use]
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (m, n) = (run(x), run(y));
                // The numbers without leading zeros: the longer is larger,
                // else the first differing digit decides.
                let strip = |s: &[u8]| -> usize { s.iter().take_while(|&&c| c == b'0').count() };
                let (p, q) = (&x[strip(&x[..m]).min(m)..m], &y[strip(&y[..n]).min(n)..n]);
                let order = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if order != Ordering::Equal {
                    return order;
                }
                (x, y) = (&x[m..], &y[n..]);
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                (x, y) = (&x[1..], &y[1..]);
            }
        }
    }
}

#[cfg(test)]
mod natural_tests {
    use super::natural_cmp;

    #[test]
    fn numbers_sort_as_numbers() {
        let mut v = vec!["wD10", "wD2", "wD1", "bA", "wD16", "wC3", "a01", "a1", "a0"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["a0", "a01", "a1", "bA", "wC3", "wD1", "wD2", "wD10", "wD16"]
        );
        let mut w = vec!["b10-b12", "b1-b3", "b9-b10", "b1-b2"];
        w.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(w, ["b1-b2", "b1-b3", "b9-b10", "b10-b12"]);
    }
}
