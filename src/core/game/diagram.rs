//! How a game draws its positions for people: a text diagram for the
//! terminal, an SVG picture for pages and the browser, and the squares of
//! that picture a move is made on.
//!
//! Neither the rules ([`Game`](super::Game)) nor the searchers draw anything; the
//! command line, tournament pages and the browser ask for [`Diagram`].

use super::Notation;

/// A game's pictures of its positions. Built on its [`Notation`]: a
/// picture's squares are named as the move texts name them.
pub trait Diagram: Notation {
    /// A readable diagram of the position for `gamut show`.
    fn diagram(&self) -> String;

    /// An SVG picture of the position (`gamut show --svg`), drawn as
    /// `opts` says; `before`, the position before the last move, marks
    /// what that move changed. See [`crate::svg`].
    fn svg(&self, opts: &crate::svg::SvgOptions, before: Option<&Self>) -> String;

    /// The squares (as [`svg`](Diagram::svg) names them in `data-square`) a person
    /// clicks to make move or action `m` here, in order: where it starts,
    /// then each square it goes to. Empty for a move not made on the board
    /// (a die's outcome), which a page lists instead. By default the
    /// tokens of the move's text that name a grid square (`b1-d3` gives
    /// `b1`, `d3`; `@d3` gives `d3`).
    fn move_squares(&self, m: Self::Move) -> Vec<String> {
        grid_squares(&self.move_text(m))
    }
}

/// The tokens of a move's text that name a square of a lettered grid (a
/// lower-case letter, then digits), in order: what
/// [`Diagram::move_squares`] gives by default.
pub fn grid_squares(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| {
            let mut chars = t.chars();
            chars.next().is_some_and(|c| c.is_ascii_lowercase())
                && t.len() >= 2
                && t[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}
