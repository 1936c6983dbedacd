//! `gamut analyze`: iterative-deepening search with one line per iteration.

use super::args::{AnalyzeArgs, SearchArgs};
use super::commands::position;
use super::CliError;
use gamut::game::{Evaluate, Game, NodeKind, TermMask};
use gamut::search::score::Score;
use gamut::search::{self, Config, Iteration, Limits, Parallel, Table};
use std::io::Write;
use std::time::Duration;

/// The search configuration and limits the options ask for.
pub fn search_setup<G: Evaluate>(a: &SearchArgs) -> Result<(Config, Limits), CliError> {
    let mut config = Config::for_game::<G>(a.threads as usize);
    config.parallel = if a.parallel == "rootsplit" {
        Parallel::RootSplit
    } else {
        Parallel::LazySmp
    };
    config.quiescence &= !a.no_quiescence;
    config.aspiration = !a.no_aspiration;
    if let Some(list) = &a.eval_off {
        let mut mask = TermMask::ALL;
        for name in list.split(',') {
            let i = G::TERMS.iter().position(|t| *t == name).ok_or_else(|| {
                CliError(format!(
                    "unknown evaluation term '{name}' for {} (terms: {})",
                    G::ID,
                    G::TERMS.join(", ")
                ))
            })?;
            mask = mask.without(i);
        }
        config.terms = mask;
    }
    if let Some(list) = &a.ordering_off {
        for name in list.split(',') {
            let o = &mut config.ordering;
            match name {
                "tt" => o.tt_move = false,
                "captures" => o.captures = false,
                "killers" => o.killers = false,
                "history" => o.history = false,
                _ => {
                    return Err(CliError(format!(
                        "unknown ordering heuristic '{name}' (tt, captures, killers, history)"
                    )))
                }
            }
        }
    }
    let limits = Limits {
        depth: a.depth,
        time: a.time.map(Duration::from_millis),
        nodes: a.nodes,
    };
    Ok((config, limits))
}

/// The texts of a principal variation from `pos`.
pub fn pv_texts<G: Game>(pos: &G, pv: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        out.push(p.move_text(m));
        p = p.play(m);
    }
    out
}

fn json_string(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn iteration_line<G: Game>(pos: &G, it: &Iteration<G::Move>, json: bool) -> String {
    let ms = it.time.as_millis();
    let nps = (it.nodes as f64 / it.time.as_secs_f64().max(1e-6)) as u64;
    let pv = pv_texts(pos, &it.pv);
    let score = Score(it.score);
    if json {
        let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
        let end = match score.plies_to_end() {
            Some(n) => n.to_string(),
            None => "null".into(),
        };
        format!(
            "{{\"depth\":{},\"score\":{},\"score_text\":{},\"plies_to_end\":{end},\"nodes\":{},\"nps\":{nps},\"hashfull\":{},\"time_ms\":{ms},\"pv\":[{}]}}",
            it.depth,
            it.score,
            json_string(&score.to_string()),
            it.nodes,
            it.hashfull,
            pv.join(",")
        )
    } else {
        format!(
            "depth {} score {score} nodes {} nps {nps} hashfull {} time {ms} pv {}",
            it.depth,
            it.nodes,
            it.hashfull,
            pv.join(" ")
        )
    }
}

/// Runs `gamut analyze`.
pub fn analyze<G: Evaluate>(a: &AnalyzeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let s = &a.search;
    if s.depth.is_none() && s.time.is_none() && s.nodes.is_none() {
        return Err(CliError("analyze needs --depth, --time or --nodes".into()));
    }
    let (config, limits) = search_setup::<G>(s)?;
    match pos.node() {
        NodeKind::Terminal => {
            let o = pos.outcome().map(|o| o.to_string()).unwrap_or_default();
            return Err(CliError(format!(
                "the game is over ({o}): nothing to search"
            )));
        }
        NodeKind::Decision(_) => {}
        _ => {
            return Err(CliError(format!(
                "analyze at this kind of node is not supported for {} yet",
                G::ID
            )))
        }
    }
    let tt = Table::new(s.hash as usize);
    let mut io_err = None;
    let result = search::search(&pos, &limits, &config, &tt, |it| {
        let line = iteration_line(&pos, it, a.json);
        if let Err(e) = writeln!(out, "{line}") {
            io_err = Some(e);
        }
    });
    if let Some(e) = io_err {
        return Err(e.into());
    }
    let best = pos.move_text(result.best);
    if a.json {
        writeln!(
            out,
            "{{\"bestmove\":{},\"score\":{},\"depth\":{},\"nodes\":{}}}",
            json_string(&best),
            result.score,
            result.depth,
            result.nodes
        )?;
    } else {
        writeln!(out, "bestmove {best}")?;
    }
    Ok(())
}
