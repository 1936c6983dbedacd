//! The short outcome form: a resolution outcome named by what it changed on
//! the board after placement, for people (see `docs/rules/spokes.md`).
//!
//! An entry is a node's content after the resolution followed by the node,
//! as a placement names colour then node: `XD4` (a block now on D4), `wC3`,
//! `.D5` (D5 emptied). The form lists, in node order, the changed nodes that
//! are not empty afterwards when that singles the outcome out among the
//! placement's outcomes, and every changed node otherwise; `-` when nothing
//! changed; then ` loop` for an unbreakable loop. A text names the outcome
//! whose changes include all its entries; if several do, the one whose
//! changes are exactly its entries.

use super::board::{Node, NODES};
use super::node_text::NodeText;
use super::resolve::Resolved;

/// One change: a node and the code of its content afterwards.
type Entry = (Node, u8);

/// The changed nodes from `placed` to `after`, in node order.
fn changes<B: NodeText>(placed: &B, after: &B) -> Vec<Entry> {
    (0..NODES as u8)
        .map(Node)
        .filter_map(|n| {
            let c = after.code(n);
            (c != placed.code(n)).then_some((n, c))
        })
        .collect()
}

/// Whether every entry is a change from `placed` to `after`.
fn makes<B: NodeText>(placed: &B, after: &B, entries: &[Entry]) -> bool {
    entries
        .iter()
        .all(|&(n, c)| after.code(n) == c && placed.code(n) != c)
}

fn write<B: NodeText>(after: &B, entries: &[Entry], looped: bool) -> String {
    let mut s = String::new();
    for &(n, _) in entries {
        s.push_str(&after.node_text(n));
        s.push_str(&n.to_string());
    }
    if s.is_empty() {
        s.push('-');
    }
    if looped {
        s.push_str(" loop");
    }
    s
}

/// The short form of every outcome of `outcomes` (the outcomes of the
/// board `placed`), in their order.
pub fn short_texts<B: NodeText>(placed: &B, outcomes: &[Resolved<B>]) -> Vec<String> {
    outcomes
        .iter()
        .map(|o| short_text(placed, outcomes, o))
        .collect()
}

/// The short form of outcome `o`, one of `outcomes` (the outcomes of the
/// board `placed`): one pass over them, so that a few outcomes of
/// thousands are named without naming them all.
pub fn short_text<B: NodeText>(placed: &B, outcomes: &[Resolved<B>], o: &Resolved<B>) -> String {
    let empty = B::EMPTY;
    let all = changes(placed, &o.board);
    let kept: Vec<Entry> = all
        .iter()
        .copied()
        .filter(|&(n, c)| c != empty.code(n))
        .collect();
    let naming = outcomes
        .iter()
        .filter(|x| x.looped == o.looped && makes(placed, &x.board, &kept))
        .take(2)
        .count();
    let entries = if naming == 1 { &kept } else { &all };
    write(&o.board, entries, o.looped)
}

/// The nodes outcome board `after` changed from `placed`, in node order:
/// each node's name and its content afterwards as position text writes
/// it (`.` emptied).
pub fn changed_nodes<B: NodeText>(placed: &B, after: &B) -> Vec<(String, String)> {
    changes(placed, after)
        .into_iter()
        .map(|(n, _)| (n.to_string(), after.node_text(n)))
        .collect()
}

/// Splits a short form into its entries, sorted by node, and whether it
/// names a loop; `None` if it is not a short form of board `B`.
fn entries<B: NodeText>(text: &str) -> Option<(Vec<Entry>, bool)> {
    let (body, looped) = match text.strip_suffix(" loop") {
        Some(b) => (b, true),
        None => (text, false),
    };
    let mut out: Vec<Entry> = Vec::new();
    if body != "-" {
        let mut rest = body;
        while !rest.is_empty() {
            let content_len = if rest.starts_with('[') {
                rest.find(']')? + 1
            } else {
                rest.chars().next()?.len_utf8()
            };
            let content = &rest[..content_len];
            rest = &rest[content_len..];
            let name_len = 1 + rest
                .get(1..)?
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let node = Node::parse(rest.get(..name_len)?)?;
            rest = &rest[name_len..];
            let mut board = B::EMPTY;
            if content != "." && !board.set_text(node, content) {
                return None;
            }
            out.push((node, board.code(node)));
        }
        if out.is_empty() {
            return None;
        }
    }
    out.sort_by_key(|e| e.0);
    if out.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    Some((out, looped))
}

/// The outcome of `outcomes` (the outcomes of `placed`) that the short form
/// `text` names, or why there is none.
pub fn parse_short<B: NodeText>(
    placed: &B,
    outcomes: &[Resolved<B>],
    text: &str,
) -> Result<Resolved<B>, String> {
    let (named, looped) = entries::<B>(text).ok_or_else(|| {
        format!("'{text}' is neither a nodes field nor a short outcome (e.g. 'XD4wC3', '-', '.D5 loop')")
    })?;
    let mut found = None;
    let mut exact = None;
    let mut count = 0;
    for o in outcomes
        .iter()
        .filter(|o| o.looped == looped && makes(placed, &o.board, &named))
    {
        count += 1;
        found = Some(*o);
        if changes(placed, &o.board).len() == named.len() {
            exact = Some(*o);
        }
    }
    match (count, exact) {
        (0, _) => Err(format!("no outcome here makes the changes '{text}'")),
        (1, _) => Ok(found.expect("one outcome counted")),
        (_, Some(o)) => Ok(o),
        (n, None) => Err(format!(
            "'{text}' names {n} outcomes here; name every changed node"
        )),
    }
}
