//! Training data for tuning evaluation weights: every decision position of
//! recorded tournament games, with the game's result and each evaluation
//! term's value, both from the side to move's point of view.
//!
//! usage: `cargo run --release -p gamut-eval-terms -- <records.jsonl>...
//! [--skip N]` writes tab-separated lines to standard output: a header
//! (`result` and the game's term names), then per position the result (1
//! win, 0.5 draw, 0 loss for the side to move) and the value of each term
//! alone (`evaluate` with only that term on). `--skip N` leaves out each
//! game's first N positions (default 0). `tools/texel-fit.py` fits weights
//! to the lines.

use gamut_core::evaluate::{FullGame, TermMask};
use gamut_core::game::NodeKind;
use gamut_games::with_game;
use gamut_games::GameId;
use gamut_players::record::{Adjudication, GameRecord};
use gamut_tournament::records;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut files = Vec::new();
    let mut skip = 0usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--skip" {
            match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => skip = n,
                None => return fail("--skip needs a number"),
            }
        } else {
            files.push(PathBuf::from(a));
        }
    }
    if files.is_empty() {
        return fail("usage: eval_terms <records.jsonl>... [--skip N]");
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let mut header: Option<String> = None;
    for path in &files {
        let lines = match records::read(path) {
            Ok(l) => l,
            Err(e) => return fail(&e.to_string()),
        };
        for (_, rec) in &lines {
            let id: GameId = match rec.game.parse() {
                Ok(id) => id,
                Err(e) => return fail(&e),
            };
            let written = with_game!(id, G => write_game::<G>(rec, skip, &mut header, &mut out));
            if let Err(e) = written {
                return fail(&e);
            }
        }
    }
    if let Err(e) = out.flush() {
        return fail(&e.to_string());
    }
    ExitCode::SUCCESS
}

/// Writes one game's positions (and the header before the first game's).
fn write_game<G: FullGame>(
    rec: &GameRecord,
    skip: usize,
    header: &mut Option<String>,
    out: &mut impl Write,
) -> Result<(), String> {
    let head = format!("result\t{}", G::TERMS.join("\t"));
    match header {
        Some(h) if *h != head => return Err(format!("game {}: records mix games", rec.number)),
        Some(_) => {}
        None => {
            writeln!(out, "{head}").map_err(|e| e.to_string())?;
            *header = Some(head);
        }
    }
    // A forfeit or a game saved before its end says nothing of the positions.
    if matches!(
        Adjudication::from_reason(&rec.reason),
        Some(Adjudication::Unfinished | Adjudication::Forfeit)
    ) {
        return Ok(());
    }
    let steps = records::replay(rec).map_err(|e| e.to_string())?;
    for (_, pos) in steps.iter().skip(skip) {
        let pos: &G = pos.typed().expect("a position of the record's game");
        let NodeKind::Decision(side) = pos.node() else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let result = match rec.winner {
            None => 0.5,
            Some(w) if usize::from(w) == side.index() + 1 => 1.0,
            Some(_) => 0.0,
        };
        write!(out, "{result}").map_err(|e| e.to_string())?;
        for i in 0..G::TERMS.len() {
            write!(out, "\t{}", pos.evaluate(TermMask(1 << i))).map_err(|e| e.to_string())?;
        }
        writeln!(out).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("{msg}");
    ExitCode::from(2)
}
