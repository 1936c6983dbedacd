//! The games, and the one place that lists them: [`GameId`], its ids
//! and the [`with_game!`](crate::with_game) dispatch are all generated from
//! the single `registry!` invocation below. Adding a game is one module and
//! one line there.

pub mod apart;
pub mod aporia;
pub mod empedocles;
pub mod epaminondas;
pub mod spokes;

use gamut_core::game::Game;
use gamut_core::tablebase::Tablebase;
use std::fmt;
use std::str::FromStr;

/// Generates [`GameId`] and `with_game!` from one list of
/// `Variant => module::Type` lines. `$d` is a literal `$`, which the
/// generated macro needs for its own metavariables.
macro_rules! registry {
    ($d:tt $( $(#[$doc:meta])* $variant:ident => $module:ident :: $ty:ident, )*) => {
        /// Which game: the ids used on the command line and in files.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum GameId {
            $( $(#[$doc])* $variant, )*
        }

        impl GameId {
            /// Every game, in the order the rules list them.
            pub const ALL: &'static [GameId] = &[$( GameId::$variant, )*];

            /// The id text (`epaminondas`): the game's [`Game::ID`].
            pub const fn name(self) -> &'static str {
                match self {
                    $( GameId::$variant => <$module::$ty as Game>::ID, )*
                }
            }
        }

        /// Runs `$body` with the type alias `$G` bound to the game type of
        /// `$id` (a [`GameId`](crate::GameId)).
        #[macro_export]
        macro_rules! with_game {
            ($d id:expr, $d G:ident => $d body:expr) => {
                match $d id {
                    $( $crate::GameId::$variant => {
                        type $d G = $crate::$module::$ty;
                        $d body
                    } )*
                }
            };
        }
    };
}

registry! {$
    /// Aporia: 4×4 nodes on four platforms.
    Aporia => aporia::Aporia,
    /// Apart (Kanare Kato): 8×8, lines jump their own length.
    Apart => apart::Apart,
    /// Empedocles' Stones: elements and a die.
    Empedocles => empedocles::Empedocles,
    /// Spokes: secret simultaneous placement on a polar board.
    Spokes => spokes::Spokes,
    /// Spokes for four players, each for themselves.
    Spokes4 => spokes::Spokes4,
    /// Spokes for four players in two teams of two.
    Spokes2v2 => spokes::Spokes2v2,
    /// Epaminondas (Robert Abbott): phalanxes on 14×12.
    Epaminondas => epaminondas::Epaminondas,
}

// After `registry!`, so that `with_game!` is in scope there.
pub mod data;

impl GameId {
    /// Every id text, comma-separated (`aporia, apart, …`).
    #[must_use]
    pub fn names() -> String {
        GameId::ALL
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameId {
    type Err = String;

    fn from_str(s: &str) -> Result<GameId, String> {
        GameId::ALL
            .iter()
            .copied()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("unknown game '{s}' (games: {})", GameId::names()))
    }
}

/// The solver and table of exact values of `id`, for a game small enough
/// to be solved outright (`gamut solve`); `None` for the others.
#[must_use]
pub fn tablebase(id: GameId) -> Option<&'static dyn Tablebase> {
    match id {
        GameId::Aporia => Some(&aporia::solve::AporiaTablebase),
        _ => None,
    }
}

/// [`tablebase`] of the game `G`.
pub fn tablebase_of<G: Game>() -> Option<&'static dyn Tablebase> {
    G::ID.parse().ok().and_then(tablebase)
}

#[cfg(test)]
mod tests {
    use super::GameId;
    use gamut_core::game::{Game, NodeKind, Notation};

    /// What every registered game's descriptor must satisfy.
    fn check_info<G: Notation>() {
        let info = G::INFO;
        assert!(!info.name.is_empty(), "{}", G::ID);
        assert!(info.sides.iter().all(|s| !s.is_empty()), "{}", G::ID);
        assert_ne!(info.sides[0], info.sides[1], "{}", G::ID);
        assert!(!info.bench.is_empty(), "{} has no bench position", G::ID);
        for case in info.bench {
            let pos = G::parse(case.position)
                .unwrap_or_else(|e| panic!("{}: bench '{}': {e}", G::ID, case.position));
            assert_eq!(pos.text(), case.position, "{}: not canonical", G::ID);
            assert_ne!(
                pos.node(),
                NodeKind::Terminal,
                "{}: bench '{}' is over: nothing to search",
                G::ID,
                case.position
            );
            assert!(case.perft_depth >= 1 && case.search_depth >= 1);
        }
        match info.setup {
            Some(_) => assert_eq!(G::start_with("no such setup").ok(), None),
            None => {
                let e = G::start_with("x").expect_err("no setup options");
                assert!(e.0.contains("no setup options"), "{}: {e}", G::ID);
            }
        }
    }

    #[test]
    fn every_game_describes_itself() {
        for &id in GameId::ALL {
            with_game!(id, G => check_info::<G>());
            assert_eq!(id.name().parse::<GameId>(), Ok(id));
        }
        assert_eq!(
            GameId::names(),
            "aporia, apart, empedocles, spokes, spokes4, spokes2v2, epaminondas"
        );
    }

    #[test]
    fn ply_limits_are_the_rules_defaults() {
        let limits: Vec<(&str, u32)> = GameId::ALL
            .iter()
            .map(|&id| (id.name(), with_game!(id, G => G::INFO.ply_limit)))
            .collect();
        assert_eq!(
            limits,
            [
                ("aporia", 500),
                ("apart", 1000),
                ("empedocles", 1000),
                ("spokes", 1000),
                ("spokes4", 1000),
                ("spokes2v2", 1000),
                ("epaminondas", 1000)
            ]
        );
    }

    #[test]
    fn an_unknown_id_names_every_game() {
        let e = "chess".parse::<GameId>().unwrap_err();
        assert_eq!(
            e,
            "unknown game 'chess' (games: aporia, apart, empedocles, spokes, spokes4, spokes2v2, epaminondas)"
        );
    }
}
