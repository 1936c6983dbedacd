//! The five games, and the one place that maps a game id to its type.

pub mod apart;
pub mod aporia;
pub mod empedocles;
pub mod epaminondas;
pub mod spokes;

use std::fmt;
use std::str::FromStr;

/// Which game: the ids used on the command line and in files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Aporia: 4×4 nodes on four platforms.
    Aporia,
    /// Apart (Kanare Kato): 8×8, lines jump their own length.
    Apart,
    /// Empedocles' Stones: elements and a die.
    Empedocles,
    /// Spokes: secret simultaneous placement on a polar board.
    Spokes,
    /// Epaminondas (Robert Abbott): phalanxes on 14×12.
    Epaminondas,
}

impl GameId {
    /// Every game, in the order the rules list them.
    pub const ALL: [GameId; 5] = [
        GameId::Aporia,
        GameId::Apart,
        GameId::Empedocles,
        GameId::Spokes,
        GameId::Epaminondas,
    ];

    /// The id text (`epaminondas`).
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Aporia => "aporia",
            GameId::Apart => "apart",
            GameId::Empedocles => "empedocles",
            GameId::Spokes => "spokes",
            GameId::Epaminondas => "epaminondas",
        }
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
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown game '{s}' (games: aporia, apart, empedocles, spokes, epaminondas)"
                )
            })
    }
}

/// The tablebase of a game small enough to be solved outright.
pub fn tablebase(id: GameId) -> Option<&'static dyn crate::tablebase::Tablebase> {
    match id {
        GameId::Aporia => Some(&aporia::solve::AporiaTablebase),
        _ => None,
    }
}

/// Runs `$body` with the type alias `$G` bound to the game type of `$id`
/// (a [`GameId`]); games not implemented yet give `$unimplemented`, an
/// expression that may use the id.
#[macro_export]
macro_rules! with_game {
    ($id:expr, $G:ident => $body:expr, unimplemented => $unimpl:expr) => {
        match $id {
            $crate::games::GameId::Epaminondas => {
                type $G = $crate::games::epaminondas::Epaminondas;
                $body
            }
            $crate::games::GameId::Aporia => {
                type $G = $crate::games::aporia::Aporia;
                $body
            }
            $crate::games::GameId::Apart => {
                type $G = $crate::games::apart::Apart;
                $body
            }
            $crate::games::GameId::Empedocles => {
                type $G = $crate::games::empedocles::Empedocles;
                $body
            }
            $crate::games::GameId::Spokes => {
                type $G = $crate::games::spokes::Spokes;
                $body
            }
        }
    };
}
