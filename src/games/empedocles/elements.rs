//! The four elements, their neighbour ranges, and the ordered pairing of
//! elements between the two players.

use gamut_core::game::{ParseError, Player};
use std::fmt;

/// The element a player's pieces are made of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// Fire `F`: king step, captures anything; survives 2–4 neighbours.
    Fire,
    /// Water `W`: chains through its own pieces, captures fire; 2–4.
    Water,
    /// Earth `E`: king step, hammer-and-anvil capture; 2–8.
    Earth,
    /// Air `A`: one or two king steps, captures earth; 1–3.
    Air,
}

impl Element {
    /// The four elements in the order fire, water, earth, air.
    pub const ALL: [Element; 4] = [Element::Fire, Element::Water, Element::Earth, Element::Air];

    /// The element's name in option and position text (`fire`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Earth => "earth",
            Element::Air => "air",
        }
    }

    /// The capital letter player 1's pieces are written with (`F`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Element::Fire => 'F',
            Element::Water => 'W',
            Element::Earth => 'E',
            Element::Air => 'A',
        }
    }

    /// The element written by a board letter of either case.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Element> {
        Element::ALL
            .into_iter()
            .find(|e| e.letter() == c.to_ascii_uppercase())
    }

    /// The inclusive range of neighbour counts a piece survives a
    /// transmutation with.
    #[must_use]
    pub const fn range(self) -> (u8, u8) {
        match self {
            Element::Fire | Element::Water => (2, 4),
            Element::Earth => (2, 8),
            Element::Air => (1, 3),
        }
    }

    /// 0..4 in the order of [`Element::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses an element name (`fire`, `water`, `earth`, `air`).
    pub fn parse(text: &str) -> Result<Element, ParseError> {
        Element::ALL
            .into_iter()
            .find(|e| e.name() == text)
            .ok_or_else(|| {
                ParseError::new(format!(
                    "unknown element '{text}' (fire, water, earth or air)"
                ))
            })
    }
}

/// Which element each player owns; the two differ (12 ordered pairings).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pairing([Element; 2]);

impl Pairing {
    /// The default pairing: player 1 fire, player 2 earth.
    pub const DEFAULT: Pairing = Pairing([Element::Fire, Element::Earth]);

    /// The pairing of `first` (player 1) and `second` (player 2), which must
    /// differ.
    pub fn new(first: Element, second: Element) -> Result<Pairing, ParseError> {
        if first == second {
            Err(ParseError::new(format!(
                "both players have {}: the two elements must differ",
                first.name()
            )))
        } else {
            Ok(Pairing([first, second]))
        }
    }

    /// All 12 ordered pairings.
    pub fn all() -> impl Iterator<Item = Pairing> {
        Element::ALL.into_iter().flat_map(|a| {
            Element::ALL
                .into_iter()
                .filter(move |&b| b != a)
                .map(move |b| Pairing([a, b]))
        })
    }

    /// The element of player `p`.
    #[must_use]
    pub const fn of(self, p: Player) -> Element {
        self.0[p.index()]
    }

    /// A number below 16, distinct per pairing (for hashing).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0[0].index() * 4 + self.0[1].index()
    }

    /// Parses `first,second` (`fire,earth`).
    pub fn parse(text: &str) -> Result<Pairing, ParseError> {
        let (a, b) = text.split_once(',').ok_or_else(|| {
            ParseError::new(format!(
                "elements '{text}' must be two element names separated by a comma (fire,earth)"
            ))
        })?;
        Pairing::new(Element::parse(a)?, Element::parse(b)?)
    }
}

impl fmt::Display for Pairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.0[0].name(), self.0[1].name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_pairings_parse_and_print() {
        let all: Vec<Pairing> = Pairing::all().collect();
        assert_eq!(all.len(), 12);
        for p in all {
            assert_eq!(Pairing::parse(&p.to_string()), Ok(p));
        }
        assert!(Pairing::parse("fire,fire").is_err());
        assert!(Pairing::parse("fire").is_err());
        assert!(Pairing::parse("fire,mud").is_err());
        assert!(Pairing::parse("fire,earth,air").is_err());
    }
}
