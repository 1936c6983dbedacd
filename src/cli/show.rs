//! `gamut show`: a position's diagram, state, text and hash, with its
//! picture and its solved value where asked.

use super::args::{base_position, position, PositionArgs};
use super::{solve, CliError};
use clap::Args;
use gamut_core::paths::check_outputs;
use gamut_core::svg::SvgOptions;
use gamut_engine::Position;
use std::io::Write;

/// Options of `gamut show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Also write an SVG picture of the board to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Print the position's exact value from this table (default: the
    /// game's table in the data directory, when it exists).
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// Play this move too and mark it in the picture (the last of --moves
    /// is marked without it).
    #[arg(
        long,
        value_name = "MOVE",
        allow_hyphen_values = true,
        requires = "svg"
    )]
    pub last_move: Option<String>,
    /// The picture's width in pixels.
    #[arg(long, value_name = "PX", default_value_t = 480, requires = "svg",
          value_parser = clap::value_parser!(u32).range(64..=8192))]
    pub size: u32,
    /// Leave the file and rank (or node) names out of the picture.
    #[arg(long, requires = "svg")]
    pub no_coordinates: bool,
}

/// Runs `gamut show`: the picture is written only after everything that
/// can fail, and never over the table it reads.
pub fn show(a: &ShowArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (pos, before) = show_positions(a)?;
    if let Some(svg) = &a.svg {
        let table = gamut_games::tablebase(a.position.game)
            .and_then(|tb| gamut_core::tablebase::locate(tb.game(), a.table.as_deref()));
        let inputs: Vec<(&str, &std::path::Path)> =
            table.iter().map(|t| ("--table", t.as_path())).collect();
        check_outputs(&inputs, &[("--svg", svg)])?;
    }
    // Everything that can fail comes before anything is written.
    let value = solve::table_value(a.table.as_deref(), &pos)?;
    if let Some(path) = &a.svg {
        let opts = SvgOptions {
            size: a.size,
            coordinates: !a.no_coordinates,
        };
        std::fs::write(path, pos.svg(&opts, before.as_ref()))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    write!(out, "{}", show_text(&pos))?;
    if let Some(line) = value {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The position `show` draws and the one before its last move: the move
/// of `--last-move`, else the last of `--moves`; `None` without either.
fn show_positions(a: &ShowArgs) -> Result<(Position, Option<Position>), CliError> {
    let pos = position(&a.position)?;
    if let Some(last) = &a.last_move {
        let after = pos.play_moves(last, "--last-move")?;
        return Ok((after, Some(pos)));
    }
    let before = match a.position.moves.as_deref().and_then(|m| m.rsplit_once(';')) {
        Some((earlier, _)) => Some(base_position(&a.position)?.play_moves(earlier, "--moves")?),
        None if a.position.moves.is_some() => Some(base_position(&a.position)?),
        None => None,
    };
    Ok((pos, before))
}

/// What `show` prints for a position: its diagram, state, text and hash.
pub fn show_text(pos: &Position) -> String {
    format!(
        "{}state    {}\nposition {}\nhash     {:016x}\n",
        pos.diagram(),
        pos.state_text(),
        pos.text(),
        pos.hash()
    )
}
