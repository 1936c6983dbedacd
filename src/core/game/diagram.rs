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
    /// The score (for the side to move, in the default evaluation's unit)
    /// at which the side to move wins about three games in four: the scale
    /// of the logistic curve that turns scores into win probabilities for
    /// people.
    const SCORE_SCALE: f64 = 200.0;

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
    /// squares of a lettered grid named in the move's text, in order
    /// (`b1-d3` gives `b1`, `d3`; `c4xc6` gives `c4`, `c6`; `@d3` gives `d3`).
    fn move_squares(&self, m: Self::Move) -> Vec<String> {
        grid_squares(&self.move_text(m))
    }

    /// Squares other than the first of [`move_squares`](Diagram::move_squares)
    /// from which a person may begin to enter move `m` on a page (the
    /// other stones of an Epaminondas phalanx: a click on any of them
    /// stands for its rear one). None by default.
    fn move_also_from(&self, m: Self::Move) -> Vec<String> {
        let _ = m;
        Vec::new()
    }

    /// The short texts ([`Notation::short_move_text`]) of `moves`, in
    /// order; a game whose short forms are found together (Spokes'
    /// outcomes) writes them all at once. `all` is every move of this
    /// position as the caller listed them, or empty if it did not (the
    /// game then lists them where it needs them).
    fn short_move_texts(&self, moves: &[Self::Move], _all: &[Self::Move]) -> Vec<String> {
        moves.iter().map(|&m| self.short_move_text(m)).collect()
    }

    /// What move `m` changes on the board here, for a page that lets a
    /// person choose among many moves not made on the board (Spokes'
    /// resolution outcomes) node by node: each changed square, named as
    /// [`svg`](Diagram::svg) names it, with its content afterwards as the
    /// position text writes it, in square order. Empty by default.
    fn move_changes(&self, m: Self::Move) -> Vec<(String, String)> {
        let _ = m;
        Vec::new()
    }

    /// Chance outcome `m` here as the rules name it for people, with what
    /// it does (Empedocles' `T`: `transmutation, then one action (1–2)`,
    /// and what a transmutation removes), for a page's button and its
    /// tooltip. `None` by default: the outcome's text names it.
    fn outcome_words(&self, m: Self::Move) -> Option<(String, String)> {
        let _ = m;
        None
    }

    /// What chance outcome `m`, played here, did to the board, in words,
    /// `after` being the position it led to (Empedocles' transmutation:
    /// which pieces died, or that none did), for a page to say after a
    /// roll. `None` by default, and for an outcome that changes nothing
    /// on the board by itself.
    fn outcome_effect(&self, m: Self::Move, after: &Self) -> Option<String> {
        let _ = (m, after);
        None
    }

    /// Each side's colour as [`svg`](Diagram::svg) draws it (a CSS
    /// colour), in side order, for a page to name whose turn it is; empty
    /// where the sides own no colour. By default the first side's stones
    /// are white and the second's black.
    fn side_colours(&self) -> Vec<String> {
        vec!["#f4f1e8".into(), "#1c1c1c".into()]
    }
}

/// The squares of a lettered grid (a lower-case letter, then digits)
/// named in a move's text, in order, whatever separates them (`-`, `x`
/// before a capture, `@`): what [`Diagram::move_squares`] gives by default.
#[must_use]
pub fn grid_squares(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if bytes[i].is_ascii_lowercase() && digits > 0 {
            squares.push(text[i..i + 1 + digits].to_string());
            i += 1 + digits;
        } else {
            i += 1;
        }
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::grid_squares;

    #[test]
    fn grid_squares_reads_steps_captures_and_placements() {
        assert_eq!(grid_squares("b1-d3"), ["b1", "d3"]);
        assert_eq!(grid_squares("i2xn7"), ["i2", "n7"]);
        assert_eq!(
            grid_squares("b8-b6-d8-d6xf4"),
            ["b8", "b6", "d8", "d6", "f4"]
        );
        assert_eq!(grid_squares("f7xd5"), ["f7", "d5"]);
        assert_eq!(grid_squares("@d3"), ["d3"]);
        assert_eq!(grid_squares("a12-n12"), ["a12", "n12"]);
        assert!(grid_squares("pass").is_empty());
        assert!(grid_squares("T").is_empty());
    }
}
