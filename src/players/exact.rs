//! A table of exact values (`gamut solve`) that an engine plays from
//! where it knows the position.

use gamut_core::game::{Game, Notation, ParseError};
use gamut_core::tablebase::{Oracle, Value};
use gamut_search::score::WIN;
use rand::rngs::StdRng;
use rand::Rng;
use std::sync::Arc;

/// A loaded table of exact values (`gamut solve`), shared by every game
/// of an engine.
#[derive(Clone)]
pub struct ExactTable(pub Arc<dyn Oracle>);

impl std::fmt::Debug for ExactTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExactTable")
    }
}

impl PartialEq for ExactTable {
    fn eq(&self, other: &ExactTable) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl ExactTable {
    /// The table of game `G` at `path`, or at its default location: a
    /// spec's `table=<file>` or bare `table`.
    pub fn open<G: Game>(path: Option<&std::path::Path>) -> Result<ExactTable, ParseError> {
        let missing = || {
            ParseError::new(format!(
                "no table of exact values for {} (make one with gamut solve {})",
                G::ID,
                G::ID
            ))
        };
        let Some(tb) = gamut_games::tablebase_of::<G>() else {
            return Err(match path {
                Some(_) => ParseError::new(format!("no solver for {}", G::ID)),
                None => missing(),
            });
        };
        let path = gamut_core::tablebase::locate(tb.game(), path).ok_or_else(missing)?;
        Ok(ExactTable(tb.open(&path).map_err(ParseError)?.into()))
    }

    /// A move keeping the exact value of decision node `pos`, chosen among
    /// all such moves by `rng`, with its score for the side to move; `None`
    /// if the table does not know the position.
    pub(crate) fn choose<G: Notation>(&self, pos: &G, rng: &mut StdRng) -> Option<(G::Move, i32)> {
        let probe = self.0.probe(&pos.text()).ok()?;
        let text = probe.best.get(rng.gen_range(0..probe.best.len().max(1)))?;
        let mv = pos.parse_move(text).ok()?;
        let score = match probe.value {
            Value::Win(n) => WIN - n as i32,
            Value::Loss(n) => -(WIN - n as i32),
            Value::Draw => 0,
        };
        Some((mv, score))
    }
}
