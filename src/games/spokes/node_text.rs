//! A board as position text writes it, node by node: the trait both
//! boards implement, and the two-player board's implementation.

use super::board::{Board, Content, Node};

/// A board as position text writes it, one node at a time: the two-player
/// board, or the four-player board with its crowded nodes in brackets.
pub trait NodeText: Copy {
    /// The board without stones.
    const EMPTY: Self;
    /// Whether a node's content may be written in brackets (`[Xw]`).
    const BRACKETS: bool;
    /// The text of node `n`'s content: `.` when empty.
    fn node_text(&self, n: Node) -> String;
    /// Whether node `n` is empty.
    fn is_empty_at(&self, n: Node) -> bool;
    /// A number for node `n`'s content, different for different contents.
    fn code(&self, n: Node) -> u8;
    /// Puts the content written `token` (one character, or a bracket) on
    /// the empty node `n`; false if no content is written so.
    fn set_text(&mut self, n: Node, token: &str) -> bool;
}

impl NodeText for Board {
    const EMPTY: Board = Board::EMPTY;
    const BRACKETS: bool = false;

    fn node_text(&self, n: Node) -> String {
        self.content(n).char().to_string()
    }

    fn is_empty_at(&self, n: Node) -> bool {
        !self.occupied().has(n)
    }

    fn code(&self, n: Node) -> u8 {
        self.content(n).char() as u8
    }

    fn set_text(&mut self, n: Node, token: &str) -> bool {
        let mut chars = token.chars();
        match (chars.next().and_then(Content::from_char), chars.next()) {
            (Some(content), None) => {
                self.set(n, content);
                true
            }
            _ => false,
        }
    }
}
