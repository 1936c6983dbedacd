//! How a game writes and reads its positions and moves: the text the
//! command line, the engine protocol, record files and people use.
//!
//! The rules ([`Game`]) know nothing of text, so perft and the searchers
//! need none; everything that reads or prints a position or a move
//! asks for [`Notation`] as well.

use super::{Game, NodeKind, ParseError, Player};
use crate::game::NodeRules;

/// A game's notation: its position text and move text, both canonical
/// (one text per position or move, which parsing reads back), and the
/// setup text of its start position (see the game's rules document).
pub trait Notation: Game {
    /// Parses position text strictly (see the game's rules document).
    fn parse(text: &str) -> Result<Self, ParseError>;

    /// The canonical position text; `parse(&p.text()) == Ok(p)`.
    fn text(&self) -> String;

    /// The initial position chosen by `setup` text (`gamut --setup`), in the
    /// form [`GameInfo::setup`](super::GameInfo::setup) describes. A game without setup options
    /// keeps this default, which rejects every text.
    fn start_with(setup: &str) -> Result<Self, ParseError> {
        Err(ParseError::new(format!(
            "the start position has no setup options, so '{setup}' does not apply"
        )))
    }

    /// Every setup text [`start_with`](Notation::start_with) takes, one per
    /// choice of the start position's options (Empedocles' twelve element
    /// pairings), for surveys of them all (`gamut balance`); empty for a
    /// game without setup options.
    #[must_use]
    fn setups() -> Vec<String> {
        Vec::new()
    }

    /// The canonical text of move (or chance outcome, or action) `m` here.
    fn move_text(&self, m: Self::Move) -> String;

    /// A short text of move `m` for people, which
    /// [`parse_move`](Notation::parse_move) reads back to `m`: the canonical
    /// text unless the game has a shorter form.
    fn short_move_text(&self, m: Self::Move) -> String {
        self.move_text(m)
    }

    /// Parses a move's text: accepts exactly the canonical texts of the
    /// legal moves here (or, at a simultaneous node, of the actions of
    /// either player).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        let mut v = Vec::new();
        match self.node() {
            NodeKind::Simultaneous => {
                self.actions(Player::FIRST, &mut v);
                let mut w = Vec::new();
                self.actions(Player::SECOND, &mut w);
                v.extend(w);
            }
            _ => self.moves(&mut v),
        }
        v.into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a legal move here")))
    }

    /// [`parse_move`](Notation::parse_move) with the caller's scratch space, so
    /// that parsing every move of one node works out the node's moves once.
    fn parse_move_with(
        &self,
        text: &str,
        _scratch: &mut Self::Scratch,
    ) -> Result<Self::Move, ParseError> {
        self.parse_move(text)
    }

    /// The text of a joint action (`wD12,bB3`).
    fn joint_text(&self, first: Self::Move, second: Self::Move) -> String {
        format!("{},{}", self.move_text(first), self.move_text(second))
    }

    /// The text of a joint action of any number of players, in player
    /// order (`wD12,bB3,wC1,bA`).
    fn joint_text_all(&self, actions: &[Self::Move]) -> String {
        let texts: Vec<String> = actions.iter().map(|&m| self.move_text(m)).collect();
        texts.join(",")
    }
}
